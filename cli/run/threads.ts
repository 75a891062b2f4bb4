/**
 * Where `atr run` answers: on worker threads (evals/answer-threads.ts, cli/run/graph-thread.ts) or
 * on the main thread. Threads are opt-in (--answer_threads) for ATR graph runs over an index with
 * --max_workers ≥ 2: measured, two threads in one process cost 24–45 % more CPU per question than
 * one and did not lower p50 (docs/BENCHMARKS.md "Workers"), so the main thread is the default. The
 * main thread always answers with --max_workers 1 (a thread would only add its start-up), for the
 * baselines (their models and SQL executor live in this process) and without an index.
 */
import { freemem } from "node:os";
import { fileURLToPath } from "node:url";
import type { Configuration } from "../../graph/configuration.js";
import { startAnswerThreads, type AnswerThreads, type AnswerThreadsSummary } from "../../evals/answer-threads.js";
import type { GraphThreadPayload } from "./graph-thread.js";

const GRAPH_THREAD = fileURLToPath(new URL("./graph-thread.ts", import.meta.url));

export interface ThreadPlan {
  /** Threads to start; 0 = answer on the main thread. */
  threads: number;
  /** Why, in a phrase for the run's log line. */
  reason: string;
}

/** How many answer threads a run gets (0 = main thread), the memory cap applied. */
export function planThreads(options: {
  maxWorkers: number;
  questions: number;
  baseline?: string;
  /** --answer_threads: answer on worker threads (opt-in). */
  answerThreads: boolean;
  indexPath: string;
  heapLimitMb: number;
  /** Free memory in MB (default: the machine's). */
  freeMb?: number;
}): ThreadPlan {
  if (options.baseline) return { threads: 0, reason: `baseline ${options.baseline}` };
  if (!options.indexPath) return { threads: 0, reason: "no --index_path" };
  if (!options.answerThreads) return { threads: 0, reason: "the default; --answer_threads answers on worker threads" };
  if (options.maxWorkers < 2) return { threads: 0, reason: "--max_workers 1" };
  let threads = Math.min(options.maxWorkers, Math.max(1, options.questions));
  let reason = `${threads} worker threads, each with its own index handle`;
  if (options.heapLimitMb > 0) {
    const freeMb = options.freeMb ?? freemem() / 2 ** 20;
    const fits = Math.max(1, Math.floor(freeMb / options.heapLimitMb));
    if (fits < threads) {
      reason = `${fits} worker thread(s) (${threads} × --worker_heap_mb ${options.heapLimitMb} exceeds the ${Math.round(freeMb)} MB free)`;
      threads = fits;
    }
  }
  return { threads, reason };
}

/** Starts the graph's answer threads over the run's configuration (throws if a thread cannot open the index). */
export function startGraphThreads(options: {
  threads: number;
  configurable: Record<string, unknown>;
  config: Configuration;
  buildId?: string;
  heapLimitMb: number;
  flushTimeoutMs: number;
}): Promise<AnswerThreads> {
  const payload: GraphThreadPayload = { configurable: options.configurable, flushTimeoutMs: options.flushTimeoutMs };
  return startAnswerThreads({
    entry: GRAPH_THREAD,
    payload,
    threads: options.threads,
    heapLimitMb: options.heapLimitMb,
    ...(options.buildId ? { buildId: options.buildId } : {}),
    closeTimeoutMs: options.flushTimeoutMs + 5000,
  });
}

/** The closing line about the threads: questions and peak heap per thread, restarts, the process's peak RSS. */
export function threadsLine(summary: AnswerThreadsSummary): string {
  const per = summary.perThread.map((t, i) => `#${i + 1} ${t.questions} q, heap ≤ ${t.peakHeapMb} MB`).join("; ");
  const rssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  return `atr run: ${summary.threads} answer thread(s): ${per}${summary.restarts ? ` · ${summary.restarts} restarted` : ""} · process peak RSS ${rssMb} MB`;
}
