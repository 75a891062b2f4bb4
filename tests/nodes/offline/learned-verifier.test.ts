import { afterEach, describe, expect, it } from "vitest";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { answerFeatures } from "../../../nodes/offline/answer-features.js";
import {
  answerModel,
  checkAnswerModel,
  scoreFeatures,
  setAnswerModel,
  strongestFeatures,
  thresholdFor,
  type AnswerModel,
} from "../../../nodes/offline/answer-model.js";
import { learnedVerdict, verifyAnswer } from "../../../nodes/offline/verifier.js";
import type { VerifyInput } from "../../../nodes/strategies.js";
import type { SubQueryPlan } from "../../../nodes/types.js";

function plan(q: string): SubQueryPlan {
  const a = analyzeQuestion(q);
  return {
    subQuery: q,
    requiredModalities: "table",
    expectedOperator: a.operator,
    needGlobalTableView: false,
    entityMentions: [],
    uncertainty: 0,
    analysis: a as unknown as Record<string, unknown>,
  };
}

const ROWS =
  "[Table staff, row 0]\n  name: Ana Ruiz\n  city: Porto\n  salary: 71000\n\n[Table staff, row 1]\n  name: Bo Chen\n  city: Lyon\n  salary: 64000";

function input(q: string, answer: string, extra: Partial<VerifyInput> = {}): VerifyInput {
  return {
    question: q,
    subQuery: q,
    plan: plan(q),
    route: "RETRIEVE",
    answer,
    evidence: ROWS,
    sqlResult: "",
    ...extra,
  };
}

function model(weights: Record<string, number>, threshold = 0.8): AnswerModel {
  return { format: "atr-answer-verifier-v2", scorer: { kind: "logistic", weights }, threshold, trainedOn: {} };
}

afterEach(() => setAnswerModel(undefined));

describe("candidate features", () => {
  it("names the route, the rule outcome, the answer's shape and agreement with earlier attempts", () => {
    const i = input("Which city does Ana Ruiz work in?", "Porto", {
      attempt: 2,
      requestedRoute: "HYBRID",
      earlier: [{ route: "SQL", answer: "Porto", subQuery: "Which city does Ana Ruiz work in?" }],
    });
    const f = answerFeatures(i, { ruleCode: "read", hasPassages: false });
    expect(f["route=RETRIEVE"]).toBe(1);
    expect(f["rule=read"]).toBe(1);
    expect(f["route-changed"]).toBe(1);
    expect(f["attempt=2"]).toBe(1);
    expect(f["agree=1"]).toBe(1);
    expect(f["agree-other-family"]).toBe(1);
    expect(f["ans:tokens=1"]).toBe(1);
    expect(f.grounded).toBe(1);
    expect(f["tables-only"]).toBe(1);
    expect(f.support).toBeGreaterThan(0);
  });

  it("an SQL candidate's agreement with the same attempt's other SQL candidates", () => {
    const q = "Which city does Ana Ruiz work in?";
    const sql = (siblings?: string[]) =>
      answerFeatures(
        input(q, "Porto", {
          route: "SQL",
          verifierFeatures: "all",
          ...(siblings ? { sqlSiblingAnswers: siblings } : {}),
        }),
        {
          ruleCode: "sql",
          hasPassages: false,
        },
      );
    expect(sql(["porto", "Lyon"])).toMatchObject({ "sqlalt:agree": 1, "sqlalt:agree-share": 0.5 });
    expect(sql(["Lyon", "not found"])).toMatchObject({ "sqlalt:disagree": 1, "sqlalt:agree-share": 0 });
    expect(sql()["sqlalt:none"]).toBe(1);
    // a reading has no SQL siblings
    expect(answerFeatures(input(q, "Porto"), { ruleCode: "read", hasPassages: false })["sqlalt:none"]).toBeUndefined();
  });

  it("counts disagreeing earlier answers apart from agreeing ones", () => {
    const i = input("Which city does Ana Ruiz work in?", "Lyon", {
      earlier: [
        { route: "SQL", answer: "Porto", subQuery: "q" },
        { route: "TEXT", answer: "not found", subQuery: "q" },
      ],
    });
    const f = answerFeatures(i, { ruleCode: "read", hasPassages: false });
    expect(f["agree=0"]).toBe(1);
    expect(f["disagree=1"]).toBe(1);
  });
});

describe("learned verdict", () => {
  const q = "Which city does Ana Ruiz work in?";

  it("accepts at P ≥ the threshold and says why", () => {
    setAnswerModel(model({ bias: -1, "agree=1": 4 }));
    const i = input(q, "Porto", { earlier: [{ route: "SQL", answer: "Porto", subQuery: q }] });
    const v = learnedVerdict(i, verifyAnswer(i));
    expect(v.verdict).toBe(1);
    expect(v.pCorrect).toBeCloseTo(1 / (1 + Math.exp(-3)), 3);
    expect(v.reason).toMatch(/^accepted, P\(correct\) 0\.95 ≥ 0\.80/);
    expect(v.reason).toMatch(/an earlier attempt found the same answer/);
    expect(v.features?.["agree=1"]).toBe(1);
  });

  it("a candidate of the kind `thresholdBy` names is accepted at its own threshold, the others at the model's", () => {
    const i = input(q, "Porto", { earlier: [{ route: "SQL", answer: "Porto", subQuery: q }] });
    // P 0.95; without passages beside the tables the candidate carries "tables-only"
    setAnswerModel({ ...model({ bias: -1, "agree=1": 4 }), thresholdBy: { feature: "tables-only", threshold: 0.97 } });
    const own = learnedVerdict(i, verifyAnswer(i));
    expect(own.features?.["tables-only"]).toBe(1);
    expect(own.verdict).toBe(0.5);
    expect(own.reason).toMatch(/P\(correct\) 0\.95 < 0\.97/);
    setAnswerModel({ ...model({ bias: -1, "agree=1": 4 }), thresholdBy: { feature: "passages", threshold: 0.97 } });
    expect(learnedVerdict(i, verifyAnswer(i)).verdict).toBe(1);
    expect(thresholdFor(answerModel()!, { passages: 1 })).toBe(0.97);
    expect(thresholdFor(answerModel()!, { "tables-only": 1 })).toBe(0.8);
  });

  it("keeps 0.5 below the threshold and 0 when a check contradicts the answer", () => {
    setAnswerModel(model({ bias: -1 }));
    const plausible = input(q, "Porto");
    expect(learnedVerdict(plausible, verifyAnswer(plausible)).verdict).toBe(0.5);
    const wrongKind = input("How many employees work in Porto?", "Ana Ruiz");
    const rule = verifyAnswer(wrongKind);
    expect(rule.code).toBe("wrong-kind");
    const v = learnedVerdict(wrongKind, rule);
    expect(v.verdict).toBe(0);
    expect(v.reason).toMatch(/^rejected/);
  });

  it("never accepts at threshold 1 (exploration runs), with or without a model", () => {
    setAnswerModel(model({ bias: 8 }));
    const i = input(q, "Porto", { acceptThreshold: 1 });
    expect(learnedVerdict(i, verifyAnswer(i)).verdict).toBe(0.5);
    setAnswerModel(null);
    const sql = input("What is the salary of Ana Ruiz?", "71000", {
      route: "SQL",
      sqlResult: '[{"salary":71000}]',
      sql: 'SELECT "salary" FROM "staff" WHERE "name" = \'Ana Ruiz\'',
      acceptThreshold: 1,
    });
    const v = learnedVerdict(sql, { verdict: 1, code: "sql", reason: "the SQL result" });
    expect(v.verdict).toBe(0.5);
    expect(v.features?.["route=SQL"]).toBe(1);
  });

  it("leaves no-value answers to the rules", () => {
    setAnswerModel(model({ bias: 8 }));
    const i = input(q, "none");
    const v = learnedVerdict(i, verifyAnswer(i));
    expect(v.verdict).toBe(0);
    expect(v.pCorrect).toBeUndefined();
  });
});

describe("the model file", () => {
  const trees: AnswerModel = {
    format: "atr-answer-verifier-v2",
    scorer: {
      kind: "trees",
      features: ["agree=1", "support"],
      base: -1,
      // agree=1 ? (support ≤ 0.5 ? +0.5 : +2) : −1
      trees: [
        {
          f: [0, -1, 1, -1, -1],
          t: [0.5, 0, 0.5, 0, 0],
          l: [1, 0, 3, 0, 0],
          r: [2, 0, 4, 0, 0],
          v: [0, -1, 1, 0.5, 2],
        },
      ],
    },
    calibration: { x: [-2, 0, 1], y: [0.05, 0.4, 0.95] },
    threshold: 0.9,
    trainedOn: {},
  };

  it("round-trips through JSON and scores the same; unknown features are ignored, missing ones are 0", () => {
    const back = checkAnswerModel(JSON.parse(JSON.stringify(trees)));
    expect(back).toEqual(trees);
    const f = { "agree=1": 1, support: 0.8 };
    expect(scoreFeatures(back, f)).toBeCloseTo(0.95, 6); // raw −1 + 2 = 1
    expect(scoreFeatures(back, { ...f, "readcand:span-rank=2": 1 })).toBe(scoreFeatures(back, f));
    expect(scoreFeatures(back, { "agree=1": 1 })).toBe(scoreFeatures(back, { "agree=1": 1, support: 0 }));
    expect(scoreFeatures(back, {})).toBeCloseTo(0.05, 6); // raw −2
    expect(strongestFeatures(back.scorer, f)[0]).toMatch(/^agree=1 \+/);
  });

  it("a tree model accepts in the verifier at its calibrated P and names the features that moved it", () => {
    setAnswerModel(trees);
    const q = "Which city does Ana Ruiz work in?";
    const i = input(q, "Porto", { earlier: [{ route: "SQL", answer: "Porto", subQuery: q }] });
    const v = learnedVerdict(i, verifyAnswer(i));
    expect(v.features?.["agree=1"]).toBe(1);
    expect(v.pCorrect!).toBeGreaterThan(0.6);
    expect(v.reason).toMatch(/\[agree=1 \+/);
  });

  it("a malformed file is refused with the file and the field named; a version 1 file still loads", () => {
    const broken = { ...trees, scorer: { ...trees.scorer, trees: [{ f: [0], t: [0.5], l: [0], r: [0], v: [0] }] } };
    expect(() => checkAnswerModel(broken, "x/answer-verifier.json")).toThrow(
      /x\/answer-verifier\.json is not a valid model file \(scorer\.trees\[0\] node 0: child 0 must be a later node\)/,
    );
    expect(() => checkAnswerModel({ ...trees, scorer: { ...trees.scorer, features: ["agree=1"] } })).toThrow(
      /scorer\.trees\[0\]\.f\[2\]: feature index out of range/,
    );
    expect(() => checkAnswerModel({ ...trees, calibration: { x: [0, 1], y: [0.9, 0.1] } })).toThrow(
      /calibration\.y: must be non-decreasing/,
    );
    expect(() => checkAnswerModel({ ...trees, threshold: 2 })).toThrow(/threshold: expected a number in 0\.\.1/);
    expect(() => checkAnswerModel({ ...trees, thresholdBy: { feature: "tables-only", threshold: -1 } })).toThrow(
      /thresholdBy\.threshold: expected a number in 0\.\.1/,
    );
    expect(
      checkAnswerModel({ ...trees, thresholdBy: { feature: "tables-only", threshold: 0.95 } }).thresholdBy,
    ).toEqual({
      feature: "tables-only",
      threshold: 0.95,
    });
    expect(() => checkAnswerModel({ ...trees, format: "v9" })).toThrow(/format: unknown format v9/);
    const v1 = checkAnswerModel({
      format: "atr-answer-verifier-v1",
      weights: { bias: 1 },
      ranker: { "r:p": 2 },
      threshold: 0.8,
      trainedOn: {},
    });
    expect(v1.scorer).toEqual({ kind: "logistic", weights: { bias: 1 } });
    expect(v1.ranker?.scorer).toEqual({ kind: "logistic", weights: { "r:p": 2 } });
  });

  it("the shipped model loads, and scores a candidate in well under 0.1 ms", () => {
    setAnswerModel(undefined);
    const m = answerModel()!;
    expect(m.threshold).toBeGreaterThan(0);
    const i = input("Which city does Ana Ruiz work in?", "Porto");
    const f = answerFeatures(i, { ruleCode: "read", hasPassages: false });
    const n = 2000;
    const t0 = performance.now();
    for (let k = 0; k < n; k++) scoreFeatures(m, f);
    expect((performance.now() - t0) / n).toBeLessThan(0.1);
  });
});

describe("calibration per kind of evidence", () => {
  const byKind: AnswerModel = {
    format: "atr-answer-verifier-v2",
    scorer: { kind: "logistic", weights: { bias: 1 } },
    calibration: { x: [0, 2], y: [0.2, 0.6] },
    calibrationBy: [
      { feature: "tables-only", calibration: { x: [0, 2], y: [0.1, 0.3] } },
      { feature: "period-table", calibration: { x: [0, 2], y: [0.5, 0.9] } },
    ],
    threshold: 0.5,
    trainedOn: {},
  };

  it("a candidate is calibrated by the first kind whose feature it carries, else by the model's own map", () => {
    const back = checkAnswerModel(JSON.parse(JSON.stringify(byKind)));
    expect(back).toEqual(byKind);
    expect(scoreFeatures(back, { bias: 1, "tables-only": 1 })).toBeCloseTo(0.2); // raw 1 → halfway 0.1..0.3
    expect(scoreFeatures(back, { bias: 1, "period-table": 1 })).toBeCloseTo(0.7);
    expect(scoreFeatures(back, { bias: 1, "tables-only": 1, "period-table": 1 })).toBeCloseTo(0.2);
    expect(scoreFeatures(back, { bias: 1, passages: 1 })).toBeCloseTo(0.4);
  });

  it("a file with one calibrationBy object still loads; a malformed entry is named", () => {
    const one = { ...byKind, calibrationBy: byKind.calibrationBy![0] };
    expect(checkAnswerModel(one).calibrationBy).toEqual([byKind.calibrationBy![0]]);
    expect(() => checkAnswerModel({ ...byKind, calibrationBy: [{ feature: 3 }] })).toThrow(
      /calibrationBy\[0\]\.feature: expected a feature name/,
    );
  });
});
