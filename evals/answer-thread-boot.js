// @ts-check
/**
 * The first module of every answer thread (evals/answer-threads.ts): a worker thread does not
 * inherit the parent's tsx loader, so it registers its own before importing the TypeScript entry
 * named in workerData (which calls `serveAnswers`, evals/answer-thread-serve.ts).
 */
import { workerData } from "node:worker_threads";
import { pathToFileURL } from "node:url";

const entry = /** @type {{ entry: string }} */ (workerData).entry;
if (/\.[cm]?ts$/.test(entry)) {
  const { register } = await import("tsx/esm/api");
  register();
}
await import(pathToFileURL(entry).href);
