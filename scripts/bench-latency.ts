/**
 * Per-question cost of the default offline configuration on the dev splits (docs/BENCHMARKS.md
 * "Per-question cost"): each question goes through the batch runner one at a time (`atr run
 * --max_workers 1`, the same records), and for each it measures the CPU time this process spent
 * (user + system, `process.cpuUsage`), the CPU time of the SQL child process (View 5's executor,
 * read from /proc on Linux) and the wall time. CPU time is the figure to compare before/after on a
 * shared machine: wall time grows with everybody else's load, CPU time barely does.
 *
 * With `--max_workers N` (N ≥ 2) the same questions are answered again as `atr run --max_workers N`
 * answers them — on N answer workers (cli/run/workers.ts; child processes, or threads with
 * `--worker_mode thread`) — and the table gets their wall p50/p90 per question (the records'
 * latency_ms), the pass's wall time, the CPU per question of this process and every descendant
 * (workers and SQL children, start-up excluded), the load average, and that pass's answers digest.
 *
 *   npm run bench:latency -- [--benches wtq,hybridqa] [--split dev] [--limit 150] [--warmup 5]
 *     [--index "/tmp/fin3/{bench}-index"] [--data_dir ../shared/data] [--out_dir /tmp/bench-latency]
 *     [--max_workers 2] [--worker_mode process|thread] [--worker_node_flags "FLAGS" ("" = none)]
 *
 * The first `--warmup` questions after the measured ones are answered first and not counted (module
 * loading, the index's first reads, JIT). Every run's results file is kept in --out_dir, so two
 * trees can be compared answer by answer with `atr score --pred BEFORE --pred AFTER`; the printed
 * answers digest is equal when every answer is. Prints a Markdown table and one JSON line.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { loadQuestions } from "../evals/dataset.js";
import { configHash, gitCommit, questionRunOptions, type ExperimentInfo } from "../evals/run-metadata.js";
import { runBatch, type AnswerFn } from "../evals/runner.js";
import { stats, BENCHES, type Bench } from "../evals/score.js";
import { answerQuestion } from "../graph/answer.js";
import { ensureConfiguration, type ConfigurableInput } from "../graph/configuration.js";
import { closeResources, isOpenedIndex, pinIndex } from "../graph/resources.js";
import { startGraphWorkers } from "../cli/run/workers.js";
import { descendantsCpuMs } from "./helpers/proc-cpu.js";
import { CONSTRAINED_SQL_PROMPT_VERSION } from "../nodes/constrained-sql.js";
import { PROMPTS_VERSION } from "../nodes/prompts.js";

const { values } = parseArgs({
  options: {
    benches: { type: "string", default: "wtq,hybridqa" },
    split: { type: "string", default: "dev" },
    data_dir: { type: "string", default: "../shared/data" },
    index: { type: "string", default: "/tmp/fin3/{bench}-index" },
    limit: { type: "string", default: "150" },
    warmup: { type: "string", default: "5" },
    out_dir: { type: "string", default: "/tmp/bench-latency" },
    max_workers: { type: "string", default: "1" },
    worker_mode: { type: "string", default: "process" },
    worker_node_flags: { type: "string" },
  },
});
const benches = values.benches!.split(",").map((b) => b.trim()) as Bench[];
for (const b of benches)
  if (!(BENCHES as readonly string[]).includes(b))
    throw new Error(`--benches takes ${BENCHES.join(", ")} (got "${b}")`);
const limit = Number(values.limit);
const warmup = Number(values.warmup);
if (!(Number.isInteger(limit) && limit > 0)) throw new Error(`--limit takes a positive integer (got ${values.limit})`);
if (!(Number.isInteger(warmup) && warmup >= 0)) throw new Error(`--warmup takes an integer ≥ 0 (got ${values.warmup})`);
const maxWorkers = Number(values.max_workers);
if (!(Number.isInteger(maxWorkers) && maxWorkers >= 1))
  throw new Error(`--max_workers takes a positive integer (got ${values.max_workers})`);
const transport = values.worker_mode as "process" | "thread";
if (transport !== "process" && transport !== "thread")
  throw new Error(`--worker_mode takes process or thread (got ${values.worker_mode})`);
mkdirSync(values.out_dir!, { recursive: true });

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

interface BenchFigures {
  bench: Bench;
  questions: number;
  /** This process's CPU per question (ms): mean and p50. */
  cpuMeanMs: number;
  cpuP50Ms: number;
  /** The SQL child's CPU per question (ms, mean); null when it cannot be read. */
  sqlChildCpuMeanMs: number | null;
  wallP50Ms: number;
  wallP90Ms: number;
  /** sha256 (first 12 hex) of the answers in input order: equal digests = identical answers. */
  answersDigest: string;
  resultsFile: string;
  errors: number;
  /** The --max_workers pass on answer workers (absent with --max_workers 1). */
  threads?: ThreadFigures;
}

interface ThreadFigures {
  workers: number;
  wallP50Ms: number;
  wallP90Ms: number;
  /** Wall time of the whole pass (ms), worker start-up excluded. */
  passMs: number;
  /** CPU of this process and its running descendants (workers, SQL children) per question, start-up excluded. */
  cpuPerQuestionMs: number;
  /** 1-minute load average at the end of the pass (the machine is shared). */
  load: number;
  answersDigest: string;
  resultsFile: string;
  errors: number;
}

function readRecords(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** sha256 (first 12 hex) of the answers in input order. */
function answersDigest(records: Array<Record<string, unknown>>): string {
  const digest = createHash("sha256");
  for (const r of records) digest.update(`${String(r.question_id)}\t${String(r.agentic_tablerag_answer)}\n`);
  return digest.digest("hex").slice(0, 12);
}

async function measure(bench: Bench): Promise<BenchFigures> {
  const dataPath = join(values.data_dir!, bench, values.split!, "questions.jsonl");
  const indexPath = values.index!.replaceAll("{bench}", bench);
  if (!existsSync(join(indexPath, "manifest.json")))
    throw new Error(
      `${indexPath}: no index there (build it with atr build-index, or give --index "DIR/{bench}-index")`,
    );
  const all = loadQuestions(dataPath);
  const measured = all.slice(0, limit);
  const warm = all.slice(limit, limit + warmup);
  const configurable: ConfigurableInput = { indexPath: resolve(indexPath) };
  const config = ensureConfiguration({ configurable: configurable as Record<string, unknown> });
  await pinIndex(config);
  // The run name, tags and metadata `atr run` gives each question (LangChain copies them into every child run).
  const info: ExperimentInfo = {
    experiment: `bench-latency-${bench}-${values.split}`,
    dataset: bench,
    split: values.split!,
    config: { ...config },
    configHash: configHash({ ...config }),
    promptVersions: { prompts: PROMPTS_VERSION, constrained_sql: CONSTRAINED_SQL_PROMPT_VERSION },
    git: gitCommit(),
    indexPath: config.indexPath,
    tags: ["atr", bench, values.split!, "bench-latency"],
  };

  const perQuestion: Array<{ cpu: number; child: number | null; wall: number }> = [];
  const timed: AnswerFn = async (input, options) => {
    const child0 = descendantsCpuMs();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const result = await answerQuestion(input, {
      configurable: options.configurable as ConfigurableInput,
      runName: options.runName,
      tags: options.tags,
      metadata: options.metadata,
      recordRetrievals: options.trace !== false, // as `atr run` (cli/commands/run.ts)
    });
    const wall = performance.now() - t0;
    const cpu = cpuMs(process.cpuUsage(cpu0));
    const child1 = descendantsCpuMs();
    perQuestion.push({ cpu, wall, child: child0 === null || child1 === null ? null : child1 - child0 });
    return result;
  };
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "");
  if (warm.length > 0)
    await runBatch({
      questions: warm,
      answer: timed,
      outputPath: join(values.out_dir!, `${bench}-warmup-${stamp}.jsonl`),
      maxWorkers: 1,
      configurable: configurable as Record<string, unknown>,
      callOptions: (record) => questionRunOptions(info, record),
    });
  perQuestion.length = 0;
  const resultsFile = join(values.out_dir!, `${bench}-${values.split}-${stamp}.jsonl`);
  const summary = await runBatch({
    questions: measured,
    answer: timed,
    outputPath: resultsFile,
    maxWorkers: 1,
    configurable: configurable as Record<string, unknown>,
    callOptions: (record) => questionRunOptions(info, record),
  });
  const records = readRecords(resultsFile);
  const threads =
    maxWorkers > 1 ? await measureThreads(bench, configurable, config, measured, warm, info, stamp) : undefined;
  const cpu = stats(perQuestion.map((q) => q.cpu));
  const wall = stats(perQuestion.map((q) => q.wall));
  const child = perQuestion.every((q) => q.child !== null) ? stats(perQuestion.map((q) => q.child!)).mean : null;
  return {
    bench,
    questions: perQuestion.length,
    cpuMeanMs: Math.round(cpu.mean * 10) / 10,
    cpuP50Ms: Math.round(cpu.p50 * 10) / 10,
    sqlChildCpuMeanMs: child === null ? null : Math.round(child * 10) / 10,
    wallP50Ms: Math.round(wall.p50),
    wallP90Ms: Math.round(wall.p90),
    answersDigest: answersDigest(records),
    resultsFile,
    errors: summary.failed,
    ...(threads ? { threads } : {}),
  };
}

/** The same questions as `atr run --max_workers N` answers them: on N answer workers. */
async function measureThreads(
  bench: Bench,
  configurable: ConfigurableInput,
  config: ReturnType<typeof ensureConfiguration>,
  measured: ReturnType<typeof loadQuestions>,
  warm: ReturnType<typeof loadQuestions>,
  info: ExperimentInfo,
  stamp: string,
): Promise<ThreadFigures> {
  const index = await pinIndex(config);
  const threads = await startGraphWorkers({
    transport,
    workers: maxWorkers,
    ...(values.worker_node_flags !== undefined
      ? { nodeFlags: values.worker_node_flags.split(/\s+/).filter(Boolean) }
      : {}),
    configurable: configurable as Record<string, unknown>,
    config,
    ...(isOpenedIndex(index) ? { buildId: index.manifest.buildId } : {}),
    heapLimitMb: 0,
    flushTimeoutMs: 1000,
  });
  const batch = (questions: typeof measured, outputPath: string) =>
    runBatch({
      questions,
      answer: threads.answer,
      answerQueues: true,
      outputPath,
      maxWorkers,
      configurable: configurable as Record<string, unknown>,
      callOptions: (record) => questionRunOptions(info, record),
    });
  try {
    if (warm.length > 0) await batch(warm, join(values.out_dir!, `${bench}-${transport}-warmup-${stamp}.jsonl`));
    const resultsFile = join(values.out_dir!, `${bench}-${values.split}-${transport}${maxWorkers}-${stamp}.jsonl`);
    const tree = () => cpuMs(process.cpuUsage()) + (descendantsCpuMs() ?? 0);
    const cpu0 = tree();
    const t0 = performance.now();
    const summary = await batch(measured, resultsFile);
    const passMs = performance.now() - t0;
    const cpu = tree() - cpu0;
    const records = readRecords(resultsFile);
    const wall = stats(records.map((r) => Number((r.atr_stats as Record<string, unknown>).latency_ms)));
    return {
      workers: maxWorkers,
      wallP50Ms: Math.round(wall.p50),
      wallP90Ms: Math.round(wall.p90),
      passMs: Math.round(passMs),
      cpuPerQuestionMs: Math.round((cpu / Math.max(1, records.length)) * 10) / 10,
      load: Math.round(loadavg()[0]! * 10) / 10,
      answersDigest: answersDigest(records),
      resultsFile,
      errors: summary.failed,
    };
  } finally {
    await threads.close();
  }
}

const figures: BenchFigures[] = [];
try {
  for (const bench of benches) figures.push(await measure(bench));
} finally {
  await closeResources();
}
console.log(
  "| split | questions | CPU ms/question mean | CPU p50 | SQL child CPU ms/question | wall p50 | wall p90 | answers digest | errors |",
);
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |");
for (const f of figures)
  console.log(
    `| ${f.bench} ${values.split} | ${f.questions} | ${f.cpuMeanMs} | ${f.cpuP50Ms} | ${f.sqlChildCpuMeanMs ?? "n/a (no /proc)"} | ${f.wallP50Ms} | ${f.wallP90Ms} | ${f.answersDigest} | ${f.errors} |`,
  );
if (maxWorkers > 1) {
  console.log("");
  console.log(
    `| split | --max_workers (${transport}) | wall p50 ms | wall p90 ms | pass wall s | CPU ms/question (process tree) | CPU p50 ms, 1 question alone | load (1 min) | answers digest | errors |`,
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |");
  for (const f of figures) {
    const t = f.threads!;
    console.log(
      `| ${f.bench} ${values.split} | ${t.workers} | ${t.wallP50Ms} | ${t.wallP90Ms} | ${(t.passMs / 1000).toFixed(1)} | ${t.cpuPerQuestionMs} | ${f.cpuP50Ms} | ${t.load} | ${t.answersDigest}${t.answersDigest === f.answersDigest ? "" : " (differs!)"} | ${t.errors} |`,
    );
  }
}
for (const f of figures)
  console.log(`results ${f.bench}: ${f.resultsFile}${f.threads ? `, ${f.threads.resultsFile}` : ""}`);
console.log(JSON.stringify({ split: values.split, limit, warmup, maxWorkers, figures }));
