/**
 * What the HTML run report shows, computed from one or two results files (and the gold file when
 * given): per-run scores from the official scorers (evals/score.ts), the route flow, cost and
 * latency, and one row per question with each run's answer, score, routes and a compact trace.
 * Everything here is plain data; evals/report-html.ts renders it. Long strings are capped so a
 * large run still makes a page a browser opens.
 */
import { pairedFlips, primaryMetric } from "./compare.js";
import { questionKey, type QuestionRecord } from "./dataset.js";
import { routeSummary } from "./route-summary.js";
import { scoreResults, stats, type Bench, type ScoreReport, type Stats } from "./score.js";

export interface ReportRunInput {
  label: string;
  path: string;
  records: Array<Record<string, unknown>>;
}

export interface TraceStep {
  subQuery: string;
  attempt: number | null;
  requested: string;
  effective: string;
  verdict: number | null;
  accepted: boolean;
  reason: string;
  answer: string;
  sql: string;
  sqlRefused: string[];
  table: string;
  columns: string[];
  /** The remaining fields of the decision (evidence, linked values, …), capped. */
  extra: Record<string, unknown>;
}

export interface QuestionRun {
  answer: string;
  /** Primary official metric (accuracy or EM), 0–1; undefined without gold. */
  score?: number;
  /** Every official metric of the question (0–1). */
  metrics?: Record<string, number>;
  missing: boolean;
  error?: string;
  verified?: boolean;
  firstRequested: string;
  firstEffective: string;
  final: string;
  attempts?: number;
  latencyMs?: number;
  llmCalls?: number;
  tokens?: number;
  trace?: TraceStep[];
  /** The record had a trace, left out of the page (past `maxTraces` questions). */
  traceOmitted?: boolean;
  /** Record fields about the answer's evidence (provenance), when the record carries any. */
  evidence?: Record<string, unknown>;
}

export interface QuestionRow {
  key: string;
  id: string;
  question: string;
  gold?: string;
  /** Answer type (or source) group from the gold file, or the record's own `type`. */
  type: string;
  runs: QuestionRun[];
}

export interface RunSummary {
  label: string;
  path: string;
  records: number;
  official?: Record<string, number>;
  counts?: ScoreReport["counts"];
  /** Official metric means by dimension: { final_route: { SQL: { n, accuracy } } }. */
  breakdowns?: ScoreReport["breakdowns"];
  cost: { llmCalls: Stats; tokens: Stats; latencyMs: Stats; attempts: Stats };
  /** Against the first run, on the primary metric (second run only, with gold). */
  paired?: { better: number; worse: number };
  /** Questions whose answer differs from the first run's (second run only). */
  changedAnswers?: number;
}

export interface ReportData {
  title: string;
  generatedAt: string;
  bench?: Bench;
  metric?: string;
  goldPath?: string;
  runs: RunSummary[];
  questions: QuestionRow[];
}

const STRING_CAP = 2000;

/** Caps every string inside a JSON-like value, so one huge evidence block cannot bloat the page. */
export function capStrings(value: unknown, cap = STRING_CAP, depth = 0): unknown {
  if (typeof value === "string")
    return value.length > cap ? `${value.slice(0, cap)}… (${value.length - cap} more characters)` : value;
  if (depth > 6) return "…";
  if (Array.isArray(value)) {
    const items = value.slice(0, 50).map((v) => capStrings(v, cap, depth + 1));
    return value.length > 50 ? [...items, `… (${value.length - 50} more)`] : items;
  }
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, capStrings(v, cap, depth + 1)]),
    );
  }
  return value;
}

const str = (v: unknown): string =>
  typeof v === "string"
    ? v
    : v === undefined || v === null
      ? ""
      : typeof v === "object"
        ? JSON.stringify(v)
        : String(v);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const cap = (s: string) => capStrings(s) as string;

/** Decision fields shown in their own place in the trace viewer (the rest go to `extra`). */
const SHOWN = new Set([
  "question_id",
  "sub_query",
  "attempt",
  "route",
  "requested_route",
  "effective_route",
  "verdict",
  "accepted",
  "reason",
  "produced_answer",
  "sql",
  "sql_refused",
  "schema",
  "history_H",
]);

function traceSteps(record: Record<string, unknown>): TraceStep[] | undefined {
  const trace = record.atr_trace;
  if (!trace || typeof trace !== "object") return undefined;
  const decisions = (trace as Record<string, unknown>).verifier_decisions;
  if (!Array.isArray(decisions)) return undefined;
  return decisions.map((raw) => {
    const d = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
    const schema = (d.schema && typeof d.schema === "object" ? d.schema : {}) as Record<string, unknown>;
    const columns = Array.isArray(schema.columns)
      ? schema.columns.map((c) => str((c as Record<string, unknown>)?.name ?? c))
      : [];
    return {
      subQuery: cap(str(d.sub_query)),
      attempt: num(d.attempt),
      requested: str(d.requested_route ?? d.route),
      effective: str(d.effective_route ?? d.route),
      verdict: num(d.verdict),
      accepted: d.accepted === true,
      reason: cap(str(d.reason)),
      answer: cap(str(d.produced_answer)),
      sql: cap(str(d.sql)),
      sqlRefused: Array.isArray(d.sql_refused) ? d.sql_refused.map((s) => cap(str(s))) : [],
      table: str(schema.tableId),
      columns: columns.slice(0, 60),
      extra: capStrings(Object.fromEntries(Object.entries(d).filter(([k]) => !SHOWN.has(k)))) as Record<
        string,
        unknown
      >,
    };
  });
}

/** Record fields that describe the answer's evidence: any top-level or atr_stats key naming evidence or provenance. */
function evidenceOf(record: Record<string, unknown>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  const stats = (record.atr_stats && typeof record.atr_stats === "object" ? record.atr_stats : {}) as Record<
    string,
    unknown
  >;
  for (const [k, v] of [...Object.entries(record), ...Object.entries(stats)]) {
    if (/evidence|provenance/i.test(k) && v !== undefined && v !== null) out[k] = capStrings(v);
  }
  return Object.keys(out).length ? out : undefined;
}

function questionRun(record: Record<string, unknown> | undefined): QuestionRun {
  const r = record ?? {};
  const route = routeSummary(r);
  const stats = (r.atr_stats && typeof r.atr_stats === "object" ? r.atr_stats : {}) as Record<string, unknown>;
  const trace = traceSteps(r);
  const evidence = evidenceOf(r);
  return {
    answer: cap(str(r.agentic_tablerag_answer)),
    missing: record === undefined,
    ...(r.error !== undefined && r.error !== null ? { error: cap(str(r.error)) } : {}),
    ...(typeof stats.answer_verified === "boolean" ? { verified: stats.answer_verified } : {}),
    firstRequested: record ? route.firstRequested : "(missing)",
    firstEffective: record ? route.firstEffective : "(missing)",
    final: record ? route.final : "(missing)",
    ...(route.attempts !== undefined ? { attempts: route.attempts } : {}),
    ...(route.latencyMs !== undefined ? { latencyMs: route.latencyMs } : {}),
    ...(route.llmCalls !== undefined ? { llmCalls: route.llmCalls } : {}),
    ...(route.tokens !== undefined ? { tokens: route.tokens } : {}),
    ...(trace ? { trace } : {}),
    ...(evidence ? { evidence } : {}),
  };
}

/** Records by question key, as a multiset (first record of a key first), like the scorer joins them. */
function byKey(records: Array<Record<string, unknown>>): Map<string, Array<Record<string, unknown>>> {
  const map = new Map<string, Array<Record<string, unknown>>>();
  for (const r of records) map.set(questionKey(r), [...(map.get(questionKey(r)) ?? []), r]);
  return map;
}

function goldText(q: Record<string, unknown>): string | undefined {
  const a = q.answer;
  if (a === undefined || a === null) return undefined;
  return Array.isArray(a) ? a.map(String).join(" | ") : String(a);
}

function typeOf(q: Record<string, unknown>, score: ScoreReport | undefined, index: number): string {
  const groups = score?.perQuestion[index]?.groups;
  const g = groups?.answer_type ?? groups?.answer_from;
  if (g) return g;
  return str(q.answer_type ?? q.type ?? q.answer_from) || "(none)";
}

/**
 * Files of your own often carry a `type` field (lookup, count, …) that no benchmark scorer groups
 * by: its breakdown, on the primary metric, when the questions have one.
 */
function ownTypeBreakdown(questions: QuestionRecord[], score: ScoreReport, metric: string): ScoreReport["breakdowns"] {
  if (!questions.some((q) => typeof q.type === "string" && q.type !== "")) return {};
  const groups = new Map<string, number[]>();
  questions.forEach((q, i) => {
    const t = str(q.type) || "(none)";
    groups.set(t, [...(groups.get(t) ?? []), score.perQuestion[i]!.official[metric] ?? 0]);
  });
  const table: Record<string, Record<string, number>> = {};
  for (const [t, values] of [...groups.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    table[t] = {
      n: values.length,
      [metric]: Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 10000) / 100,
    };
  }
  return { type: table };
}

export interface BuildReportOptions {
  runs: ReportRunInput[];
  gold?: { path: string; questions: QuestionRecord[]; bench: Bench };
  title?: string;
  now?: Date;
  /** Questions whose traces the page keeps (the first N rows); the rest keep their row. Default 2000. */
  maxTraces?: number;
}

export async function buildReportData(options: BuildReportOptions): Promise<ReportData> {
  const { runs, gold } = options;
  if (runs.length === 0 || runs.length > 2) throw new Error("a report shows one run or two runs side by side");
  const scores = gold
    ? await Promise.all(
        runs.map((run) => scoreResults({ bench: gold.bench, gold: gold.questions, predictions: run.records })),
      )
    : undefined;
  const metric = scores ? primaryMetric(scores[0]!) : undefined;

  // Rows: the gold questions in gold order, else the first run's questions then any only the second has.
  const base: Array<Record<string, unknown>> = gold ? gold.questions : [...runs[0]!.records];
  if (!gold && runs[1]) {
    const seen = new Set(base.map(questionKey));
    for (const r of runs[1].records) if (!seen.has(questionKey(r))) base.push(r);
  }
  const lookups = runs.map((run) => byKey(run.records));
  const questions: QuestionRow[] = base.map((q, i) => {
    const key = questionKey(q);
    const perRun = lookups.map((lookup, r) => {
      const record = lookup.get(key)?.shift();
      const run = questionRun(record);
      const scored = scores?.[r]?.perQuestion[i];
      if (scored && metric) {
        run.score = scored.official[metric] ?? 0;
        run.metrics = scored.official;
      }
      return run;
    });
    const gt = gold ? goldText(q) : undefined;
    return {
      key,
      id: str(q.question_id),
      question: cap(str(q.question)),
      ...(gt !== undefined ? { gold: cap(gt) } : {}),
      type: typeOf(q, scores?.[0], i),
      runs: perRun,
    };
  });

  // Traces are most of a page's weight: past maxTraces questions they are left out, so a run of
  // many thousand questions still makes a page a browser opens.
  const maxTraces = options.maxTraces ?? 2000;
  questions.slice(maxTraces).forEach((q) =>
    q.runs.forEach((run) => {
      if (run.trace) {
        delete run.trace;
        run.traceOmitted = true;
      }
    }),
  );

  const summaries: RunSummary[] = runs.map((run, r) => {
    const present = questions.map((q) => q.runs[r]!).filter((x) => !x.missing);
    const score = scores?.[r];
    const summary: RunSummary = {
      label: run.label,
      path: run.path,
      records: run.records.length,
      cost: {
        llmCalls: stats(present.map((x) => x.llmCalls)),
        tokens: stats(present.map((x) => x.tokens)),
        latencyMs: stats(present.map((x) => x.latencyMs)),
        attempts: stats(present.map((x) => x.attempts)),
      },
    };
    if (score) {
      summary.official = score.official;
      summary.counts = score.counts;
      summary.breakdowns = { ...score.breakdowns, ...ownTypeBreakdown(gold!.questions, score, metric!) };
      if (r > 0) summary.paired = pairedFlips(scores[0]!, score);
    }
    if (r > 0)
      summary.changedAnswers = questions.filter(
        (q) => !q.runs[0]!.missing && !q.runs[r]!.missing && q.runs[0]!.answer !== q.runs[r]!.answer,
      ).length;
    return summary;
  });

  return {
    title: options.title ?? (runs.length === 2 ? `${runs[0]!.label} vs ${runs[1]!.label}` : runs[0]!.label),
    generatedAt: (options.now ?? new Date()).toISOString(),
    ...(gold ? { bench: gold.bench, metric, goldPath: gold.path } : {}),
    runs: summaries,
    questions,
  };
}
