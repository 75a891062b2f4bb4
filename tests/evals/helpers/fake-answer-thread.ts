/**
 * A thread entry for tests/evals/answer-threads.test.ts: answers "A:<question_id>" after a short
 * wait, and misbehaves on cue — question ids starting "throw" throw a TypeError, "exit" end the
 * thread (process.exit in a thread ends the thread), "spin" hold the event loop for good,
 * "slow" wait a second (abortable). With payload.failStart the factory throws.
 */
import { threadId } from "node:worker_threads";
import { serveAnswers } from "../../../evals/answer-thread-serve.js";

await serveAnswers(async (payload) => {
  const { failStart, buildId } = (payload ?? {}) as { failStart?: boolean; buildId?: string };
  if (failStart) throw new RangeError("the fake index cannot be opened");
  return {
    ...(buildId ? { buildId } : {}),
    answer: async (input, options) => {
      const id = input.question_id ?? "";
      if (id.startsWith("throw")) throw new TypeError(`cannot answer ${id}`);
      if (id.startsWith("exit")) process.exit(7);
      if (id.startsWith("spin")) for (;;);
      const wait = id.startsWith("slow") ? 1000 : 5;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, wait);
        options.signal?.addEventListener("abort", () => {
          clearTimeout(timer);
          reject(new Error("stopped"));
        });
      });
      return { answer: `A:${id}`, usage: { llmCalls: 1, totalTokens: 10 }, trace: { thread: threadId } };
    },
  };
});
