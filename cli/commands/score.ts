/** `atr score`: official benchmark metric + the paper's metric set + breakdowns for one results file. */
import { existsSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { formatFlagHelp, parseArgs, UsageError, type FlagSpecs } from "../args.js";
import type { Command } from "../command.js";
import { loadQuestions } from "../../evals/dataset.js";
import { readResults } from "../../evals/results-file.js";
import { BENCHES, scoreResults, type Bench, type Judge } from "../../evals/score.js";
import { renderMarkdown, renderSummary } from "../../evals/report.js";

const FLAGS: FlagSpecs = {
  bench: { kind: "string", help: "wtq | tatqa | hybridqa (which official metric)" },
  gold: { kind: "string", help: "gold questions file (.jsonl or .json), e.g. ../shared/data/wtq/dev/questions.jsonl" },
  pred: {
    kind: "string",
    help: "results file written by `atr run`; give it several times to compare runs side by side",
    repeatable: true,
  },
  json: { kind: "boolean", help: "print the full report as JSON on stdout instead of the summary" },
  per_question: { kind: "boolean", help: "with --json: include every question's scores" },
  report: { kind: "string", help: "also write a Markdown report to this file" },
  judge_backbone: { kind: "string", help: 'LLM judge model, e.g. "vertexai/gemini-2.5-flash" (off by default)' },
  judge_strict: { kind: "boolean", help: "use the strict judge prompt" },
  judge_concurrency: { kind: "number", help: "concurrent judge calls", default: 4 },
  llm_cache_path: { kind: "string", help: "judge: SQLite reply cache (a rerun asks the judge nothing)" },
  llm_timeout_ms: { kind: "number", help: "judge: time limit of one call (default as `atr run`)" },
  llm_max_retries: { kind: "number", help: "judge: retries on 429/5xx/timeouts (default as `atr run`)" },
};

/** The judge's model comes from the one model factory, with the graph's retry/time/cache policy. */
async function judgeFrom(backbone: string, strict: boolean, flags: Record<string, unknown>): Promise<Judge> {
  const [{ buildLlm }, { ensureConfiguration }, { readBackboneEnv }, { getLlmCache }, { createJudge }] =
    await Promise.all([
      import("../../graph/model-factory.js"),
      import("../../graph/configuration.js"),
      import("../../graph/backbone-env.js"),
      import("../../graph/resources.js"),
      import("../../evals/judge.js"),
    ]);
  const c = ensureConfiguration({
    configurable: {
      llmCachePath: flags.llm_cache_path,
      llmTimeoutMs: flags.llm_timeout_ms,
      llmMaxRetries: flags.llm_max_retries,
    },
  });
  const model = await buildLlm(backbone, {
    env: readBackboneEnv(),
    timeoutMs: c.llmTimeoutMs,
    maxRetries: c.llmMaxRetries,
    ...(c.llmCachePath ? { cache: getLlmCache(c.llmCachePath) } : {}),
  });
  return createJudge(model.chat, { strict });
}

export const command: Command = {
  summary: "score a results file: official metric, paper metric set, breakdowns",
  help: () =>
    [
      "Usage: atr score --bench wtq|tatqa|hybridqa --gold QUESTIONS.jsonl --pred RESULTS.jsonl [--json] [--report OUT.md]",
      "",
      formatFlagHelp(FLAGS),
      "",
      "Official metrics: WTQ denotation accuracy (evaluator.py), TAT-QA EM / F1 / scale (tatqa_metric.py),",
      "HybridQA EM / F1 with the table/passage breakdown (evaluate_script.py). Averages are over every gold",
      "question; a question without a prediction scores 0.",
      "",
      "Several --pred files: one comparison table (same gold, same scorer) with paired better/worse counts",
      "against the first file.",
      "",
      "Example: atr score --bench wtq --gold ../shared/data/wtq/dev/questions.jsonl --pred out/wtq_20261129_101500.jsonl --report out/wtq.md",
    ].join("\n"),
  async run(argv) {
    const { flags, positionals } = parseArgs(argv, FLAGS);
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const bench = flags.bench as string | undefined;
    if (!bench || !(BENCHES as readonly string[]).includes(bench))
      throw new UsageError(`--bench must be one of ${BENCHES.join(", ")}`);
    if (!flags.gold) throw new UsageError("--gold QUESTIONS.jsonl is required");
    const preds = (flags.pred as string[] | undefined) ?? [];
    if (preds.length === 0) throw new UsageError("--pred RESULTS.jsonl is required");
    const gold = loadQuestions(String(flags.gold));
    const judge = flags.judge_backbone
      ? await judgeFrom(String(flags.judge_backbone), Boolean(flags.judge_strict), flags)
      : undefined;
    const reports = [];
    const absent = preds.filter((pred) => !existsSync(pred));
    // readResults reads a missing file as empty (a run not started yet); here that would score 0 silently.
    if (absent.length > 0)
      throw new UsageError(
        `--pred ${absent.join(", ")}: no such file (the path \`atr run\` printed, with its timestamp)`,
      );
    for (const pred of preds) {
      const read = readResults(pred);
      if (read.truncatedTailBytes > 0)
        console.error(
          `atr score: ${pred} ends with a truncated line (${read.truncatedTailBytes} bytes, ignored); resume the run with --rerun to complete it`,
        );
      if (read.badLines.length > 0)
        console.error(
          `atr score: ${pred}: ${read.badLines.length} unparseable line(s) ignored (first: line ${read.badLines[0]})`,
        );
      reports.push(
        await scoreResults({
          bench: bench as Bench,
          gold,
          predictions: read.records,
          judge,
          judgeConcurrency: Number(flags.judge_concurrency),
        }),
      );
    }
    if (reports.length > 1) {
      const { renderComparison } = await import("../../evals/compare.js");
      const table = renderComparison(reports.map((report, i) => ({ label: basename(preds[i]!), report })));
      if (flags.report)
        writeFileSync(
          String(flags.report),
          `# ${bench} comparison\n\n- gold: \`${flags.gold}\`\n- command: \`atr score ${argv.join(" ")}\`\n\n${table}\n`,
        );
      if (flags.json) {
        console.log(
          JSON.stringify(
            reports.map(({ perQuestion, ...rest }, i) => (void perQuestion, { pred: preds[i], ...rest })),
            null,
            2,
          ),
        );
      } else console.log(table);
      return 0;
    }
    const report = reports[0]!;
    const predPath = preds[0]!;
    if (flags.report) {
      const cmd = `atr score ${argv.join(" ")}`;
      writeFileSync(
        String(flags.report),
        renderMarkdown(report, { goldPath: String(flags.gold), predPath, command: cmd }),
      );
    }
    if (flags.json) {
      const { perQuestion, ...rest } = report;
      console.log(JSON.stringify(flags.per_question ? report : rest, null, 2));
      void perQuestion;
    } else {
      console.log(renderSummary(report));
      if (flags.report) console.log(`report: ${flags.report}`);
    }
    return 0;
  },
};
