/**
 * Everyday questions over plain generated tables (tests/fixtures/everyday-tables.ts: employees,
 * products, a sales ledger, books with a year column, weather stations with missing values), each
 * kind in several wordings, gold computed from the generated rows. The index is built with the
 * project's own build; every question goes through the real graph on the offline backbone, default
 * configuration, with the question's table as its hint (as the benchmarks give it) and, for a second
 * figure, without any hint (the decomposer picks the table). docs/EVERYDAY.md has the figures.
 */
import { describe, expect, it } from "vitest";
import { everydayCorpus, everydayCorrect, type EverydayQuestion } from "../fixtures/everyday-tables.js";
import { everydayReport, scoreEveryday } from "../fixtures/everyday-run.js";
import { expectEveryKind, useEverydayIndex } from "../fixtures/everyday-suite.js";

const corpus = everydayCorpus(16);
const index = useEverydayIndex(corpus);

describe("everyday questions over generated tables (offline backbone, real graph)", () => {
  it("the generator is deterministic and covers every kind in several wordings, gold from the rows", () => {
    const again = everydayCorpus(16);
    expect(again.questions).toEqual(corpus.questions);
    expectEveryKind(corpus, 12);
    // Another seed gives other rows, so other gold.
    const other = everydayCorpus(17);
    const golds = (qs: EverydayQuestion[]) => qs.map((q) => q.gold.join("|")).join("\n");
    expect(golds(other.questions)).not.toEqual(golds(corpus.questions));
    // One missing-value column: its aggregate ignores the blanks.
    const rain = corpus.tables.find((t) => t.id === "stations")!.rows.map((r) => r[3]);
    expect(rain.some((v) => v === null)).toBe(true);
  });

  it("the scorer matches numbers numerically, strings case-insensitively and lists as sets", () => {
    expect(everydayCorrect([1000], "1,000")).toBe(true);
    expect(everydayCorrect([1000], "1000.0")).toBe(true);
    expect(everydayCorrect([71312.5], "71312.5")).toBe(true);
    expect(everydayCorrect([71312.5], "71312")).toBe(false);
    expect(everydayCorrect(["Ana Ruiz"], "ana ruiz")).toBe(true);
    expect(everydayCorrect(["A B", "C D"], "C D | A B")).toBe(true);
    expect(everydayCorrect(["A B", "C D"], "A B")).toBe(false);
    expect(everydayCorrect([5], "not found")).toBe(false);
  });

  it("with the table hint: at least 95 % right", async () => {
    const s = await scoreEveryday(corpus, index.root(), true);
    console.log(everydayReport("everyday (table hint)", s));
    expect(s.llmCalls).toBe(0);
    expect(s.right / s.total).toBeGreaterThanOrEqual(0.95);
  }, 600_000);

  it("without a hint (the decomposer picks the table): at least 95 % right", async () => {
    const s = await scoreEveryday(corpus, index.root(), false);
    console.log(everydayReport("everyday (no hint)", s));
    expect(s.llmCalls).toBe(0);
    expect(s.right / s.total).toBeGreaterThanOrEqual(0.95);
  }, 600_000);
});
