/** The plan-match features of a SQL candidate (nodes/offline/plan-match.ts): its columns and values against the question. */
import { afterAll, describe, expect, it } from "vitest";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { askedWords, findMentions } from "../../../nodes/offline/mentions.js";
import { planMatchFeatures } from "../../../nodes/offline/plan-match.js";
import type { SqlPlan, SqlPlanInput } from "../../../nodes/offline/plans/types.js";
import { openFixture } from "./fixtures.js";

const fx = openFixture();
afterAll(() => fx.close());

function inputFor(question: string, table: string): SqlPlanInput {
  const analysis = analyzeQuestion(question);
  const catalog = fx.catalog(table);
  return { analysis, catalog, mentions: findMentions(question, catalog, { avoidWords: askedWords(analysis) }) };
}

/** A column's quoted raw identifier, and the table's. */
function raw(input: SqlPlanInput, column: string): string {
  return `"${input.catalog.columns.find((c) => c.schema.name === column)!.schema.rawPhysical}"`;
}
function typed(input: SqlPlanInput, column: string): string {
  return `"${input.catalog.columns.find((c) => c.schema.name === column)!.schema.physical}"`;
}
const table = (input: SqlPlanInput) => `"${input.catalog.schema.physical}"`;

describe("plan-match features: target column", () => {
  it("a target the asked words name scores 1; another target is flagged with the column the words name", () => {
    const input = inputFor("which winner won the race in tokyo?", "races");
    const right: SqlPlan = {
      sql: `SELECT ${raw(input, "Winner")} FROM ${table(input)} WHERE ${raw(input, "Venue")} = 'Tokyo'`,
      template: "lookup",
      targetColumn: "Winner",
    };
    const f = planMatchFeatures(right, input);
    expect(f["pm:asked=target"]).toBe(1);
    expect(f["pm:asked-match"]).toBe(1);
    expect(f["pm:asked=other-column"]).toBeUndefined();
    const wrong = planMatchFeatures(
      { ...right, sql: right.sql.replace(raw(input, "Winner"), raw(input, "Time")), targetColumn: "Time" },
      input,
    );
    expect(wrong["pm:asked=not-target"]).toBe(1);
    expect(wrong["pm:asked=other-column"]).toBe(1);
    expect(wrong["pm:asked-match"]).toBe(0);
  });

  it("a computed answer has no target column", () => {
    const input = inputFor("how many races were held?", "races");
    const f = planMatchFeatures(
      { sql: `SELECT COUNT(*) FROM ${table(input)}`, template: "count", targetColumn: "" },
      input,
    );
    expect(f["pm:target=computed"]).toBe(1);
  });
});

describe("plan-match features: order and condition columns", () => {
  it("a superlative over the named column, with ties at the top of its order column", () => {
    const input = inputFor("which year had the highest prize?", "races");
    const sql = `SELECT ${raw(input, "Year")} FROM ${table(input)} ORDER BY ${typed(input, "Prize")} DESC LIMIT 1`;
    const f = planMatchFeatures({ sql, template: "argmax", targetColumn: "Year" }, input);
    expect(f["pm:order=named"]).toBe(1);
    expect(f["pm:order-match"]).toBeGreaterThan(0.5);
    // Two rows hold the top prize ($2,000): ORDER BY … LIMIT 1 hides the tie, the feature does not.
    expect(f["pm:order-ties"]).toBe(1);
  });

  it("a superlative by row frequency while the question names a numeric column", () => {
    const input = inputFor("which nation won the most gold?", "medals");
    const n = raw(input, "Nation");
    const sql = `SELECT ${n} FROM ${table(input)} GROUP BY ${n} ORDER BY COUNT(*) DESC, MIN("_row") LIMIT 1`;
    const f = planMatchFeatures({ sql, template: "group-count", targetColumn: "Nation" }, input);
    expect(f["pm:order=frequency"]).toBe(1);
    expect(f["pm:frequency-but-numeric-named"]).toBe(1);
  });

  it("a condition on a column the question neither names nor has a value of", () => {
    const input = inputFor("which nation won 19 gold medals?", "medals");
    const sql = `SELECT ${raw(input, "Nation")} FROM ${table(input)} WHERE ${typed(input, "Silver")} = 19`;
    const f = planMatchFeatures({ sql, template: "lookup", targetColumn: "Nation" }, input);
    expect(f["pm:cond=unnamed"]).toBe(1);
    expect(f["pm:cond-named-share"]).toBe(0);
    const named = planMatchFeatures(
      { sql: sql.replace(typed(input, "Silver"), typed(input, "Gold")), template: "lookup", targetColumn: "Nation" },
      input,
    );
    expect(named["pm:cond-named-share"]).toBe(1);
    expect(named["pm:cond=unnamed"]).toBeUndefined();
  });
});

describe("plan-match features: linked values", () => {
  it("the filter value's match kind, score and how many rows hold it", () => {
    const input = inputFor("what was the time of kim lee?", "races");
    const mention = input.mentions.find((m) => m.value === "Kim Lee");
    expect(mention?.kind).toBe("exact");
    const sql = `SELECT ${raw(input, "Time")} FROM ${table(input)} WHERE ${raw(input, "Winner")} = 'Kim Lee'`;
    const f = planMatchFeatures({ sql, template: "lookup", targetColumn: "Time" }, input);
    expect(f["pm:value=exact"]).toBe(1);
    expect(f["pm:value-score"]).toBe(1);
    expect(f["pm:value-rows=2-3"]).toBe(1);
    const none = planMatchFeatures(
      { sql: `SELECT ${raw(input, "Time")} FROM ${table(input)}`, template: "lookup", targetColumn: "Time" },
      input,
    );
    expect(none["pm:value=none"]).toBe(1);
  });
});

describe("plan-match features: every value is binary or in 0..1", () => {
  it("holds for several questions and their candidate plans", () => {
    for (const [q, t] of [
      ["which nation won the most silver medals?", "medals"],
      ["how many times did kim lee win?", "races"],
    ] as const) {
      const input = inputFor(q, t);
      const f = planMatchFeatures(
        {
          sql: `SELECT ${raw(input, input.catalog.columns[1]!.schema.name)} FROM ${table(input)}`,
          template: "lookup",
          targetColumn: input.catalog.columns[1]!.schema.name,
        },
        input,
      );
      for (const v of Object.values(f)) expect(v >= 0 && v <= 1).toBe(true);
    }
  });
});

describe("plan-match features: words the plan accounts for, and how clean the table is", () => {
  it("a plan that uses every content word leaves none unaccounted; one that drops a condition leaves it", () => {
    const input = inputFor("what was the time of kim lee in tokyo?", "races");
    const both = `SELECT ${raw(input, "Time")} FROM ${table(input)} WHERE ${raw(input, "Winner")} = 'Kim Lee' AND ${raw(input, "Venue")} = 'Tokyo'`;
    const f = planMatchFeatures({ sql: both, template: "lookup", targetColumn: "Time" }, input);
    expect(f["pm:unaccounted=0"]).toBe(1);
    expect(f["pm:accounted-share"]).toBe(1);
    const one = `SELECT ${raw(input, "Time")} FROM ${table(input)} WHERE ${raw(input, "Winner")} = 'Kim Lee'`;
    const g = planMatchFeatures({ sql: one, template: "lookup", targetColumn: "Time" }, input);
    expect(g["pm:unaccounted=1"]).toBe(1);
    expect(g["pm:accounted-share"]).toBeLessThan(1);
  });

  it("the template's operator words count as accounted for (average for avg, a superlative for argmax)", () => {
    const input = inputFor("what is the average gold of the nations?", "medals2");
    const sql = `SELECT AVG(${typed(input, "Gold")}) FROM ${table(input)}`;
    const f = planMatchFeatures({ sql, template: "avg", targetColumn: "Gold" }, input);
    expect(f["pm:unaccounted=0"]).toBe(1);
    const asLookup = planMatchFeatures({ sql, template: "lookup", targetColumn: "Gold" }, input);
    expect(asLookup["pm:unaccounted=1"]).toBe(1);
  });

  it("a table of plain values is clean; notes, footnote marks and a total row are not", () => {
    const plain = inputFor("which nation won the most gold?", "medals2");
    const n = raw(plain, "Nation");
    const f = planMatchFeatures(
      {
        sql: `SELECT ${n} FROM ${table(plain)} ORDER BY ${typed(plain, "Gold")} DESC LIMIT 1`,
        template: "argmax",
        targetColumn: "Nation",
      },
      plain,
    );
    expect(f["pm:table-clean"]).toBe(1);
    expect(f["pm:table-clean=1"]).toBe(1);
    expect(f["pm:target-clean"]).toBe(1);
    expect(f["pm:order-clean"]).toBe(1);
    expect(f["pm:table-rows=1-10"]).toBe(1);
    // Prizes written "$1,200" are numbers; venues with a country after a comma are clean values too, but a
    // report table's "(in millions)" note and "$(120)" are not.
    const report = inputFor("what were the net bookings in 2019?", "report");
    const r = planMatchFeatures(
      {
        sql: `SELECT ${raw(report, report.catalog.columns[1]!.schema.name)} FROM ${table(report)}`,
        template: "lookup",
        targetColumn: report.catalog.columns[1]!.schema.name,
      },
      report,
    );
    expect(r["pm:table-clean"]).toBeLessThan(1);
    expect(r["pm:table-clean=1"]).toBeUndefined();
  });
});
