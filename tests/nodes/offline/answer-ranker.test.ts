import { describe, expect, it } from "vitest";
import {
  answerGroups,
  chooseAnswer,
  LOGIT_P,
  rulePick,
  type RankedAttempt,
} from "../../../nodes/offline/answer-ranker.js";

const a = (answer: string, route: string, p: number, verdict = 0.5, rule = "read", subQuery = "q"): RankedAttempt => ({
  answer,
  route,
  p,
  verdict,
  subQuery,
  features: { [`rule=${rule}`]: 1 },
});

describe("answer ranker", () => {
  it("the rule policy: first rule-verified answer, else the earliest uncontradicted answer of the latest sub-query with one", () => {
    expect(rulePick([a("12", "SQL", 0.2, 0.5, "sql-low-confidence"), a("14", "SQL", 0.3, 0.5, "sql")])).toBe(1);
    expect(rulePick([a("x", "TEXT", 0.1, 0, "wrong-kind"), a("Porto", "RETRIEVE", 0.2), a("Lyon", "TEXT", 0.3)])).toBe(
      1,
    );
    expect(rulePick([a("Porto", "SQL", 0.2), a("Lyon", "TEXT", 0.3, 0.5, "read", "q (about: Lyon)")])).toBe(1);
    expect(rulePick([a("not found", "TEXT", 0.5)])).toBe(-1);
  });

  it("groups identical answers and counts their attempts and routes", () => {
    const groups = answerGroups([
      a("Porto", "SQL", 0.4),
      a("porto", "RETRIEVE", 0.6),
      a("Lyon", "TEXT", 0.5),
      a("Nice", "TEXT", 0.9, 0, "wrong-kind"),
    ]);
    expect(groups.map((g) => g.answer)).toEqual(["Porto", "Lyon"]);
    expect(groups[0]!.attempts).toEqual([0, 1]);
    expect(groups[0]!.features).toMatchObject({
      "r:routes=2": 1,
      "r:sql-and-read": 1,
      // by kind of evidence too (no passages, no report table: "linked" is the rest)
      "r:sql-and-read|linked": 1,
      "r:answers=2": 1,
    });
    expect(groups[0]!.features[LOGIT_P]).toBeCloseTo(Math.log(0.6 / 0.4));
    expect(groups[1]!.features["r:routes=2"]).toBeUndefined();
  });

  it("reads the kind of evidence from the attempts' features, and nothing else of them", () => {
    const tables = (x: RankedAttempt): RankedAttempt => ({
      ...x,
      features: { ...x.features, "tables-only": 1, "kind=place": 1 },
    });
    const [porto] = answerGroups([tables(a("Porto", "SQL", 0.4)), tables(a("Porto", "TEXT", 0.3))]).map(
      (g) => g.features,
    );
    expect(porto).toMatchObject({ "r:routes=2|tables": 1, "r:sql-and-read|tables": 1 });
    expect(Object.keys(porto!).some((k) => k.includes("kind=") || k.includes("rule="))).toBe(false);
  });

  it("with the log-odds of P as its only weight the ranker gives the highest-P answer, whatever agrees", () => {
    // two reading attempts agree on Lyon at low P; one SQL attempt found Porto at a higher P
    const attempts = [a("Lyon", "TEXT", 0.15), a("Porto", "SQL", 0.3, 0.5, "sql"), a("Lyon", "RETRIEVE", 0.1)];
    const ranker = { scorer: { kind: "logistic" as const, weights: { [LOGIT_P]: 1 } } };
    expect(chooseAnswer(attempts, ranker)).toMatchObject({ index: 1, verified: false });
    // a measured agreement weight large enough overturns it; a small one does not
    const agreeing = (w: number) => ({
      scorer: { kind: "logistic" as const, weights: { [LOGIT_P]: 1, "r:routes=2": w } },
    });
    expect(chooseAnswer(attempts, agreeing(0.3))).toMatchObject({ index: 1 });
    expect(chooseAnswer(attempts, agreeing(1.5))).toMatchObject({ index: 0 });
  });

  it("answers the accepted attempt, else the ranker's choice, else the highest P", () => {
    const attempts = [a("Porto", "SQL", 0.4), a("Lyon", "TEXT", 0.5), a("Porto", "RETRIEVE", 0.3)];
    const ranker = { scorer: { kind: "logistic" as const, weights: { "r:routes=2": 2 } } };
    expect(chooseAnswer(attempts)).toEqual({ index: 1, verified: false, p: 0.5 });
    // the ranker's group; its first attempt gives the answer
    expect(chooseAnswer(attempts, ranker)).toMatchObject({ index: 0, verified: false });
    expect(chooseAnswer([...attempts, a("Nice", "SQL", 0.9, 1, "sql")], ranker)).toEqual({
      index: 3,
      verified: true,
      p: 0.9,
    });
    expect(chooseAnswer([a("not found", "TEXT", 0.9)])).toBeUndefined();
  });

  it("accepts the ranker's answer at the question level when its calibrated P reaches the threshold", () => {
    const attempts = [a("Porto", "SQL", 0.4), a("Lyon", "TEXT", 0.5), a("Porto", "RETRIEVE", 0.3)];
    // raw 2 for the agreed answer, 0 for the other; the calibration maps raw 2 → 0.9
    const ranker = {
      scorer: { kind: "logistic" as const, weights: { "r:routes=2": 2 } },
      calibration: { x: [0, 2], y: [0.2, 0.9] },
    };
    expect(chooseAnswer(attempts, ranker, 0.85)).toEqual({ index: 0, verified: true, p: 0.9 });
    expect(chooseAnswer(attempts, ranker, 0.95)).toEqual({ index: 0, verified: false, p: 0.9 });
    expect(chooseAnswer(attempts, ranker, 1)).toMatchObject({ verified: false }); // exploration runs never accept
  });
});
