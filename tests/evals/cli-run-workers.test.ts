/**
 * `atr run` on answer workers through the real CLI over the examples/ corpus: child processes and
 * threads write the records the main thread writes, in the same order; Ctrl-C sent to the whole
 * process group (as a terminal does) keeps what was written, leaves no child process behind, and
 * `--rerun` answers only the rest.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, spawnAtr } from "../fixtures/spawn-atr.js";
import { readRecords, timeless } from "../fixtures/run-records.js";

let dir: string;
let index: string;

const runArgs = (out: string, ...more: string[]) => [
  "run",
  "--data_file_path",
  "examples/questions.jsonl",
  "--index_path",
  index,
  "--save_file_path",
  out,
  "--no_progress",
  ...more,
];
/** The child processes' pids from the closing line (`#1 pid 123 …`). */
const workerPids = (stderr: string) => [...stderr.matchAll(/#\d+ pid (\d+) /g)].map((m) => Number(m[1]));
const running = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "atr-cli-workers-"));
  index = join(dir, "index");
  const built = await spawnAtr([
    "build-index",
    "--excel_dir",
    "examples/tables",
    "--doc_dir",
    "examples/docs",
    "--save_path",
    index,
  ]);
  expect(built.code, built.stderr).toBe(0);
}, 300_000);

describe("atr run on answer workers", () => {
  it("child processes and threads write the records the main thread writes, in input order", async () => {
    const inMain = await spawnAtr(runArgs(join(dir, "main.jsonl"), "--max_workers", "2", "--emit_trace"), {}, 300_000);
    expect(inMain.code, inMain.stderr).toBe(0);
    // 21 questions: the default (auto) does not start processes for so few.
    expect(inMain.stderr).toContain("answering on this process's main thread (21 questions: fewer than 50");
    const b = readRecords(inMain.stdout.trim());
    const ids = readRecords(join(ROOT, "examples/questions.jsonl")).map((q) => q.question_id);
    for (const mode of ["process", "thread"]) {
      const run = await spawnAtr(
        runArgs(join(dir, `${mode}.jsonl`), "--max_workers", "2", "--emit_trace", "--worker_mode", mode),
        {},
        300_000,
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(
        mode === "process" ? "answering on 2 child processes" : "answering on 2 worker threads",
      );
      expect(run.stderr).toMatch(
        mode === "process"
          ? /2 answer process\(es\): #1 pid \d+ \d+ q, heap ≤ \d+ MB, RSS ≤ \d+ MB; #2 pid \d+ \d+ q/
          : /2 answer thread\(s\): #1 \d+ q, heap ≤ \d+ MB; #2 \d+ q/,
      );
      const a = readRecords(run.stdout.trim());
      expect(a.map((r) => r.question_id)).toEqual(ids);
      expect(a.map(timeless)).toEqual(b.map(timeless));
      for (const pid of workerPids(run.stderr)) expect(running(pid)).toBe(false);
    }
  }, 900_000);

  it("Ctrl-C to the process group keeps the written records and leaves no child; --rerun answers only the rest", async () => {
    // Its own process group, so the test can send SIGINT to the whole group as a terminal does.
    const child = spawn(
      process.execPath,
      [
        join(ROOT, "bin", "atr.js"),
        ...runArgs(join(dir, "int.jsonl"), "--max_workers", "2", "--worker_mode", "process"),
      ],
      {
        cwd: ROOT,
        detached: true,
        env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(LANGSMITH|LANGCHAIN)_/.test(k))),
      },
    );
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    // Interrupt once the first record is on disk.
    let path = "";
    for (let i = 0; i < 1200 && !path; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const m = /writing (\S+\.jsonl)/.exec(stderr);
      if (m && existsSync(m[1]!) && readFileSync(m[1]!, "utf8").includes("\n")) path = m[1]!;
    }
    expect(path, stderr).not.toBe("");
    process.kill(-child.pid!, "SIGINT");
    const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 60_000);
    const code = await exited;
    clearTimeout(timer);
    expect(code, stderr).toBe(130);
    expect(stderr).toContain("interrupted — finishing the questions in flight");
    const pids = workerPids(stderr);
    expect(pids, stderr).toHaveLength(2);
    for (const pid of pids) expect(running(pid)).toBe(false);
    const kept = readRecords(path);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(21);
    for (const r of kept) expect(r.error, JSON.stringify(r)).toBeUndefined();
    const rerun = await spawnAtr(
      // Resumed on child processes too: only the questions the file lacks reach them.
      [
        "run",
        "--data_file_path",
        "examples/questions.jsonl",
        "--index_path",
        index,
        "--rerun",
        path,
        "--no_progress",
        "--worker_mode",
        "process",
      ],
      {},
      300_000,
    );
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain(`${kept.length} already done`);
    const perWorker = [...rerun.stderr.matchAll(/#\d+ pid \d+ (\d+) q/g)].map((m) => Number(m[1]));
    expect(perWorker.reduce((a, b) => a + b, 0)).toBe(21 - kept.length);
    const all = readRecords(path);
    expect(all).toHaveLength(21);
    for (const r of kept) expect(all.find((x) => x.question_id === r.question_id)).toEqual(r);
  }, 900_000);
});
