/**
 * The replay of an exploration run in another route order (training/route-replay.ts): the order
 * features are recomputed (attempt number, agreement with earlier answers), the first accepted
 * attempt ends the question, and the replay labels name the first route whose loop ends right with
 * the fewest attempts. The verifier here is a tiny logistic model of this test's own.
 */
import { describe, expect, it } from "vitest";
import type { AnswerModel } from "../../nodes/offline/answer-model.js";
import type { ResultRecord } from "../../training/labels.js";
import { firstThen, replayLabels, replayQuestion, splitExploration } from "../../training/route-replay.js";
import { decisions, SUB } from "./tiny-exploration.js";

// P = sigmoid(raw): TEXT alone on its first attempt is accepted (sigmoid 3 = 0.95 ≥ 0.9), not later
// (sigmoid 2 = 0.88); a HYBRID answer one earlier attempt agrees with is accepted (sigmoid 3).
const model: AnswerModel = {
  format: "atr-answer-verifier-v2",
  scorer: { kind: "logistic", weights: { bias: -2, "route=TEXT": 4, "attempt=1": 1, "route=HYBRID|agree=1": 5 } },
  threshold: 0.9,
  trainedOn: {},
};

describe("replayQuestion", () => {
  it("splits the first sub-query's attempts by route", () => {
    const { routes, tail } = splitExploration(decisions as never);
    expect(routes).toEqual(["SQL", "TEXT", "RETRIEVE", "HYBRID"]);
    expect(tail).toEqual([]);
  });

  it("ends at the first accepted attempt under the recomputed order features", async () => {
    // TEXT first: attempt=1 now, so it is accepted at once
    const textFirst = await replayQuestion(
      decisions as never,
      firstThen("TEXT", ["SQL", "TEXT", "RETRIEVE", "HYBRID"]),
      model,
    );
    expect(textFirst).toMatchObject({ answer: "Eastport", attempts: 1, verified: true, order: ["TEXT"] });
    // the exploration order: TEXT second is not accepted; HYBRID agrees with SQL's answer and is
    const asRun = await replayQuestion(
      decisions as never,
      firstThen("SQL", ["SQL", "TEXT", "RETRIEVE", "HYBRID"]),
      model,
    );
    expect(asRun).toMatchObject({ answer: "Northgate", attempts: 4, verified: true });
    // HYBRID first agrees with nothing: not accepted; SQL, then TEXT (attempt 3, not accepted), RETRIEVE: the highest P is TEXT's
    const hybridFirst = await replayQuestion(
      decisions as never,
      firstThen("HYBRID", ["SQL", "TEXT", "RETRIEVE", "HYBRID"]),
      model,
    );
    expect(hybridFirst).toMatchObject({ answer: "Eastport", attempts: 4, verified: false });
    expect(hybridFirst.order).toEqual(["HYBRID", "SQL", "TEXT", "RETRIEVE"]);
  });

  it("takes the next untried route when the chooser repeats a failed one", async () => {
    const out = await replayQuestion(decisions as never, () => "RETRIEVE", model);
    expect(out.order.slice(0, 2)).toEqual(["RETRIEVE", "SQL"]);
  });
});

describe("replayLabels", () => {
  it("labels the first route whose replayed loop ends right with the fewest attempts", async () => {
    const record = {
      question_id: "q1",
      question: SUB,
      atr_trace: { verifier_decisions: decisions },
    } as unknown as ResultRecord;
    const [label] = await replayLabels([record], (_r, answer) => answer === "Eastport", model);
    expect(label!.routes_right).toEqual(["TEXT"]);
    expect(label!.route).toBe("TEXT");
    expect(label!.label_source).toBe("execution_replay");
    expect(label!.history_H).toEqual([]);
    expect(label!.replay).toEqual({
      SQL: { right: false, attempts: 4 },
      TEXT: { right: true, attempts: 1 },
      RETRIEVE: { right: false, attempts: 4 }, // SQL second, HYBRID agrees with it and is accepted
      HYBRID: { right: true, attempts: 4 },
    });
  });
});
