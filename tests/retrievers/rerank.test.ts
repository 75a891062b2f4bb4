import { describe, expect, it } from "vitest";
import { recallSize, RecallError } from "../../retrievers/recall.js";
import {
  denseOnly,
  LexicalReranker,
  mentionScore,
  rerank,
  RerankError,
  TYPO_MENTION,
  type Reranker,
} from "../../retrievers/rerank.js";

describe("recall size (test_reranking)", () => {
  it("is min(population, top_k × multiplier)", () => {
    expect(recallSize(5, 100, 6)).toBe(30);
    expect(recallSize(5, 12, 6)).toBe(12);
    expect(recallSize(5, 100)).toBe(30);
  });
  it("rejects a negative top_k or a multiplier below 1", () => {
    expect(() => recallSize(-1, 10)).toThrow(RecallError);
    expect(() => recallSize(5, 10, 0)).toThrow(/multiplier/);
  });
});

describe("rerank", () => {
  const candidates = ["a", "b", "c", "d"].map((text, i) => ({ entry: text, text, dense: 1 - i / 10 }));

  it("orders by descending score, scoring [query, passage] in candidate order", async () => {
    const seen: string[] = [];
    const scores: Record<string, number> = { a: 0.1, b: 0.9, c: 0.5, d: 0.7 };
    const r: Reranker = { name: "t", score: async (_q, cs) => cs.map((c) => (seen.push(c.text), scores[c.text]!)) };
    const hits = await rerank(r, "q", candidates, 3);
    expect(seen).toEqual(["a", "b", "c", "d"]);
    expect(hits.map((h) => h.entry)).toEqual(["b", "d", "c"]);
  });

  it("keeps the dense order for equal scores", async () => {
    const r: Reranker = { name: "flat", score: async (_q, cs) => cs.map(() => 1) };
    expect((await rerank(r, "q", candidates, 4)).map((h) => h.entry)).toEqual(["a", "b", "c", "d"]);
    expect((await rerank(denseOnly, "q", candidates, 2)).map((h) => h.entry)).toEqual(["a", "b"]);
  });

  it("fails when the backend returns a different number of scores", async () => {
    const r: Reranker = { name: "short", score: async () => [1, 2] };
    await expect(rerank(r, "q", candidates, 2)).rejects.toThrow(RerankError);
  });
});

describe("lexical reranker", () => {
  it("lifts exact word matches above denser but lexically unrelated candidates", async () => {
    const cs = [
      { entry: 0, text: "column: City | value: Lyon", dense: 0.6 },
      { entry: 1, text: "column: City | value: Saint Etienne", dense: 0.5 },
    ];
    const hits = await rerank(new LexicalReranker(), "clubs from saint etienne", cs, 2);
    expect(hits[0]!.entry).toBe(1);
    const rrf = await rerank(new LexicalReranker({ fusion: "rrf" }), "clubs from saint etienne", cs, 2);
    expect(rrf).toHaveLength(2);
  });

  it("scores a cell value found verbatim in the query (word-bounded) as a mention", () => {
    const q = "what play was wanamaker nominated for in 1986?";
    const words = new Set(["play", "wanamaker", "nominated", "1986"]);
    expect(mentionScore(q, words, "1986")).toBe(1);
    expect(mentionScore(q, words, "198")).toBe(0);
    expect(mentionScore(q, words, "Wanamaker Theatre")).toBe(0.25);
  });

  it("scores a value named with one typing error below a verbatim mention and above a partial one", () => {
    const score = (question: string, key: string) =>
      mentionScore(question, new Set(question.split(/[^a-z0-9]+/).filter((w) => w.length > 2)), key);
    expect(score("how many players are from sapin", "Spain")).toBe(TYPO_MENTION);
    expect(score("how many performances has jesrey boys had", "Jersey Boys")).toBe(TYPO_MENTION);
    expect(score("which shows was he the hsot of", "Host")).toBe(TYPO_MENTION);
    expect(TYPO_MENTION).toBeLessThan(1);
    expect(TYPO_MENTION).toBeGreaterThan(0.5);
    // not typing errors: an inflection, a different four-letter word, another number, another first letter
    expect(score("how many players scored", "Player")).toBe(0);
    expect(score("who played first", "Player")).toBe(0);
    expect(score("which was the most", "Host")).toBe(0);
    expect(score("incorporated in 1981", "1891")).toBe(0);
    expect(score("players from pain", "Spain")).toBe(0);
  });
});
