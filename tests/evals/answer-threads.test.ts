/**
 * The batch runner over answer threads (evals/answer-threads.ts) with a fake thread entry
 * (helpers/fake-answer-thread.ts): records and their order as in-thread, a throwing question and a
 * dying thread become error records naming the question while the run goes on, a question that
 * never yields is timed out and its thread replaced, start-up failures stop before any question.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { AnswerThreadError, startAnswerThreads } from "../../evals/answer-threads.js";
import { runBatch } from "../../evals/runner.js";

const ENTRY = resolve(import.meta.dirname, "helpers", "fake-answer-thread.ts");
const dir = mkdtempSync(join(tmpdir(), "atr-threads-"));
const read = (path: string) =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, any>);
const questions = (ids: string[]) => ids.map((id) => ({ question_id: id, question: `question ${id}?` }));

describe("answer threads", () => {
  it("answer in input order on several threads; a throw and a dying thread are error records naming the question; the run goes on", async () => {
    const ids = ["q1", "q2", "throw1", "q3", "exit1", "q4", "q5", "q6", "q7", "q8"];
    const threads = await startAnswerThreads({ entry: ENTRY, payload: {}, threads: 2 });
    const out = join(dir, "mixed.jsonl");
    let summary;
    try {
      summary = await runBatch({
        questions: questions(ids),
        answer: threads.answer,
        answerQueues: true,
        outputPath: out,
        maxWorkers: 2,
        emitTrace: true,
        fsync: false,
      });
    } finally {
      var closed = await threads.close();
    }
    expect(summary.answered).toBe(10);
    expect(summary.failed).toBe(2);
    const records = read(out);
    expect(records.map((r) => r.question_id)).toEqual(ids);
    for (const r of records.filter((r) => r.question_id.startsWith("q"))) {
      expect(r.agentic_tablerag_answer).toBe(`A:${r.question_id}`);
      expect(r.atr_stats.llm_calls).toBe(1);
    }
    expect(records[2]!.error).toBe("TypeError: cannot answer throw1");
    expect(records[4]!.agentic_tablerag_answer).toBe("error");
    expect(records[4]!.error).toMatch(
      /^AnswerThreadError: answer thread \d stopped \(exit code 7\) while answering question exit1$/,
    );
    // Both threads answered, and the one that died was replaced.
    expect(new Set(records.filter((r) => r.atr_trace).map((r) => r.atr_trace.thread)).size).toBeGreaterThanOrEqual(2);
    expect(closed.restarts).toBe(1);
    expect(closed.perThread.reduce((n, t) => n + t.questions, 0)).toBe(9); // the exit never replied
  }, 60_000);

  it("times out a question that holds its thread's event loop, replaces the thread, and answers the rest", async () => {
    const threads = await startAnswerThreads({ entry: ENTRY, payload: {}, threads: 2, abortGraceMs: 200 });
    const out = join(dir, "spin.jsonl");
    const started = Date.now();
    try {
      await runBatch({
        questions: questions(["q1", "spin1", "slow2", "slow3", "slow4", "slow5"]),
        answer: threads.answer,
        answerQueues: true,
        outputPath: out,
        maxWorkers: 2,
        questionTimeoutMs: 1500,
        fsync: false,
      });
    } finally {
      var closed = await threads.close();
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
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);

  it("stops taking questions when the run is aborted: the written records stay, close() ends every thread", async () => {
    const threads = await startAnswerThreads({ entry: ENTRY, payload: {}, threads: 2 });
    const controller = new AbortController();
    const out = join(dir, "abort.jsonl");
    const ids = ["slow1", "slow2", "slow3", "slow4", "slow5", "slow6"];
    let summary;
    try {
      summary = await runBatch({
        questions: questions(ids),
        answer: threads.answer,
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
      await threads.close();
    }
    expect(summary.interrupted).toBe(true);
    const records = read(out);
    expect(records.length).toBeGreaterThanOrEqual(1);
    expect(records.length).toBeLessThan(ids.length);
    for (const r of records) expect(r.agentic_tablerag_answer).toBe(`A:${r.question_id}`);
    await expect(threads.answer({ question: "after?" }, { configurable: {} })).rejects.toThrow(AnswerThreadError);
  }, 60_000);

  it("refuses to start when a thread cannot open its resources, or opened another index build", async () => {
    await expect(startAnswerThreads({ entry: ENTRY, payload: { failStart: true }, threads: 2 })).rejects.toThrow(
      "the fake index cannot be opened",
    );
    await expect(
      startAnswerThreads({ entry: ENTRY, payload: { buildId: "build-b" }, threads: 1, buildId: "build-a" }),
    ).rejects.toThrow(/opened index build build-b, the run opened build-a/);
  }, 60_000);
});
