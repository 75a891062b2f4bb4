/**
 * The batch runner over answer workers (evals/answer-workers.ts), child processes and threads alike,
 * with a fake worker entry (helpers/fake-answer-worker.ts): records and their order as in-process, a
 * throwing question and a dying worker become error records naming the question while the run goes
 * on, a question that never yields is timed out and its worker replaced, an abort keeps the written
 * records and leaves no worker alive, start-up failures stop before any question.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { AnswerWorkerError, startAnswerWorkers, type WorkerTransport } from "../../evals/answer-workers.js";
import { runBatch } from "../../evals/runner.js";

const ENTRY = resolve(import.meta.dirname, "helpers", "fake-answer-worker.ts");
const dir = mkdtempSync(join(tmpdir(), "atr-workers-"));
const read = (path: string) =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, any>);
const questions = (ids: string[]) => ids.map((id) => ({ question_id: id, question: `question ${id}?` }));
/** Whether the process runs (a zombie — killed, not yet reaped by its new parent — does not). */
const alive = (pid: number) => {
  if (!existsSync("/proc/self/stat")) {
    try {
      return process.kill(pid, 0);
    } catch {
      return false;
    }
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
};

describe.each<WorkerTransport>(["process", "thread"])("answer workers (%s)", (transport) => {
  const noun = transport === "process" ? "answer process \\d \\(pid \\d+\\)" : "answer thread \\d";

  it("answer in input order on several workers; a throw, an exit and an uncaught error are error records naming the question; the run goes on", async () => {
    const ids = ["q1", "q2", "throw1", "q3", "exit1", "q4", "crash1", "q5", "q6", "q7", "q8"];
    const workers = await startAnswerWorkers({ transport, entry: ENTRY, payload: {}, workers: 2 });
    const out = join(dir, `mixed-${transport}.jsonl`);
    let summary;
    let closed;
    try {
      summary = await runBatch({
        questions: questions(ids),
        answer: workers.answer,
        answerQueues: true,
        outputPath: out,
        maxWorkers: 2,
        emitTrace: true,
        fsync: false,
      });
    } finally {
      closed = await workers.close();
    }
    expect(summary.answered).toBe(11);
    expect(summary.failed).toBe(3);
    const records = read(out);
    expect(records.map((r) => r.question_id)).toEqual(ids);
    for (const r of records.filter((r) => r.question_id.startsWith("q"))) {
      expect(r.agentic_tablerag_answer).toBe(`A:${r.question_id}`);
      expect(r.atr_stats.llm_calls).toBe(1);
    }
    expect(records[2]!.error).toBe("TypeError: cannot answer throw1");
    expect(records[4]!.agentic_tablerag_answer).toBe("error");
    expect(records[4]!.error).toMatch(
      new RegExp(`^AnswerWorkerError: ${noun} stopped \\(exit code 7\\) while answering question exit1$`),
    );
    expect(records[6]!.error).toMatch(
      new RegExp(
        `^AnswerWorkerError: ${noun} stopped \\(RangeError: uncaught in crash1\\) while answering question crash1$`,
      ),
    );
    // Both workers answered, and the two that died were replaced.
    expect(new Set(records.filter((r) => r.atr_trace).map((r) => r.atr_trace.worker)).size).toBeGreaterThanOrEqual(2);
    expect(closed.restarts).toBe(2);
    expect(closed.transport).toBe(transport);
    expect(closed.perWorker.reduce((n, w) => n + w.questions, 0)).toBe(9); // the two that died never replied
    if (transport === "process") {
      for (const w of closed.perWorker) {
        expect(w.pid).toBeGreaterThan(0);
        expect(alive(w.pid!)).toBe(false);
        expect(w.peakRssMb).toBeGreaterThan(0);
      }
    }
  }, 120_000);

  it("times out a question that holds its worker's event loop, replaces the worker, and answers the rest", async () => {
    const workers = await startAnswerWorkers({ transport, entry: ENTRY, payload: {}, workers: 2, abortGraceMs: 200 });
    const out = join(dir, `spin-${transport}.jsonl`);
    const started = Date.now();
    let closed;
    try {
      await runBatch({
        questions: questions(["q1", "spin1", "slow2", "slow3", "slow4", "slow5"]),
        answer: workers.answer,
        answerQueues: true,
        outputPath: out,
        maxWorkers: 2,
        questionTimeoutMs: 1500,
        fsync: false,
      });
    } finally {
      closed = await workers.close();
    }
    const records = read(out);
    expect(records[1]!.error).toBe("QuestionTimeoutError: question timed out after 1500 ms (--question_timeout_ms)");
    expect(records.filter((r) => r.error === undefined).map((r) => r.agentic_tablerag_answer)).toEqual([
      "A:q1",
      "A:slow2",
      "A:slow3",
      "A:slow4",
      "A:slow5",
    ]);
    expect(closed.restarts).toBe(1);
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 120_000);

  it("stops taking questions when the run is aborted: the written records stay, close() ends every worker", async () => {
    const workers = await startAnswerWorkers({ transport, entry: ENTRY, payload: {}, workers: 2 });
    const controller = new AbortController();
    const out = join(dir, `abort-${transport}.jsonl`);
    const ids = ["slow1", "slow2", "slow3", "slow4", "slow5", "slow6"];
    let summary;
    let closed;
    try {
      summary = await runBatch({
        questions: questions(ids),
        answer: workers.answer,
        answerQueues: true,
        outputPath: out,
        maxWorkers: 2,
        signal: controller.signal,
        fsync: false,
        onProgress: (p) => {
          if (p.done === 1) controller.abort();
        },
      });
    } finally {
      closed = await workers.close();
    }
    expect(summary.interrupted).toBe(true);
    const records = read(out);
    expect(records.length).toBeGreaterThanOrEqual(1);
    expect(records.length).toBeLessThan(ids.length);
    for (const r of records) expect(r.agentic_tablerag_answer).toBe(`A:${r.question_id}`);
    await expect(workers.answer({ question: "after?" }, { configurable: {} })).rejects.toThrow(AnswerWorkerError);
    for (const w of closed.perWorker) if (w.pid !== undefined) expect(alive(w.pid)).toBe(false);
  }, 120_000);

  it("refuses to start when a worker cannot open its resources, or opened another index build", async () => {
    await expect(
      startAnswerWorkers({ transport, entry: ENTRY, payload: { failStart: true }, workers: 2 }),
    ).rejects.toThrow("the fake index cannot be opened");
    await expect(
      startAnswerWorkers({ transport, entry: ENTRY, payload: { buildId: "build-b" }, workers: 1, buildId: "build-a" }),
    ).rejects.toThrow(/opened index build build-b, the run opened build-a/);
  }, 120_000);
});

describe("answer processes", () => {
  it("a child killed from outside (SIGKILL) is its question's error record with the question id; the run goes on", async () => {
    const workers = await startAnswerWorkers({ transport: "process", entry: ENTRY, payload: {}, workers: 2 });
    const out = join(dir, "killed.jsonl");
    try {
      await runBatch({
        questions: questions(["q1", "kill1", "q2", "q3"]),
        answer: workers.answer,
        answerQueues: true,
        outputPath: out,
        maxWorkers: 2,
        fsync: false,
      });
    } finally {
      await workers.close();
    }
    const records = read(out);
    expect(records[1]!.error).toMatch(
      /^AnswerWorkerError: answer process \d \(pid \d+\) stopped \(signal SIGKILL\) while answering question kill1$/,
    );
    expect(records.filter((r) => !r.error).map((r) => r.agentic_tablerag_answer)).toEqual(["A:q1", "A:q2", "A:q3"]);
  }, 120_000);

  it("leaves no child behind when the parent exits in the middle of a question (process.exit)", async () => {
    const script = resolve(import.meta.dirname, "helpers", "exit-with-workers.ts");
    const parent = spawn(process.execPath, ["--import", "tsx", script, ENTRY], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let stdout = "";
    parent.stdout.on("data", (d) => (stdout += d));
    const code = await new Promise<number | null>((r) => parent.on("exit", (c) => r(c)));
    expect(code).toBe(3);
    const pids = JSON.parse(stdout.trim()) as number[];
    expect(pids).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 200));
    for (const pid of pids) expect(alive(pid)).toBe(false);
  }, 120_000);
});
