/**
 * Side by side: several results files of one benchmark scored by the same scorer (ablations,
 * baselines). Besides each file's means, the paired view against the first file: on how many
 * questions the official metric went up or down — a difference of a few points is noise unless
 * the flips are lopsided.
 */
import type { ScoreReport } from "./score.js";

export interface ComparedRun {
  label: string;
  report: ScoreReport;
}

export interface PairedFlips {
  /** Questions where this run scores higher than the first on the primary metric. */
  better: number;
  /** … lower. */
  worse: number;
}

/** The metric the comparison pairs on: accuracy (WTQ) or EM. */
export function primaryMetric(report: ScoreReport): string {
  return "accuracy" in report.official ? "accuracy" : "em";
}

export function pairedFlips(base: ScoreReport, other: ScoreReport): PairedFlips {
  const metric = primaryMetric(base);
  const baseByKey = new Map(base.perQuestion.map((q) => [q.key, q.official[metric] ?? 0]));
  let better = 0;
  let worse = 0;
  for (const q of other.perQuestion) {
    const b = baseByKey.get(q.key) ?? 0;
    const o = q.official[metric] ?? 0;
    if (o > b) better++;
    else if (o < b) worse++;
  }
  return { better, worse };
}

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

/** A Markdown table: one row per run. */
export function renderComparison(runs: ComparedRun[]): string {
  if (runs.length === 0) return "";
  const metrics = Object.keys(runs[0]!.report.official);
  const header = [
    "run",
    ...metrics,
    "token F1",
    "errors",
    "LLM calls/q",
    "tokens/q",
    "latency p50 ms",
    `vs ${runs[0]!.label}: better / worse`,
  ];
  const rows = runs.map((run, i) => {
    const r = run.report;
    const flips = i === 0 ? "—" : (({ better, worse }) => `${better} / ${worse}`)(pairedFlips(runs[0]!.report, r));
    return [
      run.label,
      ...metrics.map((m) => fmt(r.official[m] ?? 0)),
      fmt(r.paper.tokenF1),
      String(r.counts.errors),
      fmt(r.cost.llmCalls.mean),
      fmt(r.cost.tokens.mean),
      fmt(r.cost.latencyMs.p50),
      flips,
    ];
  });
  const line = (cells: string[]) => `| ${cells.map((c) => c.replace(/\|/g, "\\|")).join(" | ")} |`;
  return [line(header), `| ${header.map((_, i) => (i === 0 ? "---" : "---:")).join(" | ")} |`, ...rows.map(line)].join(
    "\n",
  );
}
