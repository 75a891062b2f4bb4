/**
 * Training the learned route order (nodes/routers/next-route.ts) on exploration runs (`atr run
 * --accept_threshold 1 --verifier_features all --emit_trace`: every route of the first sub-query
 * tried and traced, in the heuristic's order).
 *
 * Each question's loop is replayed (training/route-replay.ts) under the shipped verifier and stop
 * policy in the heuristic's order — the base. At every re-selection the base makes (an attempt not
 * accepted, the stop policy going on), each untried route r other than the heuristic's is tried in
 * its place (the heuristic choosing again after it) and the loop replayed to its end: the example's
 * label says r gives the base's final answer, accepted or not as the base's, in fewer attempts. Its
 * features are what the graph knows at that re-selection (nextRouteFeatures over the rows so far).
 *
 * Folds are grouped by table (TAT-QA and WTQ questions share tables; HybridQA's ids are per
 * question). The out-of-fold check replays each held-out question with the policy choosing at every
 * re-selection (as the graph does) at each threshold of a grid; the threshold is the lowest at which
 * no split loses a right answer or an accepted right answer and accepted answers stay as precise.
 */
import type { TraceDecision } from "../graph/state.js";
import { calibrated, rawScore, type AnswerModel } from "../nodes/offline/answer-model.js";
import type { Features } from "../nodes/offline/answer-features.js";
import { chooseNextRoute, nextRouteFeatures, type NextRouteModel } from "../nodes/routers/next-route.js";
import type { Route } from "../nodes/types.js";
import { normaliseForContainment } from "../text/normalise.js";
import { fitIsotonic } from "./calibration.js";
import { fitTrees, type TreeOptions } from "./gbdt.js";
import type { AnswerCheck, ResultRecord } from "./labels.js";
import {
  heuristicChooser,
  replayQuestion,
  splitExploration,
  type ReplayOutcome,
  type RouteChooser,
  type Row,
  type StopCheck,
} from "./route-replay.js";
import { foldOf } from "./stop-policy.js";

/** One alternative at one re-selection of the base loop. */
export interface NextRouteExample {
  features: Features;
  /** Taking this route there gives the base's answer and acceptance in fewer attempts. */
  label: boolean;
}

/** One question: its decisions (to replay again), the base loop's outcome and its examples. */
export interface NextRouteQuestion {
  bench: string;
  id: string;
  /** The fold group: the table (else the question). */
  group: string;
  decisions: Row[];
  /** The exploration order of the first sub-query's routes. */
  routes: Route[];
  base: { answer: string; verified: boolean; attempts: number; right: boolean };
  examples: NextRouteExample[];
  /** Judges an answer of this question (the benchmark's official metric). */
  isRight: (answer: string) => boolean;
}

const key = (a: string) => normaliseForContainment(a.trim());

/** The route the replay runs for a chooser's pick (an explored, untried route; else the next untried one). */
function effective(pick: Route, routes: readonly Route[], tried: readonly Route[]): Route {
  return routes.includes(pick) && !tried.includes(pick) ? pick : routes.find((r) => !tried.includes(r))!;
}

/** The questions of one exploration run with their re-selection examples. */
export async function nextRouteQuestions(
  bench: string,
  records: readonly ResultRecord[],
  isCorrect: AnswerCheck,
  verifier: AnswerModel,
  stop: StopCheck,
): Promise<NextRouteQuestion[]> {
  const out: NextRouteQuestion[] = [];
  for (const record of records) {
    const decisions = (record.atr_trace?.verifier_decisions ?? []) as unknown as Row[];
    const first = decisions[0];
    if (!first || first.attempt !== 1) continue;
    const { routes } = splitExploration(decisions);
    const heuristic = heuristicChooser(first);
    const points: Array<{ k: number; done: Row[] }> = [];
    const base = await replayQuestion(
      decisions,
      (history, done) => {
        if (history.length > 0) points.push({ k: history.length, done: [...done] });
        return heuristic(history, done);
      },
      verifier,
      stop,
    );
    const checked = record as ResultRecord & Record<string, unknown>;
    const isRight = (answer: string) => answer !== "" && isCorrect(checked, answer);
    const examples: NextRouteExample[] = [];
    for (const { k, done } of points) {
      const heur = base.order[k];
      if (!heur) continue;
      for (const r of routes) {
        if (base.order.slice(0, k).includes(r) || r === heur) continue;
        const features = nextRouteFeatures(done as TraceDecision[], verifier.ranker, r, heur);
        if (!features) continue;
        const o = await replayQuestion(
          decisions,
          (history, rows) => (history.length === k ? r : heuristic(history, rows)),
          verifier,
          stop,
        );
        examples.push({ features, label: sameOutcome(o, base) && o.attempts < base.attempts });
      }
    }
    const id = String(record.question_id ?? "");
    out.push({
      bench,
      id,
      group: String((record as { table_id?: unknown }).table_id ?? id),
      decisions,
      routes,
      base: { answer: base.answer, verified: base.verified, attempts: base.attempts, right: isRight(base.answer) },
      examples,
      isRight,
    });
  }
  return out;
}

const sameOutcome = (o: Pick<ReplayOutcome, "answer" | "verified">, base: Pick<ReplayOutcome, "answer" | "verified">) =>
  key(o.answer) === key(base.answer) && o.verified === base.verified;

/** Fits the scorer on the questions' examples: each benchmark weighs the same in total. */
function fitOn(questions: readonly NextRouteQuestion[], trees: TreeOptions) {
  const perBench = new Map<string, number>();
  for (const q of questions) perBench.set(q.bench, (perBench.get(q.bench) ?? 0) + q.examples.length);
  const total = [...perBench.values()].reduce((a, b) => a + b, 0);
  const rows = questions.flatMap((q) =>
    q.examples.map((e) => ({
      features: e.features,
      y: e.label ? (1 as const) : (0 as const),
      w: total / (perBench.get(q.bench)! * perBench.size),
    })),
  );
  return fitTrees(rows, trees);
}

/**
 * A model per fold (trained on the other folds, one isotonic calibration over all out-of-fold raw
 * scores) for the out-of-fold check, and the model trained on every question with that calibration.
 */
export function trainNextRouteModel(
  questions: readonly NextRouteQuestion[],
  options: { folds?: number; trees?: TreeOptions } = {},
): {
  model: Omit<NextRouteModel, "threshold" | "trainedOn">;
  perFold: Array<Omit<NextRouteModel, "threshold" | "trainedOn">>;
} {
  const folds = options.folds ?? 4;
  const trees: TreeOptions = { trees: 100, depth: 3, ...options.trees };
  const scorers = [];
  const points: Array<{ score: number; y: 0 | 1; w: number }> = [];
  for (let k = 0; k < folds; k++) {
    const scorer = fitOn(
      questions.filter((q) => foldOf(q.group, folds) !== k),
      trees,
    );
    scorers.push(scorer);
    for (const q of questions)
      if (foldOf(q.group, folds) === k)
        for (const e of q.examples) points.push({ score: rawScore(scorer, e.features), y: e.label ? 1 : 0, w: 1 });
  }
  const calibration = fitIsotonic(points);
  return {
    model: { format: "atr-next-route-v1", scorer: fitOn(questions, trees), calibration },
    perFold: scorers.map((scorer) => ({ format: "atr-next-route-v1" as const, scorer, calibration })),
  };
}

/** The chooser of the graph with the learned order: the heuristic's pick, replaced by the policy's at re-selections. */
export function learnedOrderChooser(
  first: Row,
  routes: readonly Route[],
  verifier: AnswerModel,
  model: NextRouteModel,
): RouteChooser {
  const heuristic = heuristicChooser(first);
  return async (history, done) => {
    const pick = await heuristic(history, done);
    if (history.length === 0) return pick;
    const tried = history.map((h) => h.effectiveRoute);
    const heur = effective(pick, routes, tried);
    const untried = routes.filter((r) => !tried.includes(r));
    return chooseNextRoute(done as TraceDecision[], heur, untried, verifier, model)?.route ?? heur;
  };
}

/** What the learned order gives on a set of questions against the base (the heuristic's order). */
export interface OrderFigures {
  questions: number;
  rightBase: number;
  right: number;
  better: number;
  worse: number;
  acceptedBase: number;
  accepted: number;
  acceptedRightBase: number;
  acceptedRight: number;
  attemptsBase: number;
  attempts: number;
  /** Questions whose final answer or acceptance differs from the base's. */
  changed: number;
  /** Questions where the policy took another route than the heuristic's at least once. */
  rerouted: number;
}

/** Replays the questions with the learned order at `threshold` (`modelOf(q)`: the question's out-of-fold model). */
export async function simulateOrder(
  questions: readonly NextRouteQuestion[],
  modelOf: (q: NextRouteQuestion) => Omit<NextRouteModel, "threshold" | "trainedOn">,
  threshold: number,
  verifier: AnswerModel,
  stop: StopCheck,
): Promise<OrderFigures> {
  const f: OrderFigures = {
    questions: 0,
    rightBase: 0,
    right: 0,
    better: 0,
    worse: 0,
    acceptedBase: 0,
    accepted: 0,
    acceptedRightBase: 0,
    acceptedRight: 0,
    attemptsBase: 0,
    attempts: 0,
    changed: 0,
    rerouted: 0,
  };
  for (const q of questions) {
    const model: NextRouteModel = { ...modelOf(q), threshold, trainedOn: {} };
    let rerouted = false;
    const chooser = learnedOrderChooser(q.decisions[0]!, q.routes, verifier, model);
    const heuristic = heuristicChooser(q.decisions[0]!);
    const o = await replayQuestion(
      q.decisions,
      async (history, done) => {
        const pick = await chooser(history, done);
        const tried = history.map((h) => h.effectiveRoute);
        if (pick !== effective(await heuristic(history, done), q.routes, tried)) rerouted = true;
        return pick;
      },
      verifier,
      stop,
    );
    const right = q.isRight(o.answer);
    f.questions++;
    f.rightBase += q.base.right ? 1 : 0;
    f.right += right ? 1 : 0;
    if (right && !q.base.right) f.better++;
    if (!right && q.base.right) f.worse++;
    f.acceptedBase += q.base.verified ? 1 : 0;
    f.accepted += o.verified ? 1 : 0;
    f.acceptedRightBase += q.base.verified && q.base.right ? 1 : 0;
    f.acceptedRight += o.verified && right ? 1 : 0;
    f.attemptsBase += q.base.attempts;
    f.attempts += o.attempts;
    if (!sameOutcome(o, q.base)) f.changed++;
    if (rerouted) f.rerouted++;
  }
  return f;
}

/** The learned order keeps a split whole: no right answer and no accepted right answer lost, accepted answers as precise. */
export function orderWithinBounds(f: OrderFigures): boolean {
  if (f.right < f.rightBase || f.acceptedRight < f.acceptedRightBase) return false;
  if (f.accepted === 0) return true;
  const base = f.acceptedBase === 0 ? 1 : f.acceptedRightBase / f.acceptedBase;
  return f.acceptedRight / f.accepted >= Math.min(0.85, base) - 1e-9;
}

/** A figures line: right (paired), attempts, acceptance, changes. */
export function renderOrderFigures(name: string, f: OrderFigures): string {
  const pct = (n: number, d = f.questions) => ((100 * n) / Math.max(1, d)).toFixed(2);
  return [
    name.padEnd(10),
    String(f.questions).padStart(5),
    `${pct(f.rightBase)} → ${pct(f.right)}`.padStart(16),
    `${f.better} / ${f.worse}`.padStart(8),
    `${(f.attemptsBase / f.questions).toFixed(3)} → ${(f.attempts / f.questions).toFixed(3)}`.padStart(15),
    `${pct(f.attemptsBase - f.attempts, f.attemptsBase)} %`.padStart(8),
    `${pct(f.acceptedBase)} @ ${pct(f.acceptedRightBase, f.acceptedBase)} → ${pct(f.accepted)} @ ${pct(f.acceptedRight, f.accepted)}`.padStart(
      30,
    ),
    String(f.changed).padStart(7),
    String(f.rerouted).padStart(8),
  ].join("  ");
}

export const ORDER_FIGURES_HEADER = [
  "split".padEnd(10),
  "n".padStart(5),
  "right heur → lrn".padStart(16),
  "bet/wor".padStart(8),
  "attempts/q".padStart(15),
  "saved".padStart(8),
  "accepted % @ precision".padStart(30),
  "changed".padStart(7),
  "rerouted".padStart(8),
].join("  ");

/** P of an example under a model (for reports). */
export function exampleP(m: Pick<NextRouteModel, "scorer" | "calibration">, e: NextRouteExample): number {
  return calibrated(m.calibration, rawScore(m.scorer, e.features));
}
