/**
 * The entry of `atr run`'s answer threads (evals/answer-threads.ts): each thread opens the run's
 * index once, answers with the ATR graph exactly as the in-thread run does (cli/run/answer-fn.ts),
 * and at the end flushes its traces and closes its SQL child, reply cache and index.
 */
import { serveAnswers } from "../../evals/answer-thread-serve.js";
import { graphAnswer } from "./answer-fn.js";

/** What `atr run` sends each thread. */
export interface GraphThreadPayload {
  configurable: Record<string, unknown>;
  /** Longest wait for this thread's trace uploads at the end (`--flush_timeout_ms`). */
  flushTimeoutMs: number;
}

await serveAnswers(async (payload) => {
  const { configurable, flushTimeoutMs } = payload as GraphThreadPayload;
  const [{ ensureConfiguration }, resources, { flushTracing, tracingEnabled }] = await Promise.all([
    import("../../graph/configuration.js"),
    import("../../graph/resources.js"),
    import("../../evals/run-metadata.js"),
  ]);
  const config = ensureConfiguration({ configurable });
  // Pinned as in the parent: this thread answers every question from the index it opens now.
  const index = config.indexPath ? await resources.pinIndex(config) : undefined;
  const buildId = index && resources.isOpenedIndex(index) ? index.manifest.buildId : undefined;
  return {
    answer: await graphAnswer(),
    ...(buildId ? { buildId } : {}),
    close: async () => {
      if (tracingEnabled()) await flushTracing(flushTimeoutMs);
      await resources.closeResources();
      resources.closeCachedIndexes();
    },
  };
});
