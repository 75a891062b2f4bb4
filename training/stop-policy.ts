/**
 * Training the stop policy (nodes/routers/stop-policy.ts) on exploration runs (`atr run
 * --accept_threshold 1 --verifier_features all --emit_trace`: every route of every sub-query tried
 * and traced, in the heuristic's order). Each question's loop is replayed under the shipped verifier
 * (training/route-replay.ts); after every unaccepted attempt that has a next one, the prefix is an
 * example: its features (stopFeatures over the prefix's rows), label = the ranker's choice over the
 * prefix is the final answer the loop gives after every attempt, accepted or not as that one is (a
 * later attempt the verifier accepts, or the question-level acceptor's verdict over every route,
 * would otherwise be lost or changed). Per example it also keeps whether
 * that prefix answer and the final one are right and accepted, so a threshold's cost in accuracy
 * and acceptance is measured exactly (simulateStops).
 *
 * Folds are grouped by table (TAT-QA and WTQ questions share tables; HybridQA's ids are per
 * question); out-of-fold scores give the calibration and the threshold curve.
 */
import { createHash } from "node:crypto";
import { calibrated, rawScore, type AnswerModel } from "../nodes/offline/answer-model.js";
import { stopFeatures, type StopModel } from "../nodes/routers/stop-policy.js";
import type { Features } from "../nodes/offline/answer-features.js";
import { bestScoredCandidate } from "../nodes/synthesize.js";
import type { TraceDecision } from "../graph/state.js";
import { normaliseForContainment } from "../text/normalise.js";
import { fitIsotonic } from "./calibration.js";
import { fitTrees, type TreeOptions } from "./gbdt.js";
import type { AnswerCheck, ResultRecord } from "./labels.js";
import { firstThen, replayQuestion, splitExploration } from "./route-replay.js";

/** One prefix of one question's replayed loop. */
export interface StopExample {
  bench: string;
  id: string;
  /** The fold group: the table (else the question). */
  group: string;
  /** Attempts made so far. */
  attempts: number;
  /** Attempts the loop makes without stopping. */
  total: number;
  features: Features;
  /** The prefix's answer is the final answer. */
  sameAnswer: boolean;
  /** The label: stopping here changes nothing the user sees — the same answer, accepted or not as it would be. */
  same: boolean;
  rightNow: boolean;
  rightFinal: boolean;
  verifiedNow: boolean;
  verifiedFinal: boolean;
}

/** One question: its prefixes in order, and the loop without stopping. */
export interface StopQuestion {
  bench: string;
  id: string;
  group: string;
  total: number;
  rightFinal: boolean;
  verifiedFinal: boolean;
  prefixes: StopExample[];
}

const key = (a: string) => normaliseForContainment(a.trim());

/** The questions of one exploration run with their prefixes, judged by `isCorrect`. */
export async function stopQuestions(
  bench: string,
  records: readonly ResultRecord[],
  isCorrect: AnswerCheck,
  model: AnswerModel,
): Promise<StopQuestion[]> {
  const out: StopQuestion[] = [];
  for (const record of records) {
    const decisions = (record.atr_trace?.verifier_decisions ?? []) as unknown as TraceDecision[];
    if (!decisions[0] || decisions[0].attempt !== 1) continue;
    const { routes } = splitExploration(decisions);
    const seen: Array<{ rows: TraceDecision[]; attempts: number }> = [];
    const final = await replayQuestion(decisions, firstThen(routes[0]!, routes), model, (done, attempts) => {
      seen.push({ rows: [...done], attempts });
      return false;
    });
    const checked = record as ResultRecord & Record<string, unknown>;
    const rightFinal = final.answer !== "" && isCorrect(checked, final.answer);
    const id = String(record.question_id ?? "");
    const group = String((record as { table_id?: unknown }).table_id ?? id);
    const prefixes: StopExample[] = [];
    for (const { rows, attempts } of seen) {
      const features = stopFeatures(rows, model.ranker);
      if (!features) continue;
      const now = bestScoredCandidate(rows, model.ranker, model.threshold);
      const answer = now?.answer ?? "";
      prefixes.push({
        bench,
        id,
        group,
        attempts,
        total: final.attempts,
        features,
        sameAnswer: key(answer) === key(final.answer),
        same: key(answer) === key(final.answer) && (now?.verified ?? false) === final.verified,
        rightNow: answer !== "" && isCorrect(checked, answer),
        rightFinal,
        verifiedNow: now?.verified ?? false,
        verifiedFinal: final.verified,
      });
    }
    out.push({ bench, id, group, total: final.attempts, rightFinal, verifiedFinal: final.verified, prefixes });
  }
  return out;
}

/** The fold (0..folds−1) of a group. */
export function foldOf(group: string, folds: number): number {
  return parseInt(createHash("md5").update(group).digest("hex").slice(0, 8), 16) % folds;
}

export interface StopTrainOptions {
  trees?: TreeOptions;
  folds?: number;
  /**
   * The label: "same" (default) — stopping changes neither the answer nor its acceptance; "safe" —
   * stopping loses no right answer (the final answer is wrong, or the kept one is right) and
   * changes no acceptance.
   */
  label?: "same" | "safe";
}

/** An example's label under the option. */
export function labelOf(e: StopExample, label: StopTrainOptions["label"] = "same"): boolean {
  if (label === "safe") return (e.rightNow || !e.rightFinal) && e.verifiedNow === e.verifiedFinal;
  return e.same;
}

/** Fits the scorer on the questions' prefixes: each benchmark weighs the same in total. */
function fitOn(questions: readonly StopQuestion[], trees: TreeOptions, label: StopTrainOptions["label"]) {
  const examples = questions.flatMap((q) => q.prefixes);
  const perBench = new Map<string, number>();
  for (const e of examples) perBench.set(e.bench, (perBench.get(e.bench) ?? 0) + 1);
  const rows = examples.map((e) => ({
    features: e.features,
    y: labelOf(e, label) ? (1 as const) : (0 as const),
    w: examples.length / (perBench.get(e.bench)! * perBench.size),
  }));
  return { scorer: fitTrees(rows, trees), rows };
}

/**
 * Out-of-fold P for every prefix (a scorer per fold trained on the other folds, one isotonic
 * calibration over all out-of-fold raw scores), and the model trained on all the questions with
 * that calibration.
 */
export function trainStopModel(
  questions: readonly StopQuestion[],
  options: StopTrainOptions = {},
): { model: Omit<StopModel, "threshold" | "trainedOn">; outOfFold: number[][] } {
  const folds = options.folds ?? 4;
  const trees: TreeOptions = { trees: 100, depth: 3, ...options.trees };
  const raw = questions.map((q) => q.prefixes.map(() => 0));
  for (let k = 0; k < folds; k++) {
    const train = questions.filter((q) => foldOf(q.group, folds) !== k);
    const { scorer } = fitOn(train, trees, options.label);
    questions.forEach((q, i) => {
      if (foldOf(q.group, folds) !== k) return;
      q.prefixes.forEach((e, j) => (raw[i]![j] = rawScore(scorer, e.features)));
    });
  }
  const points = questions.flatMap((q, i) =>
    q.prefixes.map((e, j) => ({ score: raw[i]![j]!, y: labelOf(e, options.label) ? 1 : 0, w: 1 })),
  );
  const calibration = fitIsotonic(points);
  const outOfFold = raw.map((scores) => scores.map((r) => calibrated(calibration, r)));
  const { scorer } = fitOn(questions, trees, options.label);
  return { model: { format: "atr-stop-policy-v1", scorer, calibration }, outOfFold };
}

/** What stopping at P ≥ threshold gives on a set of questions. */
export interface StopFigures {
  questions: number;
  /** Right final answers without stopping / with. */
  rightNever: number;
  rightStop: number;
  better: number;
  worse: number;
  acceptedNever: number;
  acceptedStop: number;
  /** Accepted and right, without / with. */
  acceptedRightNever: number;
  acceptedRightStop: number;
  attemptsNever: number;
  attemptsStop: number;
  /** Questions stopped early. */
  stopped: number;
}

/**
 * The loop with the stop policy at `threshold` on the questions (P per prefix given), optionally
 * stopping only where the acceptor's decision stays as it would be (`acceptanceSafe`: the acceptor
 * cannot accept this kind of question, or it accepts the kept answer now).
 */
export function simulateStops(
  questions: readonly StopQuestion[],
  p: readonly (readonly number[])[],
  threshold: number | ((e: StopExample) => number),
  acceptanceSafe = false,
): StopFigures {
  const thresholdOf = typeof threshold === "number" ? () => threshold : threshold;
  const t: StopFigures = {
    questions: 0,
    rightNever: 0,
    rightStop: 0,
    better: 0,
    worse: 0,
    acceptedNever: 0,
    acceptedStop: 0,
    acceptedRightNever: 0,
    acceptedRightStop: 0,
    attemptsNever: 0,
    attemptsStop: 0,
    stopped: 0,
  };
  questions.forEach((q, i) => {
    t.questions++;
    const j = q.prefixes.findIndex(
      (e, k) => thresholdOf(e) < 1 && p[i]![k]! >= thresholdOf(e) && (!acceptanceSafe || safeForAcceptance(e)),
    );
    const e = j >= 0 ? q.prefixes[j] : undefined;
    const right = e ? e.rightNow : q.rightFinal;
    const verified = e ? e.verifiedNow : q.verifiedFinal;
    t.rightNever += q.rightFinal ? 1 : 0;
    t.rightStop += right ? 1 : 0;
    if (right && !q.rightFinal) t.better++;
    if (!right && q.rightFinal) t.worse++;
    t.acceptedNever += q.verifiedFinal ? 1 : 0;
    t.acceptedStop += verified ? 1 : 0;
    t.acceptedRightNever += q.verifiedFinal && q.rightFinal ? 1 : 0;
    t.acceptedRightStop += verified && right ? 1 : 0;
    t.attemptsNever += q.total;
    t.attemptsStop += e ? e.attempts : q.total;
    t.stopped += e ? 1 : 0;
  });
  return t;
}

/** The acceptor can never accept this question's kind, or accepts the answer kept now. */
export function safeForAcceptance(e: Pick<StopExample, "features">): boolean {
  return (e.features["acc:never"] ?? 0) === 1 || (e.features["acc:ok"] ?? 0) === 1;
}

/** A figures line: accuracy without / with (paired), acceptance, attempts. */
export function renderFigures(name: string, f: StopFigures): string {
  const pct = (n: number, d = f.questions) => ((100 * n) / Math.max(1, d)).toFixed(2);
  return [
    name.padEnd(10),
    String(f.questions).padStart(5),
    `${pct(f.rightNever)} → ${pct(f.rightStop)}`.padStart(16),
    `${f.better} / ${f.worse}`.padStart(8),
    `${(f.attemptsNever / f.questions).toFixed(2)} → ${(f.attemptsStop / f.questions).toFixed(2)}`.padStart(13),
    `${pct(f.attemptsNever - f.attemptsStop, f.attemptsNever)} %`.padStart(8),
    `${pct(f.acceptedNever)} @ ${pct(f.acceptedRightNever, f.acceptedNever)} → ${pct(f.acceptedStop)} @ ${pct(f.acceptedRightStop, f.acceptedStop)}`.padStart(
      30,
    ),
    String(f.stopped).padStart(6),
  ].join("  ");
}

export const FIGURES_HEADER = [
  "split".padEnd(10),
  "n".padStart(5),
  "right never → stop".padStart(16),
  "bet/wor".padStart(8),
  "attempts/q".padStart(13),
  "saved".padStart(8),
  "accepted % @ precision".padStart(30),
  "stops".padStart(6),
].join("  ");

/**
 * Stopping keeps the bounds on a split: it loses at most `maxLoss` points of right answers and of
 * accepted right answers, and the accepted answers stay at least as precise as without stopping
 * (or at 85 %, the verifier's target, when that is lower).
 */
export function withinBounds(f: StopFigures, maxLoss: number): boolean {
  const points = (n: number) => (100 * n) / f.questions;
  if (points(f.rightNever - f.rightStop) > maxLoss + 1e-9) return false;
  if (points(f.acceptedRightNever - f.acceptedRightStop) > maxLoss + 1e-9) return false;
  if (f.acceptedStop === 0) return true;
  const never = f.acceptedNever === 0 ? 1 : f.acceptedRightNever / f.acceptedNever;
  return f.acceptedRightStop / f.acceptedStop >= Math.min(0.85, never) - 1e-9;
}

/** The kinds of evidence that get their own threshold (the first a question's stop features carry), else `rest`. */
export const STOP_KINDS = ["q:tables-only", "q:period-table"] as const;

/** Chosen thresholds (chooseThresholds) as the model file's `threshold` and `thresholdBy`. */
export function thresholdFields(chosen: Record<string, number>): Pick<StopModel, "threshold" | "thresholdBy"> {
  return {
    threshold: chosen.rest ?? 1,
    thresholdBy: STOP_KINDS.map((feature) => ({ feature, threshold: chosen[feature] ?? 1 })),
  };
}

/** The kind of a prefix (its question's): one of STOP_KINDS, or "rest". */
export function kindOf(e: Pick<StopExample, "features">): string {
  return STOP_KINDS.find((k) => (e.features[k] ?? 0) !== 0) ?? "rest";
}

/**
 * One threshold per kind of evidence (STOP_KINDS, then the rest), each the lowest of `grid` at which
 * no benchmark loses more than `maxLoss` points with the other kinds at their thresholds: two passes
 * over the kinds, starting from never (1). The one that saves the most attempts within the bound at
 * each step; 1 (never stop) for a kind where none keeps the bound.
 */
export function chooseThresholds(
  questions: readonly StopQuestion[],
  p: readonly (readonly number[])[],
  grid: readonly number[],
  maxLoss = 0.2,
  acceptanceSafe = false,
): Record<string, number> {
  const kinds = [...STOP_KINDS, "rest"];
  const chosen: Record<string, number> = Object.fromEntries(kinds.map((k) => [k, 1]));
  const benches = [...new Set(questions.map((q) => q.bench))];
  const split = benches.map((b) => {
    const idx = questions.map((q, i) => (q.bench === b ? i : -1)).filter((i) => i >= 0);
    return { qs: idx.map((i) => questions[i]!), p: idx.map((i) => p[i]!) };
  });
  const ok = (th: Record<string, number>) =>
    split.every(({ qs, p: ps }) =>
      withinBounds(
        simulateStops(qs, ps, (e) => th[kindOf(e)]!, acceptanceSafe),
        maxLoss,
      ),
    );
  const sorted = [...grid].sort((a, b) => a - b);
  for (let pass = 0; pass < 2; pass++)
    for (const k of kinds) chosen[k] = sorted.find((t) => ok({ ...chosen, [k]: t })) ?? 1;
  return chosen;
}

/**
 * The lowest threshold of `grid` at which no benchmark loses more than `maxLoss` points (right
 * answers, net) — the one that saves the most attempts within the bound; 1 (never stop) when none.
 */
export function chooseThreshold(
  questions: readonly StopQuestion[],
  p: readonly (readonly number[])[],
  grid: readonly number[],
  maxLoss = 0.2,
  acceptanceSafe = false,
): number {
  const benches = [...new Set(questions.map((q) => q.bench))];
  const ok = (t: number) =>
    benches.every((b) => {
      const idx = questions.map((q, i) => (q.bench === b ? i : -1)).filter((i) => i >= 0);
      const f = simulateStops(
        idx.map((i) => questions[i]!),
        idx.map((i) => p[i]!),
        t,
        acceptanceSafe,
      );
      return (100 * (f.rightNever - f.rightStop)) / f.questions <= maxLoss + 1e-9;
    });
  return [...grid].sort((a, b) => a - b).find(ok) ?? 1;
}
