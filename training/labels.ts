/**
 * Router training labels (reference §11), one JSON line each, and the two ways to make them:
 *
 * - `labelsFromInference`: every verifier decision with accepted == true in an `atr run --emit_trace`
 *   results file (route, the decision's plan fields, restored schema, history_H).
 * - `distillLabels`: the §5.2 teacher rules (nodes/offline/choose-route.ts) on each question's first
 *   decomposed sub-query, re-asked after 1, 2 and 3 simulated failures (up to 4 labels per question).
 *   Fixes of §15.1/15.4: the schema is the one the run restored from the index (not an empty
 *   `columns=unknown` stub), and simulated failures are recorded the way the online loop records
 *   them (question-wide H, verdict 0, requested = effective route, 1-based steps).
 */
import { readFileSync } from "node:fs";
import type { TraceDecision } from "../graph/state.js";
import type { TableSchema } from "../indexing/types.js";
import { routeProfile } from "../nodes/routers/index.js";
import { routerInputV1, routerInputV2 } from "../nodes/routers/features.js";
import type { FailureScope } from "../graph/configuration.js";
import { scopedHistory } from "../nodes/routers/failed-set.js";
import type { RouteProfile } from "../nodes/strategies.js";
import type { FailedRouteRecord, Modality, Operator, Route, SubQueryPlan } from "../nodes/types.js";
import { LABELS } from "../nodes/routers/router-config.js";
import { heuristicRoute } from "../nodes/routers/heuristic.js";

/** The router's inputs as a verifier decision records them (§9.2), with the label. */
export interface RouterLabel extends Pick<
  TraceDecision,
  | "question_id"
  | "sub_query"
  | "expected_operator"
  | "required_modalities"
  | "entity_mentions"
  | "need_global_table_view"
  | "uncertainty"
  | "schema"
  | "has_schema"
  | "history_H"
> {
  question?: string;
  table_id?: string;
  /** The label. */
  route: Route;
  label_source: "verified_inference" | "teacher_distill" | "execution_oracle" | "execution_replay";
  /** Execution oracle: every route whose answer was right (the label is the cheapest of them); replay: the best first routes. */
  routes_right?: Route[];
  /** Replay labels: per first route, whether the replayed loop's final answer was right and its attempts. */
  replay?: Partial<Record<Route, { right: boolean; attempts: number }>>;
  /** The benchmark's own question type when it has one (HybridQA, TAT-QA `answer_from`), for reports. */
  answer_from?: string;
  /** The offline decomposer's analysis of the sub-query (SubQueryPlan.analysis), when the run was given one (`atr train-router plans`). */
  analysis?: Record<string, unknown>;
}

export class LabelFileError extends Error {
  constructor(file: string, line: number, problem: string) {
    super(`${file}:${line}: ${problem}`);
    this.name = "LabelFileError";
  }
}

/** The fields of a trace decision this module reads (graph/state.ts TraceDecision). */
interface DecisionLike {
  sub_query?: unknown;
  expected_operator?: unknown;
  required_modalities?: unknown;
  entity_mentions?: unknown;
  need_global_table_view?: unknown;
  uncertainty?: unknown;
  schema?: unknown;
  history_H?: unknown;
  route?: unknown;
  effective_route?: unknown;
  accepted?: unknown;
  attempt?: unknown;
  /** Added by `atr train-router plans` (training/plan-analysis.ts): the decomposer's analysis of this sub-query. */
  plan_analysis?: unknown;
}

export interface ResultRecord {
  question_id?: string;
  question?: string;
  table_id?: string;
  atr_trace?: { question_id?: string; verifier_decisions?: DecisionLike[] };
}

/** The JSON records of a .jsonl file; a bad line is an error naming the file and line. */
export function readJsonl<T>(file: string): T[] {
  const out: T[] = [];
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, i) => {
      if (!line.trim()) return;
      try {
        out.push(JSON.parse(line) as T);
      } catch {
        throw new LabelFileError(
          file,
          i + 1,
          "is not a JSON object (a cut-off last line? resume the run with --rerun)",
        );
      }
    });
  return out;
}

/**
 * The labels of a labels file (`atr train-router labels` output), checked: a label the student
 * cannot learn from (unknown route, no sub-query, no history list) is an error naming the line.
 */
export function readRouterLabels(file: string): RouterLabel[] {
  return readJsonl<Record<string, unknown>>(file).map((label, i) => {
    const problem = !(LABELS as readonly unknown[]).includes(label.route)
      ? `route ${JSON.stringify(label.route)} is not one of ${LABELS.join(", ")}`
      : typeof label.sub_query !== "string"
        ? "sub_query is missing"
        : !Array.isArray(label.history_H)
          ? "history_H is missing (a list of failed-route records)"
          : undefined;
    if (problem) throw new LabelFileError(file, i + 1, `${problem} — make labels with \`atr train-router labels\``);
    return label as unknown as RouterLabel;
  });
}

/** A label from a trace decision's router inputs (plan fields, schema, H) and the route to learn. */
export function labelFromDecision(
  record: ResultRecord,
  d: DecisionLike,
  route: Route,
  source: RouterLabel["label_source"],
): RouterLabel {
  return {
    question_id: String(record.question_id ?? record.atr_trace?.question_id ?? ""),
    ...(record.question !== undefined ? { question: record.question } : {}),
    ...(record.table_id !== undefined ? { table_id: record.table_id } : {}),
    sub_query: String(d.sub_query ?? ""),
    expected_operator: String(d.expected_operator ?? "lookup"),
    required_modalities: String(d.required_modalities ?? "both"),
    entity_mentions: Array.isArray(d.entity_mentions) ? d.entity_mentions.map(String) : [],
    need_global_table_view: d.need_global_table_view === true,
    uncertainty: Number(d.uncertainty ?? 0),
    schema: (d.schema as TableSchema | null) ?? null,
    has_schema: d.schema != null,
    history_H: Array.isArray(d.history_H) ? (d.history_H as FailedRouteRecord[]) : [],
    route,
    label_source: source,
    ...(d.plan_analysis && typeof d.plan_analysis === "object"
      ? { analysis: d.plan_analysis as Record<string, unknown> }
      : {}),
  };
}

const asRoute = (v: unknown): Route | undefined => {
  const r = String(v ?? "").toUpperCase();
  return (LABELS as readonly string[]).includes(r) ? (r as Route) : undefined;
};

/** Judges a decision's produced answer against the question's gold answer (training questions have one). */
export type AnswerCheck = (record: ResultRecord & Record<string, unknown>, producedAnswer: string) => boolean;

/**
 * §11 from_inference: accepted decisions of `atr run --emit_trace` records become labels. With
 * `isCorrect`, an accepted decision whose answer is wrong against the gold is dropped (the
 * reference's `oracle_correct` idea, here from the real answers of a labelled training split).
 */
export function labelsFromInference(records: readonly ResultRecord[], isCorrect?: AnswerCheck): RouterLabel[] {
  const out: RouterLabel[] = [];
  for (const record of records) {
    for (const d of record.atr_trace?.verifier_decisions ?? []) {
      const route = asRoute(d.effective_route ?? d.route);
      if (d.accepted !== true || !route) continue;
      if (
        isCorrect &&
        !isCorrect(
          record as ResultRecord & Record<string, unknown>,
          String((d as { produced_answer?: unknown }).produced_answer ?? ""),
        )
      )
        continue;
      out.push(labelFromDecision(record, d, route, "verified_inference"));
    }
  }
  return out;
}

/** The plan a label describes. */
export function labelPlan(label: RouterLabel): SubQueryPlan {
  return {
    subQuery: label.sub_query,
    expectedOperator: label.expected_operator as Operator,
    requiredModalities: label.required_modalities as Modality,
    needGlobalTableView: label.need_global_table_view,
    entityMentions: label.entity_mentions,
    uncertainty: label.uncertainty,
    ...(label.analysis ? { analysis: label.analysis } : {}),
  };
}

/** The classifier input text of a label, as the online router builds it (§5.3). */
export function labelText(label: RouterLabel, version: 1 | 2, scope: FailureScope = "question"): string {
  const plan = labelPlan(label);
  if (version === 1) return routerInputV1(plan, label.schema);
  return routerInputV2(plan, label.schema, scopedHistory(label.history_H, label.sub_query, scope));
}

/**
 * §11 distill: for each question of a traced run, its first sub-query's plan and restored schema;
 * the teacher routes it under 0..maxLabels-1 simulated failures.
 */
export function distillLabels(
  records: readonly ResultRecord[],
  teacher: (profile: RouteProfile) => Route,
  maxLabels = 4,
): RouterLabel[] {
  const out: RouterLabel[] = [];
  for (const record of records) {
    const first = record.atr_trace?.verifier_decisions?.find((d) => Number(d.attempt) === 1);
    if (!first) continue;
    const base = labelFromDecision(record, { ...first, history_H: [] }, "TEXT", "teacher_distill");
    const history: FailedRouteRecord[] = [];
    for (let k = 0; k < maxLabels; k++) {
      const profile = routeProfile({
        plan: labelPlan(base),
        schema: base.schema,
        history,
        failureScope: "question",
        reselectIndex: k,
      });
      const route = teacher(profile);
      if (history.some((h) => h.effectiveRoute === route)) break; // every route failed: the teacher repeats TEXT
      out.push({ ...base, history_H: [...history], route });
      history.push({
        subQuery: base.sub_query,
        requestedRoute: route,
        effectiveRoute: route,
        valueLinkerAttempted: false,
        verdict: 0,
        step: k + 1,
      });
    }
  }
  return out;
}

/** Route cost order of the reference's execution oracle (§11 oracle: TEXT 0, SQL 0.5, RETRIEVE 1, HYBRID 1.5). */
export const ORACLE_COST_ORDER: readonly Route[] = ["TEXT", "SQL", "RETRIEVE", "HYBRID"];

/**
 * §11 oracle, working (§15.2–3 fixed): one traced run per route (`--router_type fixed --force_route R
 * --no_escalation`) over the same questions; a question's label is the cheapest route whose final
 * answer is right, on its first sub-query with an empty H, and `routes_right` lists every route that
 * was right (the student can learn from all of them: training/student.ts `targets`). Questions no
 * route answers are skipped (the reference kept them flagged `oracle_correct: false`).
 */
export function oracleLabels(runs: ReadonlyMap<Route, readonly ResultRecord[]>, isCorrect: AnswerCheck): RouterLabel[] {
  const byQuestion = new Map<string, Map<Route, ResultRecord>>();
  for (const [route, records] of runs) {
    for (const r of records) {
      const key = String(r.question_id ?? r.question ?? "");
      if (!byQuestion.has(key)) byQuestion.set(key, new Map());
      byQuestion.get(key)!.set(route, r);
    }
  }
  const out: RouterLabel[] = [];
  for (const perRoute of byQuestion.values()) {
    const answerOf = (r: ResultRecord) =>
      String((r as { agentic_tablerag_answer?: unknown }).agentic_tablerag_answer ?? "");
    const best = ORACLE_COST_ORDER.find((route) => {
      const r = perRoute.get(route);
      return r !== undefined && isCorrect(r as ResultRecord & Record<string, unknown>, answerOf(r));
    });
    if (!best) continue;
    const routesRight = ORACLE_COST_ORDER.filter((route) => {
      const r = perRoute.get(route);
      return r !== undefined && isCorrect(r as ResultRecord & Record<string, unknown>, answerOf(r));
    });
    const record = perRoute.get(best)!;
    const first = record.atr_trace?.verifier_decisions?.find((d) => Number(d.attempt) === 1);
    const answerFrom = (record as { answer_from?: unknown }).answer_from;
    if (first) {
      out.push({
        ...labelFromDecision(record, { ...first, history_H: [] }, best, "execution_oracle"),
        routes_right: routesRight,
        ...(typeof answerFrom === "string" ? { answer_from: answerFrom } : {}),
      });
    }
  }
  return out;
}

/**
 * Execution-guided labels from one exploration run (`atr run --accept_threshold 1 --emit_trace`: the
 * verifier accepts nothing, so every route is tried on the first sub-query and traced with its
 * answer). A question's label is the cheapest route (ORACLE_COST_ORDER) whose produced answer on the
 * first sub-query is right; `routes_right` keeps every route that was right. One run per split
 * instead of four fixed-route runs; the routes after the first ran with the earlier ones in H, as
 * the online loop runs them. Questions no route answers are skipped.
 */
export function explorationLabels(records: readonly ResultRecord[], isCorrect: AnswerCheck): RouterLabel[] {
  const out: RouterLabel[] = [];
  for (const record of records) {
    const decisions = record.atr_trace?.verifier_decisions ?? [];
    const first = decisions[0];
    if (!first || Number(first.attempt) !== 1) continue;
    const answers = new Map<Route, string>();
    for (const d of decisions) {
      if (d.sub_query !== first.sub_query) break; // the first sub-query's attempts only
      const route = asRoute(d.effective_route ?? d.route);
      if (route && !answers.has(route))
        answers.set(route, String((d as { produced_answer?: unknown }).produced_answer ?? ""));
    }
    const right = ORACLE_COST_ORDER.filter(
      (r) => answers.has(r) && isCorrect(record as ResultRecord & Record<string, unknown>, answers.get(r)!),
    );
    if (right.length === 0) continue;
    const answerFrom = (record as { answer_from?: unknown }).answer_from;
    out.push({
      ...labelFromDecision(record, { ...first, history_H: [] }, right[0]!, "execution_oracle"),
      routes_right: right,
      ...(typeof answerFrom === "string" ? { answer_from: answerFrom } : {}),
    });
  }
  return out;
}

export interface LabelSummary {
  labels: number;
  questions: number;
  label_counts: Partial<Record<Route, number>>;
  /** Execution-oracle labels: how many questions each route answered right. */
  routes_right_counts: Partial<Record<Route, number>>;
  /** Labels whose `routes_right` is one route only, by that route (only it answered right). */
  only_right_counts: Partial<Record<Route, number>>;
  /**
   * The headroom of routing: the heuristic router's first route on the label's plan, and how often it
   * is not among `routes_right` while another route is (what a perfect router would win).
   */
  heuristic: { route_counts: Partial<Record<Route, number>>; right: number; wrong_other_right: number };
  /**
   * Replay labels: final answers right with the heuristic's first route and with the best first
   * route per question (a perfect router's end-to-end score), and their attempts.
   */
  replay?: { heuristic_right: number; oracle_right: number; heuristic_attempts: number; oracle_attempts: number };
  /** Per benchmark question type (`answer_from`): labels and their label counts. */
  by_answer_from: Record<
    string,
    {
      labels: number;
      label_counts: Partial<Record<Route, number>>;
      routes_right_counts: Partial<Record<Route, number>>;
      only_right_counts: Partial<Record<Route, number>>;
      heuristic_wrong_other_right: number;
    }
  >;
}

/** Counts of a label set (what `atr train-router labels --summary` writes). */
export function labelSummary(labels: readonly RouterLabel[]): LabelSummary {
  const bump = (m: Partial<Record<Route, number>>, r: Route) => (m[r] = (m[r] ?? 0) + 1);
  const summary: LabelSummary = {
    labels: labels.length,
    questions: new Set(labels.map((l) => l.question_id)).size,
    label_counts: {},
    routes_right_counts: {},
    only_right_counts: {},
    heuristic: { route_counts: {}, right: 0, wrong_other_right: 0 },
    by_answer_from: {},
  };
  for (const l of labels) {
    bump(summary.label_counts, l.route);
    const right = l.routes_right ?? [];
    for (const r of right) bump(summary.routes_right_counts, r);
    if (right.length === 1) bump(summary.only_right_counts, right[0]!);
    const heuristic = heuristicRoute(labelPlan(l), l.schema != null, new Set());
    bump(summary.heuristic.route_counts, heuristic);
    const missed = right.length > 0 && !right.includes(heuristic);
    if (missed) summary.heuristic.wrong_other_right++;
    else if (right.length > 0) summary.heuristic.right++;
    const outcome = l.replay?.[heuristic];
    if (l.replay && outcome) {
      const r = (summary.replay ??= { heuristic_right: 0, oracle_right: 0, heuristic_attempts: 0, oracle_attempts: 0 });
      const best = l.replay[right[0] ?? heuristic] ?? outcome;
      r.heuristic_right += outcome.right ? 1 : 0;
      r.heuristic_attempts += outcome.attempts;
      r.oracle_right += best.right ? 1 : 0;
      r.oracle_attempts += best.attempts;
    }
    if (l.answer_from) {
      const t = (summary.by_answer_from[l.answer_from] ??= {
        labels: 0,
        label_counts: {},
        routes_right_counts: {},
        only_right_counts: {},
        heuristic_wrong_other_right: 0,
      });
      t.labels++;
      bump(t.label_counts, l.route);
      for (const r of right) bump(t.routes_right_counts, r);
      if (right.length === 1) bump(t.only_right_counts, right[0]!);
      if (missed) t.heuristic_wrong_other_right++;
    }
  }
  return summary;
}
