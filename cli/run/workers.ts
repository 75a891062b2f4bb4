/**
 * Where `atr run` answers: on N child processes (the default for ATR graph runs over an index with
 * --max_workers N ≥ 2), on N worker threads (--worker_mode thread), or in this process
 * (evals/answer-workers.ts, cli/run/graph-worker.ts). This process answers with --max_workers 1
 * (a worker would only add its start-up), with --worker_mode main, for the baselines (their models
 * and SQL executor live here) and without an index. Processes are the default by measurement: two
 * threads in one process cost 24–45 % more CPU per question than one, two processes do not
 * (docs/BENCHMARKS.md "Workers").
 */
import { freemem } from "node:os";
import { fileURLToPath } from "node:url";
import type { Configuration } from "../../graph/configuration.js";
import {
  startAnswerWorkers,
  type AnswerWorkers,
  type AnswerWorkersSummary,
  type WorkerTransport,
} from "../../evals/answer-workers.js";
import type { GraphWorkerPayload } from "./graph-worker.js";

const GRAPH_WORKER = fileURLToPath(new URL("./graph-worker.ts", import.meta.url));

export const WORKER_MODES = ["auto", "process", "thread", "main"] as const;
export type WorkerMode = (typeof WORKER_MODES)[number];

/**
 * With --worker_mode auto, the fewest questions worth starting child processes for: each costs
 * ~2.5 s of CPU to load the graph and open the index, which a short run does not win back.
 */
export const AUTO_PROCESS_MIN_QUESTIONS = 50;

/**
 * Memory a child process holds beside its V8 heap (MB): Node, the loaded modules' code, SQLite's
 * page caches, the index's vectors (measured: peak RSS minus peak heap was 140–180 MB in the dev
 * runs of docs/BENCHMARKS.md "Workers").
 */
export const PROCESS_BASE_MB = 150;

export interface WorkerPlan {
  /** Where the questions are answered. */
  mode: Exclude<WorkerMode, "auto">;
  /** Workers to start; 0 with mode "main". */
  workers: number;
  /** Why, in a phrase for the run's log line. */
  reason: string;
}

/** Where a run answers and on how many workers, the memory cap applied. */
export function planWorkers(options: {
  maxWorkers: number;
  questions: number;
  baseline?: string;
  /** --worker_mode. */
  mode: WorkerMode;
  indexPath: string;
  heapLimitMb: number;
  /** Free memory in MB (default: the machine's). */
  freeMb?: number;
}): WorkerPlan {
  const main = (reason: string): WorkerPlan => ({ mode: "main", workers: 0, reason });
  if (options.baseline) return main(`baseline ${options.baseline}`);
  if (!options.indexPath) return main("no --index_path");
  if (options.mode === "main") return main("--worker_mode main");
  if (options.maxWorkers < 2) return main("--max_workers 1");
  if (options.mode === "auto" && options.questions < AUTO_PROCESS_MIN_QUESTIONS)
    return main(
      `${options.questions} questions: fewer than ${AUTO_PROCESS_MIN_QUESTIONS} do not pay for the child processes' start-up`,
    );
  const mode = options.mode === "auto" ? "process" : options.mode;
  const noun = (n: number) =>
    mode === "thread" ? `worker thread${n > 1 ? "s" : ""}` : `child process${n > 1 ? "es" : ""}`;
  let workers = Math.min(options.maxWorkers, Math.max(1, options.questions));
  let reason = `${workers} ${noun(workers)}, each with its own index handle`;
  if (options.heapLimitMb > 0) {
    const freeMb = options.freeMb ?? freemem() / 2 ** 20;
    const each = options.heapLimitMb + (mode === "process" ? PROCESS_BASE_MB : 0);
    const fits = Math.max(1, Math.floor(freeMb / each));
    if (fits < workers) {
      reason = `${fits} ${noun(fits)} (${workers} × ${each} MB — --worker_heap_mb ${options.heapLimitMb}${mode === "process" ? ` + ${PROCESS_BASE_MB} MB a process` : ""} — exceeds the ${Math.round(freeMb)} MB free)`;
      workers = fits;
    }
  }
  return { mode, workers, reason };
}

/** Starts the graph's answer workers over the run's configuration (throws if one cannot open the index). */
export function startGraphWorkers(options: {
  transport: WorkerTransport;
  workers: number;
  configurable: Record<string, unknown>;
  config: Configuration;
  buildId?: string;
  heapLimitMb: number;
  flushTimeoutMs: number;
  /** Node flags of each child process (default: evals/answer-worker-transports.ts PROCESS_NODE_FLAGS). */
  nodeFlags?: readonly string[];
}): Promise<AnswerWorkers> {
  const payload: GraphWorkerPayload = { configurable: options.configurable, flushTimeoutMs: options.flushTimeoutMs };
  return startAnswerWorkers({
    transport: options.transport,
    entry: GRAPH_WORKER,
    payload,
    workers: options.workers,
    heapLimitMb: options.heapLimitMb,
    ...(options.buildId ? { buildId: options.buildId } : {}),
    closeTimeoutMs: options.flushTimeoutMs + 5000,
    ...(options.nodeFlags ? { nodeFlags: options.nodeFlags } : {}),
  });
}

/** The closing line about the workers: questions, peak heap (and a child's peak RSS) per worker, restarts, this process's peak RSS. */
export function workersLine(summary: AnswerWorkersSummary): string {
  const per = summary.perWorker
    .map(
      (w, i) =>
        `#${i + 1}${w.pid !== undefined ? ` pid ${w.pid}` : ""} ${w.questions} q, heap ≤ ${w.peakHeapMb} MB` +
        (w.peakRssMb !== undefined ? `, RSS ≤ ${w.peakRssMb} MB` : ""),
    )
    .join("; ");
  const rssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  const noun = summary.transport === "thread" ? "answer thread(s)" : "answer process(es)";
  return `atr run: ${summary.workers} ${noun}: ${per}${summary.restarts ? ` · ${summary.restarts} restarted` : ""} · ${summary.transport === "thread" ? "process" : "parent"} peak RSS ${rssMb} MB`;
}
