/**
 * Spreadsheet habits: yes/no columns written 1 / 0 ("Active") or as a tick ("Certified"), and headers cut short
 * ("Reimb", "Amt", "Dt"), asked as people ask them: "how many people are active / inactive?" (the ones and zeros
 * of a state's header, not every row; a count that happens to be 0 or 1, "Wins", stays a count); "who is
 * certified?" (everyone ticked, not the first); "how many expenses were reimbursed?" (the Y of "Reimb"); "what was
 * spent in March?" (the month's amounts added up, not the first).
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { isFlagColumn } from "../../../nodes/offline/flag-columns.js";
import { groundedColumn, openTables } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "people_flags",
    file: "people_flags.csv",
    header: ["Name", "Active", "Certified", "Wins"],
    rows: [
      ["Ada", "1", "✓", "1"],
      ["Ben", "0", "", "0"],
      ["Cleo", "1", "✓", "0"],
      ["Dev", "1", "", "1"],
      ["Ezra", "0", "", "1"],
    ],
  },
  {
    id: "expenses",
    file: "expenses.csv",
    header: ["Dt", "Cat", "Desc", "Amt", "Reimb"],
    rows: [
      ["2025-02-11", "Travel", "Taxi", "42.50", "Y"],
      ["2025-03-02", "Food", "Lunch", "18.20", "N"],
      ["2025-03-14", "Office", "Paper", "35.00", "Y"],
      ["2025-03-29", "Travel", "Train", "120.00", "Y"],
      ["2025-04-03", "Software", "License", "299.00", "N"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());

/** As the decomposer grounds a question (fixtures.ts groundedColumn). */
const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("yes/no columns of ones and zeros or ticks, and headers cut short", () => {
  it("reads a state's header over ones and zeros as yes/no, and leaves a count of 0 or 1 a count", () => {
    expect(answer("How many people are active?", "people_flags")).toEqual(["3"]);
    expect(answer("How many people are inactive?", "people_flags")).toEqual(["2"]);
    const column = (name: string) => fx.catalog("people_flags").columns.find((c) => c.schema.name === name)!;
    expect(isFlagColumn(column("Active"))).toBe(true);
    expect(isFlagColumn(column("Wins"))).toBe(false);
    expect(answer("How many wins altogether?", "people_flags")).toEqual(["3"]);
  });

  it("answers 'who is …' of a ticked column with everyone ticked", () => {
    expect(answer("Who is certified?", "people_flags")).toEqual(["Ada", "Cleo"]);
  });

  it("names a header cut short by the word it starts, and adds up what was spent over a month", () => {
    expect(answer("How many expenses were reimbursed?", "expenses")).toEqual(["3"]);
    expect(answer("What was spent in March?", "expenses")).toEqual(["173.2"]);
  });
});
