/**
 * LangSmith bookkeeping of a batch: one batch is one experiment. Every question's run carries
 * - runName `atr:<dataset>:<split>` (or `<baseline>:<dataset>:<split>`),
 * - tags: `atr`, the dataset, the split, `exp:<experiment>`, the router type, the backbone and one
 *   tag per ablation switch that differs from the default (`noValueLinker`, `maxIter=3`, …),
 * - metadata: `experiment`, `dataset`, `split`, the full configuration (`config`), its hash
 *   (`config_hash`), `prompt_versions`, `git_commit` (+ `git_dirty`), `baseline`, `question_id`,
 *   `table_id`, `index_path`.
 * Filter a LangSmith project by `metadata.experiment` to see one batch, by `config_hash` to group
 * identical configurations, or compare two experiments' feedback side by side (README "Benchmarks").
 *
 * `flushTracing` waits for pending trace uploads for a bounded time, so a batch ends promptly even
 * when the tracing endpoint cannot be reached.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { canonicalJson } from "../indexing/canonical-json.js";
import type { Client } from "langsmith";
import type { AnswerFn } from "./runner.js";

/** True when LangSmith tracing is switched on by the environment (new or legacy variable). */
export function tracingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return [env.LANGSMITH_TRACING, env.LANGCHAIN_TRACING_V2, env.LANGSMITH_TRACING_V2].some((v) =>
    /^(true|1)$/i.test(v ?? ""),
  );
}

/** The current commit (and whether the work tree has changes), or "unknown" outside a git checkout. */
export function gitCommit(cwd: string = process.cwd()): { commit: string; dirty: boolean } {
  try {
    const commit = execFileSync("git", ["rev-parse", "HEAD"], {
      cwd,
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 5000,
    })
      .toString()
      .trim();
    const status = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], {
      cwd,
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 5000,
    }).toString();
    return { commit, dirty: status.trim() !== "" };
  } catch {
    return { commit: "unknown", dirty: false };
  }
}

/** Fields that say where things are, not how the system behaves: left out of the hash. */
const LOCATION_FIELDS = new Set(["indexPath", "llmCachePath", "routerModelPath"]);

/** 12 hex digits of sha256 over the behaviour-defining configuration (+ baseline settings). */
export function configHash(config: Record<string, unknown>): string {
  const behaviour = Object.fromEntries(Object.entries(config).filter(([k]) => !LOCATION_FIELDS.has(k)));
  return createHash("sha256").update(canonicalJson(behaviour)).digest("hex").slice(0, 12);
}

/** One tag per setting that differs from its default: booleans by name, others as `name=value`. */
export function ablationTags(config: Record<string, unknown>, defaults: Record<string, unknown>): string[] {
  const tags: string[] = [];
  for (const [key, value] of Object.entries(config)) {
    if (LOCATION_FIELDS.has(key) || value === undefined) continue;
    if (canonicalJson(value) === canonicalJson(defaults[key])) continue;
    tags.push(value === true ? key : `${key}=${typeof value === "object" ? canonicalJson(value) : String(value)}`);
  }
  return tags.sort();
}

export interface ExperimentInfo {
  experiment: string;
  dataset: string;
  split: string;
  config: Record<string, unknown>;
  configHash: string;
  /** Version of every prompt set in use, e.g. { prompts, constrained_sql } or { baselines }. */
  promptVersions: Record<string, string>;
  git: { commit: string; dirty: boolean };
  baseline?: string;
  indexPath?: string;
  /** Tags shared by every question's run. */
  tags: string[];
}

/** The experiment's own metadata: name, dataset, split, configuration and its hash, prompts, commit, baseline. */
export function experimentMetadata(info: ExperimentInfo): Record<string, unknown> {
  return {
    experiment: info.experiment,
    dataset: info.dataset,
    split: info.split,
    config: info.config,
    config_hash: info.configHash,
    prompt_versions: info.promptVersions,
    git_commit: info.git.commit,
    git_dirty: info.git.dirty,
    ...(info.baseline ? { baseline: info.baseline } : {}),
  };
}

/** The per-question run name, tags and metadata (see the file comment). */
export function questionRunOptions(
  info: ExperimentInfo,
  record: Record<string, unknown>,
): {
  runName: string;
  tags: string[];
  metadata: Record<string, unknown>;
} {
  const prefix = info.baseline ?? "atr";
  return {
    runName: [prefix, info.dataset, info.split].filter((s) => s !== "").join(":"),
    tags: info.tags,
    metadata: {
      ...experimentMetadata(info),
      ...(info.indexPath ? { index_path: info.indexPath } : {}),
      question_id: record.question_id ?? null,
      table_id: record.table_id ?? null,
    },
  };
}

let traceClient: Client | undefined;

/**
 * Wraps an answer function so that each question is one LangSmith run (`traceable`) with the
 * question's run name, tags and metadata — for answer functions that are not LangChain runnables
 * themselves (the baselines: their chat calls nest under this run). The graph is traced by LangGraph.
 */
export async function traceEachQuestion(answer: AnswerFn): Promise<AnswerFn> {
  const [{ traceable }, { Client }] = await Promise.all([import("langsmith/traceable"), import("langsmith")]);
  traceClient ??= new Client();
  const client = traceClient;
  return (input, options) =>
    traceable((i: typeof input) => answer(i, options), {
      name: options.runName ?? "atr:question",
      run_type: "chain",
      tags: options.tags,
      metadata: options.metadata,
      client,
    })(input);
}

/**
 * Waits at most `timeoutMs` for queued LangChain callbacks and LangSmith trace batches. Returns
 * true when everything was flushed in time. Never throws.
 */
export async function flushTracing(timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const { awaitAllCallbacks } = await import("@langchain/core/callbacks/promises");
    const flushed = Promise.all([awaitAllCallbacks(), traceClient?.awaitPendingTraceBatches()]).then(
      () => true,
      () => false,
    );
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
      timer.unref();
    });
    return await Promise.race([flushed, timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
