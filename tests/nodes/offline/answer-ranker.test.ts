import { describe, expect, it } from "vitest";
import {
  acceptorFeatures,
  answerGroups,
  bestGroup,
  chooseAnswer,
  rankMargin,
  routeAgreement,
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
  it("the acceptor sees which routes found another answer and how far the ranker's choice led", () => {
    const attempts = [
      a("Porto", "SQL", 0.4),
      a("porto", "TEXT", 0.6),
      a("Lyon", "RETRIEVE", 0.5),
      a("Nice", "HYBRID", 0.9, 0, "wrong-kind"),
      { ...a("Lille", "TEXT", 0.2), features: { "rc:alternative": 1 } },
    ];
    const groups = answerGroups(attempts);
    const porto = groups.find((g) => g.answer === "Porto")!;
    // the contradicted HYBRID answer and a reading's other candidate are no route against it
    expect(routeAgreement(porto, attempts)).toEqual({
      "q:against=RETRIEVE": 1,
      "q:routes-against=1": 1,
      "q:route-share": 0.667,
    });
    const lyon = groups.find((g) => g.answer === "Lyon")!;
    expect(routeAgreement(lyon, attempts)).toMatchObject({
      "q:against=SQL": 1,
      "q:against=TEXT": 1,
      "q:routes-against=2+": 1,
    });
    const ranker = { scorer: { kind: "logistic" as const, weights: { "r:p": 4 } } };
    const best = bestGroup(ranker, groups)!;
    expect(best.group.answer).toBe("Porto");
    expect(best.margin).toBeCloseTo(4 * (0.6 - 0.5), 6);
    expect(bestGroup(ranker, [porto])!.margin).toBe(Infinity);
    expect(rankMargin(Infinity)).toEqual({ "q:alone": 1, "q:rank-margin": 1 });
    expect(rankMargin(0)).toEqual({ "q:rank-margin": 0 });
    expect(rankMargin(1)["q:rank-margin"]).toBeCloseTo(0.632, 3);
    const f = acceptorFeatures(best.group, attempts, best);
    expect(f["q:rank-margin"]).toBeCloseTo(1 - Math.exp(-0.4), 3);
    expect(f["q:routes-against=1"]).toBe(1);
  });

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
      "r:count=2": 1,
      "r:routes=2": 1,
      "r:sql-and-read": 1,
      "r:top-p": 1,
      "r:rule-pick": 1,
      "r:p": 0.6,
      "r:answers=2": 1,
    });
    expect(groups[1]!.features["r:rule-pick"]).toBeUndefined();
  });

  it("says how far each answer is ahead, what share of the attempts found it, and what its best attempt was", () => {
    const withKind = (x: RankedAttempt, kind: string): RankedAttempt => ({
      ...x,
      features: { ...x.features, [`kind=${kind}`]: 1, [`route=${x.route}|kind=${kind}`]: 1 },
    });
    const groups = answerGroups([
      withKind(a("Porto", "SQL", 0.4), "place"),
      withKind(a("porto", "RETRIEVE", 0.6), "place"),
      a("Lyon", "TEXT", 0.5),
      a("Lyon", "TEXT", 0.3),
    ]);
    const [porto, lyon] = groups.map((g) => g.features);
    expect(porto!["r:margin"]).toBeCloseTo(0.1);
    expect(lyon!["r:margin"]).toBe(0);
    expect(porto!["r:share"]).toBe(0.5);
    expect(lyon!["r:mean-p"]).toBeCloseTo(0.4);
    expect(porto).toMatchObject({
      "r:set=RETRIEVE+SQL": 1,
      "r:best-route=RETRIEVE": 1,
      "r:kind=place": 1,
      "r:rule=read": 1,
    });
    // crosses with the route stay the per-attempt model's
    expect(Object.keys(porto!).some((k) => k.includes("|"))).toBe(false);
    expect(lyon).toMatchObject({ "r:set=TEXT": 1, "r:best-route=TEXT": 1 });
  });

  it("answers the accepted attempt, else the ranker's choice, else the highest P", () => {
    const attempts = [a("Porto", "SQL", 0.4), a("Lyon", "TEXT", 0.5), a("Porto", "RETRIEVE", 0.3)];
    const ranker = { scorer: { kind: "logistic" as const, weights: { "r:count=2": 2 } } };
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
      scorer: { kind: "logistic" as const, weights: { "r:count=2": 2 } },
      calibration: { x: [0, 2], y: [0.2, 0.9] },
    };
    expect(chooseAnswer(attempts, ranker, 0.85)).toEqual({ index: 0, verified: true, p: 0.9 });
    expect(chooseAnswer(attempts, ranker, 0.95)).toEqual({ index: 0, verified: false, p: 0.9 });
    expect(chooseAnswer(attempts, ranker, 1)).toMatchObject({ verified: false }); // exploration runs never accept
  });
});

describe("answer ranker: the best attempt's reader, plan-match and linked-row features", () => {
  it("are passed on with their values (scores in 0..1, binary ones as 1)", () => {
    const reading: RankedAttempt = {
      answer: "Oslo",
      route: "TEXT",
      p: 0.7,
      verdict: 0.5,
      subQuery: "q",
      features: { "rule=read": 1, "rc:score": 0.6, "rc:margin": 0.25, "lr:answer=cell": 1, "route=TEXT|rule=read": 1 },
    };
    const sql: RankedAttempt = {
      answer: "Oslo",
      route: "SQL",
      p: 0.4,
      verdict: 0.5,
      subQuery: "q",
      features: { "rule=sql": 1, "pm:asked-match": 0.5 },
    };
    const [g] = answerGroups([sql, reading]);
    expect(g!.features).toMatchObject({
      "r:rc:score": 0.6,
      "r:rc:margin": 0.25,
      "r:lr:answer=cell": 1,
      "r:rule=read": 1,
    });
    // Only the best attempt's (the reading's, P 0.7) features; no route × rule crosses.
    expect(g!.features["r:pm:asked-match"]).toBeUndefined();
    expect(g!.features["r:route=TEXT|rule=read"]).toBeUndefined();
  });
});
