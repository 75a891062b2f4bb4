/** The question-level verifier (the acceptor): its training, its folds, and how the ranker's choice is judged. */
import { describe, expect, it } from "vitest";
import { fitAcceptor, finalChoice, foldsOf, type QuestionCandidates } from "../../training/answer-verifier.js";
import { acceptorFeatures, answerGroups, chooseAnswer, type Ranker } from "../../nodes/offline/answer-ranker.js";
import { checkAnswerModel } from "../../nodes/offline/answer-model.js";
import { ModelFileError } from "../../nodes/offline/model-file.js";

/** A ranker that follows P (its order is all these tests need). */
const FOLLOW_P: Ranker = { scorer: { kind: "logistic", weights: { "r:p": 5 } } };

/**
 * Questions over 40 tables with two attempts each (P 0.3 and 0.2, never accepted per attempt):
 * on plain tables ("tables-only") the first answer is right when it carries "named" (95 % of the
 * time) and rarely otherwise; on linked evidence nothing tells right from wrong (50 %).
 */
function questions(n: number): QuestionCandidates[] {
  let seed = 3;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: n }, (_, i) => {
    const plain = i % 2 === 0;
    const named = rand() < 0.5;
    const right = plain ? rand() < (named ? 0.95 : 0.1) : rand() < 0.5;
    const kind: Record<string, number> = plain ? { "tables-only": 1 } : { passages: 1 };
    return {
      id: `wtq:${i}`,
      bench: plain ? "wtq" : "hybridqa",
      group: `t${i % 40}`,
      candidates: [
        {
          route: "SQL",
          subQuery: "q",
          answer: "x",
          ruleVerdict: 0.5,
          right,
          features: { bias: 1, ...kind, ...(named ? { named: 1 } : {}) },
        },
        { route: "TEXT", subQuery: "q", answer: "y", ruleVerdict: 0.5, right: false, features: { bias: 1, ...kind } },
      ],
    } as QuestionCandidates;
  });
}
const P = [0.3, 0.2];

describe("the acceptor", () => {
  it("learns which evidence marks a right answer, with a threshold only for the kind where it is precise", () => {
    const qs = questions(800);
    const fit = fitAcceptor(qs, (_q, c) => P[c]!, 0.9, FOLLOW_P, { kind: "logistic", kinds: ["tables-only"] });
    expect(fit.examples).toBe(800);
    const plain = fit.acceptor.kinds[0]!;
    expect(plain.feature).toBe("tables-only");
    expect(plain.threshold).toBeLessThan(1);
    expect(fit.acceptor.rest.threshold).toBe(1); // linked evidence: never accepted
    const ranker = { ...FOLLOW_P, acceptor: fit.acceptor };
    // a plain question whose answer carries "named" is accepted at the question level, one without is not
    const named = qs.findIndex((q, i) => i % 2 === 0 && q.candidates[0]!.features.named);
    const unnamed = qs.findIndex((q, i) => i % 2 === 0 && !q.candidates[0]!.features.named);
    expect(finalChoice(qs[named]!, (c) => P[c]!, 0.9, ranker)).toMatchObject({ isAccepted: true });
    expect(finalChoice(qs[unnamed]!, (c) => P[c]!, 0.9, ranker)).toMatchObject({ isAccepted: false });
    // the answer is the ranker's either way: the acceptor judges, it does not choose
    expect(finalChoice(qs[unnamed]!, (c) => P[c]!, 0.9, ranker).answer?.answer).toBe("x");
    // an attempt accepted on its own ends the question: no acceptor example, so nothing to learn from
    expect(() => fitAcceptor(qs, () => 0.95, 0.9, FOLLOW_P, { kind: "logistic" })).toThrow(
      /no question without an accepted attempt/,
    );
  });

  it("never accepts when the run says never (threshold 1), and its features leave the per-attempt P out", () => {
    const qs = questions(400);
    const fit = fitAcceptor(qs, (_q, c) => P[c]!, 0.9, FOLLOW_P, { kind: "logistic", kinds: ["tables-only"] });
    const attempts = qs[0]!.candidates.map((c, i) => ({ ...c, verdict: 0.5, p: P[i]! }));
    const ranker = { ...FOLLOW_P, acceptor: fit.acceptor };
    expect(chooseAnswer(attempts, ranker, 1)!.verified).toBe(false);
    const f = acceptorFeatures(answerGroups(attempts)[0]!, attempts);
    expect(Object.keys(f).filter((k) => ["r:p", "r:mean-p", "r:margin", "r:top-p"].includes(k))).toEqual([]);
    expect(f).toMatchObject({ "b:tables-only": 1, "q:tried=SQL": 1, "q:tried=TEXT": 1 });
  });

  it("cross-validates by table: the questions over one table share a fold", () => {
    const qs = questions(200);
    const fold = foldsOf(qs, 5);
    qs.forEach((q, i) => expect(fold[i]).toBe(fold[i % 40]));
  });

  it("is checked on load, naming the field", () => {
    const base = {
      format: "atr-answer-verifier-v2",
      scorer: { kind: "logistic", weights: { bias: 0 } },
      threshold: 0.9,
      trainedOn: {},
    };
    const acceptor = {
      scorer: { kind: "logistic", weights: { "b:named": 2 } },
      kinds: [{ feature: "tables-only", calibration: { x: [0, 1], y: [0.2, 0.9] }, threshold: 0.85 }],
      rest: { calibration: { x: [0], y: [0.4] }, threshold: 1 },
    };
    const ok = checkAnswerModel({ ...base, ranker: { scorer: FOLLOW_P.scorer, acceptor } });
    expect(ok.ranker?.acceptor?.kinds[0]?.threshold).toBe(0.85);
    const bad = { ...acceptor, kinds: [{ ...acceptor.kinds[0], threshold: 2 }] };
    expect(() => checkAnswerModel({ ...base, ranker: { scorer: FOLLOW_P.scorer, acceptor: bad } })).toThrow(
      ModelFileError,
    );
    expect(() => checkAnswerModel({ ...base, ranker: { scorer: FOLLOW_P.scorer, acceptor: bad } })).toThrow(
      /ranker\.acceptor\.kinds\[0\]\.threshold/,
    );
    expect(() =>
      checkAnswerModel({ ...base, ranker: { scorer: FOLLOW_P.scorer, acceptor: { ...acceptor, rest: {} } } }),
    ).toThrow(/ranker\.acceptor\.rest\.calibration/);
  });
});

describe("the acceptor's kinds of several features, each with its own scorer", () => {
  /**
   * Plain tables of two kinds: on clean ones ("tables-only" + "clean") "named" marks a right answer,
   * on the others "sorted" does and "named" marks a wrong one. One scorer for both cannot weigh
   * "named" both ways; a scorer per kind can.
   */
  function mixed(n: number): QuestionCandidates[] {
    let seed = 11;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    return Array.from({ length: n }, (_, i) => {
      const clean = i % 2 === 0;
      const named = rand() < 0.5;
      const sorted = rand() < 0.5;
      const right = clean ? rand() < (named ? 0.97 : 0.1) : rand() < (sorted && !named ? 0.97 : 0.1);
      const features: Record<string, number> = {
        bias: 1,
        "tables-only": 1,
        ...(clean ? { clean: 1 } : {}),
        ...(named ? { named: 1 } : {}),
        ...(sorted ? { sorted: 1 } : {}),
      };
      return {
        id: `wtq:${i}`,
        bench: "wtq",
        group: `t${i % 60}`,
        candidates: [
          { route: "SQL", subQuery: "q", answer: "x", ruleVerdict: 0.5, right, features },
          {
            route: "TEXT",
            subQuery: "q",
            answer: "y",
            ruleVerdict: 0.5,
            right: false,
            features: { bias: 1, "tables-only": 1 },
          },
        ],
      } as QuestionCandidates;
    });
  }

  it("routes a question to the first kind all of whose features it carries, and fits that kind's own scorer", () => {
    const qs = mixed(1200);
    const kinds = ["tables-only&clean", "tables-only"];
    const shared = fitAcceptor(qs, (_q, c) => P[c]!, 0.9, FOLLOW_P, { kind: "logistic", kinds });
    const own = fitAcceptor(qs, (_q, c) => P[c]!, 0.9, FOLLOW_P, { kind: "logistic", kinds, scorerBy: "kind" });
    expect(own.acceptor.kinds[0]!.feature).toBe("tables-only&clean");
    expect(own.acceptor.kinds[0]!.scorer).toBeDefined();
    expect(own.acceptor.kinds[0]!.threshold).toBeLessThan(1);
    const accepted = (fit: typeof own) =>
      qs.filter((q) => finalChoice(q, (c) => P[c]!, 0.9, { ...FOLLOW_P, acceptor: fit.acceptor }).isAccepted);
    const byOwn = accepted(own);
    // per kind: more is accepted, and what is accepted is right
    expect(byOwn.length).toBeGreaterThan(accepted(shared).length);
    expect(byOwn.filter((q) => q.candidates[0]!.right).length / byOwn.length).toBeGreaterThan(0.9);
    // the model file keeps the kind's scorer, checked on load
    const base = { format: "atr-answer-verifier-v2", scorer: FOLLOW_P.scorer, threshold: 0.9, trainedOn: {} };
    const loaded = checkAnswerModel({ ...base, ranker: { scorer: FOLLOW_P.scorer, acceptor: own.acceptor } });
    expect(loaded.ranker?.acceptor?.kinds[0]?.scorer).toEqual(own.acceptor.kinds[0]!.scorer);
    const bad = {
      ...own.acceptor,
      kinds: [{ ...own.acceptor.kinds[0]!, scorer: { kind: "forest" } }, own.acceptor.kinds[1]],
    };
    expect(() => checkAnswerModel({ ...base, ranker: { scorer: FOLLOW_P.scorer, acceptor: bad } })).toThrow(
      /ranker\.acceptor\.kinds\[0\]\.scorer\.kind/,
    );
  });
});
