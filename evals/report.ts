/** Renders a ScoreReport as Markdown (the `--report` file) and as a short console summary. */
import type { ScoreReport, Stats } from "./score.js";

const OFFICIAL_NAMES: Record<string, string> = {
  accuracy: "denotation accuracy",
  em: "EM",
  f1: "F1",
  scale: "scale accuracy",
};

const BENCH_NAMES: Record<string, string> = { wtq: "WikiTableQuestions", tatqa: "TAT-QA", hybridqa: "HybridQA" };

function table(header: string[], rows: Array<Array<string | number>>): string {
  const line = (cells: Array<string | number>) =>
    `| ${cells.map((c) => String(c).replace(/\|/g, "\\|")).join(" | ")} |`;
  return [line(header), `| ${header.map((_, i) => (i === 0 ? "---" : "---:")).join(" | ")} |`, ...rows.map(line)].join(
    "\n",
  );
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
}

function statsRow(name: string, s: Stats): Array<string | number> {
  return [name, s.n, fmt(s.total), fmt(s.mean), fmt(s.p50), fmt(s.p90), fmt(s.p99), fmt(s.max)];
}

export interface ReportContext {
  goldPath?: string;
  predPath?: string;
  command?: string;
}

export function renderMarkdown(report: ScoreReport, context: ReportContext = {}): string {
  const out: string[] = [];
  out.push(`# ${BENCH_NAMES[report.bench] ?? report.bench} scores`, "");
  if (context.predPath) out.push(`- predictions: \`${context.predPath}\``);
  if (context.goldPath) out.push(`- gold: \`${context.goldPath}\``);
  if (context.command) out.push(`- command: \`${context.command}\``);
  const c = report.counts;
  out.push(
    `- questions: ${c.gold} gold, ${c.predicted} predicted, ${c.missing} missing (scored 0), ${c.errors} errors` +
      (c.extraPredictions ? `, ${c.extraPredictions} predictions not in the gold file (ignored)` : "") +
      (c.oracle
        ? `\n- **oracle verifier**: ${c.oracle} records were answered with the gold in hand (\`atr run --oracle_verifier\`): a diagnostic upper bound, not a result`
        : ""),
    "",
  );
  out.push("## Official metric", "");
  out.push(
    table(
      Object.keys(report.official).map((k) => OFFICIAL_NAMES[k] ?? k),
      [Object.values(report.official).map(fmt)],
    ),
    "",
  );
  out.push("## Paper metric set (reference §12.1)", "");
  const p = report.paper;
  const header = ["n", "exact", "normalised EM", "relaxed", "token F1"];
  const row: Array<string | number> = [p.n, fmt(p.exact), fmt(p.normalizedEm), fmt(p.relaxed), fmt(p.tokenF1)];
  if (p.llmJudge !== undefined) {
    header.push("LLM judge");
    row.push(`${fmt(p.llmJudge)} (n=${p.llmJudgeN})`);
  }
  out.push(table(header, [row]), "");
  if (p.llmJudgeErrors)
    out.push(
      `The LLM judge failed on ${p.llmJudgeErrors.count} question(s) (not judged); first error: ${p.llmJudgeErrors.first}`,
      "",
    );
  out.push("## Breakdowns (official metric, token F1 of the paper set)", "");
  for (const [dimension, groups] of Object.entries(report.breakdowns)) {
    const names = Object.keys(Object.values(groups)[0] ?? {});
    out.push(`### ${dimension}`, "");
    out.push(
      table(
        [dimension, ...names.map((n) => (n === "token_f1" ? "token F1" : (OFFICIAL_NAMES[n] ?? n)))],
        Object.entries(groups).map(([value, m]) => [value.trim(), ...names.map((n) => fmt(m[n] ?? 0))]),
      ),
      "",
    );
  }
  out.push("## Cost and latency (per answered question)", "");
  out.push(
    table(
      ["", "n", "total", "mean", "p50", "p90", "p99", "max"],
      [
        statsRow("LLM calls", report.cost.llmCalls),
        statsRow("tokens", report.cost.tokens),
        statsRow("latency (ms)", report.cost.latencyMs),
        statsRow("attempts", report.cost.attempts),
        statsRow("escalations", report.cost.escalations),
      ],
    ),
    "",
  );
  return out.join("\n");
}

/** A few lines for the terminal. */
export function renderSummary(report: ScoreReport): string {
  const official = Object.entries(report.official)
    .map(([k, v]) => `${OFFICIAL_NAMES[k] ?? k} ${fmt(v)}`)
    .join(" · ");
  const p = report.paper;
  const c = report.counts;
  return [
    `${BENCH_NAMES[report.bench] ?? report.bench}: ${official}  (${c.gold} questions, ${c.missing} missing, ${c.errors} errors)`,
    `paper set: normalised EM ${fmt(p.normalizedEm)} · relaxed ${fmt(p.relaxed)} · token F1 ${fmt(p.tokenF1)}` +
      (p.llmJudge !== undefined ? ` · LLM judge ${fmt(p.llmJudge)} (n=${p.llmJudgeN})` : "") +
      (p.llmJudgeErrors
        ? `\nLLM judge failed on ${p.llmJudgeErrors.count} question(s), first: ${p.llmJudgeErrors.first}`
        : ""),
    `latency p50 ${fmt(report.cost.latencyMs.p50)} ms · p90 ${fmt(report.cost.latencyMs.p90)} ms · LLM calls ${fmt(report.cost.llmCalls.total)} · tokens ${fmt(report.cost.tokens.total)}`,
    ...(c.oracle > 0
      ? [
          `ORACLE VERIFIER: ${c.oracle} records were answered with the gold in hand (atr run --oracle_verifier) — a diagnostic upper bound, not a result`,
        ]
      : []),
  ].join("\n");
}
