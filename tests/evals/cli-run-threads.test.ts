/**
 * `atr run` on answer threads through the real CLI over the examples/ corpus: the same records in
 * the same order as on the main thread, and Ctrl-C keeps what was written, leaves no thread behind
 * (the process exits) and `--rerun` answers only the rest.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, spawnAtr } from "../fixtures/spawn-atr.js";

let dir: string;
let index: string;

const read = (path: string) =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, any>);
/** A record without its timing (the one field that differs between two runs). */
const timeless = (r: Record<string, any>) => ({ ...r, atr_stats: { ...r.atr_stats, latency_ms: 0 } });
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

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "atr-cli-threads-"));
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

describe("atr run on answer threads", () => {
  it("writes the records the main thread writes, in input order", async () => {
    const threaded = await spawnAtr(
      runArgs(join(dir, "threads.jsonl"), "--max_workers", "2", "--emit_trace", "--answer_threads"),
      {},
      300_000,
    );
    expect(threaded.code, threaded.stderr).toBe(0);
    expect(threaded.stderr).toContain("answering on 2 worker threads");
    expect(threaded.stderr).toMatch(/2 answer thread\(s\): #1 \d+ q, heap ≤ \d+ MB; #2 \d+ q/);
    const inThread = await spawnAtr(
      runArgs(join(dir, "main.jsonl"), "--max_workers", "2", "--emit_trace"),
      {},
      300_000,
    );
    expect(inThread.code, inThread.stderr).toBe(0);
    expect(inThread.stderr).toContain(
      "answering on the main thread (the default; --answer_threads answers on worker threads)",
    );
    const a = read(threaded.stdout.trim());
    const b = read(inThread.stdout.trim());
    const ids = readFileSync(join(ROOT, "examples/questions.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).question_id);
    expect(a.map((r) => r.question_id)).toEqual(ids);
    expect(a.map(timeless)).toEqual(b.map(timeless));
  }, 900_000);

  it("Ctrl-C keeps the written records and exits (no thread left); --rerun answers only the rest", async () => {
    const child = spawn(
      process.execPath,
      [join(ROOT, "bin", "atr.js"), ...runArgs(join(dir, "int.jsonl"), "--max_workers", "2", "--answer_threads")],
      {
        cwd: ROOT,
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
    child.kill("SIGINT");
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    const code = await exited;
    clearTimeout(timer);
    expect(code, stderr).toBe(130);
    expect(stderr).toContain("interrupted — finishing the questions in flight");
    const kept = read(path);
    expect(kept.length).toBeGreaterThan(0);
    for (const r of kept) expect(r.error).toBeUndefined();
    const rerun = await spawnAtr(
      ["run", "--data_file_path", "examples/questions.jsonl", "--index_path", index, "--rerun", path, "--no_progress"],
      {},
      300_000,
    );
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain(`${kept.length} already done`);
    const all = read(path);
    expect(all).toHaveLength(read(join(ROOT, "examples/questions.jsonl")).length);
    for (const r of kept) expect(all.find((x) => x.question_id === r.question_id)).toEqual(r);
  }, 900_000);
});
