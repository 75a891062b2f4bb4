/**
 * Answer functions on worker threads: N threads (node:worker_threads), each opening the index once
 * and answering one question at a time, behind one `AnswerFn` the batch runner calls as it calls
 * an in-thread one (evals/runner.ts keeps the records, their order, resume, progress and the
 * summary). On one JavaScript thread, `--max_workers N` questions only interleave, so each one's
 * wall time is its own CPU plus its neighbours'; on threads they run on N cores
 * (docs/BENCHMARKS.md "Workers").
 *
 * What the pool guarantees:
 * - a question that throws in a thread rejects with the same error name and message as in-thread;
 * - a thread that dies (crash, `process.exit`, out of memory under `heapLimitMb`) rejects the
 *   question it held with an `AnswerThreadError` naming the question, and is replaced;
 * - an aborted question (the runner's time limit) is told to stop; a thread that has not come back
 *   `abortGraceMs` later (work that holds its event loop) is terminated and replaced, so no
 *   question can hold a thread for good;
 * - `close()` lets every thread close its resources (SQL children, reply cache, traces) and
 *   terminates the ones that do not finish in time: no thread outlives the run.
 * Threads are chosen over child processes by measurement (docs/BENCHMARKS.md "Workers").
 */
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { ThreadStartData, ThreadStats, SerializedError } from "./answer-thread-serve.js";
import type { AnswerCallOptions, AnswerFn, AnswerInput, AnswerOutput } from "./runner.js";

const BOOT = fileURLToPath(new URL("./answer-thread-boot.js", import.meta.url));

export interface AnswerThreadsOptions {
  /** Absolute path of the thread entry: a module whose top level calls `serveAnswers`. */
  entry: string;
  /** Handed to the entry's factory in every thread (structured-cloneable). */
  payload: unknown;
  /** Threads to start (each answers one question at a time). */
  threads: number;
  /** V8 old-generation limit of each thread in MB (a thread over it dies, its question is an error record); 0 = Node's default. */
  heapLimitMb?: number;
  /** How long an aborted question may keep its thread before the thread is replaced. Default 2000 ms. */
  abortGraceMs?: number;
  /** The index build the parent opened: a thread that opened another one (rebuilt meanwhile) is refused. */
  buildId?: string;
  /** How long `close()` waits for a thread to close its resources before terminating it. Default 10 s. */
  closeTimeoutMs?: number;
}

export interface AnswerThreadsSummary {
  threads: number;
  /** Per thread slot: questions answered and the largest V8 heap (MB) of its last thread. */
  perThread: Array<{ questions: number; peakHeapMb: number }>;
  /** Threads replaced after a crash or an abandoned (timed-out) question. */
  restarts: number;
}

export interface AnswerThreads {
  /** Queues the question for the next free thread (pass `answerQueues: true` to runBatch). */
  answer: AnswerFn;
  close(): Promise<AnswerThreadsSummary>;
}

/** A thread stopped while it held a question (or could not start). */
export class AnswerThreadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AnswerThreadError";
  }
}

function revive(error: SerializedError): Error {
  const e = new Error(error.message);
  e.name = error.name;
  return e;
}

interface Job {
  id: number;
  questionId: string;
  resolve: (output: AnswerOutput) => void;
  reject: (error: Error) => void;
  /** The runner gave up on it (time limit): its late reply is dropped. */
  abandoned: boolean;
  graceTimer?: NodeJS.Timeout;
  onAbort?: () => void;
  signal?: AbortSignal;
}

interface Slot {
  index: number;
  worker: Worker;
  ready: boolean;
  /** Taken by a caller that has not posted its question yet (keeps two callers off one thread). */
  reserved: boolean;
  job?: Job;
  /** Why the thread died ("error" event), reported with its exit. */
  lastError?: Error;
  stats: { questions: number; peakHeapMb: number };
  closed?: (stats: ThreadStats | undefined) => void;
}

type Outgoing =
  | { type: "ready"; buildId?: string }
  | { type: "failed"; error: SerializedError }
  | { type: "result"; id: number; output: AnswerOutput }
  | { type: "error"; id: number; error: SerializedError }
  | { type: "closed"; stats: ThreadStats };

/** Starts the threads and waits until every one has opened its resources; throws if one cannot. */
export async function startAnswerThreads(options: AnswerThreadsOptions): Promise<AnswerThreads> {
  const count = options.threads;
  if (!Number.isInteger(count) || count < 1)
    throw new RangeError(`answer threads: threads must be a positive integer, got ${count}`);
  const graceMs = options.abortGraceMs ?? 2000;
  const closeTimeoutMs = options.closeTimeoutMs ?? 10_000;
  const heapLimitMb = options.heapLimitMb ?? 0;
  const slots: Slot[] = [];
  const waiting: Array<(slot: Slot | undefined) => void> = [];
  let nextId = 1;
  let restarts = 0;
  let closing = false;
  /** Set when a replacement thread could not start: every later question fails with it at once. */
  let broken: Error | undefined;
  const failWaiting = (error: Error) => {
    broken ??= error;
    for (const w of waiting.splice(0)) w(undefined);
  };

  /** The thread is free: hand it to the first waiting caller, reserved for it. */
  const release = (slot: Slot) => {
    slot.job = undefined;
    slot.reserved = false;
    if (!slot.ready) return;
    const next = waiting.shift();
    if (next) {
      slot.reserved = true;
      next(slot);
    }
  };

  const spawn = (index: number, stats = { questions: 0, peakHeapMb: 0 }): { slot: Slot; started: Promise<void> } => {
    const data: ThreadStartData = { entry: options.entry, payload: options.payload };
    const worker = new Worker(BOOT, {
      workerData: data,
      ...(heapLimitMb > 0 ? { resourceLimits: { maxOldGenerationSizeMb: heapLimitMb } } : {}),
    });
    const slot: Slot = { index, worker, ready: false, reserved: false, stats };
    let settleStart: { resolve: () => void; reject: (e: Error) => void } | undefined;
    const started = new Promise<void>((resolve, reject) => (settleStart = { resolve, reject }));
    worker.on("message", (m: Outgoing) => {
      if (m.type === "ready") {
        if (options.buildId && m.buildId && m.buildId !== options.buildId) {
          settleStart?.reject(
            new AnswerThreadError(
              `answer thread ${index + 1} opened index build ${m.buildId}, the run opened ${options.buildId}: ` +
                "the index was rebuilt meanwhile — start again (--rerun resumes)",
            ),
          );
          void worker.terminate();
          return;
        }
        slot.ready = true;
        settleStart?.resolve();
        settleStart = undefined;
        return;
      }
      if (m.type === "failed") {
        settleStart?.reject(revive(m.error));
        settleStart = undefined;
        return;
      }
      if (m.type === "closed") {
        slot.closed?.(m.stats);
        return;
      }
      const job = slot.job;
      if (!job || job.id !== m.id) return;
      clearTimeout(job.graceTimer);
      job.signal?.removeEventListener("abort", job.onAbort!);
      slot.stats.questions++;
      if (!job.abandoned) {
        if (m.type === "result") job.resolve(m.output);
        else job.reject(revive(m.error));
      }
      release(slot);
    });
    worker.on("error", (error) => {
      slot.lastError = error;
    });
    worker.on("exit", (code) => {
      const why = slot.lastError ? `${slot.lastError.name}: ${slot.lastError.message}` : `exit code ${code}`;
      slot.closed?.(undefined);
      if (settleStart) {
        settleStart.reject(new AnswerThreadError(`answer thread ${index + 1} stopped before it was ready (${why})`));
        settleStart = undefined;
      }
      const job = slot.job;
      if (job) {
        clearTimeout(job.graceTimer);
        job.signal?.removeEventListener("abort", job.onAbort!);
        if (!job.abandoned)
          job.reject(
            new AnswerThreadError(
              `answer thread ${index + 1} stopped (${why}) while answering question ${job.questionId}`,
            ),
          );
        slot.job = undefined;
      }
      slot.ready = false;
      if (closing || slots[index] !== slot) return;
      // Replace the thread; the questions after this one go on.
      restarts++;
      const replacement = spawn(index, slot.stats);
      slots[index] = replacement.slot;
      replacement.started.then(
        () => release(replacement.slot),
        (error: Error) => failWaiting(error),
      );
    });
    return { slot, started };
  };

  const first = Array.from({ length: count }, (_, i) => spawn(i));
  for (const f of first) slots.push(f.slot);
  try {
    await Promise.all(first.map((f) => f.started));
  } catch (error) {
    closing = true;
    await Promise.all(slots.map((s) => s.worker.terminate()));
    throw error;
  }

  const idleSlot = (): Promise<Slot | undefined> => {
    if (broken) return Promise.resolve(undefined);
    const idle = slots.find((s) => s.ready && !s.job && !s.reserved);
    if (idle) {
      idle.reserved = true;
      return Promise.resolve(idle);
    }
    return new Promise((resolve) => waiting.push(resolve));
  };

  const answer: AnswerFn = async (input: AnswerInput, callOptions: AnswerCallOptions) => {
    if (closing) throw new AnswerThreadError("answer threads are closed");
    const slot = await idleSlot();
    if (!slot) throw broken ?? new AnswerThreadError("answer threads are closed");
    const { signal, started, callbacks: _callbacks, ...rest } = callOptions;
    if (signal?.aborted) {
      release(slot);
      throw signal.reason instanceof Error ? signal.reason : new Error("aborted");
    }
    return new Promise<AnswerOutput>((resolve, reject) => {
      const job: Job = {
        id: nextId++,
        questionId: input.question_id ?? JSON.stringify(input.question.slice(0, 80)),
        resolve,
        reject,
        abandoned: false,
      };
      if (signal) {
        job.signal = signal;
        job.onAbort = () => {
          job.abandoned = true;
          reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
          slot.worker.postMessage({ type: "abort", id: job.id });
          // Work that never yields cannot see the abort: replace the thread.
          job.graceTimer = setTimeout(() => {
            if (slot.job === job) void slot.worker.terminate();
          }, graceMs);
        };
        signal.addEventListener("abort", job.onAbort, { once: true });
      }
      slot.job = job;
      slot.reserved = false;
      slot.worker.postMessage({ type: "answer", id: job.id, input, options: rest });
      started?.();
    });
  };

  const close = async (): Promise<AnswerThreadsSummary> => {
    closing = true;
    failWaiting(new AnswerThreadError("answer threads are closed"));
    await Promise.all(
      slots.map(async (slot) => {
        const stats = await new Promise<ThreadStats | undefined>((resolve) => {
          slot.closed = resolve;
          // A thread still on an abandoned question would not read the message.
          if (slot.job?.abandoned) return resolve(undefined);
          const timer = setTimeout(() => resolve(undefined), closeTimeoutMs);
          timer.unref();
          try {
            slot.worker.postMessage({ type: "close" });
          } catch {
            resolve(undefined);
          }
        });
        if (stats) slot.stats.peakHeapMb = Math.max(slot.stats.peakHeapMb, stats.peakHeapMb);
        await slot.worker.terminate();
      }),
    );
    return { threads: count, perThread: slots.map((s) => ({ ...s.stats })), restarts };
  };

  return { answer, close };
}
