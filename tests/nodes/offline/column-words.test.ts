/**
 * Plain wording over columns whose headers use other words (text/column-words.ts): "cost" of a fare,
 * "units" of a quantity (not of a "unit cost"), "how long" of a duration, "the oldest town" of a
 * founding year of three digits, "how many hinges in total" as the sum of the quantity column.
 */
import { afterAll, describe, expect, it } from "vitest";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { fitsKind } from "../../../nodes/offline/answer-kind.js";
import { headerMatch, isYearColumn } from "../../../nodes/offline/columns.js";
import { subQueryFor } from "../../../nodes/offline/decompose.js";
import { questionPart } from "../../../nodes/offline/evidence.js";
import { askedWords, findMentions } from "../../../nodes/offline/mentions.js";
import { candidateFeatures, TARGET_YEARS } from "../../../nodes/offline/plans/candidate-features.js";
import { firstPlan } from "../../../nodes/offline/plans/registry.js";
import { COLUMN_WORDS, measureCue } from "../../../text/column-words.js";
import { openFixture } from "./fixtures.js";

const fx = openFixture();
afterAll(() => fx.close());

function plan(question: string, table: string) {
  const analysis = analyzeQuestion(question);
  const catalog = fx.catalog(table);
  const p = firstPlan({
    analysis,
    catalog,
    mentions: findMentions(question, catalog, { avoidWords: askedWords(analysis) }),
  });
  if (!p) throw new Error(`no plan for ${question}`);
  return { ...p, rows: fx.run(p.sql) };
}

const column = (table: string, name: string) => fx.catalog(table).columns.find((c) => c.schema.name === name)!;

describe("column words", () => {
  it("a related word names a column its header does not spell, more weakly than the header word", () => {
    expect(COLUMN_WORDS.cost).toContain("fare");
    expect(headerMatch(["cost"], column("flights", "fare"))).toBeGreaterThan(0);
    expect(headerMatch(["cost"], column("flights", "destination"))).toBe(0);
    expect(headerMatch(["fare"], column("flights", "fare"))).toBeGreaterThan(
      headerMatch(["cost"], column("flights", "fare")),
    );
    // "unit cost" is a cost: "units" names the quantity column first.
    expect(headerMatch(["units"], column("stock", "quantity"))).toBeGreaterThan(
      headerMatch(["units"], column("stock", "unit_cost")),
    );
  });

  it("reads a lookup, a threshold and a superlative over the column the words mean", () => {
    expect(plan("What does flight FX133 cost?", "flights").rows).toEqual([["120"]]);
    expect(plan("How many flights cost less than 200?", "flights").rows).toEqual([[2]]);
    expect(plan("Which flight is the cheapest?", "flights").rows).toEqual([["FX133"]]);
    expect(plan("What is the most populous town?", "towns").rows).toEqual([["Caddon"]]);
  });

  it('"how long/old/tall …" asks for a measure, a number', () => {
    expect(measureCue("how long is the longest flight?")).toBe("long");
    expect(measureCue("which flight is the longest?")).toBeUndefined();
    const a = analyzeQuestion("How long is flight FX120?");
    expect(a.answerType).toBe("number");
    expect(a.targetHints).toContain("duration");
    expect(plan("How long is flight FX120?", "flights").rows).toEqual([["95"]]);
    expect(plan("How long is the longest flight?", "flights").rows).toEqual([["210"]]);
  });

  it('"what time does … leave?" reads the clock column the verb names', () => {
    expect(plan("What time does FX147 leave?", "flights").rows).toEqual([["18:05"]]);
  });

  it('"how many X in total" over an item sums the quantity column; measure nouns too', () => {
    const hinges = plan("How many hinges are there in total?", "stock");
    expect(hinges.template).toBe("sum");
    expect(hinges.rows).toEqual([[200]]);
    expect(plan("How many bolts do we have altogether?", "stock").rows).toEqual([[345]]);
    expect(plan("How many units are stored in North in total?", "stock").rows).toEqual([[420]]);
    // Without "in total" it is still a count of rows.
    expect(plan("How many rows are for hinges?", "stock").rows).toEqual([[2]]);
  });

  it("a column of founding years with three digits is a year column: oldest, first, before 1000", () => {
    expect(isYearColumn(column("towns", "founded"))).toBe(true);
    // (A count of years or a population is not.)
    expect(isYearColumn(column("towns", "population"))).toBe(false);
    expect(plan("Which town is the oldest?", "towns").rows).toEqual([["Brackwell"]]);
    expect(plan("Which town was founded first?", "towns").rows).toEqual([["Brackwell"]]);
    expect(plan("How many towns were founded before 1000?", "towns").rows).toEqual([[1]]);
  });

  it("a 3-digit answer read from a year column fits a year question; elsewhere it does not", () => {
    const p = plan("When was Brackwell founded?", "towns");
    expect(p.rows).toEqual([["977"]]);
    expect(p.targetYears).toBe(true);
    expect(candidateFeatures(p, 0, analyzeQuestion("When was Brackwell founded?"))[TARGET_YEARS]).toBe(1);
    expect(fitsKind("977", "year")).toBe(false);
    expect(fitsKind("977", "year", { yearColumn: true })).toBe(true);
    expect(fitsKind("977", "date", { yearColumn: true })).toBe(true);
    expect(fitsKind("Brackwell", "year", { yearColumn: true })).toBe(false);
    expect(plan("What is the population of Brackwell?", "towns").targetYears).toBeUndefined();
    // A clock time answers "when does the flight leave?".
    expect(fitsKind("07:15", "date")).toBe(true);
  });

  it('"since 2022" bounds a year from below', () => {
    expect(analyzeQuestion("how many students enrolled since 2022?").conditions).toEqual([
      expect.objectContaining({ op: ">=", value: 2022 }),
    ]);
    expect(analyzeQuestion("since 12 teams joined, who won?").conditions).toEqual([]);
  });

  it("without a hint the sub-query's note names the grounded table; the note is not question wording", () => {
    const a = analyzeQuestion("How many hinges are there in total?");
    const grounded = { ...a, grounding: { tableId: "stock", mentions: [], columns: ["quantity"] } };
    const note = subQueryFor("How many hinges are there in total?", grounded);
    expect(note).toBe("How many hinges are there in total? (columns: quantity; table: stock)");
    expect(questionPart(note)).toBe("How many hinges are there in total?");
    const hinted = subQueryFor("How many hinges are there in total?", {
      ...a,
      grounding: { ...grounded.grounding, hinted: true },
    });
    expect(hinted).toBe("How many hinges are there in total? (columns: quantity)");
  });
});
