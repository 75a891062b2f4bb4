import { afterAll, describe, expect, it } from "vitest";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import {
  baseLinkWeights,
  checkConditionLinkModel,
  LINK_FEATURES,
  linkCandidates,
  linkMentions,
  setConditionLinkModel,
} from "../../../nodes/offline/condition-links.js";
import { askedWords, findMentions } from "../../../nodes/offline/mentions.js";
import { ModelFileError } from "../../../nodes/offline/model-file.js";
import { firstPlan } from "../../../nodes/offline/plans/registry.js";
import { openFixture } from "./fixtures.js";

const fx = openFixture();
afterAll(() => {
  setConditionLinkModel(undefined);
  fx.close();
});

const mentionsOf = (question: string, table: string) => {
  const analysis = analyzeQuestion(question);
  return findMentions(question, fx.catalog(table), { avoidWords: askedWords(analysis) });
};

describe("condition linking", () => {
  it("enumerates the base links, a dropped mention, another column holding the span and a widened link", () => {
    // "kim lee" is an exact Winner cell; "south korea" is part of two Venue cells.
    const catalog = fx.catalog("races");
    const mentions = mentionsOf("how many races did kim lee win in south korea?", "races");
    expect(mentions.map((m) => `${m.text}→${m.column}`)).toEqual(["kim lee→Winner", "south korea→Venue"]);
    const cands = linkCandidates(catalog, mentions);
    expect(cands[0]).toMatchObject({ kind: "base", mentions });
    expect(cands.filter((c) => c.kind === "drop").map((c) => c.from!.text)).toEqual(["kim lee", "south korea"]);
    expect(cands.some((c) => c.kind === "drop-all" && c.mentions.length === 0)).toBe(true);
    // The partial "south korea" link already names every cell containing it: no widening of it.
    expect(cands.some((c) => c.kind === "widen" && c.from!.text === "south korea")).toBe(false);
  });

  it("widens an exact link to every cell containing the span, and relinks a span another column holds", () => {
    const catalog = fx.catalog("races2");
    // "kim lee" is an exact Rider cell on three rows; widening finds no more.
    const mentions = mentionsOf("when did kim lee finish 3rd?", "races2");
    const cands = linkCandidates(catalog, mentions);
    expect(cands.every((c) => c.kind !== "widen" || c.to!.rows.length > c.from!.rows.length)).toBe(true);
    // "tokyo" (a Venue cell) relinked: no other column holds it, so only the drop is offered for it.
    const races = linkCandidates(fx.catalog("races"), mentionsOf("who won in tokyo?", "races"));
    expect(races.map((c) => c.kind)).toEqual(["base", "drop"]);
  });

  it("without a model keeps findMentions's links; the prior model (base wins) too", () => {
    const q = "how many races did kim lee win in south korea?";
    const catalog = fx.catalog("races");
    const analysis = analyzeQuestion(q);
    const base = findMentions(q, catalog, { avoidWords: askedWords(analysis) });
    setConditionLinkModel(null);
    expect(linkMentions(q, analysis, catalog)).toEqual(base);
    setConditionLinkModel({ trainedOn: "test", features: [...LINK_FEATURES], weights: baseLinkWeights() });
    expect(linkMentions(q, analysis, catalog)).toEqual(base);
  });

  it("lets the model's weights choose another candidate (here: a dropped mention)", () => {
    const q = "how many races did kim lee win in south korea?";
    const catalog = fx.catalog("races");
    const analysis = analyzeQuestion(q);
    setConditionLinkModel({
      trainedOn: "test",
      features: [...LINK_FEATURES],
      weights: LINK_FEATURES.map((f) => (f === "base" ? 1 : f === "drop" ? 2 : f === "from:partial" ? 1 : 0)),
    });
    // Dropping the partial "south korea" scores 3, dropping the exact "kim lee" 2, the base 1.
    expect(linkMentions(q, analysis, catalog).map((m) => m.text)).toEqual(["kim lee"]);
    setConditionLinkModel(undefined);
  });

  it("the shipped model (or none) still answers a plain table's filtered count and maximum", () => {
    setConditionLinkModel(undefined);
    const answer = (question: string) => {
      const analysis = analyzeQuestion(question);
      const catalog = fx.catalog("employees");
      const plan = firstPlan({ analysis, catalog, mentions: linkMentions(question, analysis, catalog) });
      return fx.run(plan!.sql);
    };
    expect(answer("How many employees work in Sales?")).toEqual([[2]]);
    expect(answer("What is the highest salary?")).toEqual([["88000"]]);
    expect(answer("What's Bo Chen's salary?")).toEqual([["64000"]]);
  });

  it("refuses a model file whose features differ, naming the file", () => {
    expect(() =>
      checkConditionLinkModel({ trainedOn: "x", features: ["a"], weights: [1] }, "/m/condition-links.json"),
    ).toThrow(ModelFileError);
    expect(() => checkConditionLinkModel({ features: ["a"], weights: [] }, "/m/condition-links.json")).toThrow(
      /condition-links\.json/,
    );
  });
});
