/**
 * The second everyday suite (tests/fixtures/everyday-second-tables.ts): other domains (cities with
 * founding years of three and four digits, students, a warehouse inventory, flights, daily weather,
 * invoices) and other wordings than the first suite's — column names the question does not repeat
 * ("what does flight X cost?" of a fare column, "the most populous city", "how long is …", "how many
 * hinges are there in total?"). Real graph, offline backbone, with and without the table hint.
 */
import { describe, expect, it } from "vitest";
import { everydaySecondCorpus } from "../fixtures/everyday-second-tables.js";
import { everydayReport, scoreEveryday } from "../fixtures/everyday-run.js";
import { expectEveryKind, useEverydayIndex } from "../fixtures/everyday-suite.js";

const corpus = everydaySecondCorpus(5);
const index = useEverydayIndex(corpus);

describe("second everyday suite: other tables and wordings (offline backbone, real graph)", () => {
  it("is deterministic, covers every kind in several wordings, and its gold comes from the rows", () => {
    expect(everydaySecondCorpus(5).questions).toEqual(corpus.questions);
    expectEveryKind(corpus, 12);
    // Founding years of three digits are part of the cities table (a year column, not a date column).
    const founded = corpus.tables.find((t) => t.id === "cities")!.rows.map((r) => r[4] as number);
    expect(founded.some((y) => y < 1000)).toBe(true);
    // "How many X in total" over an item sums the quantity column, not the rows.
    const hinges = corpus.questions.find((q) => /^How many \w+ are there in total\?$/.test(q.question))!;
    expect(hinges.kind).toBe("sum");
    expect(Number(hinges.gold[0])).toBeGreaterThan(3);
  });

  it("with the table hint: at least 95 % right", async () => {
    const s = await scoreEveryday(corpus, index.root(), true);
    console.log(everydayReport("everyday, second suite (table hint)", s));
    expect(s.llmCalls).toBe(0);
    expect(s.right / s.total).toBeGreaterThanOrEqual(0.95);
  }, 600_000);

  it("without a hint (the decomposer picks the table): at least 95 % right", async () => {
    const s = await scoreEveryday(corpus, index.root(), false);
    console.log(everydayReport("everyday, second suite (no hint)", s));
    expect(s.llmCalls).toBe(0);
    expect(s.right / s.total).toBeGreaterThanOrEqual(0.95);
  }, 600_000);
});
