/**
 * The ninth everyday suite (tests/fixtures/everyday-ninth-tables.ts), written blind by a helper session as a
 * measuring instrument: vet clinic visits, restaurant reservations, a farm's harvest, museum exhibits,
 * volunteer shifts, car repairs and job applications, with units in the headers ("Wt (kg)", "Yield (t)",
 * "Area (ha)", "Labour (hrs)"), money in three currencies, seven date formats, yes/no columns written three
 * ways, blanks, and no superlative asked over a tie. Real graph, offline backbone, with and without the hint.
 */
import { describe, expect, it } from "vitest";
import { everydayNinthCorpus } from "../fixtures/everyday-ninth-tables.js";
import { everydayReport, scoreEveryday } from "../fixtures/everyday-run.js";
import { expectEveryKind, useEverydayIndex } from "../fixtures/everyday-suite.js";

const corpus = everydayNinthCorpus(9);
const index = useEverydayIndex(corpus);

describe("ninth everyday suite: vet visits, reservations, harvest, exhibits, shifts, repairs, applications (offline backbone, real graph)", () => {
  it("is deterministic and covers every kind in several wordings", () => {
    expect(everydayNinthCorpus(9).questions).toEqual(corpus.questions);
    expectEveryKind(corpus, 25);
    expect(corpus.questions.length).toBeGreaterThanOrEqual(300);
  });

  // Measured blind (docs/EVERYDAY.md, 2026-12-05, at cb33047): 254/300 = 84.7 % with the hint, 243/300 = 81.0 %
  // without; after seven general fixes 260/300 = 86.7 % and 250/300 = 83.3 %; after the next session's (amounts,
  // group totals, roles) 282/300 = 94.0 % and 274/300 = 91.3 % (the floors guard them).
  it("with the table hint: at least 93 % right", async () => {
    const s = await scoreEveryday(corpus, index.root(), true);
    console.log(everydayReport("everyday, ninth suite (table hint)", s));
    expect(s.llmCalls).toBe(0);
    expect(s.right / s.total).toBeGreaterThanOrEqual(0.93);
  }, 1_200_000);

  it("without a hint (the decomposer picks the table): at least 91 % right", async () => {
    const s = await scoreEveryday(corpus, index.root(), false);
    console.log(everydayReport("everyday, ninth suite (no hint)", s));
    expect(s.llmCalls).toBe(0);
    expect(s.right / s.total).toBeGreaterThanOrEqual(0.91);
  }, 1_200_000);
});
