/**
 * `atr run`: answers a whole question file with the ATR graph (or a baseline) and writes one JSON
 * line per question (reference §9): bounded concurrency, resume, input order, progress, LangSmith
 * run metadata, and a bounded flush of traces so the process ends promptly. Its flags and their
 * checks, the per-question function, the index check and the experiment bookkeeping are in cli/run/.
 */
import { formatFlagHelp, parseArgs, UsageError } from "../args.js";
import type { Command } from "../command.js";
import { configFlagSpecs } from "../config-flags.js";
import { batchProgress } from "../progress.js";
import { baselineAnswer, graphAnswer } from "../run/answer-fn.js";
import { experimentInfo, uploadExperiment } from "../run/experiment.js";
import { checkRunFlags, resultsPath, RUN_FLAGS, runConfiguration, runFlagSpecs } from "../run/flags.js";
import { checkIndexAndTables } from "../run/index-check.js";
import { interruptOnSigint } from "../run/interrupt.js";
import { printSummary } from "../run/summary.js";
import { planWorkers, startGraphWorkers, workersLine, type WorkerMode } from "../run/workers.js";
import { loadQuestions } from "../../evals/dataset.js";
import { ConfigMismatchError, DuplicateQuestionIdError, runBatch } from "../../evals/runner.js";
import { flushTracing, questionRunOptions, traceEachQuestion, tracingEnabled } from "../../evals/run-metadata.js";
import type { BaselineName } from "../../evals/baselines/baselines.js";
import type { AnswerWorkers } from "../../evals/answer-workers.js";

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
    const { flags, positionals } = parseArgs(argv, runFlagSpecs());
    checkRunFlags(flags, positionals);
    const dataPath = flags.data_file_path as string;
    const baseline = flags.baseline as string | undefined;
    if (flags.langsmith_project) process.env.LANGSMITH_PROJECT = String(flags.langsmith_project);
    const { configurable, config } = runConfiguration(flags);
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

    const outputPath = resultsPath(flags, baseline ?? config.routerType);

    // Experiment bookkeeping (LangSmith metadata): full configuration, hash, prompts, commit.
    const info = await experimentInfo(flags, config, dataPath);
    const hash = info.configHash;
    const oracleVerifier = Boolean(flags.oracle_verifier);

    const cleanup: Array<() => Promise<void> | void> = [];
    const tracing = tracingEnabled();
    // The whole batch answers from the index it opens now, even if the directory is rebuilt meanwhile.
    const resources = await import("../../graph/resources.js");
    const pinned = !baseline && config.indexPath ? await resources.pinIndex(config) : undefined;
    await checkIndexAndTables(config, questions, dataPath);
    const heapLimitMb = Number(flags.worker_heap_mb);
    const plan = planWorkers({
      maxWorkers: Number(flags.max_workers),
      questions: questions.length,
      baseline,
      mode: flags.worker_mode as WorkerMode,
      indexPath: config.indexPath,
      heapLimitMb,
    });
    let workers: AnswerWorkers | undefined;
    let answer;
    if (plan.mode !== "main") {
      workers = await startGraphWorkers({
        transport: plan.mode,
        workers: plan.workers,
        configurable,
        config,
        ...(pinned && resources.isOpenedIndex(pinned) ? { buildId: pinned.manifest.buildId } : {}),
        heapLimitMb,
        flushTimeoutMs: Number(flags.flush_timeout_ms),
      });
      answer = workers.answer;
    } else {
      answer = baseline
        ? await baselineAnswer(baseline as BaselineName, flags, config, dataPath, cleanup)
        : await graphAnswer();
      if (tracing && baseline) answer = await traceEachQuestion(answer);
    }
    console.error(
      `atr run: answering on ${plan.mode !== "main" ? plan.reason : `this process's main thread (${plan.reason})`}`,
    );

    console.error(`atr run: ${flags.rerun ? "resuming" : "writing"} ${outputPath}`);
    if (oracleVerifier)
      console.error(
        "atr run: --oracle_verifier reads the gold answers — the scores are a diagnostic upper bound, not results",
      );
    console.error(
      `atr run: experiment ${info.experiment} (config ${hash}${tracing ? `, LangSmith project ${process.env.LANGSMITH_PROJECT ?? process.env.LANGCHAIN_PROJECT ?? "default"}` : ""})`,
    );

    const interrupt = interruptOnSigint();
    const bar = flags.no_progress ? undefined : batchProgress(baseline ?? "atr run");
    let summary;
    try {
      summary = await runBatch({
        questions,
        answer,
        answerQueues: workers !== undefined,
        outputPath,
        resume: Boolean(flags.rerun),
        retryErrors: Boolean(flags.retry_errors),
        maxWorkers: workers ? plan.workers : Number(flags.max_workers),
        emitTrace: Boolean(flags.emit_trace),
        oracleVerifier,
        configurable,
        configHash: hash,
        questionTimeoutMs: Number(flags.question_timeout_ms),
        callOptions: (record) => questionRunOptions(info, record),
        signal: interrupt.signal,
        onProgress: (p) => bar?.update(p),
      });
    } catch (error) {
      // Refusals before any work: the message says what to fix.
      if (error instanceof DuplicateQuestionIdError || error instanceof ConfigMismatchError)
        throw new UsageError(error.message);
      throw error;
    } finally {
      interrupt.dispose();
      bar?.finish();
      // Every worker closes its SQL child, reply cache and index (and flushes its traces), or is terminated.
      if (workers) console.error(workersLine(await workers.close()));
      for (const close of cleanup) await close();
      // Release SQL workers, reply caches and indexes, or their handles keep the process alive.
      if (!baseline) await (await import("../../graph/resources.js")).closeResources();
      const { closeCachedIndexes } = await import("../../graph/resources.js");
      closeCachedIndexes();
    }
    const allFailed = printSummary(summary, outputPath);
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
