/**
 * Plans the offline backbone chose confidently and wrongly on WTQ-like tables (docs/OFFLINE-BACKBONE.md,
 * "Confident wrong plans"): "is A listed above or below B?" and "did A sail before or after B?" ask for the two
 * rows' order in the question's own words, not for the row next to A; "is A's speed above or below 15 knots?" compares
 * A's value with the number; "higher or lower" is answered "higher".
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables } from "./fixtures.js";

const tables: RawTable[] = [
  {
    // Listed by name, not by date: "before or after" reads the dates.
    id: "ferries",
    file: "ferries.csv",
    header: ["Ferry", "Route", "First sailing", "Speed (knots)"],
    rows: [
      ["Alba Star", "Oban – Mull", "1998", "16"],
      ["Bressay Queen", "Lerwick – Bressay", "1975", "11"],
      ["Coral Isle", "Ullapool – Stornoway", "2012", "19"],
      ["Dunmore Lady", "Largs – Cumbrae", "1987", "12"],
    ],
  },
  {
    // A club's league table: no date, the table's order is the finishing order.
    id: "league",
    file: "league.csv",
    header: ["Pos", "Club", "Played", "Points"],
    rows: [
      ["1", "Harbour Rovers", "30", "66"],
      ["2", "Kelp Town", "30", "61"],
      ["3", "Saltmarsh United", "30", "52"],
      ["4", "Quayside Athletic", "30", "47"],
    ],
  },
  {
    id: "islands",
    file: "islands.csv",
    header: ["Island", "Area (km2)", "Population"],
    rows: [
      ["Mull", "875", "2990"],
      ["Islay", "620", "3228"],
      ["Skye", "1656", "10008"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());
const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("the order of two named rows, in the question's words", () => {
  it("is one club listed above or below another: the table's order, not the row after", () => {
    expect(answer("is quayside athletic listed above or below kelp town?", "league")).toEqual(["below"]);
    expect(answer("did harbour rovers finish above or below saltmarsh united?", "league")).toEqual(["above"]);
  });

  it("before or after reads the date column, whatever the table's order", () => {
    expect(answer("did the coral isle start sailing before or after the dunmore lady?", "ferries")).toEqual(["after"]);
    expect(answer("was the bressay queen first sailing before or after the alba star?", "ferries")).toEqual(["before"]);
  });

  it("a value above or below a number: the value read (or the rows counted), then compared", () => {
    expect(answer("is the alba star's speed above or below 15 knots?", "ferries")).toEqual(["above"]);
    expect(answer("are there more or less than 5 ferries?", "ferries")).toEqual(["less"]);
    expect(answer("did skye have more or less than 9000 people in population?", "islands")).toEqual(["more"]);
    // A place is above when its number is smaller.
    expect(answer("was saltmarsh united's pos above or below 2nd?", "league")).toEqual(["below"]);
  });

  it("higher or lower is answered higher or lower", () => {
    expect(answer("is the population of skye higher or lower than islay?", "islands")).toEqual(["higher"]);
  });
});
