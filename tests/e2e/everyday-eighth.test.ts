/**
 * The eighth everyday suite (tests/fixtures/everyday-eighth-tables.ts), written blind by a helper session as a
 * measuring instrument: library loans, flight departures, student grades, apartment listings, bike-share trips,
 * concert tickets and pharmacy stock, with units and shorthand in the headers ("Delay (min)", "Pax",
 * "Dist. (km)", "Sq Ft", "Rent ($/mo)", "Tix Sold", "Reorder Lvl", "Rx Only?"), money with symbols, four date
 * formats, yes/no columns and blanks. Real graph, offline backbone, with and without the table hint.
 */
import { describe, expect, it } from "vitest";
import { everydayEighthCorpus } from "../fixtures/everyday-eighth-tables.js";
import { everydayReport, scoreEveryday } from "../fixtures/everyday-run.js";
import { expectEveryKind, useEverydayIndex } from "../fixtures/everyday-suite.js";

const corpus = everydayEighthCorpus(8);
const index = useEverydayIndex(corpus);

describe("eighth everyday suite: loans, departures, grades, listings, bike trips, concerts, pharmacy (offline backbone, real graph)", () => {
  it("is deterministic and covers every kind in several wordings", () => {
    expect(everydayEighthCorpus(8).questions).toEqual(corpus.questions);
    expectEveryKind(corpus, 20);
    expect(corpus.questions.length).toBeGreaterThanOrEqual(250);
  });

  // Measured blind (docs/EVERYDAY.md, 2026-12-05): 188/258 = 72.9 % with the hint, 184/258 = 71.3 % without;
  // after that day's plain-table fixes 233/258 = 90.3 % and 230/258 = 89.1 %; after the next session's (amounts,
  // group totals, roles) 241/258 = 93.4 % and 237/258 = 91.9 % (the floors guard them). About ten of the rest
  // are threshold fragments ("flights with pax over 225") whose gold is the list where other suites count.
  it("with the table hint: at least 93 % right", async () => {
    const s = await scoreEveryday(corpus, index.root(), true);
    console.log(everydayReport("everyday, eighth suite (table hint)", s));
    expect(s.llmCalls).toBe(0);
    expect(s.right / s.total).toBeGreaterThanOrEqual(0.93);
  }, 1_200_000);

  it("without a hint (the decomposer picks the table): at least 91 % right", async () => {
    const s = await scoreEveryday(corpus, index.root(), false);
    console.log(everydayReport("everyday, eighth suite (no hint)", s));
    expect(s.llmCalls).toBe(0);
    expect(s.right / s.total).toBeGreaterThanOrEqual(0.91);
  }, 1_200_000);
});
