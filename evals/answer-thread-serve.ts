/**
 * The worker-thread side of evals/answer-threads.ts: a thread that builds one answer function at
 * start (opening the index once) and answers the questions its parent posts, one at a time. A
 * thread entry (cli/run/graph-thread.ts, a test's fake) calls `serveAnswers` with its factory.
 *
 * Messages (parent → thread): `answer` {id, input, options}, `abort` {id}, `close` {flushMs}.
 * Messages (thread → parent): `ready` {buildId}, `failed` {error} (the factory threw), `result`
 * {id, output}, `error` {id, error}, `closed` {stats}. Errors travel as {name, message} so the
 * parent's record says exactly what the in-thread runner's would.
 */
import { getHeapStatistics } from "node:v8";
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import type { AnswerCallOptions, AnswerFn, AnswerInput } from "./runner.js";

/** What the parent sends every thread at start (structured-cloneable). */
export interface ThreadStartData {
  /** The module whose top level calls `serveAnswers` (resolved by the parent). */
  entry: string;
  /** Handed to the entry's factory as it is (the run's configurable, flags, …). */
  payload: unknown;
}

export interface ThreadStats {
  questions: number;
  /** Largest V8 heap this thread used (MB): a thread's own share of the process's memory. */
  peakHeapMb: number;
}

export interface ServedAnswers {
  answer: AnswerFn;
  /** The index build the answers come from (the parent checks it is the one it opened). */
  buildId?: string;
  /** Run before the thread says `closed` (flush traces, close the index and SQL children). */
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

/** Serves answers on this thread until the parent says `close`. */
export async function serveAnswers(factory: (payload: unknown) => Promise<ServedAnswers>): Promise<void> {
  if (isMainThread || !parentPort)
    throw new Error("evals/answer-thread-serve.ts: serveAnswers runs in a worker thread");
  const port = parentPort;
  const data = workerData as ThreadStartData;
  let served: ServedAnswers;
  try {
    served = await factory(data.payload);
  } catch (error) {
    port.postMessage({ type: "failed", error: serializeError(error) });
    return;
  }
  const controllers = new Map<number, AbortController>();
  let questions = 0;
  let peakHeapMb = 0;
  const noteHeap = () => {
    peakHeapMb = Math.max(peakHeapMb, getHeapStatistics().used_heap_size / 2 ** 20);
  };
  port.on("message", (message: Incoming) => {
    if (message.type === "abort") {
      controllers.get(message.id)?.abort(new Error("aborted by the batch runner"));
      return;
    }
    if (message.type === "close") {
      void (async () => {
        await served.close?.().catch(() => undefined);
        const stats: ThreadStats = { questions, peakHeapMb: Math.round(peakHeapMb) };
        port.postMessage({ type: "closed", stats });
        port.close();
      })();
      return;
    }
    const { id, input, options } = message;
    const controller = new AbortController();
    controllers.set(id, controller);
    served
      .answer(input, { ...options, signal: controller.signal })
      .then(
        (output) => port.postMessage({ type: "result", id, output }),
        (error: unknown) => port.postMessage({ type: "error", id, error: serializeError(error) }),
      )
      .catch((error: unknown) =>
        // The output could not be cloned (a function or a class instance in it): say so for this question.
        port.postMessage({ type: "error", id, error: serializeError(error) }),
      )
      .finally(() => {
        controllers.delete(id);
        questions++;
        noteHeap();
      });
  });
  port.postMessage({ type: "ready", ...(served.buildId ? { buildId: served.buildId } : {}) });
}
