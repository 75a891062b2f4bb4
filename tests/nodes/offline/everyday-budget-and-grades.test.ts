/**
 * A household budget and a class's marks, asked as people ask: "which category did I spend the most on?"
 * (each category's total), "what did I spend on transport?" (how much), "the class average in English"
 * over a Class column of labels ("7A" is no number), "which class has the higher average science score?"
 * (each class's mean).
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { openTables, planColumn } from "./fixtures.js";

const BUDGET: RawTable = {
  id: "home_budget",
  file: "home_budget.csv",
  header: ["Date", "Description", "Category", "Amount"],
  rows: [
    ["2024-05-01", "Rent", "Housing", "1200.00"],
    ["2024-05-03", "Groceries", "Food", "84.20"],
    ["2024-05-09", "Dinner out", "Food", "47.80"],
    ["2024-05-12", "Train ticket", "Transport", "23.50"],
    ["2024-05-18", "Groceries", "Food", "92.10"],
    ["2024-05-28", "Taxi", "Transport", "18.75"],
  ],
};
const MARKS: RawTable = {
  id: "class_marks",
  file: "class_marks.csv",
  header: ["Student", "Class", "Math", "English", "Science"],
  rows: [
    ["Ava Brooks", "7A", "88", "92", "79"],
    ["Liam Chen", "7A", "95", "78", "91"],
    ["Noah Diaz", "7B", "72", "85", "68"],
    ["Emma Evans", "7B", "81", "89", "94"],
    ["Mia Fox", "7A", "67", "74", "70"],
    ["Leo Grant", "7B", "90", "66", "85"],
  ],
};

const fixture = openTables([BUDGET, MARKS]);
const answer = (question: string, table: string) => planColumn(fixture, question, table);
afterAll(() => fixture.close());

describe("a household budget", () => {
  it("totals each category, and reads 'what did I spend' as how much", () => {
    expect(answer("Which category did I spend the most on?", "home_budget")).toEqual(["Housing"]);
    expect(answer("What did I spend on transport?", "home_budget")).toEqual(["42.25"]);
  });
});

describe("a class's marks", () => {
  it("averages a subject, not the class labels", () => {
    expect(Number(answer("What's the class average in English?", "class_marks")[0])).toBeCloseTo(80.67, 2);
  });

  it("compares the classes' own averages", () => {
    expect(answer("Which class has the higher average science score?", "class_marks")).toEqual(["7B"]);
    expect(answer("Which class has the lower average math score?", "class_marks")).toEqual(["7B"]);
  });
});
