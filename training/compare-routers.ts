/**
 * End-to-end comparison of router runs on one benchmark (`atr train-router compare`): for each
 * results file of `atr run`, the official metric, attempts per question, latency, the first route of
 * the first sub-query, and paired better/worse against the first file — overall and per benchmark
 * question type (`answer_from` of the gold records, where the benchmark has one).
 */
import { officialScore, type Bench } from "../evals/score.js";
import type { Route } from "../nodes/types.js";

interface RunRecord {
  question_id?: string;
  question?: string;
  agentic_tablerag_answer?: unknown;
  atr_stats?: { latency_ms?: number; attempts?: number; first_requested_route?: Route };
}

export interface RouterRunSummary {
  label: string;
  questions: number;
  /** Mean official metric (WTQ accuracy, TAT-QA/HybridQA EM) × 100 over every gold question. */
  score: number;
  attempts: number;
  latencyMeanMs: number;
  latencyP50Ms: number;
  firstRoutes: Partial<Record<Route, number>>;
  better: number;
  worse: number;
  byType: Record<
    string,
    { questions: number; score: number; better: number; worse: number; firstRoutes: Partial<Record<Route, number>> }
  >;
}

const keyOf = (r: { question_id?: unknown; question?: unknown }) => String(r.question_id ?? r.question ?? "");

/** `runs`: label → records; the first run is the baseline of the paired counts. */
export function compareRouterRuns(
  bench: Bench,
  gold: readonly Record<string, unknown>[],
  runs: ReadonlyArray<{ label: string; records: readonly RunRecord[] }>,
): RouterRunSummary[] {
  const scoreOf = (g: Record<string, unknown>, r: RunRecord | undefined) => {
    if (!r) return 0;
    const s = officialScore(bench, { ...g, question: String(g.question ?? "") } as never, r as Record<string, unknown>);
    return s.accuracy ?? s.em ?? 0;
  };
  const scored = runs.map((run) => {
    const byKey = new Map(run.records.map((r) => [keyOf(r), r]));
    return { run, byKey, scores: new Map(gold.map((g) => [keyOf(g), scoreOf(g, byKey.get(keyOf(g)))])) };
  });
  const base = scored[0]!;
  return scored.map(({ run, byKey, scores }) => {
    const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
    const records = [...byKey.values()];
    const latencies = records.map((r) => r.atr_stats?.latency_ms ?? 0).sort((a, b) => a - b);
    const firstRoutes: Partial<Record<Route, number>> = {};
    const byType: RouterRunSummary["byType"] = {};
    let better = 0;
    let worse = 0;
    for (const g of gold) {
      const key = keyOf(g);
      const s = scores.get(key)!;
      const b = base.scores.get(key)!;
      const first = byKey.get(key)?.atr_stats?.first_requested_route;
      if (first) firstRoutes[first] = (firstRoutes[first] ?? 0) + 1;
      if (s > b) better++;
      if (s < b) worse++;
      if (typeof g.answer_from === "string") {
        const t = (byType[g.answer_from] ??= { questions: 0, score: 0, better: 0, worse: 0, firstRoutes: {} });
        t.questions++;
        t.score += s;
        if (s > b) t.better++;
        if (s < b) t.worse++;
        if (first) t.firstRoutes[first] = (t.firstRoutes[first] ?? 0) + 1;
      }
    }
    for (const t of Object.values(byType)) t.score = (100 * t.score) / t.questions;
    return {
      label: run.label,
      questions: gold.length,
      score: 100 * mean([...scores.values()]),
      attempts: mean(records.map((r) => r.atr_stats?.attempts ?? 0)),
      latencyMeanMs: mean(latencies),
      latencyP50Ms: latencies[Math.floor(latencies.length / 2)] ?? 0,
      firstRoutes,
      better,
      worse,
      byType,
    };
  });
}

/** The comparison as a Markdown table (and one row per question type). */
export function renderComparison(rows: readonly RouterRunSummary[]): string {
  const routes = (m: Partial<Record<Route, number>>) =>
    Object.entries(m)
      .sort((a, b) => b[1] - a[1])
      .map(([r, n]) => `${r} ${n}`)
      .join(", ");
  const lines = [
    "| run | score | attempts/q | latency mean / p50 ms | better / worse | first route |",
    "| --- | ---: | ---: | ---: | ---: | --- |",
    ...rows.map(
      (r, i) =>
        `| ${r.label} | ${r.score.toFixed(2)} | ${r.attempts.toFixed(2)} | ${r.latencyMeanMs.toFixed(0)} / ${r.latencyP50Ms.toFixed(0)} | ${i === 0 ? "—" : `${r.better} / ${r.worse}`} | ${routes(r.firstRoutes)} |`,
    ),
  ];
  const types = [...new Set(rows.flatMap((r) => Object.keys(r.byType)))].sort();
  for (const type of types) {
    for (const [i, r] of rows.entries()) {
      const t = r.byType[type];
      if (t)
        lines.push(
          `| ${r.label} · ${type} (${t.questions}) | ${t.score.toFixed(2)} | | | ${i === 0 ? "—" : `${t.better} / ${t.worse}`} | ${routes(t.firstRoutes)} |`,
        );
    }
  }
  return lines.join("\n");
}
