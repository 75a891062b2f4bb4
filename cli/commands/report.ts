/** `atr report`: one self-contained HTML page for one run, or two runs side by side. */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, extname, join, resolve } from "node:path";
import { formatFlagHelp, parseArgs, UsageError, type FlagSpecs } from "../args.js";
import type { Command } from "../command.js";
import { loadQuestions } from "../../evals/dataset.js";
import { readResults } from "../../evals/results-file.js";
import { resolveBench } from "../../evals/report-bench.js";
import { buildReportData, type ReportRunInput } from "../../evals/report-data.js";
import { renderReportHtml } from "../../evals/report-html.js";

const FLAGS: FlagSpecs = {
  out: { kind: "string", help: "HTML file to write (default: <RUN dir>/<RUN stem>.html)" },
  gold: { kind: "string", help: "gold questions file: scores every answer with the benchmark's official scorer" },
  bench: { kind: "string", help: "wtq | tatqa | hybridqa (default: detected from the gold file's fields or path)" },
  label: {
    kind: "string",
    help: "name of a run on the page (give it once per run; default the file name)",
    repeatable: true,
  },
  title: { kind: "string", help: "page title" },
  max_traces: {
    kind: "number",
    help: "keep the traces of the first N questions (the rest keep their rows; bounds the page size)",
    default: 2000,
  },
};

export const command: Command = {
  summary: "HTML report of one run or two side by side: accuracy, route flow, latency, cost, traces",
  help: () =>
    [
      "Usage: atr report RUN.jsonl [RUN2.jsonl] [--gold QUESTIONS.jsonl] [--bench B] [--out report.html]",
      "",
      formatFlagHelp(FLAGS),
      "",
      "One HTML file that opens offline (charts are inline SVG, the page fetches nothing): accuracy by route,",
      "answer type and attempts (with --gold), the route flow, latency and LLM cost, and a question table with",
      "filters and a trace viewer (needs `atr run --emit_trace`). With two runs: side by side, with the paired",
      "better/worse counts of the second against the first. See docs/REPORTS.md.",
      "",
      "Example: atr report out/ex_20261201_093000.jsonl --gold examples/questions.jsonl --bench wtq --out out/ex.html",
    ].join("\n"),
  async run(argv) {
    const { flags, positionals } = parseArgs(argv, FLAGS);
    if (positionals.length === 0)
      throw new UsageError("give the results file(s) `atr run` wrote: atr report RUN.jsonl [RUN2.jsonl]");
    if (positionals.length > 2) throw new UsageError(`a report shows one or two runs, not ${positionals.length}`);
    const absent = positionals.filter((p) => !existsSync(p));
    if (absent.length)
      throw new UsageError(
        `${absent.join(", ")}: no such results file (the path \`atr run\` printed, with its timestamp)`,
      );
    const labels = (flags.label as string[] | undefined) ?? [];
    if (labels.length > positionals.length)
      throw new UsageError(`--label given ${labels.length} times for ${positionals.length} run(s)`);

    const runs: ReportRunInput[] = positionals.map((path, i) => {
      const read = readResults(path);
      if (read.truncatedTailBytes > 0)
        console.error(
          `atr report: ${path} ends with a truncated line (${read.truncatedTailBytes} bytes, ignored); resume the run with --rerun to complete it`,
        );
      if (read.badLines.length > 0)
        console.error(
          `atr report: ${path}: ${read.badLines.length} unparseable line(s) ignored (first: line ${read.badLines[0]})`,
        );
      if (read.records.length === 0) throw new UsageError(`${path} holds no records`);
      return { label: labels[i] ?? basename(path, extname(path)), path, records: read.records };
    });
    if (runs.length === 2 && runs[0]!.label === runs[1]!.label) runs[1]!.label += " (2)";

    let gold;
    if (flags.gold) {
      const goldPath = String(flags.gold);
      const questions = loadQuestions(goldPath);
      let bench;
      try {
        bench = resolveBench(flags.bench as string | undefined, questions, goldPath);
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      gold = { path: goldPath, questions, bench };
    } else if (flags.bench) throw new UsageError("--bench needs --gold (the answers to score against)");

    const maxTraces = Number(flags.max_traces);
    if (!Number.isInteger(maxTraces) || maxTraces < 0) throw new UsageError("--max_traces takes a whole number ≥ 0");
    const data = await buildReportData({ runs, gold, title: flags.title as string | undefined, maxTraces });
    const first = positionals[0]!;
    const out = resolve(
      flags.out ? String(flags.out) : join(dirname(first), `${basename(first, extname(first))}.html`),
    );
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, renderReportHtml(data));
    const withTrace = data.questions.filter((q) => q.runs.some((r) => r.trace || r.traceOmitted)).length;
    const omitted = data.questions.filter((q) => q.runs.some((r) => r.traceOmitted)).length;
    console.error(
      `atr report: ${data.questions.length} questions, ${runs.length} run(s)` +
        (gold ? `, scored with the ${gold.bench} official scorer` : ", not scored (no --gold)") +
        (withTrace < data.questions.length
          ? ` · ${data.questions.length - withTrace} without atr_trace (run with --emit_trace for the trace viewer)`
          : "") +
        (omitted ? ` · traces of ${omitted} questions past --max_traces ${maxTraces} left out of the page` : ""),
    );
    console.log(out);
    return 0;
  },
};
