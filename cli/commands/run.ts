/**
 * `atr run`: answers a whole question file with the ATR graph (or a baseline) and writes one JSON
 * line per question (reference §9): bounded concurrency, resume, input order, progress, LangSmith
 * run metadata, and a bounded flush of traces so the process ends promptly.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { formatFlagHelp, parseArgs, UsageError, type FlagSpecs } from "../args.js";
import type { Command } from "../command.js";
import { configFlagSpecs, configurableFromFlags } from "../config-flags.js";
import {
  ConfigurationError,
  ensureConfiguration,
  type ConfigurableInput,
  type Configuration,
} from "../../graph/configuration.js";
import { readBackboneEnv } from "../../graph/backbone-env.js";
import { datasetOf, loadQuestions } from "../../evals/dataset.js";
import { batchProgress } from "../progress.js";
import { timestamp, timestampedPath } from "../../evals/results-file.js";
import { ConfigMismatchError, DuplicateQuestionIdError, runBatch, type AnswerFn } from "../../evals/runner.js";
import {
  ablationTags,
  configHash,
  flushTracing,
  gitCommit,
  questionRunOptions,
  traceEachQuestion,
  tracingEnabled,
  type ExperimentInfo,
} from "../../evals/run-metadata.js";
import { BASELINES, type BaselineName } from "../../evals/baselines/baselines.js";
import type { ExperimentPlan } from "../../evals/langsmith-experiment.js";

const RUN_FLAGS: FlagSpecs = {
  data_file_path: { kind: "string", help: "questions: .json array or .jsonl (required)" },
  save_file_path: { kind: "string", help: "output path P; the file written is <dir>/<stem>_<YYYYMMDD_HHMMSS><ext>" },
  rerun: { kind: "string", help: "resume this exact results file: answer only the questions it lacks" },
  retry_errors: { kind: "boolean", help: "with --rerun: also re-answer questions whose record has an error" },
  max_workers: { kind: "number", help: "questions answered at the same time", default: 2 },
  emit_trace: { kind: "boolean", help: "write atr_trace (verifier decisions, §9.2) into each record" },
  oracle_verifier: {
    kind: "boolean",
    help: "diagnostic (§8.6): answer with the first produced answer matching the gold; reads the gold, marks every record",
  },
  limit: { kind: "number", help: "answer only the first N questions of the file (smoke runs)" },
  question_timeout_ms: {
    kind: "number",
    help: "a question taking longer becomes an error record (0 = no limit)",
    default: 0,
  },
  baseline: { kind: "string", help: `run a baseline instead of ATR: ${BASELINES.join(" | ")}` },
  baseline_mode: { kind: "string", help: "naive_llm: closed_book | full_context", default: "closed_book" },
  baseline_top_k: { kind: "number", help: "naive_rag(_sc) / ReAct retrieve_docs chunks", default: 5 },
  sc_samples: { kind: "number", help: "naive_rag_sc samples N", default: 5 },
  sc_temperature: { kind: "number", help: "naive_rag_sc sampling temperature", default: 0.7 },
  react_max_steps: { kind: "number", help: "ReAct steps", default: 10 },
  table_dir: { kind: "string", help: "naive_llm full_context: folder of <table_id>.csv (default: <data dir>/tables)" },
  experiment: {
    kind: "string",
    help: "experiment name in run metadata (default <dataset>-<split>-<config hash>-<time>)",
  },
  dataset: {
    kind: "string",
    help: "dataset name in run metadata (default from the path <dataset>/<split>/questions.jsonl)",
  },
  split: { kind: "string", help: "split name in run metadata (default from the path)" },
  langsmith_project: { kind: "string", help: "LangSmith project (sets LANGSMITH_PROJECT for this run)" },
  langsmith_dataset: {
    kind: "string",
    help: "also record the run as a LangSmith experiment on this dataset (created/updated from the questions), official metrics as feedback; needs LANGSMITH_API_KEY (docs/REPORTS.md)",
  },
  bench: {
    kind: "string",
    help: "with --langsmith_dataset: wtq | tatqa | hybridqa scorer of the feedback (default: detected from the questions file)",
  },
  flush_timeout_ms: { kind: "number", help: "longest wait for trace uploads at the end", default: 5000 },
  no_progress: { kind: "boolean", help: "no progress line" },
};

/** Numeric batch flags and the values they accept (checked before any work). */
const NUMERIC_RULES: Record<string, { min: number; integer: boolean }> = {
  max_workers: { min: 1, integer: true },
  limit: { min: 0, integer: true },
  question_timeout_ms: { min: 0, integer: false },
  baseline_top_k: { min: 1, integer: true },
  sc_samples: { min: 1, integer: true },
  sc_temperature: { min: 0, integer: false },
  react_max_steps: { min: 1, integer: true },
  flush_timeout_ms: { min: 0, integer: false },
};

export function checkNumericFlags(flags: Record<string, unknown>): void {
  for (const [name, rule] of Object.entries(NUMERIC_RULES)) {
    const value = flags[name];
    if (value === undefined) continue;
    const n = Number(value);
    if (!Number.isFinite(n) || n < rule.min || (rule.integer && !Number.isInteger(n))) {
      throw new UsageError(
        `--${name} takes ${rule.integer ? "an integer" : "a number"} ≥ ${rule.min}, not ${String(value)}`,
      );
    }
  }
}

/**
 * Opens the index before any work (a corrupt index stops the run here, naming every violation,
 * instead of turning each question into an error record) and checks every question's table_id.
 */
async function checkIndexAndTables(
  config: Configuration,
  questions: Array<Record<string, unknown>>,
  dataPath: string,
): Promise<void> {
  if (!config.indexPath) return;
  const { getIndex } = await import("../../graph/resources.js");
  const index = await getIndex(config);
  const unknown = new Map<string, number[]>();
  questions.forEach((q, i) => {
    const id = q.table_id;
    if (id === undefined || id === null || id === "" || index.tables.has(String(id))) return;
    unknown.set(String(id), [...(unknown.get(String(id)) ?? []), i + 1]);
  });
  if (unknown.size > 0) {
    const shown = [...unknown]
      .slice(0, 10)
      .map(
        ([id, items]) =>
          `"${id}" (item${items.length > 1 ? "s" : ""} ${items.slice(0, 5).join(", ")}${items.length > 5 ? ", …" : ""})`,
      );
    const known = [...index.tables.keys()];
    throw new UsageError(
      `${dataPath}: table_id ${shown.join(", ")}${unknown.size > 10 ? ` and ${unknown.size - 10} more` : ""} name no table of ${config.indexPath} ` +
        `(tables: ${known.slice(0, 20).join(", ")}${known.length > 20 ? `, … ${known.length - 20} more` : ""}); fix the question file or build the index over those tables`,
    );
  }
}

function specs(): FlagSpecs {
  const config = configFlagSpecs();
  for (const name of Object.keys(RUN_FLAGS)) {
    if (name in config)
      throw new Error(`cli/commands/run.ts: flag --${name} is defined twice (run flags and graph configuration)`);
  }
  return { ...RUN_FLAGS, ...config };
}

/** The ATR graph's per-question function (graph/answer.ts), loaded only for graph runs. */
async function graphAnswer(): Promise<AnswerFn> {
  const { answerQuestion } = await import("../../graph/answer.js");
  return (input, options) =>
    answerQuestion(input, {
      configurable: options.configurable as ConfigurableInput,
      runName: options.runName,
      tags: options.tags,
      metadata: options.metadata,
      signal: options.signal,
    });
}

async function baselineAnswer(
  name: BaselineName,
  flags: Record<string, unknown>,
  config: ReturnType<typeof ensureConfiguration>,
  dataPath: string,
  cleanup: Array<() => Promise<void> | void>,
): Promise<AnswerFn> {
  if (!config.indexPath) throw new UsageError("--index_path DIR is required (the index the baselines retrieve from)");
  const [
    { openIndexCached, closeResources, getLlmCache },
    { createBaseline },
    { OFFLINE_BACKBONE },
    { buildLlm },
    { openSqlExecutor },
  ] = await Promise.all([
    import("../../graph/resources.js"),
    import("../../evals/baselines/baselines.js"),
    import("../../graph/backbones.js"),
    import("../../graph/model-factory.js"),
    import("../../retrievers/sql-executor.js"),
  ]);
  const index = await openIndexCached(config.indexPath);
  const offline = config.backbone === OFFLINE_BACKBONE;
  // The same model policy as the graph's strategies: retries, per-attempt time limit, reply cache.
  const settings = {
    env: readBackboneEnv(),
    timeoutMs: config.llmTimeoutMs,
    maxRetries: config.llmMaxRetries,
    ...(config.llmCachePath ? { cache: getLlmCache(config.llmCachePath) } : {}),
  };
  if (config.llmCachePath) cleanup.push(() => closeResources());
  const model = offline ? undefined : (await buildLlm(config.backbone, settings)).chat;
  let sampler = model;
  if (!offline && name === "naive_rag_sc") {
    // Sampling at the configured temperature; the factory gives a sampling model no cache.
    sampler = (await buildLlm(config.backbone, { ...settings, temperature: Number(flags.sc_temperature) })).chat;
  }
  let sql;
  if (name === "react") {
    const { SQLITE_FILE } = await import("../../indexing/sql-store.js");
    sql = openSqlExecutor(resolve(config.indexPath, SQLITE_FILE), { timeoutMs: config.sqlTimeoutMs });
    const executor = sql;
    cleanup.push(() => executor.close());
  }
  return createBaseline(
    name,
    {
      search: index.search,
      model,
      sampler,
      tables: index.tables,
      passages: index.passages,
      tableDir: (flags.table_dir as string | undefined) ?? resolve(dataPath, "..", "tables"),
      sql,
    },
    {
      mode: flags.baseline_mode === "full_context" ? "full_context" : "closed_book",
      topK: Number(flags.baseline_top_k),
      samples: Number(flags.sc_samples),
      maxSteps: Number(flags.react_max_steps),
    },
  );
}

/** Records the finished results file as a LangSmith experiment; the results file stays as it is whatever happens. */
async function uploadExperiment(plan: ExperimentPlan, outputPath: string, info: ExperimentInfo): Promise<number> {
  const { readResults } = await import("../../evals/results-file.js");
  try {
    const result = await plan.upload({
      records: readResults(outputPath).records,
      info,
      resultsPath: outputPath,
      log: (line) => console.error(`atr run: LangSmith ${line}`),
    });
    const metrics = Object.entries(result.official)
      .map(([k, v]) => `${k} ${v}`)
      .join(" · ");
    console.error(
      `atr run: LangSmith experiment ${result.experimentName}: ${result.runs} runs, ${result.feedback} feedback scores (${plan.bench}: ${metrics})`,
    );
    return 0;
  } catch (error) {
    console.error(
      `atr run: LangSmith upload failed (the results file is complete; rerun with --rerun ${outputPath} --langsmith_dataset ${plan.datasetName} to retry): ${(error as Error).message}`,
    );
    return 1;
  }
}

export const command: Command = {
  summary: "answer a question file (ATR or a baseline), resumable, one JSON line per question",
  help: () =>
    [
      "Usage: atr run --data_file_path QUESTIONS.jsonl --index_path DIR --save_file_path OUT.jsonl [flags]",
      "",
      "Batch flags:",
      formatFlagHelp(RUN_FLAGS),
      "",
      "Graph configuration flags (same as `atr ask`):",
      formatFlagHelp(configFlagSpecs()),
      "",
      "Each record is the input record plus agentic_tablerag_answer and atr_stats (latency, LLM calls, tokens,",
      'routes); with --emit_trace also atr_trace. A question that throws gets `error` and the answer "error".',
      "Kill it any time: `--rerun <the printed path>` answers only what is missing and repairs a cut-off line.",
      "",
      "Example:",
      "  atr run --data_file_path ../shared/data/wtq/dev/questions.jsonl --index_path /tmp/wtq-dev-index \\",
      "          --save_file_path out/wtq_dev.jsonl --backbone offline",
    ].join("\n"),
  async run(argv) {
    const { flags, positionals } = parseArgs(argv, specs());
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const dataPath = flags.data_file_path as string | undefined;
    if (!dataPath) throw new UsageError("--data_file_path QUESTIONS.jsonl is required");
    const baseline = flags.baseline as string | undefined;
    if (baseline !== undefined && !(BASELINES as readonly string[]).includes(baseline)) {
      throw new UsageError(`--baseline must be one of ${BASELINES.join(", ")}`);
    }
    if (!["closed_book", "full_context"].includes(String(flags.baseline_mode)))
      throw new UsageError("--baseline_mode takes closed_book or full_context");
    if (flags.langsmith_project) process.env.LANGSMITH_PROJECT = String(flags.langsmith_project);

    checkNumericFlags(flags);
    const configurable = configurableFromFlags(flags) as Record<string, unknown>;
    let config: Configuration;
    try {
      config = ensureConfiguration({ configurable });
    } catch (error) {
      if (error instanceof ConfigurationError) throw new UsageError(error.message);
      throw error;
    }
    let questions = loadQuestions(dataPath);
    if (flags.limit !== undefined) questions = questions.slice(0, Number(flags.limit));
    if (flags.bench !== undefined && !flags.langsmith_dataset)
      throw new UsageError("--bench is the scorer of --langsmith_dataset's feedback; give both");
    // Checked before answering anything: the key, the scorer, gold answers, LangSmith reachable.
    const langsmith = flags.langsmith_dataset
      ? await (
          await import("../../evals/langsmith-experiment.js")
        ).planExperiment({
          datasetName: String(flags.langsmith_dataset),
          bench: flags.bench as string | undefined,
          questions,
          questionsPath: dataPath,
          env: process.env,
        })
      : undefined;

    // A mistyped --rerun path would silently start the whole run again under that name.
    if (flags.rerun && !existsSync(String(flags.rerun))) {
      throw new UsageError(
        `--rerun ${String(flags.rerun)}: no such results file (give the path \`atr run\` printed, or start anew with --save_file_path)`,
      );
    }
    const outputPath = flags.rerun
      ? String(flags.rerun)
      : flags.save_file_path
        ? timestampedPath(String(flags.save_file_path))
        : timestampedPath(resolve("output", `${baseline ?? config.routerType}_results.jsonl`));
    const { mkdirSync } = await import("node:fs");
    mkdirSync(resolve(outputPath, ".."), { recursive: true });

    // Experiment bookkeeping (LangSmith metadata): full configuration, hash, prompts, commit.
    const guessed = datasetOf(dataPath);
    const dataset = (flags.dataset as string | undefined) ?? guessed.dataset;
    const split = (flags.split as string | undefined) ?? guessed.split;
    const baselineSettings = baseline
      ? {
          baseline,
          baselineMode: flags.baseline_mode,
          baselineTopK: flags.baseline_top_k,
          scSamples: flags.sc_samples,
          scTemperature: flags.sc_temperature,
          reactMaxSteps: flags.react_max_steps,
        }
      : {};
    const oracleVerifier = Boolean(flags.oracle_verifier);
    const fullConfig: Record<string, unknown> = {
      ...config,
      ...baselineSettings,
      ...(oracleVerifier ? { oracleVerifier } : {}),
    };
    const hash = configHash(fullConfig);
    const { PROMPTS_VERSION } = await import("../../nodes/prompts.js");
    const { CONSTRAINED_SQL_PROMPT_VERSION } = await import("../../nodes/constrained-sql.js");
    const { BASELINE_PROMPTS_VERSION } = await import("../../evals/baselines/prompts.js");
    const defaults = ensureConfiguration({});
    const info: ExperimentInfo = {
      experiment:
        (flags.experiment as string | undefined) ??
        [dataset, split, baseline, hash, timestamp()].filter(Boolean).join("-"),
      dataset,
      split,
      config: fullConfig,
      configHash: hash,
      promptVersions: baseline
        ? { baselines: BASELINE_PROMPTS_VERSION }
        : { prompts: PROMPTS_VERSION, constrained_sql: CONSTRAINED_SQL_PROMPT_VERSION },
      git: gitCommit(),
      baseline,
      indexPath: config.indexPath || undefined,
      tags: [],
    };
    info.tags = [
      "atr",
      dataset,
      split,
      `exp:${info.experiment}`,
      `backbone:${config.backbone}`,
      ...(baseline ? [`baseline:${baseline}`] : [`router:${config.routerType}`]),
      ...ablationTags(config as unknown as Record<string, unknown>, defaults as unknown as Record<string, unknown>),
      ...(oracleVerifier ? ["oracle_verifier"] : []),
    ].filter((t) => t !== "");

    const cleanup: Array<() => Promise<void> | void> = [];
    const tracing = tracingEnabled();
    // The whole batch answers from the index it opens now, even if the directory is rebuilt meanwhile.
    if (!baseline && config.indexPath) await (await import("../../graph/resources.js")).pinIndex(config);
    await checkIndexAndTables(config, questions, dataPath);
    let answer = baseline
      ? await baselineAnswer(baseline as BaselineName, flags, config, dataPath, cleanup)
      : await graphAnswer();
    if (tracing && baseline) answer = await traceEachQuestion(answer);

    console.error(`atr run: ${flags.rerun ? "resuming" : "writing"} ${outputPath}`);
    if (oracleVerifier)
      console.error(
        "atr run: --oracle_verifier reads the gold answers — the scores are a diagnostic upper bound, not results",
      );
    console.error(
      `atr run: experiment ${info.experiment} (config ${hash}${tracing ? `, LangSmith project ${process.env.LANGSMITH_PROJECT ?? process.env.LANGCHAIN_PROJECT ?? "default"}` : ""})`,
    );

    const controller = new AbortController();
    let interrupts = 0;
    const onSigint = () => {
      interrupts++;
      if (interrupts > 1) process.exit(130);
      console.error(
        "\natr run: interrupted — finishing the questions in flight (Ctrl-C again to quit now; --rerun resumes)",
      );
      controller.abort();
    };
    process.on("SIGINT", onSigint);
    const bar = flags.no_progress ? undefined : batchProgress(baseline ?? "atr run");
    let summary;
    try {
      summary = await runBatch({
        questions,
        answer,
        outputPath,
        resume: Boolean(flags.rerun),
        retryErrors: Boolean(flags.retry_errors),
        maxWorkers: Number(flags.max_workers),
        emitTrace: Boolean(flags.emit_trace),
        oracleVerifier,
        configurable,
        configHash: hash,
        questionTimeoutMs: Number(flags.question_timeout_ms),
        callOptions: (record) => questionRunOptions(info, record),
        signal: controller.signal,
        onProgress: (p) => bar?.update(p),
      });
    } catch (error) {
      // Refusals before any work: the message says what to fix.
      if (error instanceof DuplicateQuestionIdError || error instanceof ConfigMismatchError)
        throw new UsageError(error.message);
      throw error;
    } finally {
      process.off("SIGINT", onSigint);
      bar?.finish();
      for (const close of cleanup) await close();
      // Release SQL workers, reply caches and indexes, or their handles keep the process alive.
      if (!baseline) await (await import("../../graph/resources.js")).closeResources();
      const { closeCachedIndexes } = await import("../../graph/resources.js");
      closeCachedIndexes();
    }
    const notes = [
      summary.repairedBytes ? `repaired a truncated last line (${summary.repairedBytes} bytes)` : "",
      summary.droppedBadLines ? `dropped ${summary.droppedBadLines} unparseable line(s)` : "",
      summary.droppedDuplicates ? `dropped ${summary.droppedDuplicates} superseded record(s)` : "",
      summary.foreignRecords ? `kept ${summary.foreignRecords} record(s) of questions not in the input at the end` : "",
    ].filter(Boolean);
    console.error(
      `atr run: ${summary.answered} answered, ${summary.skipped} already done, ${summary.failed} failed · ` +
        `LLM calls ${summary.llmCalls} · tokens ${summary.tokens}${notes.length ? ` · ${notes.join(" · ")}` : ""}`,
    );
    console.log(outputPath);
    // Every question failed: something is wrong with the run itself (index, backbone, credentials), not one question.
    const allFailed = summary.answered > 0 && summary.failed === summary.answered;
    if (allFailed)
      console.error(
        `atr run: every question failed (${summary.failed} error records); see the "error" field of ${outputPath}`,
      );
    let code = summary.interrupted ? 130 : allFailed ? 1 : 0;
    if (langsmith && summary.interrupted)
      console.error("atr run: interrupted — no LangSmith experiment recorded (resume with --rerun, which records it)");
    else if (langsmith && (await uploadExperiment(langsmith, outputPath, info)) !== 0) code = 1;
    if (tracing) {
      const flushed = await flushTracing(Number(flags.flush_timeout_ms));
      if (!flushed)
        console.error(
          `atr run: trace upload did not finish within ${flags.flush_timeout_ms} ms; exiting anyway (the results file is complete)`,
        );
      // The LangSmith client may keep retrying an unreachable endpoint and hold the process open.
      setTimeout(() => process.exit(code), 100).unref();
    }
    return code;
  },
};
