import { describe, expect, it } from "vitest";
import {
  SPAN_RERANK_FEATURES,
  SPAN_RERANK_K,
  SPAN_RERANK_PRIOR,
  SPAN_RERANK_WEIGHTS,
  rerankSpans,
  spanRerankFeatures,
  type RerankableSpan,
} from "../../../nodes/offline/span-rerank.js";

const span = (answer: string, score: number, more: Partial<RerankableSpan> = {}): RerankableSpan => ({
  answer,
  context: `Some sentence about ${answer} .`,
  score,
  block: 0,
  sentence: 1,
  linked: 0.45,
  at: 3,
  overlap: 0,
  proximity: 0.3,
  ...more,
});
const context = (question: string, passages: string[] = []) => ({ kind: "entity" as const, question, passages });
const feature = (name: (typeof SPAN_RERANK_FEATURES)[number]) => SPAN_RERANK_FEATURES.indexOf(name);

describe("span re-ranking of the described row's spans", () => {
  it("has one weight per feature", () => {
    expect(SPAN_RERANK_WEIGHTS).toHaveLength(SPAN_RERANK_FEATURES.length);
    expect(SPAN_RERANK_PRIOR).toHaveLength(SPAN_RERANK_FEATURES.length);
  });

  it("the prior keeps the hand order, ties included", () => {
    const spans = [span("Alpha Town", 2), span("Beta Town", 2), span("Gamma", 1.5)];
    expect(rerankSpans(spans, context("Which town ?"), SPAN_RERANK_PRIOR).map((s) => s.answer)).toEqual([
      "Alpha Town",
      "Beta Town",
      "Gamma",
    ]);
  });

  it("names what it sees: abbreviations, sentence openers, spans inside others, lists, brackets", () => {
    const xs = spanRerankFeatures(
      [
        span("UK", 2),
        span("Initially", 1.9, { at: 0 }),
        span("Lyon , France", 1.8),
        span("Lyon", 1.7),
        span("Ann and Bo", 1.6),
        span("Otago ( /ˈɒtəɡoʊ/", 1.5),
      ],
      context("Which city did the band come from ?"),
    );
    expect(xs[0]![feature("abbreviation")]).toBe(1);
    expect(xs[1]![feature("abbreviation")]).toBe(0);
    expect(xs[1]![feature("opener")]).toBe(1);
    expect(xs[2]![feature("contains-other")]).toBe(1);
    expect(xs[2]![feature("comma-city")]).toBe(1);
    expect(xs[3]![feature("inside-other")]).toBe(1);
    expect(xs[4]![feature("list")]).toBe(1);
    expect(xs[5]![feature("bracket")]).toBe(1);
    expect(xs[0]![feature("score-gap")]).toBe(0);
    expect(xs[3]![feature("score-gap")]).toBeCloseTo(-0.3);
  });

  it("keeps the hand order by default and gives a doubtful first span a low share", () => {
    const spans = [span("UK", 2), span("United Kingdom", 1.98)];
    const kept = rerankSpans(spans, context("Which country did the singer move to ?"));
    expect(kept.map((s) => s.answer)).toEqual(["UK", "United Kingdom"]);
    expect(kept[0]!.rerankP).toBeLessThan(kept[1]!.rerankP);
    // Ordered by the fit weights, the full name comes first; a clearly better hand score still wins.
    expect(rerankSpans(spans, context("Which country ?"), SPAN_RERANK_WEIGHTS).map((s) => s.answer)).toEqual([
      "United Kingdom",
      "UK",
    ]);
    expect(
      rerankSpans([span("UK", 3), span("United Kingdom", 1)], context("Which country ?"), SPAN_RERANK_WEIGHTS)[0]!
        .answer,
    ).toBe("UK");
    // A name every linked page writes gets a lower share than one only the answer's sentence holds.
    const pages = ["the club plays in norway", "he was born in norway and moved to bergen"];
    const shares = rerankSpans([span("Norway", 2), span("Bergen", 1.95)], context("Where did he move to ?", pages));
    expect(shares[0]!.rerankP).toBeLessThan(shares[1]!.rerankP);
  });

  it("re-orders only the top few, and gives each a share that sums to 1 among them", () => {
    const spans = Array.from({ length: SPAN_RERANK_K + 2 }, (_, i) => span(`Name${i}`, 3 - i * 0.1));
    const out = rerankSpans(spans, context("Which name ?"));
    expect(out).toHaveLength(spans.length);
    expect(out.slice(SPAN_RERANK_K).map((s) => s.answer)).toEqual(spans.slice(SPAN_RERANK_K).map((s) => s.answer));
    expect(out.slice(SPAN_RERANK_K).every((s) => s.rerankP === 0)).toBe(true);
    expect(out.slice(0, SPAN_RERANK_K).reduce((a, s) => a + s.rerankP, 0)).toBeCloseTo(1);
    expect(out[0]!.rerankP).toBeGreaterThanOrEqual(out[1]!.rerankP);
  });
});
