/**
 * The tenth everyday suite (tests/fixtures/everyday-tenth-tables.ts), written blind by a helper session as a
 * measuring instrument: dental recalls, film festival screenings, cycling race results, a bakery's
 * production, translation projects, hiking trails and charity donations, with month-only dates, clock
 * times, ✓/blank flags, "Free" in a money column and "DNF" among positions. Real graph, offline backbone,
 * with and without the hint.
 */
import { describe, expect, it } from "vitest";
import { everydayTenthCorpus } from "../fixtures/everyday-tenth-tables.js";
import { everydayReport, scoreEveryday } from "../fixtures/everyday-run.js";
import { expectEveryKind, useEverydayIndex } from "../fixtures/everyday-suite.js";

const corpus = everydayTenthCorpus(10);
const index = useEverydayIndex(corpus);

describe("tenth everyday suite: dental recalls, film screenings, race results, bakery, translations, trails, donations (offline backbone, real graph)", () => {
  it("is deterministic and covers every kind in several wordings", () => {
    expect(everydayTenthCorpus(10).questions).toEqual(corpus.questions);
    expectEveryKind(corpus, 25);
    expect(corpus.questions.length).toBeGreaterThanOrEqual(300);
  });

  // Measured blind (docs/EVERYDAY.md, 2026-12-05 evening): 215/322 = 66.8 % with the hint, 207/322 = 64.3 %
  // without; after that evening's fixes 235/322 = 73.0 % with the hint (the floors guard it, and the no-hint
  // run with a margin).
  it("with the table hint: at least 72 % right", async () => {
    const s = await scoreEveryday(corpus, index.root(), true);
    console.log(everydayReport("everyday, tenth suite (table hint)", s));
    expect(s.llmCalls).toBe(0);
    expect(s.right / s.total).toBeGreaterThanOrEqual(0.72);
  }, 1_200_000);

  it("without a hint (the decomposer picks the table): at least 66 % right", async () => {
    const s = await scoreEveryday(corpus, index.root(), false);
    console.log(everydayReport("everyday, tenth suite (no hint)", s));
    expect(s.llmCalls).toBe(0);
    expect(s.right / s.total).toBeGreaterThanOrEqual(0.66);
  }, 1_200_000);
});
