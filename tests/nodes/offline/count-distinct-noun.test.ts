import { afterAll, describe, expect, it } from "vitest";
import { openFixture, planAnswer } from "./fixtures.js";

// employees.csv: four employees over three departments (Sales twice).
const fx = openFixture();
afterAll(() => fx.close());

function answer(question: string, table: string): unknown {
  return planAnswer(fx.catalog(table), fx.run, question).value;
}

describe("how many X are there, X not what a row is", () => {
  it("counts the distinct values of the column the noun names when the table's name says what a row is", () => {
    expect(answer("how many departments are there?", "employees")).toBe(3);
    expect(answer("how many employees are there?", "employees")).toBe(4);
  });
});
