/** nodes/routers/next-route.ts: the learned route order at a re-selection the stop policy let go on. */
import { afterEach, describe, expect, it } from "vitest";
import type { TraceDecision } from "../../../graph/state.js";
import { ensureConfiguration } from "../../../graph/configuration.js";
import { answerModel } from "../../../nodes/offline/answer-model.js";
import {
  checkNextRouteModel,
  chooseNextRoute,
  nextRouteAfterAttempt,
  nextRouteFeatures,
  nextRouteModel,
  setNextRouteModel,
  type NextRouteModel,
} from "../../../nodes/routers/next-route.js";
import type { Route } from "../../../nodes/types.js";

/** A scored SQL attempt as verify traces it: a lookup over a plain table that read no cell the question names. */
function sqlAttempt(answer: string, p: number): TraceDecision {
  return {
    question_id: "q",
    sub_query: "which city is the warehouse with the most staff in? (columns: city, staff)",
    expected_operator: "lookup",
    required_modalities: "table",
    entity_mentions: [],
    need_global_table_view: false,
    uncertainty: 0,
    schema: null,
    has_schema: true,
    history_H: [],
    route: "SQL",
    requested_route: "SQL",
    effective_route: "SQL",
    value_linker_attempted: false,
    attempt: 1,
    verdict: 0.5,
    accepted: false,
    produced_answer: answer,
    p_correct: p,
    features: {
      bias: 1,
      "route=SQL": 1,
      "attempt=1": 1,
      "tables-only": 1,
      "kind=entity": 1,
      "op=lookup": 1,
      "rule=read": 1,
      grounded: 1,
      "from-sql": 1,
    },
  };
}

/** P = sigmoid(weight of the candidate): HYBRID next scores 0.95, RETRIEVE 0.62, TEXT 0.12. */
const handModel: NextRouteModel = {
  format: "atr-next-route-v1",
  scorer: { kind: "logistic", weights: { "cand=HYBRID": 2.944, "cand=RETRIEVE": 0.49, "cand=TEXT": -2 } },
  threshold: 0.7,
  trainedOn: {},
};
const UNTRIED: Route[] = ["TEXT", "RETRIEVE", "HYBRID"];

afterEach(() => setNextRouteModel(undefined));

describe("the route order's decision", () => {
  it("takes the untried route with the highest P at or above the threshold, else the heuristic's", () => {
    const verifier = answerModel();
    const trace = [sqlAttempt("Leeds", 0.4)];
    const d = chooseNextRoute(trace, "TEXT", UNTRIED, verifier, handModel)!;
    expect(d.route).toBe("HYBRID");
    expect(d.heuristic).toBe("TEXT");
    expect(d.p).toBeCloseTo(0.95, 2);
    expect(d.reason).toMatch(/^route order: HYBRID before TEXT, P\(same answer sooner\) 0\.95\d ≥ 0\.7$/);
    // HYBRID already tried: RETRIEVE's 0.62 is under the threshold, so the heuristic's TEXT stays
    const kept = chooseNextRoute(trace, "TEXT", ["TEXT", "RETRIEVE"], verifier, handModel)!;
    expect(kept.route).toBe("TEXT");
    expect(kept.p).toBeUndefined();
    // a lower threshold lets RETRIEVE in; threshold 1 never changes the heuristic's route
    expect(
      chooseNextRoute(trace, "TEXT", ["TEXT", "RETRIEVE"], verifier, { ...handModel, threshold: 0.6 })!.route,
    ).toBe("RETRIEVE");
    expect(chooseNextRoute(trace, "TEXT", UNTRIED, verifier, { ...handModel, threshold: 1 })).toBeUndefined();
  });

  it("reads what the attempts found (the stop policy's features) and the candidate against the heuristic's route", () => {
    const f = nextRouteFeatures([sqlAttempt("Leeds", 0.4)], answerModel()?.ranker, "HYBRID", "TEXT")!;
    expect(f["cand=HYBRID"]).toBe(1);
    expect(f["heur=TEXT"]).toBe(1);
    expect(f["cand=HYBRID|heur=TEXT"]).toBe(1);
    expect(f["cand=HYBRID|last=SQL"]).toBe(1);
    expect(f["tried=SQL"]).toBe(1);
    expect(f["q:tables-only"]).toBe(1);
    expect(f["p:last"]).toBe(0.4);
    // no P(correct) on any attempt (a prompted verifier): no features, no decision
    const { p_correct: _p, ...unscored } = sqlAttempt("Leeds", 0.4);
    expect(nextRouteFeatures([unscored], answerModel()?.ranker, "HYBRID", "TEXT")).toBeUndefined();
    expect(chooseNextRoute([unscored], "TEXT", UNTRIED, answerModel(), handModel)).toBeUndefined();
  });

  it("applies only with routeOrder learned, the heuristic router and where the stop policy applies", () => {
    setNextRouteModel(handModel);
    const trace = [sqlAttempt("Leeds", 0.4)];
    const c = (configurable: Record<string, unknown>) => ensureConfiguration({ configurable });
    expect(nextRouteAfterAttempt(trace, "TEXT", UNTRIED, c({}))?.route).toBe("HYBRID"); // the default
    expect(nextRouteAfterAttempt(trace, "TEXT", UNTRIED, c({ routeOrder: "heuristic" }))).toBeUndefined();
    expect(
      nextRouteAfterAttempt(trace, "TEXT", UNTRIED, c({ routeOrder: "learned", routerType: "llm" })),
    ).toBeUndefined();
    expect(
      nextRouteAfterAttempt(trace, "TEXT", UNTRIED, c({ routeOrder: "learned", stopPolicy: "never" })),
    ).toBeUndefined();
    expect(
      nextRouteAfterAttempt(trace, "TEXT", UNTRIED, c({ routeOrder: "learned", acceptThreshold: 1 })),
    ).toBeUndefined();
    expect(
      nextRouteAfterAttempt(
        trace,
        "TEXT",
        UNTRIED,
        c({ routeOrder: "learned", decomposerBackbone: "openai/gpt-4o-mini" }),
      ),
    ).toBeUndefined();
  });
});

describe("the model file", () => {
  it("the shipped model loads with a threshold below 1", () => {
    const m = nextRouteModel();
    expect(m?.format).toBe("atr-next-route-v1");
    expect(m!.threshold).toBeGreaterThan(0);
    expect(m!.threshold).toBeLessThan(1);
  });

  it("is checked: a wrong format, scorer or threshold names the file and the field", () => {
    expect(() => checkNextRouteModel({ ...handModel, format: "x" }, "m.json")).toThrow(/m\.json.*format/);
    expect(() => checkNextRouteModel({ ...handModel, threshold: 2 }, "m.json")).toThrow(/m\.json.*threshold/);
    expect(() => checkNextRouteModel({ ...handModel, scorer: { kind: "forest" } }, "m.json")).toThrow(
      /m\.json.*scorer\.kind/,
    );
  });
});
