/**
 * A worker entry for tests/evals/answer-workers.test.ts (thread or child process): answers
 * "A:<question_id>" after a short wait, and misbehaves on cue — question ids starting "throw" throw
 * a TypeError, "exit" end the worker (process.exit), "crash" throw an uncaught RangeError outside
 * the answer's promise, "kill" SIGKILL the worker's own process (child processes only), "spin" hold
 * the event loop for good, "slow" wait a second (abortable). With payload.failStart the factory throws.
 */
import { threadId } from "node:worker_threads";
import { serveAnswers } from "../../../evals/answer-worker-serve.js";

await serveAnswers(async (payload) => {
  const { failStart, buildId } = (payload ?? {}) as { failStart?: boolean; buildId?: string };
  if (failStart) throw new RangeError("the fake index cannot be opened");
  return {
    ...(buildId ? { buildId } : {}),
    answer: async (input, options) => {
      const id = input.question_id ?? "";
      if (id.startsWith("throw")) throw new TypeError(`cannot answer ${id}`);
      if (id.startsWith("exit")) process.exit(7);
      if (id.startsWith("kill")) process.kill(process.pid, "SIGKILL");
      if (id.startsWith("crash"))
        setTimeout(() => {
          throw new RangeError(`uncaught in ${id}`);
        }, 1);
      if (id.startsWith("spin")) for (;;);
      const wait = id.startsWith("slow") ? 1000 : id.startsWith("crash") ? 5000 : 5;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, wait);
        options.signal?.addEventListener("abort", () => {
          clearTimeout(timer);
          reject(new Error("stopped"));
        });
      });
      return {
        answer: `A:${id}`,
        usage: { llmCalls: 1, totalTokens: 10 },
        trace: { worker: `${process.pid}:${threadId}` },
      };
    },
  };
});
