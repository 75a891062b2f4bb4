/**
 * Worker threads or child processes for `atr run --max_workers N` (docs/BENCHMARKS.md "Workers"):
 * for each, the start-up of one worker that loads the graph and opens the index (wall ms to ready,
 * CPU ms, memory it adds), and the IPC cost of one results record (a round trip, mean over
 * `--trips`). Threads are measured through evals/answer-thread-boot.js, processes through fork
 * with tsx, both running scripts/helpers/worker-mode-probe.ts.
 *
 *   npx tsx scripts/bench-worker-modes.ts [--index /tmp/s4/idx/wtq-index] [--record RESULTS.jsonl]
 *     [--repeat 2] [--trips 200]
 *
 * --record: a results file whose median-sized record is sent (default: a synthetic 28 KB record,
 * the median of a WTQ dev run with --emit_trace).
 */
import { fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Worker } from "node:worker_threads";

const { values } = parseArgs({
  options: {
    index: { type: "string", default: "/tmp/s4/idx/wtq-index" },
    record: { type: "string" },
    repeat: { type: "string", default: "2" },
    trips: { type: "string", default: "200" },
  },
});
const PROBE = fileURLToPath(new URL("./helpers/worker-mode-probe.ts", import.meta.url));
const BOOT = fileURLToPath(new URL("../evals/answer-thread-boot.js", import.meta.url));
const trips = Number(values.trips);

function sampleRecord(): Record<string, unknown> {
  if (values.record) {
    const lines = readFileSync(values.record, "utf8")
      .split("\n")
      .filter(Boolean)
      .sort((a, b) => a.length - b.length);
    return JSON.parse(lines[Math.floor(lines.length / 2)]!) as Record<string, unknown>;
  }
  const decisions = Array.from({ length: 12 }, (_, i) => ({
    sub_query: `which row has the largest value number ${i}?`,
    attempt: i + 1,
    requested_route: "SQL",
    effective_route: "SQL",
    produced_answer: `answer ${i}`,
    accepted: false,
    sql: `SELECT "c_${i}" FROM "t_${i}" WHERE "c_${i}__raw" = 'x' ORDER BY 1 DESC LIMIT 1`,
    rows: Array.from({ length: 10 }, (_, r) => ({ row: r, value: `cell ${r} of table ${i}` })),
    features: Object.fromEntries(Array.from({ length: 40 }, (_, f) => [`f${f}`, f / 7])),
  }));
  return {
    question_id: "synthetic",
    question: "q?",
    agentic_tablerag_answer: "a",
    atr_trace: { verifier_decisions: decisions },
  };
}

function procStat(pid: number): { cpuMs: number; rssMb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return { cpuMs: ((Number(f[11]) + Number(f[12])) * 1000) / 100, rssMb: rssKb / 1024 };
}

interface Figures {
  mode: "thread" | "process";
  readyMs: number;
  cpuMs: number;
  addedRssMb: number;
  roundTripMs: number;
  load: number;
}

async function measure(mode: "thread" | "process", record: Record<string, unknown>): Promise<Figures> {
  const rss0 = procStat(process.pid).rssMb;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let send: (m: unknown) => void;
  let onMessage: (handler: (m: unknown) => void) => void;
  let stop: () => Promise<void>;
  let childPid = 0;
  if (mode === "thread") {
    const w = new Worker(BOOT, { workerData: { entry: PROBE, payload: { indexPath: values.index } } });
    send = (m) => w.postMessage(m);
    onMessage = (h) => w.on("message", h);
    stop = async () => void (await w.terminate());
  } else {
    const c = fork(PROBE, [], {
      execArgv: ["--import", "tsx"],
      env: { ...process.env, PROBE: JSON.stringify({ indexPath: values.index }) },
    });
    childPid = c.pid!;
    send = (m) => c.send(m as never);
    onMessage = (h) => c.on("message", h);
    stop = () => new Promise((r) => (c.once("exit", () => r()), c.kill("SIGKILL")));
  }
  let next: ((m: unknown) => void) | undefined;
  onMessage((m) => next?.(m));
  const receive = () => new Promise<unknown>((r) => (next = r));
  const ready = await receive();
  if (ready !== "ready") throw new Error(`probe said ${JSON.stringify(ready)}`);
  const readyMs = performance.now() - t0;
  const own = process.cpuUsage(cpu0);
  const child = childPid ? procStat(childPid) : { cpuMs: 0, rssMb: 0 };
  const cpuMs = (own.user + own.system) / 1000 + child.cpuMs;
  const addedRssMb = procStat(process.pid).rssMb - rss0 + child.rssMb;
  const t1 = performance.now();
  for (let i = 0; i < trips; i++) {
    send(record);
    await receive();
  }
  const roundTripMs = (performance.now() - t1) / trips;
  await stop();
  return { mode, readyMs, cpuMs, addedRssMb, roundTripMs, load: loadavg()[0]! };
}

const record = sampleRecord();
const rows: Figures[] = [];
for (let i = 0; i < Number(values.repeat); i++)
  for (const mode of ["thread", "process"] as const) rows.push(await measure(mode, record));
console.log(`record: ${JSON.stringify(record).length} bytes of JSON; ${trips} round trips each`);
console.log(
  "| worker | ready (wall ms) | start-up CPU ms | memory added (MB) | IPC round trip per record (ms) | load (1 min) |",
);
console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
for (const r of rows)
  console.log(
    `| ${r.mode} | ${Math.round(r.readyMs)} | ${Math.round(r.cpuMs)} | ${Math.round(r.addedRssMb)} | ${r.roundTripMs.toFixed(2)} | ${r.load.toFixed(1)} |`,
  );
console.log(JSON.stringify(rows));
