/**
 * `atr run`'s own flags (the batch, baselines, run metadata, LangSmith) beside the graph
 * configuration's, and the checks of their values made before any work.
 */
import { existsSync, mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError, type FlagSpecs } from "../args.js";
import { configFlagSpecs, configurableFromFlags } from "../config-flags.js";
import { ConfigurationError, ensureConfiguration, type Configuration } from "../../graph/configuration.js";
import { BASELINES } from "../../evals/baselines/baselines.js";
import { WORKER_MODES } from "./workers.js";
import { timestampedPath } from "../../evals/results-file.js";

export const RUN_FLAGS: FlagSpecs = {
  data_file_path: { kind: "string", help: "questions: .json array or .jsonl (required)" },
  save_file_path: { kind: "string", help: "output path P; the file written is <dir>/<stem>_<YYYYMMDD_HHMMSS><ext>" },
  rerun: { kind: "string", help: "resume this exact results file: answer only the questions it lacks" },
  retry_errors: { kind: "boolean", help: "with --rerun: also re-answer questions whose record has an error" },
  max_workers: {
    kind: "number",
    help: "questions answered at the same time (ATR graph runs over an index: on that many child processes, see --worker_mode)",
    default: 2,
  },
  worker_mode: {
    kind: "string",
    help: 'where --max_workers N ≥ 2 questions of an ATR graph run are answered: process (N child processes, each with its own index handle) | thread (N worker threads in this process) | main (interleaved on this process\'s one thread) | auto (process from 50 questions on, else main); docs/BENCHMARKS.md "Workers"',
    default: "auto",
  },
  worker_heap_mb: {
    kind: "number",
    help: "V8 heap limit of each answer worker in MB (a worker over it becomes its question's error record); also caps --max_workers by the machine's free memory (0 = Node's default, no cap)",
    default: 0,
  },
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
  worker_heap_mb: { min: 0, integer: true },
};

/** Refuses a numeric batch flag out of its range, naming it. */
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

/** Every flag of `atr run`: its own and the graph configuration's (a name in both is a bug). */
export function runFlagSpecs(): FlagSpecs {
  const config = configFlagSpecs();
  for (const name of Object.keys(RUN_FLAGS)) {
    if (name in config)
      throw new Error(`cli/run/flags.ts: flag --${name} is defined twice (run flags and graph configuration)`);
  }
  return { ...RUN_FLAGS, ...config };
}

/** The checks of the flags alone (before the configuration and the question file are read). */
export function checkRunFlags(flags: Record<string, unknown>, positionals: readonly string[]): void {
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  if (!flags.data_file_path) throw new UsageError("--data_file_path QUESTIONS.jsonl is required");
  const baseline = flags.baseline as string | undefined;
  if (baseline !== undefined && !(BASELINES as readonly string[]).includes(baseline)) {
    throw new UsageError(`--baseline must be one of ${BASELINES.join(", ")}`);
  }
  if (!["closed_book", "full_context"].includes(String(flags.baseline_mode)))
    throw new UsageError("--baseline_mode takes closed_book or full_context");
  if (!(WORKER_MODES as readonly string[]).includes(String(flags.worker_mode)))
    throw new UsageError(`--worker_mode takes ${WORKER_MODES.join(", ")}, not ${String(flags.worker_mode)}`);
  checkNumericFlags(flags);
}

/**
 * The results file: `--rerun`'s exact path (which must exist: a mistyped one would silently start
 * the whole run again under that name), else a timestamped `--save_file_path`, else one under output/.
 */
export function resultsPath(flags: Record<string, unknown>, defaultStem: string): string {
  if (flags.rerun && !existsSync(String(flags.rerun))) {
    throw new UsageError(
      `--rerun ${String(flags.rerun)}: no such results file (give the path \`atr run\` printed, or start anew with --save_file_path)`,
    );
  }
  const path = flags.rerun
    ? String(flags.rerun)
    : flags.save_file_path
      ? timestampedPath(String(flags.save_file_path))
      : timestampedPath(resolve("output", `${defaultStem}_results.jsonl`));
  mkdirSync(resolve(path, ".."), { recursive: true });
  return path;
}

/** The graph configuration the flags give, a wrong value refused as a usage error naming the field. */
export function runConfiguration(flags: Record<string, unknown>): {
  configurable: Record<string, unknown>;
  config: Configuration;
} {
  const configurable = configurableFromFlags(flags) as Record<string, unknown>;
  try {
    return { configurable, config: ensureConfiguration({ configurable }) };
  } catch (error) {
    if (error instanceof ConfigurationError) throw new UsageError(error.message);
    throw error;
  }
}
