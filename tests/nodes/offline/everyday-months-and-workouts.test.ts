/**
 * A month-by-month summary and a workout log, asked as people ask: "by how much did revenue grow from
 * January to June?" (the difference of the two rows) and "how many times did I go running?" (the Run
 * rows: an activity named by its -ing form).
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { openTables, planColumn } from "./fixtures.js";

const MONTHS: RawTable = {
  id: "monthly_summary",
  file: "monthly_summary.csv",
  header: ["Month", "Revenue", "Expenses", "Orders"],
  rows: [
    ["January", "42000", "31000", "860"],
    ["February", "39500", "29800", "790"],
    ["March", "47800", "33200", "940"],
    ["April", "51200", "35900", "1010"],
  ],
};
const LOG: RawTable = {
  id: "workout_log",
  file: "workout_log.csv",
  header: ["Date", "Activity", "Duration (min)", "Calories"],
  rows: [
    ["2024-04-01", "Run", "35", "410"],
    ["2024-04-02", "Cycle", "60", "540"],
    ["2024-04-04", "Swim", "40", "380"],
    ["2024-04-06", "Run", "50", "600"],
    ["2024-04-09", "Swim", "75", "690"],
    ["2024-04-11", "Run", "30", "350"],
  ],
};

const fixture = openTables([MONTHS, LOG]);
const answer = (question: string, table: string) => planColumn(fixture, question, table);
afterAll(() => fixture.close());

describe("a month-by-month summary", () => {
  it("reads growth from one month to another as their difference", () => {
    expect(answer("By how much did revenue grow from January to April?", "monthly_summary")).toEqual(["9200"]);
    expect(answer("How much did expenses increase from February to March?", "monthly_summary")).toEqual(["3400"]);
  });
});

describe("a workout log", () => {
  it("names an activity by its -ing form", () => {
    expect(answer("How many times did I go running?", "workout_log")).toEqual(["3"]);
    expect(answer("How many calories did I burn swimming?", "workout_log")).toEqual(["1070"]);
  });
});
