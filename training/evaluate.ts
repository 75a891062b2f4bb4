/**
 * Agreement of a learned router with a label set (reference §11 eval, with §15.5 fixed): both the
 * reference's unmasked argmax and the online decision rule (the best route not in the label's failed
 * set, question-wide). Confusion matrices: rows = label, columns = prediction, in class-id order.
 */
import type { FailureScope } from "../graph/configuration.js";
import type { LearnedRouterPolicy } from "../nodes/routers/index.js";
import { failedSet } from "../nodes/routers/failed-set.js";
import { heuristicRoute } from "../nodes/routers/heuristic.js";
import type { Route } from "../nodes/types.js";
import { labelPlan, type RouterLabel } from "./labels.js";
import { LABELS, maskedChoice } from "../nodes/routers/router-config.js";

export interface Agreement {
  labels: number;
  masked: { agreement: number; confusion: number[][] };
  unmasked: { agreement: number; confusion: number[][] };
  /** Execution-oracle labels only (`routes_right`): is the chosen route right, student vs heuristic. */
  routes?: RouteAccuracy;
}

interface Tally {
  labels: number;
  /** Share whose chosen route is right, for the student and for the heuristic router (§5.1). */
  student: number;
  heuristic: number;
  /** Labels where only the student's / only the heuristic's route is right. */
  studentOnly: number;
  heuristicOnly: number;
  /** Labels where the two routes differ. */
  differ: number;
}

export interface RouteAccuracy extends Tally {
  studentRoutes: Partial<Record<Route, number>>;
  heuristicRoutes: Partial<Record<Route, number>>;
  /** The same per benchmark question type (`answer_from`) where labels have one. */
  byType: Record<string, Tally>;
}

export async function evaluateRouter(
  policy: LearnedRouterPolicy,
  labels: readonly RouterLabel[],
  failureScope: FailureScope = "question",
): Promise<Agreement> {
  const empty = () => LABELS.map(() => LABELS.map(() => 0));
  const masked = empty();
  const unmasked = empty();
  let okMasked = 0;
  let okUnmasked = 0;
  for (const label of labels) {
    const ranked = await policy.rank({
      plan: labelPlan(label),
      schema: label.schema,
      history: label.history_H,
      failureScope,
      reselectIndex: 0,
    });
    const truth = LABELS.indexOf(label.route);
    const top = ranked[0]!;
    const choice = maskedChoice(ranked, failedSet(label.history_H, label.sub_query, failureScope));
    unmasked[truth]![LABELS.indexOf(top)]! += 1;
    masked[truth]![LABELS.indexOf(choice)]! += 1;
    if (top === label.route) okUnmasked++;
    if (choice === label.route) okMasked++;
  }
  const n = labels.length || 1;
  const routes = await routeAccuracy(policy, labels, failureScope);
  return {
    labels: labels.length,
    masked: { agreement: okMasked / n, confusion: masked },
    unmasked: { agreement: okUnmasked / n, confusion: unmasked },
    ...(routes ? { routes } : {}),
  };
}

/**
 * First-route accuracy on labels that know their right routes: the share whose chosen route (the
 * student's masked choice, or the heuristic router's) is among them — what the first attempt would
 * have answered, from the fixed-route runs, with no new run.
 */
async function routeAccuracy(
  policy: LearnedRouterPolicy,
  labels: readonly RouterLabel[],
  failureScope: FailureScope,
): Promise<RouteAccuracy | undefined> {
  const known = labels.filter((l) => l.routes_right);
  if (known.length === 0) return undefined;
  const raw = new Map<
    string,
    { labels: number; student: number; heuristic: number; studentOnly: number; heuristicOnly: number; differ: number }
  >();
  const studentRoutes: Partial<Record<Route, number>> = {};
  const heuristicRoutes: Partial<Record<Route, number>> = {};
  for (const label of known) {
    const failed = failedSet(label.history_H, label.sub_query, failureScope);
    const plan = labelPlan(label);
    const ranked = await policy.rank({
      plan,
      schema: label.schema,
      history: label.history_H,
      failureScope,
      reselectIndex: 0,
    });
    const student = maskedChoice(ranked, failed);
    const heuristic = heuristicRoute(plan, label.schema !== null, failed);
    studentRoutes[student] = (studentRoutes[student] ?? 0) + 1;
    heuristicRoutes[heuristic] = (heuristicRoutes[heuristic] ?? 0) + 1;
    const right = new Set(label.routes_right);
    for (const key of ["all", ...(label.answer_from ? [label.answer_from] : [])]) {
      const t = raw.get(key) ?? { labels: 0, student: 0, heuristic: 0, studentOnly: 0, heuristicOnly: 0, differ: 0 };
      t.labels++;
      if (right.has(student)) t.student++;
      if (right.has(heuristic)) t.heuristic++;
      if (right.has(student) && !right.has(heuristic)) t.studentOnly++;
      if (right.has(heuristic) && !right.has(student)) t.heuristicOnly++;
      if (student !== heuristic) t.differ++;
      raw.set(key, t);
    }
  }
  const share = (t: Tally): Tally => ({ ...t, student: t.student / t.labels, heuristic: t.heuristic / t.labels });
  const { all, ...rest } = Object.fromEntries([...raw].map(([k, t]) => [k, share(t)]));
  return { ...all!, studentRoutes, heuristicRoutes, byType: rest };
}

/** A confusion matrix as aligned text (rows = label, columns = prediction). */
export function renderConfusion(matrix: number[][]): string {
  const w = 9;
  const head = "label\\pred".padEnd(w + 2) + LABELS.map((l) => l.padStart(w)).join("");
  const rows = matrix.map((row, i) => LABELS[i]!.padEnd(w + 2) + row.map((v) => String(v).padStart(w)).join(""));
  return [head, ...rows].join("\n");
}
