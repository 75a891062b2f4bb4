import { afterAll, describe, expect, it } from "vitest";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { openFixture, planAnswer } from "./fixtures.js";

// employees.csv salaries: 71000, 64000, 88000, 52000.
const fx = openFixture();
afterAll(() => fx.close());

function answer(question: string, table: string): unknown {
  return planAnswer(fx.catalog(table), fx.run, question).value;
}

describe("a range of numbers: between A and B", () => {
  it("reads both ends as conditions naming the same column, and is no choice of two options", () => {
    const a = analyzeQuestion("how many employees earn between 60000 and 80000?");
    expect(a.conditions.map((c) => [c.op, c.value])).toEqual([
      [">=", 60000],
      ["<=", 80000],
    ]);
    expect(a.conditions[1]!.hint).toEqual(a.conditions[0]!.hint);
    expect(analyzeQuestion("which games had crowds between 20,000 and 30,000?").comparison).toBeNull();
  });

  it("selects the rows inside the range", () => {
    expect(answer("how many employees earn between 60000 and 80000?", "employees")).toBe(2);
    expect(answer("who earns between 80000 and 90000?", "employees")).toBe("Cara Diaz");
  });
});
