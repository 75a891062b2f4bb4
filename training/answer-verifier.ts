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
import { fnv1a32 } from "../indexing/hash.js";
import { readJsonl } from "./labels.js";
import { officialScore, type Bench } from "../evals/score.js";
import { sigmoid, type AnswerModel } from "../nodes/offline/answer-model.js";
import { answerGroups, chooseAnswer, rulePick, type RankedAttempt } from "../nodes/offline/answer-ranker.js";
import type { Features } from "../nodes/offline/answer-features.js";

export interface Candidate {
  route: string;
  subQuery: string;
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
  atr_trace?: { verifier_decisions?: Array<{ effective_route: string; sub_query: string; produced_answer: string; verdict: number; features?: Features }> };
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
      .map((d) => ({ route: d.effective_route, subQuery: d.sub_query, answer: d.produced_answer, ruleVerdict: d.verdict, features: d.features!, right: right(d.produced_answer) }));
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
  const fold = questions.map((q) => fnv1a32(q.id) % folds);
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

/** The figures of a replayed run from each question's outcome: its answer right, accepted, and whether some candidate was right. */
function tally(outcomes: ReadonlyArray<{ right: boolean; accepted: boolean; recall: boolean }>): Figures {
  const n = Math.max(1, outcomes.length);
  const count = (f: (o: (typeof outcomes)[number]) => boolean) => outcomes.filter(f).length;
  const right = count((o) => o.right);
  const accepted = count((o) => o.accepted);
  const recall = count((o) => o.recall);
  return {
    questions: outcomes.length,
    accuracy: right / n,
    accepted: accepted / n,
    precision: accepted ? count((o) => o.accepted && o.right) / accepted : 0,
    candidateRecall: recall / n,
    rankerAccuracy: recall ? right / recall : 0,
  };
}

/** The run the graph would make with this scorer and threshold, replayed over the traced attempts. */
export function simulate(questions: readonly QuestionCandidates[], score: Scorer, threshold: number, indices?: readonly number[], ranker?: Readonly<Record<string, number>>): Figures {
  return tally(
    (indices ?? questions.map((_, i) => i)).map((i) => {
      const q = questions[i]!;
      const { answer, isAccepted } = finalChoice(q, (c) => score(i, c), threshold, ranker);
      return { right: answer?.right === true, accepted: isAccepted, recall: q.candidates.some((c) => c.right) };
    }),
  );
}

/** The question's candidates as the ranker reads them, with verdicts the graph would give at this threshold. */
function rankedAttempts(q: QuestionCandidates, p: (c: number) => number, threshold: number): RankedAttempt[] {
  let accepted = false;
  return q.candidates.map((c, i) => {
    const accept = !accepted && p(i) >= threshold;
    if (accept) accepted = true;
    return { answer: c.answer, route: c.route, subQuery: c.subQuery, verdict: accept ? 1 : c.ruleVerdict === 0 ? 0 : 0.5, p: p(i), features: c.features };
  });
}

/**
 * The graph's final answer (nodes/synthesize.ts): the first attempt at P ≥ threshold, else the
 * ranker's choice (with `ranker` weights), else the highest-P candidate no check contradicted.
 */
export function finalChoice(q: QuestionCandidates, p: (c: number) => number, threshold: number, ranker?: Readonly<Record<string, number>>): { answer?: Candidate; isAccepted: boolean } {
  const choice = chooseAnswer(rankedAttempts(q, p, threshold), ranker);
  return choice ? { answer: q.candidates[choice.index], isAccepted: choice.verified } : { isAccepted: false };
}

/**
 * Fits the ranker: one example per distinct uncontradicted answer of a question that has more than
 * one (answer-ranker.ts features, with out-of-fold P), positive when it is right; each benchmark
 * weighs the same in total.
 */
export function fitRanker(questions: readonly QuestionCandidates[], score: Scorer, options: FitOptions = {}): Record<string, number> {
  const examples: QuestionCandidates[] = [];
  questions.forEach((q, i) => {
    const groups = answerGroups(rankedAttempts(q, (c) => score(i, c), 2));
    if (groups.length < 2) return;
    const candidates = groups.map((g) => ({ route: "", subQuery: "", answer: g.answer, ruleVerdict: 0.5, features: g.features, right: q.candidates[g.attempts[0]!]!.right }));
    examples.push({ id: q.id, bench: q.bench, candidates });
  });
  return fitWeights(examples, { minCount: 1, ...options });
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

/**
 * The released-rules baseline replayed over the same attempts: the first answer the rule checks
 * verify (an SQL result of a confident plan, located report-table cells), else the plausible
 * fallback (answer-ranker.ts `rulePick`).
 */
export function rulePolicy(questions: readonly QuestionCandidates[], indices?: readonly number[]): Figures {
  return tally(
    (indices ?? questions.map((_, i) => i)).map((i) => {
      const q = questions[i]!;
      const attempts = q.candidates.map((c) => ({ answer: c.answer, route: c.route, subQuery: c.subQuery, verdict: c.ruleVerdict === 0 ? 0 : 0.5, p: 0, features: c.features }));
      const pick = rulePick(attempts);
      const chosen = pick >= 0 ? q.candidates[pick]! : undefined;
      const accepted = chosen !== undefined && (chosen.features["rule=sql"] === 1 || chosen.features["rule=cells"] === 1);
      return { right: chosen?.right === true, accepted, recall: q.candidates.some((c) => c.right) };
    }),
  );
}

export interface TrainResult {
  model: AnswerModel;
  /** Out-of-fold figures per benchmark at the chosen threshold, with the ranker. */
  crossValidated: Record<string, Figures>;
  /** The same replay with the rule policy, for comparison. */
  rules: Record<string, Figures>;
}

/** Out-of-fold figures with the ranker: each fold's questions answered by a ranker fitted on the others. */
function rankerCrossValidated(questions: readonly QuestionCandidates[], oof: Scorer, threshold: number, folds: number, options: FitOptions): Record<string, Figures> {
  const fold = questions.map((q) => fnv1a32(`ranker:${q.id}`) % folds);
  const rankers = Array.from({ length: folds }, (_, k) => {
    const train: QuestionCandidates[] = [];
    const map: number[] = [];
    questions.forEach((q, i) => fold[i] !== k && (train.push(q), map.push(i)));
    return fitRanker(train, (q, c) => oof(map[q]!, c), options);
  });
  const figures: Record<string, Figures> = {};
  for (const [bench, idx] of byBench(questions)) {
    const parts = Array.from({ length: folds }, (_, k) => simulate(questions, oof, threshold, idx.filter((i) => fold[i] === k), rankers[k]));
    figures[bench] = mergeFigures(parts);
  }
  return figures;
}

function mergeFigures(parts: readonly Figures[]): Figures {
  const n = parts.reduce((s, f) => s + f.questions, 0);
  const sum = (get: (f: Figures) => number) => parts.reduce((s, f) => s + get(f) * f.questions, 0);
  const accepted = sum((f) => f.accepted);
  const recall = sum((f) => f.candidateRecall);
  const right = sum((f) => f.accuracy);
  return {
    questions: n,
    accuracy: right / Math.max(1, n),
    accepted: accepted / Math.max(1, n),
    precision: accepted ? sum((f) => f.precision * f.accepted) / accepted : 0,
    candidateRecall: recall / Math.max(1, n),
    rankerAccuracy: recall ? right / recall : 0,
  };
}

/** Fits the verifier and the ranker on every question, with the threshold and figures from cross-validation. */
export function trainAnswerModel(questions: readonly QuestionCandidates[], options: FitOptions & { folds?: number; targetPrecision?: number; sources?: string[]; notes?: string[] } = {}): TrainResult {
  const { folds = 5, targetPrecision = 0.85 } = options;
  const oof = crossValidated(questions, folds, options);
  const threshold = chooseThreshold(questions, oof, targetPrecision);
  const figures = rankerCrossValidated(questions, oof, threshold, folds, options);
  const rules: Record<string, Figures> = {};
  for (const [bench, idx] of byBench(questions)) rules[bench] = rulePolicy(questions, idx);
  const weights = fitWeights(questions, options);
  const ranker = fitRanker(questions, oof, options);
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
      ranker,
      trainedOn: { sources: options.sources ?? [], notes: options.notes ?? [], counts, targetPrecision, folds, l2: options.l2 ?? 0.002, crossValidated: figures, rulePolicy: rules },
    },
    crossValidated: figures,
    rules,
  };
}

/** Final answers by the P(correct) of the attempt that gave them (0.1-wide buckets): how many, how many right. */
export function reliability(questions: readonly QuestionCandidates[], score: Scorer, threshold: number, ranker?: Readonly<Record<string, number>>): Array<{ from: number; n: number; right: number }> {
  const buckets = Array.from({ length: 10 }, (_, i) => ({ from: i / 10, n: 0, right: 0 }));
  questions.forEach((q, i) => {
    const choice = finalChoice(q, (c) => score(i, c), threshold, ranker);
    const pick = choice.answer ? q.candidates.indexOf(choice.answer) : -1;
    if (pick < 0) return;
    const b = buckets[Math.min(9, Math.floor(score(i, pick) * 10))]!;
    b.n++;
    if (q.candidates[pick]!.right) b.right++;
  });
  return buckets;
}
