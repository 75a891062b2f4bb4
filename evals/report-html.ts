/**
 * Renders ReportData as one self-contained HTML page: summary, accuracy charts, route flow,
 * latency, LLM cost (inline SVG from report-charts.ts), and the question table with its filters
 * and trace viewer, built in the browser by report-page.js (inlined) from the data embedded as
 * JSON. Nothing is fetched: a Content-Security-Policy allows no network source and only the one
 * inline script, by hash. Untrusted text is escaped here (escapeHtml) or set as textContent there.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { barChart, histogram, routeFlow, type BarSeries } from "./report-charts.js";
import type { ReportData, RunSummary } from "./report-data.js";
import { escapeHtml as esc, jsonForScript } from "./report-escape.js";

const PAGE_SCRIPT = readFileSync(new URL("./report-page.js", import.meta.url), "utf8");

const METRIC_NAMES: Record<string, string> = {
  accuracy: "denotation accuracy",
  em: "EM",
  f1: "F1",
  scale: "scale accuracy",
};
const BENCH_NAMES: Record<string, string> = { wtq: "WikiTableQuestions", tatqa: "TAT-QA", hybridqa: "HybridQA" };
const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

/** Breakdown dimensions drawn as accuracy charts, in this order (benchmark groups go after the routes). */
const ROUTE_DIMENSIONS: Array<[string, string]> = [
  ["final_route", "by final route (the accepted attempt's)"],
  ["first_requested_route", "by first requested route"],
];
const LATER_DIMENSIONS: Array<[string, string]> = [
  ["attempts", "by attempts"],
  ["outcome", "by outcome"],
];
const NOT_CHARTED = new Set(["first_effective_route", "escalations", "answer_type×answer_from"]);

function accuracyCharts(data: ReportData): string {
  const metric = data.metric;
  const first = data.runs[0]!.breakdowns;
  if (!metric || !first) {
    return `<p class="note">No gold file given: accuracy needs <code>--gold QUESTIONS.jsonl</code> (scored with the official scorer of the benchmark).</p>`;
  }
  const groupDims = Object.keys(first)
    .filter(
      (d) =>
        !NOT_CHARTED.has(d) && !ROUTE_DIMENSIONS.some(([r]) => r === d) && !LATER_DIMENSIONS.some(([r]) => r === d),
    )
    .map((d): [string, string] => [d, `by ${d.replace(/_/g, " ")}`]);
  const charts = [...ROUTE_DIMENSIONS, ...groupDims, ...LATER_DIMENSIONS].flatMap(([dim, caption]) => {
    const categories = [...new Set(data.runs.flatMap((r) => Object.keys(r.breakdowns?.[dim] ?? {})))].sort((a, b) =>
      a.trim().localeCompare(b.trim(), undefined, { numeric: true }),
    );
    // A group the gold file does not fill (every question "(none)") says nothing.
    if (categories.length === 0 || (categories.length === 1 && categories[0] === "(none)")) return [];
    const series: BarSeries[] = data.runs.map((r) => ({
      label: r.label,
      values: categories.map((c) => r.breakdowns?.[dim]?.[c]?.[metric]),
      counts: categories.map((c) => r.breakdowns?.[dim]?.[c]?.n),
    }));
    return `<figure class="chart" data-dimension="${esc(dim)}">${barChart({ title: `${METRIC_NAMES[metric] ?? metric} ${caption}`, categories: categories.map((c) => c.trim()), series, max: 100, unit: "%" })}</figure>`;
  });
  return `<div class="charts">${charts.join("")}</div>`;
}

function routeFlows(data: ReportData): string {
  return `<div class="charts">${data.runs
    .map((run, r) => {
      const paths = data.questions
        .map((q) => q.runs[r]!)
        .filter((x) => !x.missing)
        .map((x): [string, string, string] => [x.firstRequested, x.firstEffective, x.final]);
      return `<figure class="chart">${routeFlow({ title: `${run.label}: route flow (${paths.length} questions)`, paths, columns: ["first requested", "first effective", "final"] })}</figure>`;
    })
    .join("")}</div>`;
}

function latencyChart(data: ReportData): string {
  const series = data.runs.map((run, r) => ({
    label: run.label,
    values: data.questions.map((q) => q.runs[r]!.latencyMs).filter((v): v is number => v !== undefined),
  }));
  const markers = data.runs.flatMap((run, s) => [
    { label: `p50 ${fmt(run.cost.latencyMs.p50)} ms`, value: run.cost.latencyMs.p50, series: s },
    { label: `p90 ${fmt(run.cost.latencyMs.p90)} ms`, value: run.cost.latencyMs.p90, series: s },
  ]);
  return `<div class="charts"><figure class="chart">${histogram({ title: "latency per question", series, unit: "ms", markers })}</figure></div>`;
}

function costSection(data: ReportData): string {
  const rows: Array<[string, (r: RunSummary) => RunSummary["cost"]["llmCalls"]]> = [
    ["LLM calls", (r) => r.cost.llmCalls],
    ["tokens", (r) => r.cost.tokens],
    ["latency (ms)", (r) => r.cost.latencyMs],
    ["attempts", (r) => r.cost.attempts],
  ];
  const head = `<tr><th>run</th><th></th><th>n</th><th>total</th><th>mean</th><th>p50</th><th>p90</th><th>p99</th><th>max</th></tr>`;
  const body = data.runs
    .flatMap((run) =>
      rows.map(([name, pick]) => {
        const s = pick(run);
        return `<tr><td>${esc(run.label)}</td><td>${esc(name)}</td>${[s.n, s.total, s.mean, s.p50, s.p90, s.p99, s.max].map((v) => `<td class="num">${esc(fmt(v))}</td>`).join("")}</tr>`;
      }),
    )
    .join("");
  const calls = histogram({
    title: "LLM calls per question",
    series: data.runs.map((run, r) => ({
      label: run.label,
      values: data.questions.map((q) => q.runs[r]!.llmCalls).filter((v): v is number => v !== undefined),
    })),
    unit: "calls",
    binCount: 12,
  });
  const tokens = histogram({
    title: "tokens per question",
    series: data.runs.map((run, r) => ({
      label: run.label,
      values: data.questions.map((q) => q.runs[r]!.tokens).filter((v): v is number => v !== undefined),
    })),
    unit: "tokens",
    binCount: 16,
  });
  const offline = data.runs.every((r) => r.cost.llmCalls.total === 0);
  return (
    `<table class="stats">${head}${body}</table>` +
    (offline
      ? `<p class="note">No LLM calls in ${data.runs.length > 1 ? "these runs" : "this run"} (offline backbone): the histograms sit at 0.</p>`
      : "") +
    `<div class="charts"><figure class="chart">${calls}</figure><figure class="chart">${tokens}</figure></div>`
  );
}

function summaryCards(data: ReportData): string {
  return data.runs
    .map((run, r) => {
      const lines: string[] = [];
      if (run.official)
        lines.push(
          Object.entries(run.official)
            .map(([k, v]) => `<b>${esc(METRIC_NAMES[k] ?? k)}</b> ${esc(fmt(v))}`)
            .join(" · "),
        );
      if (run.counts)
        lines.push(
          `${run.counts.gold} gold questions · ${run.counts.predicted} answered · ${run.counts.missing} missing · ${run.counts.errors} errors` +
            (run.counts.oracle
              ? ` · <b>${run.counts.oracle} oracle-verifier records (diagnostic, not a result)</b>`
              : ""),
        );
      else lines.push(`${run.records} records`);
      lines.push(
        `latency p50 ${esc(fmt(run.cost.latencyMs.p50))} ms · p90 ${esc(fmt(run.cost.latencyMs.p90))} ms · LLM calls ${esc(fmt(run.cost.llmCalls.total))} · tokens ${esc(fmt(run.cost.tokens.total))}`,
      );
      if (run.paired)
        lines.push(
          `<span class="paired">vs ${esc(data.runs[0]!.label)}: <b class="better">${run.paired.better} better</b> · <b class="worse">${run.paired.worse} worse</b> (paired, per question)</span>`,
        );
      if (run.changedAnswers !== undefined)
        lines.push(`${run.changedAnswers} answers differ from ${esc(data.runs[0]!.label)}`);
      return `<div class="card" style="border-color:${r === 0 ? "#2563eb" : "#ea580c"}"><h3>${esc(run.label)}</h3><div class="path">${esc(run.path)}</div>${lines.map((l) => `<div>${l}</div>`).join("")}</div>`;
    })
    .join("");
}

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1400px;padding:16px 24px;color:#0f172a}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #e2e8f0;padding-bottom:4px}
.meta,.note,.path{color:#475569}.path{font-family:ui-monospace,monospace;font-size:12px;word-break:break-all}
.cards{display:flex;gap:12px;flex-wrap:wrap}.card{border-left:5px solid;padding:8px 12px;background:#f8fafc;flex:1;min-width:320px}
.card h3{margin:0 0 2px;font-size:15px}.better{color:#15803d}.worse{color:#b91c1c}
.charts{display:flex;flex-wrap:wrap;gap:18px}.chart{margin:0;padding:8px;border:1px solid #e2e8f0;border-radius:6px;background:#fff}
table{border-collapse:collapse}td,th{border-bottom:1px solid #e2e8f0;padding:3px 8px;text-align:left;vertical-align:top}
td.num{text-align:right;font-variant-numeric:tabular-nums}.stats{margin-bottom:10px}
#filters{display:flex;gap:14px;flex-wrap:wrap;align-items:center;margin:8px 0;padding:8px;background:#f1f5f9;border-radius:6px}
#questions{width:100%;font-size:13px}#questions tbody tr{cursor:pointer}#questions tbody tr:hover{background:#eff6ff}
#questions td.q{max-width:380px}#questions td.a{max-width:220px;word-break:break-word}
.ok{color:#15803d;font-weight:600}.bad{color:#b91c1c;font-weight:600}.muted{color:#64748b}
dialog{width:min(1300px,96vw);max-height:92vh;border:1px solid #94a3b8;border-radius:8px;padding:0}
dialog header{position:sticky;top:0;background:#fff;padding:10px 16px;border-bottom:1px solid #e2e8f0;display:flex;gap:12px;align-items:flex-start}
dialog header h3{margin:0;flex:1;font-size:15px}.trace-runs{display:flex;gap:16px;padding:12px 16px}.trace-run{flex:1;min-width:0}
.step{border:1px solid #e2e8f0;border-left:4px solid #94a3b8;border-radius:4px;padding:6px 10px;margin:6px 0}
.step.accepted{border-left-color:#16a34a}.step.rejected{border-left-color:#dc2626}.subq{font-weight:600;margin-top:10px}
pre{background:#0f172a;color:#e2e8f0;padding:6px 8px;border-radius:4px;white-space:pre-wrap;word-break:break-word;font-size:12px;margin:4px 0}
.tag{display:inline-block;padding:0 6px;border-radius:3px;background:#e2e8f0;margin-right:4px;font-size:12px}
`;

/** The full page. */
export function renderReportHtml(data: ReportData): string {
  const scriptHash = createHash("sha256").update(PAGE_SCRIPT).digest("base64");
  // A constant of ours (the hash is base64): written as is, so the attribute reads exactly like this.
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${scriptHash}'; img-src data:`;
  const benchLine = data.bench
    ? `${esc(BENCH_NAMES[data.bench] ?? data.bench)}, official metric ${esc(METRIC_NAMES[data.metric ?? ""] ?? data.metric)}; gold <span class="path">${esc(data.goldPath)}</span>`
    : "no gold file";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ATR run report: ${esc(data.title)}</title>
<style>${STYLE}</style></head>
<body>
<h1>ATR run report: ${esc(data.title)}</h1>
<div class="meta">generated ${esc(data.generatedAt)} by <code>atr report</code> · ${benchLine}</div>
<h2>Summary</h2><div class="cards">${summaryCards(data)}</div>
<h2>Accuracy</h2>${accuracyCharts(data)}
<h2>Route flow</h2><p class="note">Each band is the questions that went from their first requested route, through the route that actually ran first (the value linker can force TEXT), to the route of the last accepted attempt.</p>${routeFlows(data)}
<h2>Latency</h2>${latencyChart(data)}
<h2>LLM calls and tokens</h2>${costSection(data)}
<h2>Questions</h2>
<div id="filters"></div>
<table id="questions"><thead></thead><tbody></tbody></table>
<dialog id="trace"><header><h3 id="trace-title"></h3><button id="trace-close" type="button">close</button></header><div class="trace-runs" id="trace-body"></div></dialog>
<script id="atr-data" type="application/json">${jsonForScript(data)}</script>
<script>${PAGE_SCRIPT}</script>
</body></html>
`;
}
