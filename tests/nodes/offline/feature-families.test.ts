/** The optional feature families are computed only where the model uses them (nodes/offline/feature-families.ts). */
import { afterEach, describe, expect, it } from "vitest";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { answerFeatures } from "../../../nodes/offline/answer-features.js";
import { setAnswerModel, type AnswerModel } from "../../../nodes/offline/answer-model.js";
import { acceptorMayAccept, familiesOf, familyOn, readerFamilyOn } from "../../../nodes/offline/feature-families.js";
import type { VerifyInput } from "../../../nodes/strategies.js";
import { plan } from "../../fixtures/plans.js";

const model = (weights: Record<string, number>, ranker: Record<string, number> = {}): AnswerModel => ({
  format: "atr-answer-verifier-v2",
  scorer: { kind: "logistic", weights },
  threshold: 0.9,
  ranker: { scorer: { kind: "logistic", weights: ranker } },
  trainedOn: {},
});

function sqlInput(verifierFeatures?: "all"): VerifyInput {
  const q = "Which city does Ana Ruiz work in?";
  const a = analyzeQuestion(q);
  return {
    question: q,
    subQuery: q,
    plan: plan({
      subQuery: q,
      requiredModalities: "table",
      expectedOperator: a.operator,
      analysis: a as unknown as Record<string, unknown>,
    }),
    route: "SQL",
    answer: "Porto",
    evidence: "[Table staff, row 0]\n  name: Ana Ruiz\n  city: Porto",
    sqlResult: "city\nPorto",
    sqlSiblingAnswers: ["Lyon"],
    ...(verifierFeatures ? { verifierFeatures } : {}),
  };
}

afterEach(() => setAnswerModel(undefined));

describe("feature families", () => {
  it("a model's families are the prefixes its scorer or ranker weighs (zero weights do not count)", () => {
    expect([...familiesOf(model({ bias: 1, "pm:asked-match": 0.5, "lr:row": 0 }))]).toEqual(["pm:"]);
    expect([...familiesOf(model({ bias: 1 }, { "r:rc:score": 0.3 }))]).toEqual(["rc:"]);
    const trees: AnswerModel = {
      ...model({}),
      scorer: { kind: "trees", features: ["sqlalt:agree"], base: 0, trees: [] },
    };
    expect([...familiesOf(trees)]).toEqual(["sqlalt:"]);
  });

  it("a family the model gives no weight is not computed, unless every family is asked for", () => {
    setAnswerModel(model({ bias: 1, "route=SQL": 0.2 }));
    expect(familyOn("sqlalt:")).toBe(false);
    expect(familyOn("sqlalt:", "all")).toBe(true);
    const gated = answerFeatures(sqlInput(), { ruleCode: "sql", hasPassages: false });
    expect(Object.keys(gated).filter((k) => k.startsWith("sqlalt:"))).toEqual([]);
    expect(gated["route=SQL"]).toBe(1);
    const all = answerFeatures(sqlInput("all"), { ruleCode: "sql", hasPassages: false });
    expect(all["sqlalt:disagree"]).toBe(1);
    // the same features otherwise
    const rest = (f: Record<string, number>) => Object.keys(f).filter((k) => !k.startsWith("sqlalt:"));
    expect(rest(all)).toEqual(rest(gated));
  });

  it("a family the model weighs is computed at default settings", () => {
    setAnswerModel(model({ bias: 1, "sqlalt:disagree": -0.5 }));
    expect(answerFeatures(sqlInput(), { ruleCode: "sql", hasPassages: false })["sqlalt:disagree"]).toBe(1);
  });

  it("a family only the acceptor weighs is computed only on an index whose kind it may accept", () => {
    const flat = { x: [0, 1], y: [0, 1] };
    const withAcceptor = (kinds: Array<[string, number]>, rest: number): AnswerModel => ({
      ...model({ bias: 1, "pm:asked-match": 0.4 }),
      ranker: {
        scorer: { kind: "logistic", weights: {} },
        acceptor: {
          scorer: { kind: "logistic", weights: { "b:lr:row": 0.3, "r:rc:score": 0.2, "b:sqlalt:agree": 0.1 } },
          kinds: kinds.map(([feature, threshold]) => ({ feature, threshold, calibration: flat })),
          rest: { threshold: rest, calibration: flat },
        },
      },
    });
    // the shipped shape: tables only 0.91, report tables and the rest never
    const shipped = withAcceptor(
      [
        ["tables-only", 0.91],
        ["period-table", 1],
      ],
      1,
    );
    expect(acceptorMayAccept(shipped.ranker!.acceptor!, { hasPassages: false })).toBe(true);
    expect(acceptorMayAccept(shipped.ranker!.acceptor!, { hasPassages: true })).toBe(false);
    expect([...familiesOf(shipped, { hasPassages: false })].sort()).toEqual(["lr:", "pm:", "rc:", "sqlalt:"]);
    // the scorer's pm: stays; the acceptor's families go where it never accepts
    expect([...familiesOf(shipped, { hasPassages: true })]).toEqual(["pm:"]);
    expect([...familiesOf(shipped)].sort()).toEqual(["lr:", "pm:", "rc:", "sqlalt:"]);
    // a kind the index does not decide (a report table in the evidence) may apply: its threshold counts
    const report = withAcceptor(
      [
        ["tables-only", 1],
        ["period-table", 0.95],
      ],
      1,
    );
    expect(acceptorMayAccept(report.ranker!.acceptor!, { hasPassages: true })).toBe(true);
    expect(acceptorMayAccept(report.ranker!.acceptor!, { hasPassages: false })).toBe(false);
    expect(acceptorMayAccept(withAcceptor([["tables-only", 1]], 0.9).ranker!.acceptor!, { hasPassages: true })).toBe(
      true,
    );
    setAnswerModel(shipped);
    expect(familyOn("lr:", "model", { hasPassages: true })).toBe(false);
    expect(familyOn("lr:", "model", { hasPassages: false })).toBe(true);
    expect(familyOn("lr:", "all", { hasPassages: true })).toBe(true);
    expect(readerFamilyOn()).toBe(false);
    expect(readerFamilyOn("all")).toBe(true);
    // answerFeatures gates lr:/sqlalt: by the verifier's own kind of index
    const onPassages = answerFeatures(sqlInput(), { ruleCode: "sql", hasPassages: true });
    expect(Object.keys(onPassages).filter((k) => k.startsWith("sqlalt:"))).toEqual([]);
    expect(answerFeatures(sqlInput(), { ruleCode: "sql", hasPassages: false })["sqlalt:disagree"]).toBe(1);
  });

  it("without a model nothing optional is computed", () => {
    setAnswerModel(null);
    expect(familyOn("pm:")).toBe(false);
    expect(familyOn("pm:", "all")).toBe(true);
  });
});
