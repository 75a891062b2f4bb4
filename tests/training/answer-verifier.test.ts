import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  chooseThreshold,
  crossValidated,
  finalChoice,
  fitWeights,
  loadQuestions,
  reliability,
  scorerFor,
  simulate,
  trainAnswerModel,
  wilsonLower,
  withoutFeatures,
  type QuestionCandidates,
} from "../../training/answer-verifier.js";

/** Questions whose right candidates carry "good" and wrong ones "bad" (seeded, with noise). */
function synthetic(n: number, bench: "wtq" | "tatqa" = "wtq"): QuestionCandidates[] {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: n }, (_, i) => ({
    id: `${bench}:${i}`,
    bench,
    candidates: Array.from({ length: 3 }, (_, c) => {
      const right = rand() < 0.4;
      const signal = rand() < 0.9 ? right : !right;
      return {
        route: c === 0 ? "SQL" : "TEXT",
        subQuery: "q",
        answer: `a${c}`,
        ruleVerdict: 0.5,
        right,
        features: { bias: 1, [signal ? "good" : "bad"]: 1 },
      };
    }),
  }));
}

describe("learned verifier training", () => {
  it("learns which feature marks right answers", () => {
    const w = fitWeights(synthetic(300));
    expect(w.good!).toBeGreaterThan(1);
    expect(w.bad!).toBeLessThan(-1);
  });

  it("accepts the first candidate at P ≥ threshold, else falls back to the highest-P uncontradicted one", () => {
    const q: QuestionCandidates = {
      id: "x",
      bench: "wtq",
      candidates: [
        { route: "SQL", subQuery: "q", answer: "12", ruleVerdict: 0, right: false, features: {} },
        { route: "TEXT", subQuery: "q", answer: "9", ruleVerdict: 0.5, right: true, features: {} },
        { route: "RETRIEVE", subQuery: "q", answer: "7", ruleVerdict: 0.5, right: false, features: {} },
      ],
    };
    const p = [0.7, 0.5, 0.3];
    expect(finalChoice(q, (c) => p[c]!, 0.6)).toMatchObject({ answer: q.candidates[0], isAccepted: true });
    // below the threshold the contradicted (verdict 0) candidate is never the fallback
    expect(finalChoice(q, (c) => p[c]!, 0.9)).toMatchObject({ answer: q.candidates[1], isAccepted: false });
  });

  it("chooses the lowest threshold that reaches the target precision, and simulates the run at it", () => {
    const qs = synthetic(400);
    const oof = crossValidated(qs, 4);
    const t = chooseThreshold(qs, oof, 0.85);
    expect(t).toBeLessThan(1);
    const f = simulate(qs, oof, t);
    expect(f.precision).toBeGreaterThanOrEqual(0.85);
    expect(f.accepted).toBeGreaterThan(0.2);
    expect(f.candidateRecall).toBeGreaterThan(f.accuracy - 1e-9);
    const buckets = reliability(qs, oof, t);
    expect(buckets.reduce((s, b) => s + b.n, 0)).toBeGreaterThan(350);
    const trained = trainAnswerModel(qs, { folds: 4, kind: "logistic", targetPrecision: 0.85 });
    expect(trained.model.format).toBe("atr-answer-verifier-v2");
    expect(trained.model.scorer.kind).toBe("logistic");
    // the threshold meets the target on its own (out-of-fold) data, question-level acceptance included
    expect(trained.crossValidated.wtq!.precision).toBeGreaterThanOrEqual(0.85);
    expect(trained.crossValidated.wtq!.accepted).toBeGreaterThan(0.2);
    expect(
      simulate(qs, scorerFor(qs, trained.model), trained.model.threshold, undefined, trained.model.ranker).precision,
    ).toBeGreaterThan(0.8);
    expect(trained.quality.wtq!.auc).toBeGreaterThan(0.8);
    expect(trained.quality.wtq!.acceptedAtTarget).toBeGreaterThan(0.2);
  });

  it("bounds the precision of few accepted answers from below (Wilson), and the threshold clears the bound", () => {
    expect(wilsonLower(9, 10, 0)).toBeCloseTo(0.9);
    // 9 of 10 right: at one standard error the precision is at least ~0.77; 90 of 100: ~0.86
    expect(wilsonLower(9, 10, 1)).toBeCloseTo(0.767, 2);
    expect(wilsonLower(90, 100, 1)).toBeCloseTo(0.863, 2);
    expect(wilsonLower(0, 0, 1)).toBe(0);
    const qs = synthetic(400);
    const oof = crossValidated(qs, 4);
    // the synthetic signal gives accepted answers ~86 % right: they clear 0.80 as a bound, not 0.85
    const bounded = chooseThreshold(qs, oof, 0.8, undefined, 1);
    expect(bounded).toBeLessThan(1);
    expect(bounded).toBeGreaterThanOrEqual(chooseThreshold(qs, oof, 0.8));
    const f = simulate(qs, oof, bounded);
    const n = Math.round(f.accepted * f.questions);
    expect(n).toBeGreaterThan(50);
    expect(wilsonLower(Math.round(f.precision * n), n, 1)).toBeGreaterThanOrEqual(0.8);
    expect(simulate(qs, oof, chooseThreshold(qs, oof, 0.85, undefined, 1)).accepted).toBe(0);
    // a bound no data can clear: never accept
    expect(chooseThreshold(qs, oof, 0.85, undefined, 50)).toBe(1);
  });

  it("leaves out the features a pattern names (not the bias), so the model gets no weight for them", () => {
    const qs = synthetic(200).map((q) => ({
      ...q,
      candidates: q.candidates.map((c) => ({ ...c, features: { ...c.features, "lr:row": 1, "lr:row-margin": 0.5 } })),
    }));
    const kept = withoutFeatures(qs, /^lr:/);
    expect(kept[0]!.candidates[0]!.features["lr:row"]).toBeUndefined();
    expect(kept[0]!.candidates[0]!.features.bias).toBe(1);
    expect(qs[0]!.candidates[0]!.features["lr:row"]).toBe(1);
    expect(Object.keys(fitWeights(kept)).some((f) => f.startsWith("lr:"))).toBe(false);
    expect(Object.keys(fitWeights(qs)).some((f) => f.startsWith("lr:"))).toBe(true);
  });

  it("with thresholdBy, each kind of index gets the threshold its own questions need", () => {
    // tables-only questions (wtq) whose signal is weaker than the others' (tatqa, with passages)
    const weak = synthetic(300, "wtq").map((q, n) => ({
      ...q,
      candidates: q.candidates.map((c, i) => ({
        ...c,
        features: { ...((n + i) % 4 === 0 ? { bias: 1, good: 1 } : c.features), "tables-only": 1 },
      })),
    }));
    const strong = synthetic(300, "tatqa").map((q) => ({
      ...q,
      candidates: q.candidates.map((c) => ({ ...c, features: { ...c.features, passages: 1 } })),
    }));
    const qs = [...weak, ...strong];
    const one = trainAnswerModel(qs, { folds: 4, kind: "logistic", targetPrecision: 0.85 });
    const by = trainAnswerModel(qs, { folds: 4, kind: "logistic", targetPrecision: 0.85, thresholdBy: "tables-only" });
    expect(by.model.thresholdBy?.feature).toBe("tables-only");
    const tablesOnly = weak.map((_, i) => i);
    const others = strong.map((_, i) => weak.length + i);
    // each threshold is the rule's on its own questions alone; the weaker kind needs the higher one
    expect(by.model.thresholdBy!.threshold).toBe(chooseThreshold(qs, by.oof, 0.85, by.oofRanker, 0, tablesOnly));
    expect(by.model.threshold).toBe(chooseThreshold(qs, by.oof, 0.85, by.oofRanker, 0, others));
    expect(by.model.thresholdBy!.threshold).toBeGreaterThan(by.model.threshold);
    // the questions with passages are no longer held to the tables-only questions' threshold
    expect(by.crossValidated.tatqa!.accepted).toBeGreaterThanOrEqual(one.crossValidated.tatqa!.accepted);
    for (const bench of ["wtq", "tatqa"])
      if (by.crossValidated[bench]!.accepted > 0)
        expect(by.crossValidated[bench]!.precision, bench).toBeGreaterThanOrEqual(0.85);
    expect(() => trainAnswerModel(strong, { folds: 4, kind: "logistic", thresholdBy: "tables-only" })).toThrow(
      /--threshold_by tables-only: needs training questions with and without that feature/,
    );
  });

  it("trains trees with a monotone calibration and a threshold that meets the precision on every benchmark", () => {
    const qs = [...synthetic(300, "wtq"), ...synthetic(200, "tatqa")];
    const trained = trainAnswerModel(qs, { folds: 4, trees: { trees: 20 }, targetPrecision: 0.85 });
    expect(trained.model.scorer.kind).toBe("trees");
    const { x, y } = trained.model.calibration!;
    for (let i = 1; i < x.length; i++) expect(y[i]!).toBeGreaterThanOrEqual(y[i - 1]!);
    expect(trained.model.threshold).toBeLessThan(1);
    for (const bench of ["wtq", "tatqa"]) {
      expect(trained.crossValidated[bench]!.precision, bench).toBeGreaterThanOrEqual(0.85);
      expect(trained.crossValidated[bench]!.accepted, bench).toBeGreaterThan(0.2);
    }
    // and it lowers the log-loss of the constant predictor
    const rate = qs.flatMap((q) => q.candidates).filter((c) => c.right).length / qs.flatMap((q) => q.candidates).length;
    const constant = -(rate * Math.log(rate) + (1 - rate) * Math.log(1 - rate));
    expect(trained.quality.wtq!.logLoss).toBeLessThan(constant - 0.1);
  });

  it("labels each traced candidate with its benchmark's official metric", () => {
    const dir = mkdtempSync(join(tmpdir(), "atr-verifier-"));
    writeFileSync(
      join(dir, "q.jsonl"),
      `${JSON.stringify({ question_id: "q1", question: "How many?", answer: ["1,200"] })}\n`,
    );
    const decisions = [
      { effective_route: "SQL", produced_answer: "1200", verdict: 0.5, features: { bias: 1 } },
      { effective_route: "TEXT", produced_answer: "12", verdict: 0.5, features: { bias: 1 } },
      { effective_route: "TEXT", produced_answer: "not found", verdict: 0.5 },
    ];
    writeFileSync(
      join(dir, "run.jsonl"),
      `${JSON.stringify({ question_id: "q1", atr_trace: { verifier_decisions: decisions } })}\n`,
    );
    const [q] = loadQuestions("hybridqa", join(dir, "q.jsonl"), join(dir, "run.jsonl"));
    // SQuAD normalisation drops the comma: "1200" matches "1,200", "12" does not; no-feature decisions are no candidates
    expect(q!.candidates.map((c) => [c.answer, c.right])).toEqual([
      ["1200", true],
      ["12", false],
    ]);
    expect(q!.id).toBe("hybridqa:q1");
  });
});
