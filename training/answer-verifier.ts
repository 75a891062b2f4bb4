/**
 * Trains the learned offline verifier (nodes/offline/answer-model.ts) from exploration runs: runs
 * of `atr run --emit_trace --accept_threshold 1`, where no answer is accepted so every route of
 * every sub-query is tried and each attempt's features are traced. A candidate is positive when
 * its answer is right under its benchmark's official metric. The model is a weighted logistic
 * regression (each benchmark weighs the same in total); the acceptance threshold is the lowest
 * P(correct) at which the simulated run — attempts in their traced order, the first with
 * P ≥ threshold accepted — reaches the target precision of accepted answers on every benchmark,
 * measured on out-of-fold predictions (folds grouped by question).
 */
import { readJsonl } from "./labels.js";
import { officialScore, type Bench } from "../evals/score.js";
import { sigmoid, type AnswerModel } from "../nodes/offline/answer-model.js";
import type { Features } from "../nodes/offline/answer-features.js";

export interface Candidate {
  route: string;
  answer: string;
  /** The verdict the traced run gave (only 0 matters: a contradicted answer is never the fallback). */
  ruleVerdict: number;
  features: Features;
  right: boolean;
}

export interface QuestionCandidates {
  id: string;
  bench: Bench;
  /** In attempt order, as the graph tried them. */
  candidates: Candidate[];
}

interface TraceRecord {
  question_id?: string;
  atr_trace?: { verifier_decisions?: Array<{ effective_route: string; produced_answer: string; verdict: number; features?: Features }> };
}

/** One benchmark's exploration run, labelled against its questions file. */
export function loadQuestions(bench: Bench, goldPath: string, runPath: string): QuestionCandidates[] {
  const gold = new Map<string, Record<string, unknown>>();
  for (const g of readJsonl<Record<string, unknown>>(goldPath)) gold.set(String(g.question_id), g);
  const out: QuestionCandidates[] = [];
  for (const r of readJsonl<TraceRecord>(runPath)) {
    const id = String(r.question_id);
    const g = gold.get(id);
    if (!g) throw new Error(`${runPath}: question ${id} is not in ${goldPath}`);
    const right = (answer: string) => {
      const s = officialScore(bench, { ...g, question: String(g.question ?? "") }, { agentic_tablerag_answer: answer });
      return (s.accuracy ?? s.em ?? 0) === 1;
    };
    const candidates = (r.atr_trace?.verifier_decisions ?? [])
      .filter((d) => d.features)
      .map((d) => ({ route: d.effective_route, answer: d.produced_answer, ruleVerdict: d.verdict, features: d.features!, right: right(d.produced_answer) }));
    out.push({ id: `${bench}:${id}`, bench, candidates });
  }
  return out;
}

export interface FitOptions {
  /** L2 penalty on the weights (not the bias), per unit of total example weight. */
  l2?: number;
  iterations?: number;
  learningRate?: number;
  /** Features seen in fewer candidates are dropped (default 3). */
  minCount?: number;
}

/** Weighted logistic regression by full-batch Adam; each benchmark's candidates weigh 1 in total. */
export function fitWeights(questions: readonly QuestionCandidates[], options: FitOptions = {}): Record<string, number> {
  const { l2 = 0.002, iterations = 400, learningRate = 0.1, minCount = 3 } = options;
  const rows = questions.flatMap((q) => q.candidates.map((c) => ({ bench: q.bench, c })));
  const counts = new Map<string, number>();
  for (const { c } of rows) for (const f of Object.keys(c.features)) counts.set(f, (counts.get(f) ?? 0) + 1);
  const names = [...counts].filter(([f, n]) => n >= minCount || f === "bias").map(([f]) => f).sort();
  const index = new Map(names.map((f, i) => [f, i]));
  const perBench = new Map<Bench, number>();
  for (const { bench } of rows) perBench.set(bench, (perBench.get(bench) ?? 0) + 1);
  const data = rows.map(({ bench, c }) => {
    const idx: number[] = [];
    const val: number[] = [];
    for (const [f, v] of Object.entries(c.features)) {
      const i = index.get(f);
      if (i !== undefined && v !== 0) (idx.push(i), val.push(v));
    }
    return { idx, val, y: c.right ? 1 : 0, w: 1 / (perBench.get(bench)! * perBench.size) };
  });
  const w = new Float64Array(names.length);
  const m = new Float64Array(names.length);
  const v = new Float64Array(names.length);
  const bias = index.get("bias");
  for (let t = 1; t <= iterations; t++) {
    const grad = new Float64Array(names.length);
    for (const d of data) {
      let z = 0;
      for (let k = 0; k < d.idx.length; k++) z += w[d.idx[k]!]! * d.val[k]!;
      const g = (sigmoid(z) - d.y) * d.w;
      for (let k = 0; k < d.idx.length; k++) grad[d.idx[k]!]! += g * d.val[k]!;
    }
    for (let i = 0; i < names.length; i++) {
      const gi = grad[i]! + (i === bias ? 0 : l2 * w[i]!);
      m[i] = 0.9 * m[i]! + 0.1 * gi;
      v[i] = 0.999 * v[i]! + 0.001 * gi * gi;
      const mh = m[i]! / (1 - 0.9 ** t);
      const vh = v[i]! / (1 - 0.999 ** t);
      w[i] = w[i]! - (learningRate * mh) / (Math.sqrt(vh) + 1e-8);
    }
  }
  const weights: Record<string, number> = {};
  names.forEach((f, i) => {
    if (Math.abs(w[i]!) >= 1e-4) weights[f] = Math.round(w[i]! * 10000) / 10000;
  });
  return weights;
}

/** P(correct) per candidate: a function of (question index, candidate index). */
export type Scorer = (q: number, c: number) => number;

export function scorerFor(questions: readonly QuestionCandidates[], weights: Readonly<Record<string, number>>): Scorer {
  const p = questions.map((q) =>
    q.candidates.map((c) => {
      let z = 0;
      for (const [f, value] of Object.entries(c.features)) z += (weights[f] ?? 0) * value;
      return Math.min(0.999, sigmoid(z));
    }),
  );
  return (q, c) => p[q]![c]!;
}

/** Out-of-fold P(correct): each fold of questions scored by a model fitted on the others. */
export function crossValidated(questions: readonly QuestionCandidates[], folds: number, options: FitOptions = {}): Scorer {
  const fold = questions.map((q) => hashString(q.id) % folds);
  const p: number[][] = questions.map((q) => q.candidates.map(() => 0));
  for (let k = 0; k < folds; k++) {
    const train = questions.filter((_, i) => fold[i] !== k);
    const score = scorerFor(questions, fitWeights(train, options));
    questions.forEach((q, i) => {
      if (fold[i] === k) q.candidates.forEach((_, c) => (p[i]![c] = score(i, c)));
    });
  }
  return (q, c) => p[q]![c]!;
}

function hashString(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h;
}

export interface Figures {
  questions: number;
  /** Share of questions whose final answer is right (official metric: WTQ accuracy, TAT-QA/HybridQA EM). */
  accuracy: number;
  /** Share of questions with an accepted answer. */
  accepted: number;
  /** Share of accepted answers that are right. */
  precision: number;
  /** Share of questions where some candidate is right. */
  candidateRecall: number;
  /** Of those, the share whose final answer is right. */
  rankerAccuracy: number;
}

/** The run the graph would make with this scorer and threshold, replayed over the traced attempts. */
export function simulate(questions: readonly QuestionCandidates[], score: Scorer, threshold: number, indices?: readonly number[]): Figures {
  const chosen = indices ?? questions.map((_, i) => i);
  let right = 0;
  let accepted = 0;
  let acceptedRight = 0;
  let recall = 0;
  for (const i of chosen) {
    const q = questions[i]!;
    const { answer, isAccepted } = finalChoice(q, (c) => score(i, c), threshold);
    if (isAccepted) accepted++;
    if (answer?.right) {
      right++;
      if (isAccepted) acceptedRight++;
    }
    if (q.candidates.some((c) => c.right)) recall++;
  }
  const n = Math.max(1, chosen.length);
  return {
    questions: chosen.length,
    accuracy: right / n,
    accepted: accepted / n,
    precision: accepted ? acceptedRight / accepted : 0,
    candidateRecall: recall / n,
    rankerAccuracy: recall ? right / recall : 0,
  };
}

/** The first attempt at P ≥ threshold, else the highest-P candidate no check contradicted (nodes/synthesize.ts). */
export function finalChoice(q: QuestionCandidates, p: (c: number) => number, threshold: number): { answer?: Candidate; isAccepted: boolean } {
  for (let c = 0; c < q.candidates.length; c++) {
    if (p(c) >= threshold) return { answer: q.candidates[c], isAccepted: true };
  }
  let best = -1;
  for (let c = 0; c < q.candidates.length; c++) {
    const cand = q.candidates[c]!;
    if (cand.ruleVerdict === 0 || cand.answer.trim() === "" || cand.answer.trim().toLowerCase() === "not found") continue;
    if (best < 0 || p(c) > p(best)) best = c;
  }
  return best < 0 ? { isAccepted: false } : { answer: q.candidates[best], isAccepted: false };
}

/** Question indices per benchmark. */
export function byBench(questions: readonly QuestionCandidates[]): Map<Bench, number[]> {
  const out = new Map<Bench, number[]>();
  questions.forEach((q, i) => out.set(q.bench, [...(out.get(q.bench) ?? []), i]));
  return out;
}

/**
 * The lowest threshold (on a 0.01 grid) at which every benchmark's simulated precision of accepted
 * answers reaches `target`; 1 (never accept) when none does.
 */
export function chooseThreshold(questions: readonly QuestionCandidates[], score: Scorer, target: number): number {
  const groups = [...byBench(questions).values()];
  for (let t = 0.3; t < 0.995; t += 0.01) {
    const ok = groups.every((g) => {
      const f = simulate(questions, score, t, g);
      return f.accepted === 0 || f.precision >= target;
    });
    if (ok) return Math.round(t * 100) / 100;
  }
  return 1;
}

export interface TrainResult {
  model: AnswerModel;
  /** Out-of-fold figures per benchmark at the chosen threshold. */
  crossValidated: Record<string, Figures>;
}

/** Fits the model on every question, with the threshold and figures from cross-validation. */
export function trainAnswerModel(questions: readonly QuestionCandidates[], options: FitOptions & { folds?: number; targetPrecision?: number; sources?: string[] } = {}): TrainResult {
  const { folds = 5, targetPrecision = 0.85 } = options;
  const oof = crossValidated(questions, folds, options);
  const threshold = chooseThreshold(questions, oof, targetPrecision);
  const figures: Record<string, Figures> = {};
  for (const [bench, idx] of byBench(questions)) figures[bench] = simulate(questions, oof, threshold, idx);
  const weights = fitWeights(questions, options);
  const counts: Record<string, { questions: number; candidates: number }> = {};
  for (const q of questions) {
    const c = (counts[q.bench] ??= { questions: 0, candidates: 0 });
    c.questions++;
    c.candidates += q.candidates.length;
  }
  return {
    model: {
      format: "atr-answer-verifier-v1",
      weights,
      threshold,
      trainedOn: { sources: options.sources ?? [], counts, targetPrecision, folds, l2: options.l2 ?? 0.002, crossValidated: figures },
    },
    crossValidated: figures,
  };
}

/** Final answers by P(correct) bucket (0.1 wide): how many, and how many right. */
export function reliability(questions: readonly QuestionCandidates[], score: Scorer, threshold: number): Array<{ from: number; n: number; right: number }> {
  const buckets = Array.from({ length: 10 }, (_, i) => ({ from: i / 10, n: 0, right: 0 }));
  questions.forEach((q, i) => {
    let pick = -1;
    for (let c = 0; c < q.candidates.length && pick < 0; c++) if (score(i, c) >= threshold) pick = c;
    const choice = finalChoice(q, (c) => score(i, c), threshold);
    if (pick < 0 && choice.answer) pick = q.candidates.indexOf(choice.answer);
    if (pick < 0) return;
    const b = buckets[Math.min(9, Math.floor(score(i, pick) * 10))]!;
    b.n++;
    if (q.candidates[pick]!.right) b.right++;
  });
  return buckets;
}
