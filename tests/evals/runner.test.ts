import { spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadQuestions } from "../../evals/dataset.js";
import { readResults, timestampedPath } from "../../evals/results-file.js";
import { runBatch, type AnswerFn } from "../../evals/runner.js";

function questionsFile(dir: string, n: number, extra: (i: number) => Record<string, unknown> = () => ({})): string {
  const path = join(dir, "questions.jsonl");
  const lines = Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      question_id: `q${i}`,
      question: `question ${i}?`,
      table_id: `t${i % 7}`,
      answer: [`${i}`],
      ...extra(i),
    }),
  );
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

const lines = (path: string) =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "");

describe("runBatch", () => {
  it("writes input fields + answer in input order, turns one exception into an error record, passes identity only", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atr-run-"));
    const questions = loadQuestions(questionsFile(dir, 20));
    const seen: unknown[] = [];
    const answer: AnswerFn = async (input, opts) => {
      seen.push({ input, opts });
      await new Promise((r) => setTimeout(r, (20 - Number(input.question_id!.slice(1))) * 2)); // finish out of order
      if (input.question_id === "q7") throw new Error("boom");
      return {
        answer: `ans ${input.question_id}`,
        usage: { llmCalls: 3, totalTokens: 100 },
        trace: { final_answer: "x" },
        routes: ["SQL"],
      };
    };
    const out = join(dir, "out.jsonl");
    const summary = await runBatch({
      questions,
      answer,
      outputPath: out,
      maxWorkers: 3,
      emitTrace: true,
      configurable: { maxIter: 2 },
    });
    const records = lines(out).map((l) => JSON.parse(l));
    expect(records.map((r) => r.question_id)).toEqual(questions.map((q) => q.question_id));
    expect(records[0]).toMatchObject({
      question: "question 0?",
      table_id: "t0",
      answer: ["0"],
      agentic_tablerag_answer: "ans q0",
      atr_trace: { final_answer: "x" },
    });
    expect(records[0].atr_stats).toMatchObject({ llm_calls: 3, tokens: 100, routes: ["SQL"] });
    expect(records[7]).toMatchObject({ agentic_tablerag_answer: "error", error: "Error: boom" });
    expect(summary).toMatchObject({ total: 20, answered: 20, failed: 1, llmCalls: 57, tokens: 1900 });
    // The answer function never sees the gold answer, and gets the configurable.
    expect(seen[0]).toMatchObject({
      input: { question: expect.any(String), table_id: expect.any(String) },
      opts: { configurable: { maxIter: 2 } },
    });
    expect(JSON.stringify((seen[0] as { input: unknown }).input)).not.toContain("answer");
  });

  it("records whether the answer was verified and the failures the graph fell back on", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atr-run-"));
    const answer: AnswerFn = async (input) =>
      input.question_id === "q0"
        ? { answer: "x", answerVerified: false, errors: ["gather: document retrieval failed: vector file unreadable"] }
        : { answer: "y", answerVerified: true, errors: [] };
    const out = join(dir, "o.jsonl");
    await runBatch({ questions: loadQuestions(questionsFile(dir, 2)), answer, outputPath: out });
    const [first, second] = lines(out).map((l) => JSON.parse(l));
    expect(first.atr_stats).toMatchObject({
      answer_verified: false,
      errors: ["gather: document retrieval failed: vector file unreadable"],
    });
    expect(second.atr_stats.answer_verified).toBe(true);
    expect(second.atr_stats).not.toHaveProperty("errors");
  });

  it("never runs more than max_workers questions at once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atr-run-"));
    let active = 0;
    let peak = 0;
    const answer: AnswerFn = async () => {
      peak = Math.max(peak, ++active);
      await new Promise((r) => setTimeout(r, 3));
      active--;
      return { answer: "x" };
    };
    await runBatch({
      questions: loadQuestions(questionsFile(dir, 30)),
      answer,
      outputPath: join(dir, "o.jsonl"),
      maxWorkers: 2,
    });
    expect(peak).toBe(2);
  });

  it("resumes by question_id: repairs a truncated last line, answers only what is missing, keeps duplicate question texts apart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atr-run-"));
    // Two questions share a text and have no id: resume must count them, not skip both.
    const path = join(dir, "q.json");
    writeFileSync(
      path,
      JSON.stringify([
        { question_id: "a", question: "one?" },
        { question: "same?" },
        { question: "same?" },
        { question_id: "b", question: "two?" },
      ]),
    );
    const questions = loadQuestions(path);
    const out = join(dir, "out.jsonl");
    writeFileSync(out, `${JSON.stringify({ question: "same?", agentic_tablerag_answer: "old" })}\n`);
    appendFileSync(out, `{"question_id": "b", "question": "two?", "agentic_tabl`); // killed mid-write
    const calls: string[] = [];
    const summary = await runBatch({
      questions,
      outputPath: out,
      resume: true,
      answer: async (input) => {
        calls.push(input.question_id ?? input.question);
        return { answer: "new" };
      },
    });
    expect(summary.repairedBytes).toBeGreaterThan(0);
    expect(calls.sort()).toEqual(["a", "b", "same?"]);
    const records = lines(out).map((l) => JSON.parse(l));
    expect(records.map((r) => [r.question_id ?? null, r.question])).toEqual([
      ["a", "one?"],
      [null, "same?"],
      [null, "same?"],
      ["b", "two?"],
    ]);
    expect(records.map((r) => r.agentic_tablerag_answer).sort()).toEqual(["new", "new", "new", "old"]);
  });

  it("with retry_errors re-answers error records and keeps the real answer only", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atr-run-"));
    const questions = loadQuestions(questionsFile(dir, 3));
    const out = join(dir, "out.jsonl");
    let fail = true;
    const answer: AnswerFn = async (input) => {
      if (fail && input.question_id === "q1") throw new Error("rate limited");
      return { answer: `ok ${input.question_id}` };
    };
    await runBatch({ questions, answer, outputPath: out });
    fail = false;
    const again = await runBatch({ questions, answer, outputPath: out, resume: true, retryErrors: true });
    expect(again).toMatchObject({ answered: 1, skipped: 2, droppedDuplicates: 1 });
    expect(lines(out).map((l) => JSON.parse(l).agentic_tablerag_answer)).toEqual(["ok q0", "ok q1", "ok q2"]);
  });

  it("times out a hung question into an error record and aborts its signal", async () => {
    const signals: AbortSignal[] = [];
    const dir = mkdtempSync(join(tmpdir(), "atr-run-"));
    const out = join(dir, "out.jsonl");
    await runBatch({
      questions: loadQuestions(questionsFile(dir, 2)),
      outputPath: out,
      questionTimeoutMs: 50,
      answer: (input, opts) => {
        if (input.question_id !== "q0") return Promise.resolve({ answer: "fast" });
        signals.push(opts.signal!);
        return new Promise(() => {});
      },
    });
    expect(signals[0]!.aborted).toBe(true);
    const records = lines(out).map((l) => JSON.parse(l));
    expect(records[0]).toMatchObject({
      agentic_tablerag_answer: "error",
      error: expect.stringMatching(/timed out after 50 ms/),
    });
    expect(records[1].agentic_tablerag_answer).toBe("fast");
  });

  it("SIGKILL in the middle of a 400-question run, then --rerun: exactly 400 records, none duplicated or broken, input order", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atr-kill-"));
    const qpath = questionsFile(dir, 400);
    const out = join(dir, "out.jsonl");
    const child = join(import.meta.dirname, "helpers", "slow-batch-child.ts");
    const first = spawn(process.execPath, ["--import", "tsx", child, qpath, out, "fresh", "20"], { stdio: "ignore" });
    // Kill once a good part (but not all) is written.
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        let n = 0;
        try {
          n = readFileSync(out, "utf8").split("\n").length - 1;
        } catch {
          /* not created yet */
        }
        if (n >= 60) {
          clearInterval(timer);
          first.kill("SIGKILL");
          resolve();
        }
      }, 5);
      first.on("exit", (code) => {
        clearInterval(timer);
        if (code === 0) reject(new Error("the child finished before it could be killed"));
      });
    });
    await new Promise((r) => first.once("exit", r).once("close", r));
    const partial = readResults(out);
    expect(partial.records.length).toBeGreaterThan(0);
    expect(partial.records.length).toBeLessThan(400);
    // Simulate the worst case as well: a line cut in the middle by the kill.
    appendFileSync(out, `{"question_id": "q399", "quest`);

    const second = spawn(process.execPath, ["--import", "tsx", child, qpath, out, "resume", "1"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let stdout = "";
    second.stdout.on("data", (d) => (stdout += d));
    const code = await new Promise((r) => second.on("exit", r));
    expect(code).toBe(0);
    const summary = JSON.parse(stdout.trim().split("\n").pop()!);
    expect(summary.repairedBytes).toBeGreaterThan(0);
    expect(summary.skipped + summary.answered).toBe(400);
    expect(summary.skipped).toBe(partial.records.length);

    const text = readFileSync(out, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    const records = text
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l));
    expect(records).toHaveLength(400);
    expect(records.map((r) => r.question_id)).toEqual(Array.from({ length: 400 }, (_, i) => `q${i}`));
    expect(new Set(records.map((r) => r.question_id)).size).toBe(400);
    for (const r of records) expect(r.agentic_tablerag_answer).toBe(`A:${r.question_id}`);
  });
});

describe("output file naming and progress", () => {
  it("stamps the save path as <dir>/<stem>_<YYYYMMDD_HHMMSS><ext> and never reuses a file", () => {
    const dir = mkdtempSync(join(tmpdir(), "atr-name-"));
    const when = new Date(2026, 10, 29, 9, 5, 7);
    const first = timestampedPath(join(dir, "wtq.jsonl"), when);
    expect(first).toBe(join(dir, "wtq_20261129_090507.jsonl"));
    writeFileSync(first, "");
    expect(timestampedPath(join(dir, "wtq.jsonl"), when)).toBe(join(dir, "wtq_20261129_090507_1.jsonl"));
    expect(timestampedPath(join(dir, "run"), when)).toBe(join(dir, "run_20261129_090507.jsonl"));
  });
});
