/**
 * Several reader candidates per attempt, through the real graph over examples/: a TEXT reading
 * proposes its best spans, the verify node judges and traces each one (`candidate` 2, 3, …), and
 * the final answer is the candidate the verifier rates highest — here the second span, under a
 * verifier model that prefers second-ranked spans (the mechanism, not a trained preference).
 */
import { afterEach, describe, expect, it } from "vitest";
import { answerQuestion, type AnswerResult } from "../../graph/answer.js";
import { setAnswerModel, type AnswerModel } from "../../nodes/offline/answer-model.js";
import { useExampleIndex } from "../fixtures/example-index.js";

const index = useExampleIndex();
afterEach(() => setAnswerModel(undefined));

const QUESTION = "In what year did a club join the Northvale League?";

function model(weights: Record<string, number>, threshold: number): AnswerModel {
  return { format: "atr-answer-verifier-v2", scorer: { kind: "logistic", weights }, threshold, trainedOn: {} };
}

async function ask(): Promise<AnswerResult> {
  return answerQuestion(
    { question: QUESTION },
    {
      configurable: {
        indexPath: index.dir,
        routerType: "fixed",
        forceRoute: "TEXT",
        noEscalation: true,
        readerCandidates: true,
      },
    },
  );
}

describe("reader candidates through the graph", () => {
  it("traces every candidate of the reading and answers with the second span when the verifier rates it highest", async () => {
    setAnswerModel(model({ bias: -2, "rc:rank=2": 4 }, 0.99));
    const r = await ask();
    const decisions = r.trace.verifier_decisions;
    const first = decisions.find((d) => d.candidate === undefined)!;
    const second = decisions.find((d) => d.candidate === 2)!;
    expect(first.effective_route).toBe("TEXT");
    expect(second.effective_route).toBe("TEXT");
    expect(second.produced_answer).not.toBe(first.produced_answer);
    expect(second.features?.["rc:rank=2"]).toBe(1);
    expect(second.p_correct!).toBeGreaterThan(first.p_correct!);
    expect(r.answer).toBe(second.produced_answer);
    expect(r.answerVerified).toBe(false);
  });

  it("an accepted second candidate becomes the attempt's answer, verified", async () => {
    setAnswerModel(model({ bias: -2, "rc:rank=2": 4 }, 0.8));
    const r = await ask();
    const decisions = r.trace.verifier_decisions;
    const accepted = decisions.find((d) => d.candidate === undefined)!;
    expect(accepted.verdict).toBe(1);
    expect(accepted.features?.["rc:rank=2"]).toBe(1);
    expect(r.answer).toBe(accepted.produced_answer);
    expect(r.answerVerified).toBe(true);
  });

  it("with no preference for the second span the first one is the answer", async () => {
    setAnswerModel(model({ bias: -2, "rc:rank=1": 1 }, 0.99));
    const r = await ask();
    const first = r.trace.verifier_decisions.find((d) => d.candidate === undefined)!;
    expect(first.features?.["rc:rank=1"]).toBe(1);
    expect(r.answer).toBe(first.produced_answer);
  });
});
