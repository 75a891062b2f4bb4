/**
 * The worker side of evals/answer-workers.ts, in a worker thread or a child process alike: builds
 * one answer function at start (opening the index once) and answers the questions its parent
 * sends, one at a time. A worker entry (cli/run/graph-worker.ts, a test's fake) calls
 * `serveAnswers` with its factory.
 *
 * Messages (parent → worker): `answer` {id, input, options}, `abort` {id}, `close`.
 * Messages (worker → parent): `ready` {buildId}, `failed` {error} (the factory threw), `result`
 * {id, output}, `error` {id, error}, `closed` {stats}. Errors travel as {name, message} so the
 * parent's record says exactly what the in-process runner's would. A child process first says
 * `hello` and gets `start` {data} (a thread has it as workerData), tells the parent an uncaught
 * error as `crashed` before it exits, ignores SIGINT (its parent handles Ctrl-C) and exits when its
 * parent's IPC channel closes.
 */
import { getHeapStatistics } from "node:v8";
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import type { AnswerCallOptions, AnswerFn, AnswerInput } from "./runner.js";

/** What the parent gives every worker at start (structured-cloneable). */
export interface WorkerStartData {
  /** The module whose top level calls `serveAnswers` (resolved by the parent). */
  entry: string;
  /** Handed to the entry's factory as it is (the run's configurable, flags, …). */
  payload: unknown;
}

export interface WorkerStats {
  questions: number;
  /** Largest V8 heap this worker used (MB). */
  peakHeapMb: number;
  /** A child process's peak resident memory (MB); absent for a thread (its RSS is the whole process's). */
  peakRssMb?: number;
}

export interface ServedAnswers {
  answer: AnswerFn;
  /** The index build the answers come from (the parent checks it is the one it opened). */
  buildId?: string;
  /** Run before the worker says `closed` (flush traces, close the index and SQL children). */
  close?: () => Promise<void>;
}

export type SerializedError = { name: string; message: string };

export function serializeError(error: unknown): SerializedError {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: "Error", message: String(error) };
}

type Incoming =
  | { type: "answer"; id: number; input: AnswerInput; options: Omit<AnswerCallOptions, "signal"> }
  | { type: "abort"; id: number }
  | { type: "close" };

interface Port {
  send(message: unknown): void;
  onMessage(handler: (message: Incoming) => void): void;
  /** After `closed`: let the worker end. */
  end(): void;
}

/** The parent, seen from a thread or from a child process; and the start data. */
async function connect(): Promise<{ port: Port; data: WorkerStartData }> {
  if (!isMainThread && parentPort) {
    const p = parentPort;
    return {
      port: { send: (m) => p.postMessage(m), onMessage: (h) => void p.on("message", h), end: () => p.close() },
      data: workerData as WorkerStartData,
    };
  }
  if (!process.send)
    throw new Error("evals/answer-worker-serve.ts: serveAnswers runs in a worker thread or a forked child process");
  const send = (m: unknown) => void process.send!(m, undefined, undefined, () => undefined);
  // Ctrl-C in the terminal reaches the whole process group: the parent finishes or stops this child.
  process.on("SIGINT", () => undefined);
  process.on("disconnect", () => process.exit(0));
  process.on("uncaughtException", (error) => {
    process.send!({ type: "crashed", error: serializeError(error) }, undefined, undefined, () => process.exit(1));
    setTimeout(() => process.exit(1), 1000).unref();
  });
  const data = await new Promise<WorkerStartData>((resolve) => {
    const onStart = (m: { type?: string; data?: WorkerStartData }) => {
      if (m?.type !== "start") return;
      process.off("message", onStart);
      resolve(m.data!);
    };
    process.on("message", onStart);
    send({ type: "hello" });
  });
  return {
    port: {
      send,
      onMessage: (h) => void process.on("message", h as (m: unknown) => void),
      end: () => process.disconnect(),
    },
    data,
  };
}

/** Serves answers in this worker until the parent says `close`. */
export async function serveAnswers(factory: (payload: unknown) => Promise<ServedAnswers>): Promise<void> {
  const { port, data } = await connect();
  const inProcess = isMainThread;
  let served: ServedAnswers;
  try {
    served = await factory(data.payload);
  } catch (error) {
    port.send({ type: "failed", error: serializeError(error) });
    return;
  }
  const controllers = new Map<number, AbortController>();
  let questions = 0;
  let peakHeapMb = 0;
  const noteHeap = () => {
    peakHeapMb = Math.max(peakHeapMb, getHeapStatistics().used_heap_size / 2 ** 20);
  };
  port.onMessage((message: Incoming) => {
    if (message?.type === "abort") {
      controllers.get(message.id)?.abort(new Error("aborted by the batch runner"));
      return;
    }
    if (message?.type === "close") {
      void (async () => {
        await served.close?.().catch(() => undefined);
        const stats: WorkerStats = {
          questions,
          peakHeapMb: Math.round(peakHeapMb),
          ...(inProcess ? { peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) } : {}),
        };
        port.send({ type: "closed", stats });
        port.end();
      })();
      return;
    }
    if (message?.type !== "answer") return;
    const { id, input, options } = message;
    const controller = new AbortController();
    controllers.set(id, controller);
    served
      .answer(input, { ...options, signal: controller.signal })
      .then(
        (output) => port.send({ type: "result", id, output }),
        (error: unknown) => port.send({ type: "error", id, error: serializeError(error) }),
      )
      .catch((error: unknown) =>
        // The output could not be cloned (a function or a class instance in it): say so for this question.
        port.send({ type: "error", id, error: serializeError(error) }),
      )
      .finally(() => {
        controllers.delete(id);
        questions++;
        noteHeap();
      });
  });
  port.send({ type: "ready", ...(served.buildId ? { buildId: served.buildId } : {}) });
}
