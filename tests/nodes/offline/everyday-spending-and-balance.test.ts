/**
 * A bank statement whose Amount is signed (pay in above zero, spending below), asked as people ask: "how much did
 * I spend on groceries?" (the money out, as a positive sum, not -285.41), "what was my biggest expense?" (the
 * lowest amount, as positive, not the salary), "which category did I spend the most on?" (the most money out,
 * not the salary's category); "what is my current balance?" (the latest row's Balance). A report's year columns,
 * with no date on its rows, keep their signs.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { spendsSignedAmounts } from "../../../nodes/offline/plans/sql-parts.js";
import { groundedColumn, openTables } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "statement",
    file: "statement.csv",
    header: ["Date", "Description", "Category", "Amount", "Balance"],
    rows: [
      ["2025-03-01", "ACME Ltd", "Salary", "2100.00", "3600.00"],
      ["2025-03-02", "Tesco", "Groceries", "-54.20", "3545.80"],
      ["2025-03-04", "Nandos", "Eating Out", "-31.50", "3514.30"],
      ["2025-03-05", "Tesco", "Groceries", "-48.10", "3466.20"],
      ["2025-03-07", "British Gas", "Utilities", "-96.00", "3370.20"],
      ["2025-03-09", "Lidl", "Groceries", "-22.75", "3347.45"],
    ],
  },
  {
    id: "results",
    file: "results.csv",
    header: ["Item", "2024", "2023"],
    rows: [
      ["Revenue", "500", "450"],
      ["Operating expenses", "-320", "-300"],
      ["Other expenses", "-40", "-35"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());

const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("a statement's signed amounts and its balance", () => {
  it("adds up the money out as a positive sum", () => {
    expect(Number(answer("How much did I spend on groceries?", "statement")[0])).toBeCloseTo(125.05, 6);
    expect(Number(answer("How much did I spend at Tesco?", "statement")[0])).toBeCloseTo(102.3, 6);
  });

  it("finds the biggest expense and the category spent on most among the money out", () => {
    expect(answer("What was my biggest expense?", "statement").map(Number)).toEqual([96]);
    expect(answer("Which category did I spend the most on?", "statement")).toEqual(["Groceries"]);
  });

  it("reads the current balance from the latest row", () => {
    expect(answer("What is my current balance?", "statement")).toEqual(["3347.45"]);
  });

  it("keeps a report's signs: its rows carry no date", () => {
    const column = (table: string, name: string) => fx.catalog(table).columns.find((c) => c.schema.name === name)!;
    const spend = analyzeQuestion("How much did we spend in total?");
    expect(spendsSignedAmounts(spend, column("statement", "Amount"), fx.catalog("statement"))).toBe(true);
    expect(spendsSignedAmounts(spend, column("results", "2024"), fx.catalog("results"))).toBe(false);
    // (Nor a question of income.)
    expect(
      spendsSignedAmounts(analyzeQuestion("How much came in?"), column("statement", "Amount"), fx.catalog("statement")),
    ).toBe(false);
  });
});
