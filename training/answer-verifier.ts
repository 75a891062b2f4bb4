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
import { wtqTrainCanons } from "./wtq-canon.js";
import { fitIsotonic } from "./calibration.js";
import { fitTrees, TREE_DEFAULTS, type TrainingRow, type TreeOptions } from "./gbdt.js";
import { officialScore, type Bench } from "../evals/score.js";
import { plainCorrect } from "./plain-tables.js";
import {
  calibrated,
  calibrationFor,
  rawScore,
  scoreFeatures,
  sigmoid,
  type Acceptor,
  type AnswerModel,
  type Calibration,
  type Scorer as ModelScorer,
} from "../nodes/offline/answer-model.js";
import { ALTERNATIVE_MARGIN, chooseWithAlternatives } from "../nodes/synthesize.js";
import type { TraceDecision } from "../graph/state.js";
import {
  acceptorFeatures,
  answerGroups,
  bestGroup,
  carriesKind,
  chooseAnswer,
  rankRaw,
  rulePick,
  type Ranker,
  type RankedAttempt,
} from "../nodes/offline/answer-ranker.js";
import type { Features } from "../nodes/offline/answer-features.js";

/**
 * A training benchmark: the three of evals/score.ts, or `plain` — the synthetic plain tables of
 * training/plain-tables.ts, scored by its own `plainCorrect` (scripts/plain-tables.ts writes them).
 */
export type TrainingBench = Bench | "plain";
export const TRAINING_BENCHES: readonly TrainingBench[] = ["wtq", "tatqa", "hybridqa", "plain"];

export interface Candidate {
  route: string;
  subQuery: string;
  answer: string;
  /** The verdict the traced run gave (only 0 matters: a contradicted answer is never the fallback). */
  ruleVerdict: number;
  features: Features;
  right: boolean;
  /** Another SQL candidate of an attempt (the trace's `alternative`): the ranker never sees it (nodes/synthesize.ts). */
  alternative?: boolean;
}

export interface QuestionCandidates {
  id: string;
  bench: TrainingBench;
  /**
   * The questions that share its table (`bench:table_id`): the acceptor's cross-validation folds
   * keep them together, so no fold is scored by a model that saw other questions over the same
   * report or table (held-out splits have other tables). Absent: the question is its own group.
   */
  group?: string;
  /** In attempt order, as the graph tried them. */
  candidates: Candidate[];
}

interface TraceRecord {
  question_id?: string;
  atr_trace?: {
    verifier_decisions?: Array<{
      effective_route: string;
      sub_query: string;
      produced_answer: string;
      verdict: number;
      features?: Features;
      alternative?: boolean;
    }>;
  };
}

/**
 * One benchmark's exploration run, labelled against its questions file. A WTQ record without
 * `answer_canon` (wtq/train) gets the typed values CoreNLP would give its answers (wtq-canon.ts),
 * as the official evaluator has them for dev and held-out records, unless `typedWtqGold` is false.
 */
export function loadQuestions(
  bench: TrainingBench,
  goldPath: string,
  runPath: string,
  options: { typedWtqGold?: boolean } = {},
): QuestionCandidates[] {
  const gold = new Map<string, Record<string, unknown>>();
  for (const g of readJsonl<Record<string, unknown>>(goldPath)) {
    const canon =
      bench === "wtq" && options.typedWtqGold !== false && !Array.isArray(g.answer_canon) && Array.isArray(g.answer)
        ? wtqTrainCanons((g.answer as unknown[]).map(String))
        : null;
    gold.set(String(g.question_id), canon ? { ...g, answer_canon: canon } : g);
  }
  const out: QuestionCandidates[] = [];
  for (const r of readJsonl<TraceRecord>(runPath)) {
    const id = String(r.question_id);
    const g = gold.get(id);
    if (!g) throw new Error(`${runPath}: question ${id} is not in ${goldPath}`);
    const right = (answer: string) => {
      if (bench === "plain") return plainCorrect((g.answer as Array<string | number>) ?? [], answer);
      const s = officialScore(bench, { ...g, question: String(g.question ?? "") }, { agentic_tablerag_answer: answer });
      return (s.accuracy ?? s.em ?? 0) === 1;
    };
    const candidates = (r.atr_trace?.verifier_decisions ?? [])
      .filter((d) => d.features)
      .map((d) => ({
        route: d.effective_route,
        subQuery: d.sub_query,
        answer: d.produced_answer,
        ruleVerdict: d.verdict,
        features: d.features!,
        right: right(d.produced_answer),
        ...(d.alternative ? { alternative: true } : {}),
      }));
    const table = typeof g.table_id === "string" && g.table_id !== "" ? { group: `${bench}:${g.table_id}` } : {};
    out.push({ id: `${bench}:${id}`, bench, ...table, candidates });
  }
  return out;
}

/** The questions with the features whose names match left out (`atr train-verifier --ignore_features`); "bias" is kept. */
export function withoutFeatures(questions: readonly QuestionCandidates[], ignored: RegExp): QuestionCandidates[] {
  return questions.map((q) => ({
    ...q,
    candidates: q.candidates.map((c) => ({
      ...c,
      features: Object.fromEntries(
        Object.entries(c.features).filter(([name]) => name === "bias" || !ignored.test(name)),
      ),
    })),
  }));
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
  const names = [...counts]
    .filter(([f, n]) => n >= minCount || f === "bias")
    .map(([f]) => f)
    .sort();
  const index = new Map(names.map((f, i) => [f, i]));
  const perBench = new Map<TrainingBench, number>();
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

/** Which scorer to fit, and its settings. */
export interface ScorerOptions extends FitOptions {
  /** "trees" (default): gradient-boosted trees (training/gbdt.ts); "logistic": fitWeights. */
  kind?: "trees" | "logistic";
  trees?: TreeOptions;
  /** Candidates with this feature get their own calibration (default none: in cv, one calibration for all gave more acceptance at the target). */
  calibrateBy?: string;
}

/** The candidates as weighted training rows: each benchmark weighs the same in total, mean weight 1. */
export function candidateRows(questions: readonly QuestionCandidates[]): TrainingRow[] {
  const perBench = new Map<TrainingBench, number>();
  for (const q of questions) perBench.set(q.bench, (perBench.get(q.bench) ?? 0) + q.candidates.length);
  const total = [...perBench.values()].reduce((a, b) => a + b, 0);
  return questions.flatMap((q) =>
    q.candidates.map((c) => ({
      features: c.features,
      y: c.right ? (1 as const) : (0 as const),
      w: total / (perBench.get(q.bench)! * perBench.size),
    })),
  );
}

/** Fits the scorer (raw log-odds) on the questions' candidates. */
export function fitScorer(questions: readonly QuestionCandidates[], options: ScorerOptions = {}): ModelScorer {
  if (options.kind === "logistic") return { kind: "logistic", weights: fitWeights(questions, options) };
  return fitTrees(candidateRows(questions), {
    ...(options.minCount !== undefined ? { minCount: options.minCount } : {}),
    ...options.trees,
  });
}

/** P(correct) of every candidate under a model. */
export function scorerFor(
  questions: readonly QuestionCandidates[],
  model: Pick<AnswerModel, "scorer" | "calibration">,
): Scorer {
  const p = questions.map((q) => q.candidates.map((c) => Math.min(0.999, scoreFeatures(model, c.features))));
  return (q, c) => p[q]![c]!;
}

/** The fold (0..folds−1) of each question: a hash of its table group (else its id), so a table's questions stay together. */
export function foldsOf(questions: readonly QuestionCandidates[], folds: number, salt = ""): number[] {
  return questions.map((q) => fnv1a32(`${salt}${q.group ?? q.id}`) % folds);
}

/** Isotonic calibration of the candidates in the folds `keep` accepts (and that `having` accepts). */
function calibrationOn(
  raw: readonly number[][],
  questions: readonly QuestionCandidates[],
  fold: readonly number[],
  keep: (k: number) => boolean,
  having: (c: Candidate) => boolean = () => true,
): Calibration | undefined {
  const rows = candidateRows(questions);
  const points: Array<{ score: number; y: number; w: number }> = [];
  let r = 0;
  questions.forEach((q, i) =>
    q.candidates.forEach((c, j) => {
      if (keep(fold[i]!) && having(c)) points.push({ score: raw[i]![j]!, y: c.right ? 1 : 0, w: rows[r]!.w });
      r++;
    }),
  );
  return points.length ? fitIsotonic(points) : undefined;
}

/** The calibration(s) of a model from out-of-fold raw scores: one, or one per presence of `by` when both sides have data. */
function calibrationsOn(
  raw: readonly number[][],
  questions: readonly QuestionCandidates[],
  fold: readonly number[],
  keep: (k: number) => boolean,
  by: string,
): Pick<AnswerModel, "calibration" | "calibrationBy"> {
  const split =
    by !== "" &&
    questions.some((q) => q.candidates.some((c) => c.features[by])) &&
    questions.some((q) => q.candidates.some((c) => !c.features[by]));
  if (!split) return { calibration: calibrationOn(raw, questions, fold, keep)! };
  const other = calibrationOn(raw, questions, fold, keep, (c) => !c.features[by]);
  const own = calibrationOn(raw, questions, fold, keep, (c) => !!c.features[by]);
  if (!other || !own) return { calibration: calibrationOn(raw, questions, fold, keep)! };
  return { calibration: other, calibrationBy: [{ feature: by, calibration: own }] };
}

/**
 * Out-of-fold P(correct): each fold of questions scored by a scorer fitted on the others, and
 * calibrated by an isotonic map fitted on the other folds' out-of-fold scores (so neither the
 * scorer nor its calibration saw the question). `calibration` is fitted on all out-of-fold scores:
 * the shipped model's.
 */
export function crossValidated(
  questions: readonly QuestionCandidates[],
  folds: number,
  options: ScorerOptions = {},
): Scorer & { raw: number[][]; calibrations: Pick<AnswerModel, "calibration" | "calibrationBy">; fold: number[] } {
  const fold = foldsOf(questions, folds);
  const raw: number[][] = questions.map((q) => q.candidates.map(() => 0));
  for (let k = 0; k < folds; k++) {
    const scorer = fitScorer(
      questions.filter((_, i) => fold[i] !== k),
      options,
    );
    questions.forEach((q, i) => {
      if (fold[i] === k) q.candidates.forEach((c, j) => (raw[i]![j] = rawScore(scorer, c.features)));
    });
  }
  const by = options.calibrateBy ?? "";
  const perFold = Array.from({ length: folds }, (_, k) => calibrationsOn(raw, questions, fold, (f) => f !== k, by));
  const p = questions.map((q, i) =>
    q.candidates.map((c, j) => {
      const m = perFold[fold[i]!]!;
      return Math.min(0.999, calibrated(calibrationFor(m, c.features), raw[i]![j]!));
    }),
  );
  const score = ((q: number, c: number) => p[q]![c]!) as Scorer & {
    raw: number[][];
    calibrations: Pick<AnswerModel, "calibration" | "calibrationBy">;
    fold: number[];
  };
  score.raw = raw;
  score.fold = fold;
  score.calibrations = calibrationsOn(raw, questions, fold, () => true, by);
  return score;
}

/** How well P separates right from wrong candidates of some questions. */
export interface Quality {
  candidates: number;
  /** Mean log-loss of P over the candidates. */
  logLoss: number;
  /** Area under the ROC curve (ties count half). */
  auc: number;
  /** The largest share of questions accepted, over thresholds, by the replayed run (attempts only) with accepted precision ≥ the target. */
  acceptedAtTarget: number;
  /** The threshold that gives it (1 when none does). */
  thresholdAtTarget: number;
}

export function quality(
  questions: readonly QuestionCandidates[],
  score: Scorer,
  target: number,
  indices?: readonly number[],
): Quality {
  const idx = indices ?? questions.map((_, i) => i);
  const pairs: Array<{ p: number; y: number }> = [];
  for (const i of idx) questions[i]!.candidates.forEach((c, j) => pairs.push({ p: score(i, j), y: c.right ? 1 : 0 }));
  const logLoss =
    pairs.reduce((s, { p, y }) => s - Math.log(Math.max(1e-6, y ? p : 1 - p)), 0) / Math.max(1, pairs.length);
  pairs.sort((a, b) => a.p - b.p);
  let rankSum = 0;
  let positives = 0;
  for (let a = 0; a < pairs.length;) {
    let b = a;
    while (b < pairs.length && pairs[b]!.p === pairs[a]!.p) b++;
    const midRank = (a + 1 + b) / 2;
    for (let k = a; k < b; k++) if (pairs[k]!.y) ((rankSum += midRank), positives++);
    a = b;
  }
  const negatives = pairs.length - positives;
  const auc = positives && negatives ? (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives) : 0.5;
  let acceptedAtTarget = 0;
  let thresholdAtTarget = 1;
  for (let t = 0.99; t >= 0.3; t -= 0.01) {
    const f = simulate(questions, score, t, idx);
    if (f.accepted > acceptedAtTarget && f.precision >= target)
      ((acceptedAtTarget = f.accepted), (thresholdAtTarget = Math.round(t * 100) / 100));
  }
  return { candidates: pairs.length, logLoss, auc, acceptedAtTarget, thresholdAtTarget };
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

/** The ranker of each question: one for all, or per question (the out-of-fold rankers). */
export type Rankers = Ranker | ((q: number) => Ranker);

const rankerAt = (rankers: Rankers | undefined, q: number): Ranker | undefined =>
  typeof rankers === "function" ? rankers(q) : rankers;

/** One threshold for every question, or one per question (by its kind of index: `thresholdsOf`). */
export type Threshold = number | ((q: QuestionCandidates) => number);

function thresholdOf(threshold: Threshold, q: QuestionCandidates): number {
  return typeof threshold === "number" ? threshold : threshold(q);
}

/** Does the question carry the feature (every attempt of a question has the same kind of index: "tables-only", "passages")? */
function carries(q: QuestionCandidates, feature: string): boolean {
  return carriesKind(q.candidates[0]?.features ?? {}, feature);
}

/** The model's thresholds as the graph applies them (answer-model.ts thresholdFor): per question. */
export function thresholdsOf(model: Pick<AnswerModel, "threshold" | "thresholdBy">): Threshold {
  const by = model.thresholdBy;
  if (!by) return model.threshold;
  return (q) => (carries(q, by.feature) ? by.threshold : model.threshold);
}

/**
 * The run the graph would make with this scorer, threshold and ranker, replayed over the traced
 * attempts: the first attempt at P ≥ threshold is accepted; else the ranker's choice, accepted when
 * the ranker's P reaches the threshold.
 */
export function simulate(
  questions: readonly QuestionCandidates[],
  score: Scorer,
  threshold: Threshold,
  indices?: readonly number[],
  ranker?: Rankers,
): Figures {
  return tally(
    (indices ?? questions.map((_, i) => i)).map((i) => {
      const q = questions[i]!;
      const { answer, isAccepted } = finalChoice(q, (c) => score(i, c), thresholdOf(threshold, q), rankerAt(ranker, i));
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
    return {
      answer: c.answer,
      route: c.route,
      subQuery: c.subQuery,
      verdict: accept ? 1 : c.ruleVerdict === 0 ? 0 : 0.5,
      p: p(i),
      features: c.features,
    };
  });
}

/**
 * The graph's final answer (nodes/synthesize.ts): the first attempt at P ≥ threshold, else the
 * ranker's choice (accepted at its P ≥ threshold), else the highest-P candidate no check contradicted.
 */
export function finalChoice(
  q: QuestionCandidates,
  p: (c: number) => number,
  threshold: number,
  ranker?: Ranker,
): { answer?: Candidate; isAccepted: boolean; p?: number } {
  const attempts = rankedAttempts(q, p, threshold);
  if (q.candidates.some((c) => c.alternative)) {
    // as nodes/synthesize.ts: the ranker sees the attempts, an alternative SQL candidate replaces an unaccepted choice by a margin of P
    const rows = attempts.map((a, index) => ({
      index,
      produced_answer: a.answer,
      effective_route: a.route,
      sub_query: a.subQuery,
      verdict: a.verdict,
      p_correct: a.p,
      features: a.features,
      alternative: q.candidates[index]!.alternative === true,
    }));
    const d = chooseWithAlternatives(rows as unknown as TraceDecision[], ranker, threshold, ALTERNATIVE_MARGIN) as
      ((typeof rows)[number] & { accepted: boolean; p: number }) | undefined;
    return d ? { answer: q.candidates[d.index], isAccepted: d.accepted, p: d.p } : { isAccepted: false };
  }
  const choice = chooseAnswer(attempts, ranker, threshold);
  return choice
    ? { answer: q.candidates[choice.index], isAccepted: choice.verified, p: choice.p }
    : { isAccepted: false };
}

/** The ranker's examples: each distinct uncontradicted answer of a question (answer-ranker.ts features), right or not. */
function rankerExamples(q: QuestionCandidates, p: (c: number) => number): QuestionCandidates {
  const groups = answerGroups(rankedAttempts(q, p, 2));
  return {
    id: q.id,
    bench: q.bench,
    candidates: groups.map((g) => ({
      route: "",
      subQuery: "",
      answer: g.answer,
      ruleVerdict: 0.5,
      features: g.features,
      right: q.candidates[g.attempts[0]!]!.right,
    })),
  };
}

/**
 * Fits the ranker: a logistic regression with one example per distinct uncontradicted answer of
 * each question (with out-of-fold P), positive when it is right; each benchmark weighs the same in
 * total. (Trees over these few features, and over the attempts' features too, did worse in cv.)
 */
export function fitRanker(questions: readonly QuestionCandidates[], score: Scorer, options: FitOptions = {}): Ranker {
  const examples = questions
    .map((q, i) => rankerExamples(q, (c) => score(i, c)))
    .filter((q) => q.candidates.length > 0);
  return { scorer: { kind: "logistic", weights: fitWeights(examples, { minCount: 1, ...options }) } };
}

/** Isotonic calibration of the ranker's best-answer scores of the given questions: P(the answer it gives is right). */
function rankerCalibration(
  questions: readonly QuestionCandidates[],
  score: Scorer,
  rankers: (q: number) => Ranker,
  indices: readonly number[],
): Calibration | undefined {
  const perBench = new Map<TrainingBench, number>();
  for (const i of indices) perBench.set(questions[i]!.bench, (perBench.get(questions[i]!.bench) ?? 0) + 1);
  const points: Array<{ score: number; y: number; w: number }> = [];
  for (const i of indices) {
    const q = questions[i]!;
    const ex = rankerExamples(q, (c) => score(i, c));
    if (ex.candidates.length === 0) continue;
    const r = rankers(i);
    let best = 0;
    ex.candidates.forEach((c, k) => {
      if (linear(r, c.features) > linear(r, ex.candidates[best]!.features)) best = k;
    });
    points.push({
      score: linear(r, ex.candidates[best]!.features),
      y: ex.candidates[best]!.right ? 1 : 0,
      w: indices.length / (perBench.get(q.bench)! * perBench.size),
    });
  }
  return points.length ? fitIsotonic(points) : undefined;
}

const linear = (r: Ranker, features: Features) => rankRaw(r, { answer: "", attempts: [], features });

/**
 * Out-of-fold rankers: question i is answered by a ranker fitted on the other folds, calibrated on
 * the other folds' out-of-fold choices; `final` is fitted on every question, calibrated on all
 * out-of-fold choices.
 */
export function rankersCrossValidated(
  questions: readonly QuestionCandidates[],
  oof: Scorer,
  folds: number,
  options: FitOptions = {},
): { of: (q: number) => Ranker; final: Ranker } {
  const fold = foldsOf(questions, folds, "ranker:");
  const raw = Array.from({ length: folds }, (_, k) => {
    const train: QuestionCandidates[] = [];
    const map: number[] = [];
    questions.forEach((q, i) => fold[i] !== k && (train.push(q), map.push(i)));
    return fitRanker(train, (q, c) => oof(map[q]!, c), options);
  });
  const rawOf = (i: number) => raw[fold[i]!]!;
  const all = questions.map((_, i) => i);
  const calibrated = raw.map((r, k) => {
    const c = rankerCalibration(
      questions,
      oof,
      rawOf,
      all.filter((i) => fold[i] !== k),
    );
    return { ...r, ...(c ? { calibration: c } : {}) };
  });
  const weights = fitRanker(questions, oof, options);
  const c = rankerCalibration(questions, oof, rawOf, all);
  return { of: (i) => calibrated[fold[i]!]!, final: { ...weights, ...(c ? { calibration: c } : {}) } };
}

/** Question indices per benchmark. */
export function byBench(questions: readonly QuestionCandidates[]): Map<TrainingBench, number[]> {
  const out = new Map<TrainingBench, number[]>();
  questions.forEach((q, i) => out.set(q.bench, [...(out.get(q.bench) ?? []), i]));
  return out;
}

/**
 * The lower end of the Wilson score interval of a proportion (`right` of `n`) at `z` standard
 * errors: what the precision of accepted answers can be said to be at least, given how few they are.
 */
export function wilsonLower(right: number, n: number, z: number): number {
  if (n === 0) return 0;
  const p = right / n;
  const z2 = z * z;
  return (p + z2 / (2 * n) - z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
}

/**
 * The lowest threshold (on a 0.01 grid) at which the replayed accepted answers are at least
 * `target` right on every benchmark (one with no accepted answer passes) and, with `z` > 0, the
 * lower Wilson bound at z standard errors of the precision of all benchmarks' accepted answers
 * together reaches `target` too: the out-of-fold precision at the lowest passing threshold is
 * optimistic (it is the first of many thresholds tried) and rests on few accepted answers, and
 * user data has no benchmark label to bound each part. 1 (never accept) when none passes.
 */
export function chooseThreshold(
  questions: readonly QuestionCandidates[],
  score: Scorer,
  target: number,
  ranker?: Rankers,
  z = 0,
  indices?: readonly number[],
): number {
  const within = indices ? new Set(indices) : undefined;
  const groups = [...byBench(questions).values()]
    .map((g) => (within ? g.filter((i) => within.has(i)) : g))
    .filter((g) => g.length > 0);
  for (let t = 0.3; t < 0.995; t += 0.01) {
    let n = 0;
    let right = 0;
    const ok = groups.every((g) => {
      const f = simulate(questions, score, t, g, ranker);
      const accepted = Math.round(f.accepted * f.questions);
      n += accepted;
      right += Math.round(f.precision * accepted);
      return accepted === 0 || f.precision >= target;
    });
    if (ok && (z === 0 || n === 0 || wilsonLower(right, n, z) >= target)) return Math.round(t * 100) / 100;
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
      const attempts = q.candidates.map((c) => ({
        answer: c.answer,
        route: c.route,
        subQuery: c.subQuery,
        verdict: c.ruleVerdict === 0 ? 0 : 0.5,
        p: 0,
        features: c.features,
      }));
      const pick = rulePick(attempts);
      const chosen = pick >= 0 ? q.candidates[pick]! : undefined;
      const accepted =
        chosen !== undefined && (chosen.features["rule=sql"] === 1 || chosen.features["rule=cells"] === 1);
      return { right: chosen?.right === true, accepted, recall: q.candidates.some((c) => c.right) };
    }),
  );
}

export interface TrainResult {
  model: AnswerModel;
  /** Out-of-fold figures per benchmark at the chosen threshold, with the ranker. */
  crossValidated: Record<string, Figures>;
  /** Out-of-fold quality of the per-attempt P per benchmark. */
  quality: Record<string, Quality>;
  /** The same replay with the rule policy, for comparison. */
  rules: Record<string, Figures>;
  /** Out-of-fold P (calibrated) of every training candidate and the out-of-fold rankers, for reports. */
  oof: Scorer;
  oofRanker: (q: number) => Ranker;
}

export interface TrainOptions extends ScorerOptions {
  folds?: number;
  targetPrecision?: number;
  /** Standard errors of the lower precision bound the threshold must clear (chooseThreshold; 0: the point estimate). */
  boundZ?: number;
  sources?: string[];
  notes?: string[];
  /**
   * A threshold of its own for the questions carrying this feature ("tables-only"), chosen on them
   * alone by the same rule; the others' threshold on the others (answer-model.ts `thresholdBy`).
   */
  thresholdBy?: string;
}

/**
 * Fits the scorer and the ranker on every question; their calibrations, the threshold and the
 * figures come from question-grouped cross-validation.
 */
export function trainAnswerModel(questions: readonly QuestionCandidates[], options: TrainOptions = {}): TrainResult {
  const { folds = 5, targetPrecision = 0.85 } = options;
  const oof = crossValidated(questions, folds, options);
  const rankers = rankersCrossValidated(questions, oof, folds, options);
  const z = options.boundZ ?? 0;
  let threshold: number;
  let thresholdBy: AnswerModel["thresholdBy"];
  if (options.thresholdBy) {
    const feature = options.thresholdBy;
    const own = questions.flatMap((q, i) => (carries(q, feature) ? [i] : []));
    const rest = questions.flatMap((q, i) => (carries(q, feature) ? [] : [i]));
    if (own.length === 0 || rest.length === 0)
      throw new Error(`--threshold_by ${feature}: needs training questions with and without that feature`);
    threshold = chooseThreshold(questions, oof, targetPrecision, rankers.of, z, rest);
    thresholdBy = { feature, threshold: chooseThreshold(questions, oof, targetPrecision, rankers.of, z, own) };
  } else threshold = chooseThreshold(questions, oof, targetPrecision, rankers.of, z);
  const thresholds = thresholdsOf({ threshold, ...(thresholdBy ? { thresholdBy } : {}) });
  const figures: Record<string, Figures> = {};
  const rules: Record<string, Figures> = {};
  const q: Record<string, Quality> = {};
  for (const [bench, idx] of byBench(questions)) {
    figures[bench] = simulate(questions, oof, thresholds, idx, rankers.of);
    rules[bench] = rulePolicy(questions, idx);
    q[bench] = quality(questions, oof, targetPrecision, idx);
  }
  const scorer = fitScorer(questions, options);
  const counts: Record<string, { questions: number; candidates: number }> = {};
  for (const x of questions) {
    const c = (counts[x.bench] ??= { questions: 0, candidates: 0 });
    c.questions++;
    c.candidates += x.candidates.length;
  }
  const settings =
    options.kind === "logistic"
      ? { kind: "logistic", l2: options.l2 ?? 0.002 }
      : { kind: "trees", ...TREE_DEFAULTS, ...options.trees };
  return {
    model: {
      format: "atr-answer-verifier-v2",
      scorer,
      ...oof.calibrations,
      threshold,
      ...(thresholdBy ? { thresholdBy } : {}),
      ranker: rankers.final,
      trainedOn: {
        sources: options.sources ?? [],
        notes: options.notes ?? [],
        counts,
        targetPrecision,
        boundZ: options.boundZ ?? 0,
        folds,
        settings,
        crossValidated: figures,
        quality: q,
        rulePolicy: rules,
      },
    },
    crossValidated: figures,
    quality: q,
    rules,
    oof,
    oofRanker: rankers.of,
  };
}

/** Final answers by their P(correct) (0.1-wide buckets; the attempt's P, or the ranker's): how many, how many right. */
export function reliability(
  questions: readonly QuestionCandidates[],
  score: Scorer,
  threshold: Threshold,
  ranker?: Rankers,
): Array<{ from: number; n: number; right: number }> {
  const buckets = Array.from({ length: 10 }, (_, i) => ({ from: i / 10, n: 0, right: 0 }));
  questions.forEach((q, i) => {
    const choice = finalChoice(q, (c) => score(i, c), thresholdOf(threshold, q), rankerAt(ranker, i));
    if (!choice.answer || choice.p === undefined) return;
    const b = buckets[Math.min(9, Math.floor(choice.p * 10))]!;
    b.n++;
    if (choice.answer.right) b.right++;
  });
  return buckets;
}

/** One example of the question-level verifier: the answer the ranker gives to a question no attempt was accepted for. */
export interface AcceptorExample {
  /** The question's index. */
  q: number;
  /** Index into the kinds (`AcceptorOptions.kinds`), or -1 for the rest. */
  kind: number;
  features: Features;
  right: boolean;
}

/**
 * The acceptor's examples under a fixed per-attempt scorer, threshold and ranker: each question
 * whose attempts (alternatives aside, as the graph) have none at P ≥ its threshold, with the
 * features of the answer the ranker gives (answer-ranker.ts `acceptorFeatures`) and whether it is right.
 */
export function acceptorExamples(
  questions: readonly QuestionCandidates[],
  score: Scorer,
  threshold: Threshold,
  ranker: Ranker,
  kinds: readonly string[],
): AcceptorExample[] {
  const out: AcceptorExample[] = [];
  questions.forEach((q, i) => {
    const main = q.candidates.flatMap((c, j) => (c.alternative ? [] : [j]));
    const attempts = rankedAttempts(
      { ...q, candidates: main.map((j) => q.candidates[j]!) },
      (k) => score(i, main[k]!),
      thresholdOf(threshold, q),
    );
    if (attempts.some((a) => a.verdict === 1)) return;
    const best = bestGroup({ scorer: ranker.scorer }, answerGroups(attempts));
    if (!best) return;
    out.push({
      q: i,
      kind: kinds.findIndex((f) => carries(q, f)),
      features: acceptorFeatures(best.group, attempts, best),
      right: q.candidates[main[best.group.attempts[0]!]!]!.right,
    });
  });
  return out;
}

export interface AcceptorOptions extends ScorerOptions {
  /** Kinds of evidence, each with its own calibration and threshold (the first a question carries); the rest one more. */
  kinds?: readonly string[];
  folds?: number;
  targetPrecision?: number;
  boundZ?: number;
  /** Question-level features (answer-ranker.ts `acceptorFeatures`) left out, by name (`--ignore_features`). */
  ignore?: RegExp;
  /**
   * "kind": each kind of evidence gets a scorer of its own, fitted on its kind's examples alone (the
   * rest's is the shared one); "shared" (default): one scorer for every kind, a calibration per kind.
   */
  scorerBy?: "shared" | "kind";
}

/** The examples as one-candidate questions (fitScorer's input; each benchmark weighs the same). */
function asQuestions(questions: readonly QuestionCandidates[], ex: readonly AcceptorExample[]): QuestionCandidates[] {
  return ex.map((e) => ({
    id: questions[e.q]!.id,
    bench: questions[e.q]!.bench,
    candidates: [{ route: "", subQuery: "", answer: "", ruleVerdict: 0.5, features: e.features, right: e.right }],
  }));
}

/**
 * The lowest threshold (0.01 grid, 0.3..0.99) at which the examples' accepted answers are at least
 * `target` right on every benchmark (one with none accepted passes) and the lower Wilson bound at
 * `z` of all of them together reaches `target`; 1 (never) when none does.
 */
function acceptorThreshold(
  questions: readonly QuestionCandidates[],
  ex: readonly AcceptorExample[],
  p: readonly number[],
  target: number,
  z: number,
): number {
  for (let t = 0.3; t < 0.995; t += 0.01) {
    const per = new Map<TrainingBench, { n: number; right: number }>();
    ex.forEach((e, k) => {
      if (p[k]! < t) return;
      const b = (per.get(questions[e.q]!.bench) ??
        per.set(questions[e.q]!.bench, { n: 0, right: 0 }).get(questions[e.q]!.bench))!;
      b.n++;
      if (e.right) b.right++;
    });
    const all = [...per.values()].reduce((a, b) => ({ n: a.n + b.n, right: a.right + b.right }), { n: 0, right: 0 });
    if (all.n === 0) break;
    const ok = [...per.values()].every((b) => b.right / b.n >= target);
    if (ok && (z === 0 || wilsonLower(all.right, all.n, z) >= target)) return Math.round(t * 100) / 100;
  }
  return 1;
}

export interface AcceptorResult {
  acceptor: Acceptor;
  /** The acceptor of each question's fold (scorer and calibrations fitted on the other folds; the final thresholds): for out-of-fold figures. */
  of: (q: number) => Acceptor | undefined;
  examples: number;
}

/**
 * Fits the question-level verifier over a fixed per-attempt scorer, threshold and ranker (the
 * shipped ones: `atr train-verifier --acceptor_only`): folds grouped by table, out-of-fold raw
 * scores, an isotonic calibration per kind of evidence fitted on the other folds' out-of-fold
 * scores, and per kind the lowest threshold at which, out of fold, the rule of `chooseThreshold`
 * holds on that kind's training questions alone.
 */
export function fitAcceptor(
  questions: readonly QuestionCandidates[],
  score: Scorer,
  threshold: Threshold,
  ranker: Ranker,
  options: AcceptorOptions = {},
): AcceptorResult {
  const { folds = 5, targetPrecision = 0.85, boundZ = 1, kinds = [], ignore, scorerBy = "shared" } = options;
  const ex = acceptorExamples(questions, score, threshold, ranker, kinds).map((e) =>
    ignore ? { ...e, features: Object.fromEntries(Object.entries(e.features).filter(([k]) => !ignore.test(k))) } : e,
  );
  if (ex.length === 0) throw new Error("fitAcceptor: no question without an accepted attempt to learn from");
  const asQ = asQuestions(questions, ex);
  const weights = candidateRows(asQ).map((r) => r.w);
  const fold = foldsOf(
    ex.map((e) => questions[e.q]!),
    folds,
  );
  const raw = ex.map(() => 0);
  const kindIds = [...kinds.map((_, k) => k), -1];
  // one scorer for all kinds, or one per kind fitted on its own examples (a kind without examples gets the shared one)
  const fitKinds = (keep: (i: number) => boolean): ModelScorer[] => {
    const shared = () =>
      fitScorer(
        asQ.filter((_, i) => keep(i)),
        options,
      );
    if (scorerBy === "shared") {
      const s = shared();
      return kindIds.map(() => s);
    }
    let common: ModelScorer | undefined;
    return kindIds.map((kind) => {
      const own = asQ.filter((_, i) => keep(i) && ex[i]!.kind === kind);
      return own.some((q) => q.candidates[0]!.right) && own.some((q) => !q.candidates[0]!.right)
        ? fitScorer(own, options)
        : (common ??= shared());
    });
  };
  const scorers = Array.from({ length: folds }, (_, k) => {
    const s = fitKinds((i) => fold[i] !== k);
    ex.forEach((e, i) => fold[i] === k && (raw[i] = rawScore(s[kindIds.indexOf(e.kind)]!, e.features)));
    return s;
  });
  const calibrationOf = (kind: number, keep: (f: number) => boolean): Calibration | undefined => {
    const points = ex.flatMap((e, i) =>
      e.kind === kind && keep(fold[i]!) ? [{ score: raw[i]!, y: e.right ? 1 : 0, w: weights[i]! }] : [],
    );
    return points.length ? fitIsotonic(points) : undefined;
  };
  const flat: Calibration = { x: [0], y: [0] };
  const perFold = Array.from({ length: folds }, (_, k) =>
    kindIds.map((kind) => calibrationOf(kind, (f) => f !== k) ?? flat),
  );
  const p = ex.map((e, i) => calibrated(perFold[fold[i]!]![kindIds.indexOf(e.kind)], raw[i]!));
  const thresholds = kindIds.map((kind) => {
    const own = ex.flatMap((e, i) => (e.kind === kind ? [i] : []));
    return acceptorThreshold(
      questions,
      own.map((i) => ex[i]!),
      own.map((i) => p[i]!),
      targetPrecision,
      boundZ,
    );
  });
  // (per kind: the rest's scorer is the shared one, each kind that has its own names it)
  const build = (s: readonly ModelScorer[], cals: readonly Calibration[]): Acceptor => {
    const rest = s[kinds.length]!;
    const own = (k: number) => (s[k] !== rest ? { scorer: s[k]! } : {});
    return {
      scorer: rest,
      kinds: kinds.map((feature, k) => ({ feature, calibration: cals[k]!, threshold: thresholds[k]!, ...own(k) })),
      rest: { calibration: cals[kinds.length]!, threshold: thresholds[kinds.length]! },
    };
  };
  const final = build(
    fitKinds(() => true),
    kindIds.map((kind) => calibrationOf(kind, () => true) ?? flat),
  );
  const foldOf = new Map(ex.map((e, i) => [e.q, fold[i]!]));
  const byFold = perFold.map((cals, k) => build(scorers[k]!, cals));
  return {
    acceptor: final,
    of: (q) => {
      const f = foldOf.get(q);
      return f === undefined ? final : byFold[f];
    },
    examples: ex.length,
  };
}
