import { afterAll, describe, expect, it } from "vitest";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { featureKeys, planConfidence, planFeatures, setConfidenceModel } from "../../../nodes/offline/confidence.js";
import { askedWords, findMentions } from "../../../nodes/offline/mentions.js";
import { planSql } from "../../../nodes/offline/sql-writer.js";
import { openFixture } from "./fixtures.js";

const fx = openFixture();
afterAll(() => {
  fx.close();
  setConfidenceModel(undefined);
});

function features(question: string, table: string) {
  const a = analyzeQuestion(question);
  const catalog = fx.catalog(table);
  const mentions = findMentions(question, catalog, { avoidWords: askedWords(a) });
  const plan = planSql({ analysis: a, catalog, mentions });
  if (!plan) throw new Error(`no plan for ${question}`);
  return planFeatures(a, mentions, plan, catalog);
}

describe("plan features", () => {
  it("marks a next/previous plan whose anchor value names several rows", () => {
    // Kim Lee rode three races: "the race after kim lee's" could follow any of them.
    expect(features("which rider came after kim lee?", "races2")).toMatchObject({
      template: "next",
      anchor: "repeated",
    });
    expect(features("which rider came after ana smith?", "races2").anchor).toBeUndefined();
  });

  it("gives a repeated anchor its own, most specific, confidence cells", () => {
    const f = { template: "next", grounding: "exact", mentions: "1", target: "named", anchor: "repeated" } as const;
    expect(featureKeys(f).slice(0, 2)).toEqual(["next|named|anchor=repeated", "next|anchor=repeated"]);
    setConfidenceModel({ prior: 0.5, k: 5, table: { next: [80, 100], "next|anchor=repeated": [2, 40] } });
    expect(planConfidence(f)).toBeLessThan(0.3);
    expect(planConfidence({ ...f, anchor: undefined })).toBeGreaterThan(0.7);
  });
});
