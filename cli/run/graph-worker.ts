/**
 * The entry of `atr run`'s answer workers (evals/answer-workers.ts; a child process or a worker
 * thread): each opens the run's index once, answers with the ATR graph exactly as the in-process
 * run does (cli/run/answer-fn.ts), and at the end flushes its traces and closes its SQL child,
 * reply cache and index.
 */
import { serveAnswers } from "../../evals/answer-worker-serve.js";
import { graphAnswer } from "./answer-fn.js";

/** What `atr run` sends each worker. */
export interface GraphWorkerPayload {
  configurable: Record<string, unknown>;
  /** Longest wait for this worker's trace uploads at the end (`--flush_timeout_ms`). */
  flushTimeoutMs: number;
}

await serveAnswers(async (payload) => {
  const { configurable, flushTimeoutMs } = payload as GraphWorkerPayload;
  const [{ ensureConfiguration }, resources, { flushTracing, tracingEnabled }] = await Promise.all([
    import("../../graph/configuration.js"),
    import("../../graph/resources.js"),
    import("../../evals/run-metadata.js"),
  ]);
  const config = ensureConfiguration({ configurable });
  // Pinned as in the parent: this worker answers every question from the index it opens now.
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
