/**
 * CPU per question of answer threads against the main thread (docs/BENCHMARKS.md "Workers"): the
 * first `--limit` WTQ dev questions through runBatch, either in-process (`main`) or on `--threads`
 * answer threads (`threads`), `--max_workers` at a time; CPU is this process's (all threads) from
 * after the threads are ready. Start two `main` copies together for the two-process case.
 *
 *   npx tsx scripts/bench-thread-contention.ts main|threads [--threads 2] [--max_workers 2] [--limit 80]
 *     [--index /tmp/s4/idx/wtq-index] [--questions ../shared/data/wtq/dev/questions.jsonl]
 */
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { graphAnswer } from "../cli/run/answer-fn.js";
import { startGraphWorkers } from "../cli/run/workers.js";
import { loadQuestions } from "../evals/dataset.js";
import { runBatch, type AnswerFn } from "../evals/runner.js";
import { ensureConfiguration } from "../graph/configuration.js";
import { closeResources, pinIndex } from "../graph/resources.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    threads: { type: "string", default: "2" },
    max_workers: { type: "string", default: "2" },
    limit: { type: "string", default: "80" },
    index: { type: "string", default: "/tmp/s4/idx/wtq-index" },
    questions: { type: "string", default: "../shared/data/wtq/dev/questions.jsonl" },
  },
});
const mode = positionals[0];
if (mode !== "main" && mode !== "threads") throw new Error("give main or threads");
const configurable = { indexPath: values.index! };
const config = ensureConfiguration({ configurable });
const questions = loadQuestions(values.questions!).slice(0, Number(values.limit));
let answer: AnswerFn;
let close = async () => undefined as unknown;
if (mode === "threads") {
  const threads = await startGraphWorkers({
    transport: mode === "threads" ? "thread" : "process",
    workers: Number(values.threads),
    configurable,
    config,
    heapLimitMb: 0,
    flushTimeoutMs: 100,
  });
  answer = threads.answer;
  close = () => threads.close();
} else {
  await pinIndex(config);
  answer = await graphAnswer();
  close = () => closeResources();
}
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await runBatch({
  questions,
  answer,
  answerQueues: mode === "threads",
  outputPath: join(tmpdir(), `atr-contention-${mode}-${process.pid}.jsonl`),
  maxWorkers: Number(values.max_workers),
  configurable,
  fsync: false,
});
const cpu = process.cpuUsage(cpu0);
console.log(
  JSON.stringify({
    mode,
    threads: mode === "threads" ? Number(values.threads) : 0,
    maxWorkers: Number(values.max_workers),
    questions: questions.length,
    cpuMsPerQuestion: Math.round((cpu.user + cpu.system) / 1000 / questions.length),
    wallS: Math.round(performance.now() - t0) / 1000,
    load: loadavg()[0],
  }),
);
await close();
process.exit(0);
