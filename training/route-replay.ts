/**
 * Replays a question of an exploration run (`atr run --accept_threshold 1 --emit_trace`: every route
 * tried on the first sub-query, each attempt traced with its answer and verifier features) in another
 * route order, under the shipped verifier and ranker: what the loop would have answered, and after
 * how many attempts, had the router chosen that order. The features that depend on the attempts
 * before (attempt number, agreement: answer-features.ts ORDER_FEATURE) are recomputed for the new
 * order; the first attempt the verifier accepts ends the question; otherwise every route runs, then
 * the run's later sub-queries, and the ranker picks (nodes/synthesize.ts bestScoredCandidate).
 *
 * What it cannot replay: a route whose own behaviour depends on which routes failed before it (the
 * value linker's second try) keeps the answer it gave in the exploration order. The dev runs of
 * docs/ROUTER.md measure the real loop.
 */
import type { TraceDecision } from "../graph/state.js";
import { ORDER_FEATURE, orderFeatures, type Features } from "../nodes/offline/answer-features.js";
import { scoreFeatures, type AnswerModel } from "../nodes/offline/answer-model.js";
import { bestScoredCandidate } from "../nodes/synthesize.js";
import type { FailedRouteRecord, Route } from "../nodes/types.js";
import { LABELS, maskedChoice } from "../nodes/routers/router-config.js";
import { heuristicRoute } from "../nodes/routers/heuristic.js";
import { failedSet } from "../nodes/routers/failed-set.js";
import type { LearnedRouterPolicy } from "../nodes/routers/index.js";
import {
  labelFromDecision,
  labelPlan,
  ORACLE_COST_ORDER,
  type AnswerCheck,
  type ResultRecord,
  type RouterLabel,
} from "./labels.js";

/**
 * Picks the next route of the first sub-query given what failed before (H) and the rows judged so
 * far (the trace the route node sees), as the route node would.
 */
export type RouteChooser = (history: readonly FailedRouteRecord[], done: readonly Row[]) => Route | Promise<Route>;

export interface ReplayOutcome {
  /** The final answer ("" when no attempt had one). */
  answer: string;
  /** Attempts the loop made (an attempt's alternative SQL candidates and reader candidates are not attempts). */
  attempts: number;
  /** Ended by an accepted attempt, or by the ranker's question-level acceptance. */
  verified: boolean;
  /** The first sub-query's routes, in the replayed order. */
  order: Route[];
}

export type Row = TraceDecision & { features?: Features; p_correct?: number };

const isAttempt = (d: Row) => !d.alternative && d.candidate === undefined;

/** The first sub-query's attempts (each with its alternative/candidate rows) by route, and the rows after them. */
export function splitExploration(decisions: readonly Row[]): {
  byRoute: Map<Route, Row[]>;
  routes: Route[];
  tail: Row[];
} {
  const byRoute = new Map<Route, Row[]>();
  const routes: Route[] = [];
  const first = decisions[0];
  let i = 0;
  let lastAttempt = 0;
  for (; first && i < decisions.length; i++) {
    const d = decisions[i]!;
    if (d.sub_query !== first.sub_query) break;
    if (isAttempt(d)) {
      if (d.attempt <= lastAttempt) break; // a retry of the same sub-query text starts again at 1
      lastAttempt = d.attempt;
      const route = d.effective_route;
      if (byRoute.has(route)) break;
      byRoute.set(route, []);
      routes.push(route);
    }
    byRoute.get(routes[routes.length - 1]!)?.push(d);
  }
  return { byRoute, routes, tail: decisions.slice(i) };
}

/** A row re-judged after `earlier` attempts: order features recomputed, P and verdict from the model. */
function rejudge(row: Row, attempt: number, earlier: readonly Row[], model: AnswerModel): Row {
  if (!row.features || row.p_correct === undefined) return { ...row, attempt };
  const features: Features = {};
  for (const [k, v] of Object.entries(row.features)) if (!ORDER_FEATURE.test(k)) features[k] = v;
  const fresh = orderFeatures(
    {
      route: row.effective_route,
      subQuery: row.sub_query,
      attempt,
      earlier: earlier.map((e) => ({ route: e.effective_route, answer: e.produced_answer, subQuery: e.sub_query })),
    },
    row.produced_answer,
  );
  for (const name of fresh) features[name] = 1;
  const p = Math.round(Math.min(0.999, scoreFeatures(model, features)) * 1000) / 1000;
  // verdict 0 (a rule contradiction) does not depend on the order; acceptance needs a grounded answer (judge.ts)
  const accepted = p >= model.threshold && model.threshold < 1 && row.verdict !== 0 && features.grounded === 1;
  return { ...row, attempt, features, p_correct: p, verdict: accepted ? 1 : row.verdict === 0 ? 0 : 0.5, accepted };
}

/**
 * After an unaccepted attempt, whether the loop stops there (the stop policy, nodes/routers/stop-policy.ts):
 * given the rows judged so far (the attempt's own included) and the attempts made.
 */
export type StopCheck = (done: readonly Row[], attempts: number) => boolean;

/**
 * The replayed loop over one exploration record's decisions, the first sub-query's routes in the
 * chooser's order; with `stop`, asked after every unaccepted attempt that has a next one.
 */
export async function replayQuestion(
  decisions: readonly Row[],
  choose: RouteChooser,
  model: AnswerModel,
  stop?: StopCheck,
): Promise<ReplayOutcome> {
  const { byRoute, routes, tail } = splitExploration(decisions);
  const done: Row[] = [];
  const history: FailedRouteRecord[] = [];
  const order: Route[] = [];
  let attempts = 0;
  const finish = (): ReplayOutcome => {
    const best = bestScoredCandidate(done, model.ranker, model.threshold);
    return { answer: best?.answer ?? "", attempts, verified: best?.verified ?? false, order };
  };
  const run = (rows: readonly Row[], attempt: number): boolean => {
    attempts++;
    let accepted = false;
    for (const row of rows) {
      const judged = rejudge(row, attempt, done.filter(isAttempt), model);
      done.push(judged);
      if (judged.accepted && isAttempt(judged)) accepted = true;
    }
    return accepted;
  };
  const subQuery = decisions[0]?.sub_query ?? "";
  while (order.length < routes.length) {
    let route = await choose(history, done);
    // a chooser may repeat a failed route (all failed) or name one the run did not try: take the next untried
    if (order.includes(route) || !byRoute.has(route)) route = routes.find((r) => !order.includes(r))!;
    order.push(route);
    if (run(byRoute.get(route)!, order.length)) return finish();
    const more = order.length < routes.length || tail.length > 0;
    if (more && stop?.(done, attempts)) return finish();
    history.push({
      subQuery,
      requestedRoute: route,
      effectiveRoute: route,
      valueLinkerAttempted: false,
      verdict: 0.5,
      step: order.length,
    });
  }
  // every route of the first sub-query ran unaccepted: the run's later sub-queries, attempt by attempt
  for (let i = 0; i < tail.length;) {
    let j = i + 1;
    while (j < tail.length && !isAttempt(tail[j]!)) j++;
    if (run(tail.slice(i, j), tail[i]!.attempt)) return finish();
    i = j;
    if (i < tail.length && stop?.(done, attempts)) return finish();
  }
  return finish();
}

/** The fixed order [route, then the rest in the exploration order]: the replay of "route first". */
export function firstThen(route: Route, explored: readonly Route[]): RouteChooser {
  const order = [
    route,
    ...explored.filter((r) => r !== route),
    ...LABELS.filter((r) => r !== route && !explored.includes(r)),
  ];
  return (history) => order.find((r) => !history.some((h) => h.effectiveRoute === r)) ?? route;
}

const decisionsOf = (record: ResultRecord) => (record.atr_trace?.verifier_decisions ?? []) as unknown as Row[];
const asChecked = (record: ResultRecord) => record as ResultRecord & Record<string, unknown>;

/**
 * Replay labels: for each question of an exploration run, the loop is replayed with each route first
 * (the others after it in the exploration order); the label's `routes_right` are the first routes
 * whose replayed final answer is right with the fewest attempts — or, when no order is right, the
 * ones with the fewest attempts — and `replay` keeps every route's outcome. A question on which every
 * first route ends the same way lists all routes (no preference to learn, with `--targets
 * right_routes`). `route` is the cheapest of the best (ORACLE_COST_ORDER), for agreement reports.
 */
export async function replayLabels(
  records: readonly ResultRecord[],
  isCorrect: AnswerCheck,
  model: AnswerModel,
): Promise<RouterLabel[]> {
  const out: RouterLabel[] = [];
  for (const record of records) {
    const decisions = decisionsOf(record);
    const first = decisions[0];
    if (!first || first.attempt !== 1) continue;
    const { routes } = splitExploration(decisions);
    const replay: NonNullable<RouterLabel["replay"]> = {};
    for (const route of routes) {
      const o = await replayQuestion(decisions, firstThen(route, routes), model);
      replay[route] = { right: isCorrect(asChecked(record), o.answer), attempts: o.attempts };
    }
    const anyRight = routes.some((r) => replay[r]!.right);
    const pool = routes.filter((r) => replay[r]!.right === anyRight);
    const fewest = Math.min(...pool.map((r) => replay[r]!.attempts));
    const best = ORACLE_COST_ORDER.filter((r) => pool.includes(r) && replay[r]!.attempts === fewest);
    const answerFrom = (record as { answer_from?: unknown }).answer_from;
    out.push({
      ...labelFromDecision(record, { ...first, history_H: [] }, best[0]!, "execution_replay"),
      routes_right: best,
      replay,
      ...(typeof answerFrom === "string" ? { answer_from: answerFrom } : {}),
    });
  }
  return out;
}

/** The heuristic router's choices for a question's first sub-query, as the route node makes them. */
export function heuristicChooser(first: Row): RouteChooser {
  const label = labelFromDecision({}, { ...first, history_H: [] }, "TEXT", "execution_replay");
  return (history) =>
    heuristicRoute(labelPlan(label), first.schema != null, failedSet(history, first.sub_query, "question"));
}

/** A learned policy's choices (masked, re-ranked with the updated H), as the route node makes them. */
export function policyChooser(policy: LearnedRouterPolicy, first: Row): RouteChooser {
  const label = labelFromDecision({}, { ...first, history_H: [] }, "TEXT", "execution_replay");
  return async (history) =>
    maskedChoice(
      await policy.rank({
        plan: labelPlan(label),
        schema: label.schema,
        history,
        failureScope: "question",
        reselectIndex: Math.max(0, history.length - 1),
      }),
      failedSet(history, first.sub_query, "question"),
    );
}

export interface ReplayTally {
  questions: number;
  /** Right final answers, heuristic / student. */
  heuristic: number;
  student: number;
  heuristicAttempts: number;
  studentAttempts: number;
  /** Paired: only the student right / only the heuristic right; first route differs. */
  better: number;
  worse: number;
  differ: number;
  studentFirst: Partial<Record<Route, number>>;
}

/** A tally with nothing counted yet. */
export function emptyReplayTally(): ReplayTally {
  return {
    questions: 0,
    heuristic: 0,
    student: 0,
    heuristicAttempts: 0,
    studentAttempts: 0,
    better: 0,
    worse: 0,
    differ: 0,
    studentFirst: {},
  };
}

/** Heuristic vs a learned policy on the questions of exploration runs, each replayed under both (overall and per `answer_from`). */
export async function compareByReplay(
  records: readonly ResultRecord[],
  isCorrect: AnswerCheck,
  model: AnswerModel,
  policy: LearnedRouterPolicy,
): Promise<Record<string, ReplayTally>> {
  const tallies: Record<string, ReplayTally> = {};
  for (const record of records) {
    const decisions = decisionsOf(record);
    const first = decisions[0];
    if (!first) continue;
    const h = await replayQuestion(decisions, heuristicChooser(first), model);
    const s = await replayQuestion(decisions, policyChooser(policy, first), model);
    const hRight = isCorrect(asChecked(record), h.answer);
    const sRight = isCorrect(asChecked(record), s.answer);
    const answerFrom = (record as { answer_from?: unknown }).answer_from;
    for (const key of ["all", ...(typeof answerFrom === "string" ? [answerFrom] : [])]) {
      const t = (tallies[key] ??= emptyReplayTally());
      t.questions++;
      t.heuristic += hRight ? 1 : 0;
      t.student += sRight ? 1 : 0;
      t.heuristicAttempts += h.attempts;
      t.studentAttempts += s.attempts;
      if (sRight && !hRight) t.better++;
      if (hRight && !sRight) t.worse++;
      if (s.order[0] !== h.order[0]) t.differ++;
      if (s.order[0]) t.studentFirst[s.order[0]] = (t.studentFirst[s.order[0]] ?? 0) + 1;
    }
  }
  return tallies;
}

/** The replay comparison as a text table. */
export function renderReplay(tallies: Record<string, ReplayTally>): string {
  const pct = (n: number, d: number) => ((100 * n) / Math.max(1, d)).toFixed(2);
  const rows = Object.entries(tallies).map(([key, t]) =>
    [
      key.padEnd(12),
      String(t.questions).padStart(5),
      `${pct(t.heuristic, t.questions)} / ${pct(t.student, t.questions)}`.padStart(16),
      `${(t.heuristicAttempts / t.questions).toFixed(2)} / ${(t.studentAttempts / t.questions).toFixed(2)}`.padStart(
        13,
      ),
      `${t.better} / ${t.worse}`.padStart(9),
      String(t.differ).padStart(6),
      Object.entries(t.studentFirst)
        .map(([r, n]) => `${r} ${n}`)
        .join(", "),
    ].join("  "),
  );
  return [
    `${"questions".padEnd(12)}  ${"n".padStart(5)}  ${"right heur/stud".padStart(16)}  ${"attempts h/s".padStart(13)}  ${"bet/worse".padStart(9)}  ${"differ".padStart(6)}  student first route`,
    ...rows,
  ].join("\n");
}
