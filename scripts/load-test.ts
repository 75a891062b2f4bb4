/**
 * Load test over examples/ (loopback only, bounded in count and time; not part of `npm test`):
 *
 *   batch  — `atr run` over N questions (examples/questions.jsonl repeated with unique ids) with W
 *            workers: every record written once, in input order, no error, the same answer for every
 *            copy of a question, within the time bound.
 *   server — `langgraph dev` on a free 127.0.0.1 port, C concurrent `/runs/wait` runs: all complete
 *            with the expected answer, and `/ok` answers while they run.
 *
 *   npx tsx scripts/load-test.ts [--questions 2000] [--workers 8] [--concurrent 100] [--only batch|server]
 *                                [--max_minutes 30]
 *
 * Prints one JSON summary line per part; exit 1 when a check fails.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    questions: { type: "string", default: "2000" },
    workers: { type: "string", default: "8" },
    concurrent: { type: "string", default: "100" },
    only: { type: "string" },
    max_minutes: { type: "string", default: "30" },
  },
});
const N = Number(values.questions);
const W = Number(values.workers);
const C = Number(values.concurrent);
const BOUND_MS = Number(values.max_minutes) * 60_000;
for (const [name, v] of [
  ["questions", N],
  ["workers", W],
  ["concurrent", C],
  ["max_minutes", BOUND_MS],
] as const) {
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a positive integer`);
}

type Example = { question_id: string; question: string; table_id?: string };
const examples = readFileSync(join(ROOT, "examples/questions.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l) as Example);

/** Runs a child to completion within `ms` (killed with its process group after that). */
function runChild(
  cmd: string,
  args: string[],
  ms: number,
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((res) => {
    const child = spawn(cmd, args, { cwd: ROOT, env: cleanEnv(), detached: true });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => killGroup(child), ms);
    child.on("exit", (code) => {
      clearTimeout(timer);
      res({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, BROWSER: "none" };
  for (const k of Object.keys(env)) if (/^(LANGSMITH|LANGCHAIN)_/.test(k)) delete env[k];
  return env;
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // gone
  }
}

async function buildIndex(dir: string): Promise<string> {
  const index = join(dir, "index");
  const built = await runChild(
    process.execPath,
    [
      "bin/atr.js",
      "build-index",
      "--excel_dir",
      "examples/tables",
      "--doc_dir",
      "examples/docs",
      "--save_path",
      index,
      "--quiet",
    ],
    120_000,
  );
  if (built.code !== 0) throw new Error(`build-index failed: ${built.stderr}`);
  return index;
}

async function batch(dir: string, index: string): Promise<boolean> {
  const records = Array.from({ length: N }, (_, i) => {
    const e = examples[i % examples.length]!;
    return { ...e, question_id: `${e.question_id}#${Math.floor(i / examples.length)}` };
  });
  const data = join(dir, "questions.jsonl");
  writeFileSync(data, records.map((r) => JSON.stringify(r)).join("\n") + "\n");
  const run = await runChild(
    process.execPath,
    [
      "bin/atr.js",
      "run",
      "--data_file_path",
      data,
      "--index_path",
      index,
      "--save_file_path",
      join(dir, "out.jsonl"),
      "--max_workers",
      String(W),
      "--no_progress",
      "--question_timeout_ms",
      "60000",
    ],
    BOUND_MS,
  );
  const path = run.stdout.trim().split("\n").at(-1) ?? "";
  let written: Array<Record<string, unknown>> = [];
  try {
    written = readFileSync(path, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  } catch {
    // reported below
  }
  const inOrder = written.length === N && written.every((r, i) => r.question_id === records[i]!.question_id);
  const errors = written.filter((r) => r.error !== undefined).length;
  const answers = new Map<string, Set<string>>();
  for (const r of written) {
    const base = String(r.question_id).split("#")[0]!;
    answers.set(base, (answers.get(base) ?? new Set()).add(String(r.agentic_tablerag_answer)));
  }
  const stable = [...answers.values()].every((s) => s.size === 1);
  const ok = run.code === 0 && inOrder && errors === 0 && stable;
  console.log(
    JSON.stringify({
      part: "batch",
      ok,
      questions: N,
      workers: W,
      exit_code: run.code,
      records: written.length,
      in_input_order: inOrder,
      errors,
      same_answer_for_every_copy: stable,
      seconds: Math.round(run.ms / 100) / 10,
      questions_per_second: Math.round((N / (run.ms / 1000)) * 10) / 10,
      ...(ok ? {} : { stderr: run.stderr.slice(-2000) }),
    }),
  );
  return ok;
}

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once("error", rej);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
  });
}

async function server(index: string): Promise<boolean> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(
    "npx",
    ["langgraphjs", "dev", "--no-browser", "--host", "127.0.0.1", "--port", String(port), "--no-reload"],
    {
      cwd: ROOT,
      env: cleanEnv(),
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let log = "";
  child.stdout?.on("data", (d) => (log += String(d)));
  child.stderr?.on("data", (d) => (log += String(d)));
  try {
    const until = Date.now() + 120_000;
    for (;;) {
      if (Date.now() > until || child.exitCode !== null)
        throw new Error(`langgraph dev did not start:\n${log.slice(-2000)}`);
      try {
        if ((await fetch(`${base}/ok`)).ok) break;
      } catch {
        // not up yet
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    const withAnswers = examples.filter((e) => (e as { answer?: string[] }).answer?.length);
    const started = Date.now();
    const okLatencies: number[] = [];
    let running = true;
    const probe = (async () => {
      while (running) {
        const t = Date.now();
        const r = await fetch(`${base}/ok`).catch(() => undefined);
        okLatencies.push(r?.ok ? Date.now() - t : Infinity);
        await new Promise((res) => setTimeout(res, 250));
      }
    })();
    const deadline = AbortSignal.timeout(BOUND_MS);
    const results = await Promise.all(
      Array.from({ length: C }, async (_, i) => {
        const e = withAnswers[i % withAnswers.length]! as Example & { answer: string[] };
        try {
          const r = await fetch(`${base}/runs/wait`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              assistant_id: "atr",
              input: { question: e.question, ...(e.table_id ? { table_id: e.table_id } : {}) },
              config: { configurable: { indexPath: index }, recursion_limit: 80 },
            }),
            signal: deadline,
          });
          const body = (await r.json()) as Record<string, unknown>;
          return {
            completed: r.ok && typeof body.answer === "string",
            expected: body.answer === e.answer[0],
            error: body.__error__ ? JSON.stringify(body.__error__).slice(0, 200) : undefined,
          };
        } catch (error) {
          return { completed: false, expected: false, error: String(error).slice(0, 200) };
        }
      }),
    );
    const ms = Date.now() - started;
    running = false;
    await probe;
    const completed = results.filter((r) => r.completed).length;
    const sorted = okLatencies.filter(Number.isFinite).sort((a, b) => a - b);
    const ok = completed === C && okLatencies.every(Number.isFinite);
    console.log(
      JSON.stringify({
        part: "server",
        ok,
        concurrent_runs: C,
        completed,
        expected_answers: results.filter((r) => r.expected).length,
        seconds: Math.round(ms / 100) / 10,
        ok_probes: okLatencies.length,
        ok_probe_max_ms: sorted.at(-1) ?? null,
        ok_probe_median_ms: sorted[Math.floor(sorted.length / 2)] ?? null,
        errors: results
          .filter((r) => r.error)
          .slice(0, 3)
          .map((r) => r.error),
      }),
    );
    return ok;
  } finally {
    killGroup(child);
  }
}

const dir = mkdtempSync(join(tmpdir(), "atr-load-"));
let ok = true;
try {
  const index = await buildIndex(dir);
  if (values.only !== "server") ok = (await batch(dir, index)) && ok;
  if (values.only !== "batch") ok = (await server(index)) && ok;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);
