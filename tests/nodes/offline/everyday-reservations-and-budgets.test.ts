/**
 * A guest house, a household budget and a share portfolio, asked as their owners would: "who reserved …?" asks for
 * the guest, not the reservation code its verb spells; "did Ines cancel?" reads the Cancelled status; "what was
 * sown in plot 3?" asks for the crop, not the Sown date; "within budget" compares two columns, "how much over budget was food?" subtracts them; a Budget of round
 * amounts is summed, not taken for the rows' own numbers; what was spent is the Actual; what was paid for shares is
 * their Purchase price; a salesperson is a column of people; "who worked on Kite?" names everyone who did.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "stays",
    file: "stays.csv",
    header: ["Reservation", "Guest", "Room", "Arrival", "Nightly rate", "Status"],
    rows: [
      ["R-11", "Ines Moreau", "Garden", "2026-08-01", "95", "Cancelled"],
      ["R-12", "Kofi Mensah", "Loft", "2026-08-03", "180", "Confirmed"],
      ["R-13", "Ada Brandt", "Garden", "2026-08-09", "95", "Confirmed"],
      ["R-14", "Kofi Mensah", "Attic", "2026-08-15", "70", "Confirmed"],
    ],
  },
  {
    id: "plots",
    file: "plots.csv",
    header: ["Plot", "Crop", "Sown", "Area m2"],
    rows: [
      ["Plot 1", "Leeks", "2026-03-02", "12"],
      ["Plot 2", "Beans", "2026-04-19", "8"],
      ["Plot 3", "Carrots", "2026-03-27", "10"],
    ],
  },
  {
    id: "household",
    file: "household.csv",
    header: ["Item", "Budget", "Actual"],
    rows: [
      ["Mortgage", "900", "900"],
      ["Food", "380", "431"],
      ["Fuel", "160", "122"],
      ["Phone", "40", "38"],
      ["Holidays", "250", "310"],
    ],
  },
  {
    id: "shares",
    file: "shares.csv",
    header: ["Company", "Units", "Purchase price", "Latest price"],
    rows: [
      ["Harbour Rail", "150", "22.4", "25.1"],
      ["Tallow Foods", "90", "41.0", "37.5"],
      ["Vireo Health", "40", "63.2", "70.8"],
      ["Quill Media", "300", "8.9", "7.2"],
    ],
  },
  {
    id: "pipeline",
    file: "pipeline.csv",
    header: ["Opportunity", "Account", "Owner", "Value"],
    rows: [
      ["Roof repair", "Penrose Ltd", "Hana", "4200"],
      ["Kitchen refit", "Penrose Ltd", "Olu", "9100"],
      ["Boiler swap", "Dunmore", "Hana", "2600"],
      ["Loft insulation", "Achill Homes", "Hana", "1800"],
      ["New windows", "Dunmore", "Olu", "5300"],
    ],
  },
  {
    id: "hours",
    file: "hours.csv",
    header: ["Date", "Person", "Project", "Hours"],
    rows: [
      ["2026-11-02", "Rosa Lind", "Kite", "6"],
      ["2026-11-02", "Tariq Amin", "Lantern", "8"],
      ["2026-11-03", "Noel Grey", "Kite", "4"],
      ["2026-11-04", "Rosa Lind", "Lantern", "5"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());

const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("everyday questions over reservations, budgets and shares", () => {
  it("answers a who-question with the column of people, not the codes its verb spells", () => {
    expect(answer("Who reserved the most expensive room?", "stays")).toEqual(["Kofi Mensah"]);
  });
  it("reads a did-question's base verb as the status it doubles into", () => {
    expect(answer("Did Ines Moreau cancel?", "stays")).toEqual(["yes"]);
    expect(answer("Did Ada Brandt cancel her reservation?", "stays")).toEqual(["no"]);
  });
  it("asks what was sown for the crop, not the Sown date", () => {
    expect(answer("What was sown in Plot 3?", "plots")).toEqual(["Carrots"]);
  });
  it("compares the spending with the budget, and sums the budget's round amounts", () => {
    expect(answer("How many items stayed within budget?", "household")).toEqual(["3"]);
    expect(answer("What is the total budget?", "household")).toEqual(["1730"]);
    expect(answer("How much did we spend on food?", "household")).toEqual(["431"]);
  });
  it("says by how much a named item went over or stayed under its budget", () => {
    expect(answer("How much over budget was food?", "household")).toEqual(["51"]);
    expect(answer("How much under budget was fuel?", "household")).toEqual(["38"]);
  });
  it("answers what was paid from the purchase price, and compares one price with the other", () => {
    expect(answer("What did I pay for Vireo Health shares?", "shares")).toEqual(["63.2"]);
    expect(answer("Which companies trade below their purchase price?", "shares")).toEqual([
      "Tallow Foods",
      "Quill Media",
    ]);
  });
  it("takes a salesperson for the column of people", () => {
    expect(answer("Which salesperson has the most opportunities?", "pipeline")).toEqual(["Hana"]);
  });
  it("names everyone who worked on a project, not the first", () => {
    expect(answer("Who worked on Kite?", "hours")).toEqual(["Rosa Lind", "Noel Grey"]);
  });
});
