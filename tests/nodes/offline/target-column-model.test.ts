import { afterAll, describe, expect, it } from "vitest";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { rankTargetColumns } from "../../../nodes/offline/columns.js";
import { findMentions } from "../../../nodes/offline/mentions.js";
import { ModelFileError } from "../../../nodes/offline/model-file.js";
import {
  checkTargetColumnModel,
  handWeights,
  recordTargetRankings,
  setTargetColumnModel,
  TARGET_FEATURES,
  targetColumnModel,
} from "../../../nodes/offline/target-column-model.js";
import { askedWords } from "../../../nodes/offline/mentions.js";
import { firstPlan } from "../../../nodes/offline/plans/registry.js";
import { openFixture } from "./fixtures.js";

const fx = openFixture();
afterAll(() => {
  setTargetColumnModel(undefined);
  recordTargetRankings(null);
  fx.close();
});

const QUESTIONS: Array<[string, string]> = [
  ["how many silver medals did russia win?", "medals"],
  ["who won in beijing?", "races"],
  ["which venue did ana smith win at?", "races"],
  ["what is the rank of germany?", "medals"],
];

function ranked(question: string, table: string, options = {}) {
  const a = analyzeQuestion(question);
  const catalog = fx.catalog(table);
  return rankTargetColumns(a, catalog, findMentions(question, catalog), options);
}

describe("learned target-column scorer", () => {
  it("with the hand weights as its weights ranks and scores exactly as the hand score", () => {
    for (const [q, t] of QUESTIONS) {
      setTargetColumnModel(null);
      const hand = ranked(q, t, { avoid: new Set([1]) });
      setTargetColumnModel({ trainedOn: "test", features: [...TARGET_FEATURES], weights: handWeights() });
      const model = ranked(q, t, { avoid: new Set([1]) });
      expect(model.map((r) => r.column.schema.name)).toEqual(hand.map((r) => r.column.schema.name));
      model.forEach((r, i) => expect(r.score).toBeCloseTo(hand[i]!.score, 9));
    }
  });

  it("without a model the hand score ranks: the named column first", () => {
    setTargetColumnModel(null);
    expect(targetColumnModel()).toBeNull();
    expect(ranked("how many silver medals did russia win?", "medals")[0]!.column.schema.name).toBe("Silver");
    expect(ranked("which venue did ana smith win at?", "races")[0]!.column.schema.name).toBe("Venue");
    setTargetColumnModel(undefined);
  });

  it("lets a different weight vector change the order (the model is what ranks)", () => {
    const w = TARGET_FEATURES.map((f) => (f === "index" ? 10 : 0));
    setTargetColumnModel({ trainedOn: "test", features: [...TARGET_FEATURES], weights: w });
    const cols = ranked("who won in beijing?", "races").map((r) => r.column.index);
    expect(cols).toEqual([...cols].sort((x, y) => y - x));
    setTargetColumnModel(undefined);
  });

  it("keeps the hand ranking when the question spells a column's header (the model ranks only the rest)", () => {
    const w = TARGET_FEATURES.map((f) => (f === "index" ? 10 : 0));
    setTargetColumnModel({ trainedOn: "test", features: [...TARGET_FEATURES], weights: w });
    // "silver" spells the Silver header: the hand score's column, whatever the weights prefer.
    expect(ranked("how many silver medals did russia win?", "medals")[0]!.column.schema.name).toBe("Silver");
    setTargetColumnModel(undefined);
  });

  it("the shipped model (or none) still answers a plain table's named numeric column", () => {
    setTargetColumnModel(undefined);
    const answer = (question: string) => {
      const analysis = analyzeQuestion(question);
      const catalog = fx.catalog("employees");
      const plan = firstPlan({
        analysis,
        catalog,
        mentions: findMentions(question, catalog, { avoidWords: askedWords(analysis) }),
      });
      return fx.run(plan!.sql);
    };
    expect(answer("What is the highest salary?")).toEqual([["88000"]]);
    expect(answer("What's Bo Chen's salary?")).toEqual([["64000"]]);
    expect(answer("Which department does Dev Patel work in?")).toEqual([["Support"]]);
  });

  it("records one feature vector per usable column for training", () => {
    const seen: number[][] = [];
    recordTargetRankings((rows) => seen.push(...rows.map((r) => r.x)));
    ranked("who won in beijing?", "races", { usable: new Set([0, 1]) });
    recordTargetRankings(null);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toHaveLength(TARGET_FEATURES.length);
  });

  it("refuses a model file whose features differ, naming the file", () => {
    expect(() =>
      checkTargetColumnModel({ trainedOn: "x", features: ["a"], weights: [1] }, "/m/target-columns.json"),
    ).toThrow(ModelFileError);
    expect(() => checkTargetColumnModel({ features: ["a"], weights: [] }, "/m/target-columns.json")).toThrow(
      /target-columns\.json/,
    );
  });
});
