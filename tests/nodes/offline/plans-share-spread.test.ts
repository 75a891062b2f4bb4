import { afterAll, describe, expect, it } from "vitest";
import { openFixture, planAnswer } from "./fixtures.js";

// employees.csv: Sales twice, Finance, Support; salaries 71000, 64000, 88000, 52000.
const fx = openFixture();
afterAll(() => fx.close());

function answer(question: string, table: string): { value: unknown; generator: string } {
  return planAnswer(fx.catalog(table), fx.run, question);
}

describe("the share of rows", () => {
  it("gives the selected rows in percent of the table's rows", () => {
    expect(answer("what percentage of employees work in sales?", "employees")).toEqual({
      value: 50,
      generator: "aggregate.share",
    });
    expect(answer("what share of employees earn more than 70000?", "employees").value).toBe(50);
  });
});

describe("the spread of a column", () => {
  it("gives the largest value minus the smallest", () => {
    expect(answer("what is the difference between the highest and lowest salary?", "employees")).toEqual({
      value: 36000,
      generator: "aggregate.spread",
    });
  });
});

describe("the median of a column", () => {
  it("gives the middle value, or the average of the two middle ones", () => {
    expect(answer("what is the median salary?", "employees")).toEqual({ value: 67500, generator: "aggregate.median" });
    expect(answer("median salary in sales", "employees").value).toBe(79500);
  });
});
