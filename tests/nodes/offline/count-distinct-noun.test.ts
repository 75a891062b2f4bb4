import { afterAll, describe, expect, it } from "vitest";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { askedWords, findMentions } from "../../../nodes/offline/mentions.js";
import { planSql } from "../../../nodes/offline/sql-writer.js";
import { openFixture } from "./fixtures.js";

// employees.csv: four employees over three departments (Sales twice).
const fx = openFixture();
afterAll(() => fx.close());

function answer(question: string, table: string): unknown {
  const a = analyzeQuestion(question);
  const catalog = fx.catalog(table);
  const plan = planSql({
    analysis: a,
    catalog,
    mentions: findMentions(question, catalog, { avoidWords: askedWords(a) }),
  });
  if (!plan) throw new Error(`no plan for ${question}`);
  return fx.run(plan.sql)[0]?.[0];
}

describe("how many X are there, X not what a row is", () => {
  it("counts the distinct values of the column the noun names when the table's name says what a row is", () => {
    expect(answer("how many departments are there?", "employees")).toBe(3);
    expect(answer("how many employees are there?", "employees")).toBe(4);
  });
});
