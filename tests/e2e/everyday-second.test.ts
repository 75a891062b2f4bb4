/**
 * The second everyday suite (tests/fixtures/everyday-second-tables.ts): other domains (cities with
 * founding years of three and four digits, students, a warehouse inventory, flights, daily weather,
 * invoices) and other wordings than the first suite's — column names the question does not repeat
 * ("what does flight X cost?" of a fare column, "the most populous city", "how long is …", "how many
 * hinges are there in total?"). Real graph, offline backbone, with and without the table hint.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeResources } from "../../graph/resources.js";
import { everydaySecondCorpus } from "../fixtures/everyday-second-tables.js";
import { buildEverydayIndex, everydayReport, removeEverydayIndex, scoreEveryday } from "../fixtures/everyday-run.js";

const corpus = everydaySecondCorpus(5);
let root = "";

beforeAll(async () => {
  root = await buildEverydayIndex(corpus);
}, 60_000);

afterAll(async () => {
  await closeResources();
  removeEverydayIndex(root);
});

describe("second everyday suite: other tables and wordings (offline backbone, real graph)", () => {
  it("is deterministic, covers every kind in several wordings, and its gold comes from the rows", () => {
    expect(everydaySecondCorpus(5).questions).toEqual(corpus.questions);
    const kinds = new Map<string, number>();
    for (const q of corpus.questions) kinds.set(q.kind, (kinds.get(q.kind) ?? 0) + 1);
    expect([...kinds.keys()].sort()).toEqual([
      "argmax-argmin",
      "average",
      "count",
      "date",
      "lookup",
      "max-min value",
      "sum",
      "threshold",
    ]);
    for (const n of kinds.values()) expect(n).toBeGreaterThanOrEqual(12);
    // Founding years of three digits are part of the cities table (a year column, not a date column).
    const founded = corpus.tables.find((t) => t.id === "cities")!.rows.map((r) => r[4] as number);
    expect(founded.some((y) => y < 1000)).toBe(true);
    // "How many X in total" over an item sums the quantity column, not the rows.
    const hinges = corpus.questions.find((q) => /^How many \w+ are there in total\?$/.test(q.question))!;
    expect(hinges.kind).toBe("sum");
    expect(Number(hinges.gold[0])).toBeGreaterThan(3);
  });

  it("with the table hint: at least 95 % right", async () => {
    const s = await scoreEveryday(corpus, root, true);
    console.log(everydayReport("everyday, second suite (table hint)", s));
    expect(s.llmCalls).toBe(0);
    expect(s.right / s.total).toBeGreaterThanOrEqual(0.95);
  }, 600_000);

  it("without a hint (the decomposer picks the table): at least 95 % right", async () => {
    const s = await scoreEveryday(corpus, root, false);
    console.log(everydayReport("everyday, second suite (no hint)", s));
    expect(s.llmCalls).toBe(0);
    expect(s.right / s.total).toBeGreaterThanOrEqual(0.95);
  }, 600_000);
});
