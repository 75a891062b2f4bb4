// @ts-check
/**
 * The first module of every answer worker (evals/answer-workers.ts), thread or child process: a
 * worker thread does not inherit the parent's tsx loader and a forked child gets none of the
 * parent's flags, so it registers its own before importing the TypeScript entry — named in
 * workerData (thread) or as the first argument (process) — which calls `serveAnswers`
 * (evals/answer-worker-serve.ts).
 */
import { isMainThread, workerData } from "node:worker_threads";
import { pathToFileURL } from "node:url";

const entry = isMainThread ? process.argv[2] : /** @type {{ entry: string }} */ (workerData).entry;
if (!entry) throw new Error("evals/answer-worker-boot.js: no worker entry given");
if (/\.[cm]?ts$/.test(entry)) {
  const { register } = await import("tsx/esm/api");
  register();
}
await import(pathToFileURL(entry).href);
