/**
 * Answer functions on answer workers: N child processes (node:child_process, the default of `atr
 * run --max_workers N`) or N worker threads, each opening the index once and answering one
 * question at a time, behind one `AnswerFn` the batch runner calls as it calls an in-process one
 * (evals/runner.ts keeps the records, their order, resume, progress and the summary). On one
 * JavaScript thread, `--max_workers N` questions only interleave, so each one's wall time is its
 * own CPU plus its neighbours'; on workers they run on N cores (docs/BENCHMARKS.md "Workers"). The
 * pool is the same for both; evals/answer-worker-transports.ts is how it reaches a worker.
 *
 * What the pool guarantees:
 * - a question that throws in a worker rejects with the same error name and message as in-process;
 * - a worker that dies (crash, `process.exit`, a kill, out of memory under `heapLimitMb`) rejects the
 *   question it held with an `AnswerWorkerError` naming the question, and is replaced;
 * - an aborted question (the runner's time limit) is told to stop; a worker that has not come back
 *   `abortGraceMs` later (work that holds its event loop) is terminated and replaced, so no
 *   question can hold a worker for good;
 * - `close()` lets every worker close its resources (SQL children, reply cache, traces) and
 *   terminates the ones that do not finish in time: no worker outlives the run.
 */
import { spawnWorker, type WorkerChannel, type WorkerTransport } from "./answer-worker-transports.js";
import type { WorkerStartData, WorkerStats, SerializedError } from "./answer-worker-serve.js";
import type { AnswerCallOptions, AnswerFn, AnswerInput, AnswerOutput } from "./runner.js";

export type { WorkerTransport } from "./answer-worker-transports.js";

export interface AnswerWorkersOptions {
  /** Child processes (default) or worker threads. */
  transport?: WorkerTransport;
  /** Absolute path of the worker entry: a module whose top level calls `serveAnswers`. */
  entry: string;
  /** Handed to the entry's factory in every worker (structured-cloneable). */
  payload: unknown;
  /** Workers to start (each answers one question at a time). */
  workers: number;
  /** V8 old-generation limit of each worker in MB (a worker over it dies, its question is an error record); 0 = Node's default. */
  heapLimitMb?: number;
  /** How long an aborted question may keep its worker before the worker is replaced. Default 2000 ms. */
  abortGraceMs?: number;
  /** The index build the parent opened: a worker that opened another one (rebuilt meanwhile) is refused. */
  buildId?: string;
  /** How long `close()` waits for a worker to close its resources before terminating it. Default 10 s. */
  closeTimeoutMs?: number;
  /** Node flags of each child process (default PROCESS_NODE_FLAGS of evals/answer-worker-transports.ts). */
  nodeFlags?: readonly string[];
}

export interface WorkerSlotSummary {
  questions: number;
  /** The largest V8 heap (MB) of the slot's last worker. */
  peakHeapMb: number;
  /** A child process's peak RSS (MB), and its pid (processes only). */
  peakRssMb?: number;
  pid?: number;
}

export interface AnswerWorkersSummary {
  transport: WorkerTransport;
  workers: number;
  /** Per worker slot: questions answered, peak heap (and for processes RSS and pid) of its last worker. */
  perWorker: WorkerSlotSummary[];
  /** Workers replaced after a crash or an abandoned (timed-out) question. */
  restarts: number;
}

export interface AnswerWorkers {
  /** Queues the question for the next free worker (pass `answerQueues: true` to runBatch). */
  answer: AnswerFn;
  close(): Promise<AnswerWorkersSummary>;
  /** The process ids of the live child processes (empty for threads): for CPU and memory readings. */
  pids(): number[];
}

/** A worker stopped while it held a question (or could not start). */
export class AnswerWorkerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AnswerWorkerError";
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
  channel: WorkerChannel;
  ready: boolean;
  /** Taken by a caller that has not posted its question yet (keeps two callers off one worker). */
  reserved: boolean;
  job?: Job;
  stats: WorkerSlotSummary;
  closed?: (stats: WorkerStats | undefined) => void;
  /** Resolves when the worker is gone. */
  gone: Promise<void>;
  /** Settles when the worker is ready or could not start. */
  started: Promise<void>;
}

type Outgoing =
  | { type: "ready"; buildId?: string }
  | { type: "failed"; error: SerializedError }
  | { type: "result"; id: number; output: AnswerOutput }
  | { type: "error"; id: number; error: SerializedError }
  | { type: "closed"; stats: WorkerStats };

/** Starts the workers and waits until every one has opened its resources; throws if one cannot. */
export async function startAnswerWorkers(options: AnswerWorkersOptions): Promise<AnswerWorkers> {
  const transport = options.transport ?? "process";
  const noun = transport === "thread" ? "answer thread" : "answer process";
  const count = options.workers;
  if (!Number.isInteger(count) || count < 1)
    throw new RangeError(`answer workers: workers must be a positive integer, got ${count}`);
  const graceMs = options.abortGraceMs ?? 2000;
  const closeTimeoutMs = options.closeTimeoutMs ?? 10_000;
  const heapLimitMb = options.heapLimitMb ?? 0;
  const slots: Slot[] = [];
  const waiting: Array<(slot: Slot | undefined) => void> = [];
  let nextId = 1;
  let restarts = 0;
  let closing = false;
  /** Set when a replacement worker could not start: every later question fails with it at once. */
  let broken: Error | undefined;
  const failWaiting = (error: Error) => {
    broken ??= error;
    for (const w of waiting.splice(0)) w(undefined);
  };

  /** The worker is free: hand it to the first waiting caller, reserved for it. */
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

  const spawn = (index: number, stats: WorkerSlotSummary = { questions: 0, peakHeapMb: 0 }) => {
    const data: WorkerStartData = { entry: options.entry, payload: options.payload };
    const channel = spawnWorker(transport, data, {
      heapLimitMb,
      ...(options.nodeFlags ? { nodeFlags: options.nodeFlags } : {}),
    });
    let markGone: () => void = () => undefined;
    const gone = new Promise<void>((resolve) => (markGone = resolve));
    let settleStart: { resolve: () => void; reject: (e: Error) => void } | undefined;
    const started = new Promise<void>((resolve, reject) => (settleStart = { resolve, reject }));
    const slot: Slot = { index, channel, ready: false, reserved: false, stats, gone, started };
    if (channel.pid !== undefined) stats.pid = channel.pid;
    const name = `${noun} ${index + 1}${channel.pid !== undefined ? ` (pid ${channel.pid})` : ""}`;
    channel.onMessage((message) => {
      const m = message as Outgoing;
      if (m.type === "ready") {
        if (options.buildId && m.buildId && m.buildId !== options.buildId) {
          settleStart?.reject(
            new AnswerWorkerError(
              `${name} opened index build ${m.buildId}, the run opened ${options.buildId}: ` +
                "the index was rebuilt meanwhile — start again (--rerun resumes)",
            ),
          );
          settleStart = undefined;
          void channel.terminate();
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
    channel.onExit((why) => {
      markGone();
      slot.closed?.(undefined);
      if (settleStart) {
        settleStart.reject(new AnswerWorkerError(`${name} stopped before it was ready (${why})`));
        settleStart = undefined;
      }
      const job = slot.job;
      if (job) {
        clearTimeout(job.graceTimer);
        job.signal?.removeEventListener("abort", job.onAbort!);
        if (!job.abandoned)
          job.reject(new AnswerWorkerError(`${name} stopped (${why}) while answering question ${job.questionId}`));
        slot.job = undefined;
      }
      slot.ready = false;
      if (closing || slots[index] !== slot) return;
      // Replace the worker; the questions after this one go on.
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
    await Promise.all(slots.map((s) => s.channel.terminate()));
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
    if (closing) throw new AnswerWorkerError("answer workers are closed");
    const slot = await idleSlot();
    if (!slot) throw broken ?? new AnswerWorkerError("answer workers are closed");
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
          try {
            slot.channel.send({ type: "abort", id: job.id });
          } catch {
            // gone already: its exit replaces it
          }
          // Work that never yields cannot see the abort: replace the worker.
          job.graceTimer = setTimeout(() => {
            if (slot.job === job) void slot.channel.terminate();
          }, graceMs);
        };
        signal.addEventListener("abort", job.onAbort, { once: true });
      }
      slot.job = job;
      slot.reserved = false;
      try {
        slot.channel.send({ type: "answer", id: job.id, input, options: rest });
      } catch {
        // The worker died between its last reply and this question: its exit rejects the job.
      }
      started?.();
    });
  };

  const close = async (): Promise<AnswerWorkersSummary> => {
    closing = true;
    failWaiting(new AnswerWorkerError("answer workers are closed"));
    await Promise.all(
      slots.map(async (slot) => {
        // A replacement still starting would not read the message yet.
        if (!slot.ready)
          await Promise.race([
            slot.started.catch(() => undefined),
            new Promise((resolve) => setTimeout(resolve, closeTimeoutMs).unref()),
          ]);
        const stats = await new Promise<WorkerStats | undefined>((resolve) => {
          slot.closed = resolve;
          // A worker still on an abandoned question would not read the message.
          if (slot.job?.abandoned) return resolve(undefined);
          const timer = setTimeout(() => resolve(undefined), closeTimeoutMs);
          timer.unref();
          try {
            slot.channel.send({ type: "close" });
          } catch {
            resolve(undefined);
          }
        });
        if (stats) {
          slot.stats.peakHeapMb = Math.max(slot.stats.peakHeapMb, stats.peakHeapMb);
          if (stats.peakRssMb !== undefined) slot.stats.peakRssMb = stats.peakRssMb;
        }
        if (stats && transport === "process") {
          // A child that closed its resources exits by itself; one that has not within a second is killed.
          const grace = setTimeout(() => void slot.channel.terminate(), 1000);
          await slot.gone;
          clearTimeout(grace);
          return;
        }
        await slot.channel.terminate();
      }),
    );
    return { transport, workers: count, perWorker: slots.map((s) => ({ ...s.stats })), restarts };
  };

  const pids = () => slots.flatMap((s) => (s.channel.pid !== undefined ? [s.channel.pid] : []));
  return { answer, close, pids };
}
