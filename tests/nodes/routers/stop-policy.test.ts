/** nodes/routers/stop-policy.ts: the learned "stop re-routing" decision after an unaccepted attempt. */
import { afterEach, describe, expect, it } from "vitest";
import type { TraceDecision } from "../../../graph/state.js";
import { ensureConfiguration } from "../../../graph/configuration.js";
import { answerModel } from "../../../nodes/offline/answer-model.js";
import {
  checkStopModel,
  decideStop,
  setStopModel,
  stopAfterAttempt,
  stopFeatures,
  stopModel,
  stopThreshold,
  type StopModel,
} from "../../../nodes/routers/stop-policy.js";
import type { Route } from "../../../nodes/types.js";

/** A scored attempt as verify traces it (the offline verifier's P and features). */
function row(
  route: Route,
  attempt: number,
  answer: string,
  p: number,
  features: Record<string, number>,
): TraceDecision {
  return {
    question_id: "q",
    sub_query: "how many rows have a score above ten? (columns: score)",
    expected_operator: "count",
    required_modalities: "table",
    entity_mentions: [],
    need_global_table_view: true,
    uncertainty: 0,
    schema: null,
    has_schema: true,
    history_H: [],
    route,
    requested_route: route,
    effective_route: route,
    value_linker_attempted: false,
    attempt,
    verdict: 0.5,
    accepted: false,
    produced_answer: answer,
    p_correct: p,
    features: { bias: 1, [`route=${route}`]: 1, [`attempt=${attempt}`]: 1, ...features },
  };
}

/** What a count question over a plain table shows after its SQL attempt (no passages: "tables-only"). */
const COUNT = {
  support: 1,
  "tables-only": 1,
  "mod=table": 1,
  grounded: 1,
  "from-sql": 1,
  "kind=count": 1,
  "op=count": 1,
  "det:kind=count": 1,
  "det:op=count": 1,
  "tpl=count": 1,
  "gen=count.rows": 1,
  "target=computed": 1,
  "pm:target=computed": 1,
  "pm:value=none": 1,
  "cand:kind=agree": 1,
  "cand:rank=0": 1,
  "agree=0": 1,
  "agree-value=0": 1,
  "disagree=0": 1,
  "grounding=none": 1,
  "mentions=0": 1,
  "ans:items=1": 1,
  "ans:tokens=1": 1,
  "ans:number": 1,
  "res:rows=1": 1,
  "sqlalt:none": 1,
  "scale=none": 1,
  "scale-vs-evidence=same": 1,
};
/** A confident count: the statement counted rows (one result row, a positive number). */
const confident = row("SQL", 1, "17", 0.42, {
  ...COUNT,
  "ans:positive": 1,
  "rows=1": 1,
  "rule=sql-low-confidence": 1,
  "support=<.7": 1,
  "sql:conditions=2": 1,
  "sql:value=11-100": 1,
});
/** A weak count: the statement's conditions matched no row (a zero count, often a wrong condition). */
const weak = row("SQL", 1, "0", 0.15, {
  ...COUNT,
  "ans:zero": 1,
  "rows=zero": 1,
  "rule=sql-zero": 1,
  "support=<.7": 1,
  "sql:conditions=3+": 1,
  "sql:value=0": 1,
});

/** A hand-made model: P = sigmoid(10 · rank:p − 5), stop at 0.9. */
const handModel: StopModel = {
  format: "atr-stop-policy-v1",
  scorer: { kind: "logistic", weights: { bias: -5, "rank:p": 10 } },
  threshold: 0.9,
  trainedOn: {},
};

afterEach(() => setStopModel(undefined));

describe("the shipped stop model", () => {
  it("loads, with a threshold per kind of evidence", () => {
    const m = stopModel();
    expect(m?.format).toBe("atr-stop-policy-v1");
    expect(m!.thresholdBy?.map((t) => t.feature)).toEqual(["q:tables-only", "q:period-table"]);
    expect(stopThreshold(m!, { "q:tables-only": 1 })).toBe(m!.thresholdBy![0]!.threshold);
    expect(stopThreshold(m!, {})).toBe(m!.threshold);
  });

  it("stops after a confident first attempt and goes on after a weak one", () => {
    const verifier = answerModel();
    const stop = decideStop([confident], verifier);
    expect(stop?.stop).toBe(true);
    expect(stop?.answer).toBe("17");
    expect(stop?.reason).toMatch(
      /^stop policy: P\(final answer found\) 0\.\d+ ≥ 0\.\d+ after 1 attempt \(answer: 17\)$/,
    );
    const goOn = decideStop([weak], verifier);
    expect(goOn?.stop).toBe(false);
    expect(goOn!.p).toBeLessThan(goOn!.threshold);
    expect(goOn?.reason).toMatch(/^stop policy: go on/);
  });
});

describe("features and decision", () => {
  it("describe the attempts so far, the ranker's choice and the acceptor's view", () => {
    const second = row("TEXT", 2, "17", 0.3, { support: 1, "tables-only": 1, "route=TEXT": 1 });
    const f = stopFeatures([confident, second], answerModel()?.ranker)!;
    expect(f.attempts).toBe(2);
    expect(f["n=2"]).toBe(1);
    expect(f["last=TEXT"]).toBe(1);
    expect(f["tried=SQL"]).toBe(1);
    expect(f["untried=HYBRID"]).toBe(1);
    expect(f["q:tables-only"]).toBe(1);
    expect(f["groups=1"]).toBe(1);
    expect(f["choice-is-last"]).toBe(1);
    expect(f["c:r:count=2"]).toBe(1);
    expect(f["rank:p"]).toBeGreaterThan(0);
    expect(f["acc:p"]).toBeGreaterThan(0);
    // alternative SQL candidates are candidates of their attempt, not attempts
    const alt = { ...row("SQL", 1, "18", 0.9, COUNT), alternative: true };
    expect(stopFeatures([confident, alt], answerModel()?.ranker)!.attempts).toBe(1);
  });

  it("stops at P ≥ the threshold of the model, and not without a model, a ranker or a scored attempt", () => {
    const ranker = answerModel()!.ranker!;
    const features = stopFeatures([confident], ranker)!;
    const p = 1 / (1 + Math.exp(-(10 * features["rank:p"]! - 5)));
    const d = decideStop([confident], { ranker }, handModel)!;
    expect(d.p).toBeCloseTo(p, 3);
    expect(d.stop).toBe(p >= 0.9);
    expect(decideStop([confident], { ranker }, { ...handModel, threshold: 0 })!.stop).toBe(true);
    expect(decideStop([confident], { ranker }, { ...handModel, threshold: 1 })!.stop).toBe(false);
    expect(decideStop([confident], { ranker }, null)).toBeUndefined();
    expect(decideStop([confident], {}, handModel)).toBeUndefined();
    const { p_correct: _p, ...unscored } = confident;
    expect(decideStop([unscored], { ranker }, handModel)).toBeUndefined();
  });

  it("with acceptanceSafe, goes on where the question-level acceptor could still accept", () => {
    const ranker = answerModel()!.ranker!;
    const always = { ...handModel, threshold: 0, acceptanceSafe: true };
    const f = stopFeatures([confident], ranker)!;
    const d = decideStop([confident], { ranker }, always)!;
    expect(d.stop).toBe(f["acc:never"] === 1 || f["acc:ok"] === 1);
    if (!d.stop) expect(d.reason).toMatch(/acceptor could accept/);
  });

  it("applies only with stopPolicy learned, the offline ranker's final answer and the shipped thresholds", () => {
    setStopModel({ ...handModel, threshold: 0 });
    const c = (configurable: Record<string, unknown>) => ensureConfiguration({ configurable });
    expect(stopAfterAttempt([confident], c({}))?.stop).toBe(true);
    expect(stopAfterAttempt([confident], c({ stopPolicy: "never" }))).toBeUndefined();
    expect(stopAfterAttempt([confident], c({ acceptThreshold: 1 }))).toBeUndefined();
    expect(stopAfterAttempt([confident], c({ decomposerBackbone: "openai/gpt-4o-mini" }))).toBeUndefined();
    expect(
      stopAfterAttempt([confident], c({ decomposerBackbone: "openai/gpt-4o-mini", noDecomposition: true }))?.stop,
    ).toBe(true);
  });
});

describe("the model file", () => {
  it("is checked: a wrong format, scorer or threshold names the file and the field", () => {
    expect(() => checkStopModel({ ...handModel, format: "x" }, "m.json")).toThrow(/m\.json.*format/);
    expect(() => checkStopModel({ ...handModel, threshold: 2 }, "m.json")).toThrow(/m\.json.*threshold/);
    expect(() => checkStopModel({ ...handModel, scorer: { kind: "forest" } }, "m.json")).toThrow(
      /m\.json.*scorer\.kind/,
    );
    expect(() => checkStopModel({ ...handModel, thresholdBy: [{ feature: "q:x", threshold: -1 }] }, "m.json")).toThrow(
      /m\.json.*thresholdBy\[0\]\.threshold/,
    );
    expect(
      checkStopModel({ ...handModel, thresholdBy: [{ feature: "q:x", threshold: 0.5 }] }, "m.json").thresholdBy,
    ).toEqual([{ feature: "q:x", threshold: 0.5 }]);
  });
});
