/**
 * A guest list, a running log, tenants and a garden, asked as people ask them: "who hasn't checked in?" and "who
 * is sitting at table 2?" (everyone, not the first); "what table is Ana at?" of a "Table #" column; "on what date
 * did I run the farthest?" (by the distance); "how many kilometres did I run in total?" of "Distance (km)"; "how
 * much rent do we collect each month?" (all of it); "which tenants have never been late?" of a "Late Payments"
 * tally; and "how many plants in bed 1" counts the rows, two tomatoes of a bed being two plants.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "guests",
    file: "guests.csv",
    header: ["Name", "Ticket Type", "Paid", "Checked In", "Table #"],
    rows: [
      ["Ana Silva", "VIP", "$120", "Yes", "3"],
      ["Omar Haddad", "General", "$60", "No", "2"],
      ["Lucy Chen", "Student", "$35", "Yes", "2"],
      ["Tariq Khan", "General", "$60", "No", "1"],
      ["Nina Berg", "General", "$60", "Yes", "2"],
    ],
  },
  {
    id: "runs",
    file: "runs.csv",
    header: ["Date", "Distance (km)", "Time (min)", "Route"],
    rows: [
      ["2025-05-02", "5.2", "28", "River Loop"],
      ["2025-05-04", "12.4", "66", "Canal Path"],
      ["2025-05-07", "8.0", "44", "River Loop"],
      ["2025-05-10", "15.1", "83", "Park Hill"],
    ],
  },
  {
    id: "tenants",
    file: "tenants.csv",
    header: ["Unit", "Tenant", "Rent", "Lease End", "Late Payments"],
    rows: [
      ["1A", "Alvarez", "$1,150", "2026-01-31", "0"],
      ["1B", "Brooks", "$1,500", "2025-09-30", "2"],
      ["2A", "Chowdhury", "$1,150", "2026-05-31", "0"],
      ["2B", "Dimitrov", "$1,875", "2025-11-30", "1"],
    ],
  },
  {
    id: "garden_log",
    file: "garden_log.csv",
    header: ["Plant", "Variety", "Bed"],
    rows: [
      ["Tomato", "Sungold", "1"],
      ["Tomato", "Shirley", "1"],
      ["Bean", "Cobra", "1"],
      ["Pea", "Onward", "2"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());

const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("a guest list, a running log, tenants and a garden", () => {
  it("lists everyone a negated perfect or a present participle selects", () => {
    expect(answer("Who hasn't checked in?", "guests")).toEqual(["Omar Haddad", "Tariq Khan"]);
    expect(answer("Who is sitting at table 2?", "guests")).toEqual(["Omar Haddad", "Lucy Chen", "Nina Berg"]);
  });

  it("reads a seating plan's Table column, though 'table' is a stop word", () => {
    expect(answer("What table is Lucy Chen at?", "guests")).toEqual(["2"]);
    expect(answer("Which table has the most guests?", "guests")).toEqual(["2"]);
  });

  it("orders 'the farthest' by the distance, and adds up the kilometres", () => {
    expect(answer("On what date did I run the farthest?", "runs")).toEqual(["2025-05-10"]);
    expect(Number(answer("How many kilometres did I run in total?", "runs")[0])).toBeCloseTo(40.7, 6);
  });

  it("adds up what we collect, and selects a tally of lates at zero", () => {
    expect(answer("How much rent do we collect each month?", "tenants")).toEqual(["5675"]);
    expect(answer("Which tenants have never been late?", "tenants")).toEqual(["Alvarez", "Chowdhury"]);
  });

  it("counts a bed's plants by their rows", () => {
    expect(answer("how many plants in bed 1", "garden_log")).toEqual(["3"]);
  });
});
