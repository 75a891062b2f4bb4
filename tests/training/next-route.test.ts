/**
 * Training the learned route order (training/next-route.ts) on a tiny exploration run: the examples
 * at each re-selection of the heuristic's order and their labels (the same answer, accepted as it
 * was, in fewer attempts), and the replay of a policy against the heuristic's order.
 */
import { describe, expect, it } from "vitest";
import type { AnswerModel } from "../../nodes/offline/answer-model.js";
import type { NextRouteModel } from "../../nodes/routers/next-route.js";
import { nextRouteQuestions, simulateOrder } from "../../training/next-route.js";
import { explorationRecord, row } from "./tiny-exploration.js";

// P = sigmoid(raw): TEXT on its first attempt would be accepted, later not (0.88 < 0.9); a HYBRID
// answer an earlier attempt agrees with is accepted (sigmoid 3 = 0.95).
const verifier: AnswerModel = {
  format: "atr-answer-verifier-v2",
  scorer: { kind: "logistic", weights: { bias: -2, "route=TEXT": 4, "attempt=1": 1, "route=HYBRID|agree=1": 5 } },
  threshold: 0.9,
  trainedOn: {},
};
const never = () => false;

/** A question over a table (schema restored, no entity mentions): the heuristic's order is SQL, TEXT, RETRIEVE, HYBRID. */
const schema = { tableId: "ferries", columns: [] } as never;
const rows = [
  row("SQL", 1, "Northgate"),
  row("TEXT", 2, "Eastport"),
  row("RETRIEVE", 3, "not found"),
  row("HYBRID", 4, "Northgate"),
].map((r) => ({ ...r, schema, has_schema: true, entity_mentions: [] }));
const record = explorationRecord("Northgate", rows as never);
const isCorrect = (_r: unknown, answer: string) => answer === "Northgate";

describe("nextRouteQuestions", () => {
  it("labels each untried route at each re-selection: HYBRID after SQL settles the same accepted answer sooner", async () => {
    const [q] = await nextRouteQuestions("wtq", [record as never], isCorrect, verifier, never);
    // the heuristic's order: HYBRID fourth agrees with SQL's answer and is accepted
    expect(q!.base).toEqual({ answer: "Northgate", verified: true, attempts: 4, right: true });
    // after SQL (heuristic: TEXT): RETRIEVE, HYBRID; after SQL, TEXT (heuristic: RETRIEVE): HYBRID
    expect(
      q!.examples.map((e) => [e.features["cand=RETRIEVE"] ? "RETRIEVE" : "HYBRID", e.features.attempts, e.label]),
    ).toEqual([
      ["RETRIEVE", 1, false],
      ["HYBRID", 1, true],
      ["HYBRID", 2, true],
    ]);
    expect(q!.examples.every((e) => e.features["heur=TEXT"] === 1 || e.features["heur=RETRIEVE"] === 1)).toBe(true);
  });
});

describe("simulateOrder", () => {
  it("replays the policy against the heuristic's order: fewer attempts, the same answer and acceptance", async () => {
    const questions = await nextRouteQuestions("wtq", [record as never], isCorrect, verifier, never);
    const preferHybrid: Omit<NextRouteModel, "threshold" | "trainedOn"> = {
      format: "atr-next-route-v1",
      scorer: { kind: "logistic", weights: { bias: -3, "cand=HYBRID": 6 } },
    };
    const f = await simulateOrder(questions, () => preferHybrid, 0.5, verifier, never);
    expect(f).toMatchObject({
      questions: 1,
      attemptsBase: 4,
      attempts: 2,
      better: 0,
      worse: 0,
      changed: 0,
      rerouted: 1,
    });
    expect(f.acceptedRight).toBe(1);
    // at a threshold the model never reaches, the heuristic's order
    const kept = await simulateOrder(questions, () => preferHybrid, 0.99, verifier, never);
    expect(kept).toMatchObject({ attempts: 4, changed: 0, rerouted: 0 });
  });
});
