/**
 * `atr run` / `atr ask` refusals and limits (issue 10 §2, §6, §7, §10): duplicated question ids,
 * --rerun with another configuration, table ids the index lacks, invalid numeric flags, a corrupt
 * index, over-long questions and a per-question time limit that holds against synchronous work.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureConfiguration } from "../../graph/configuration.js";
import { checkQuestionLength, QuestionTooLongError } from "../../graph/question-limit.js";
import { DuplicateQuestionIdError, runBatch } from "../../evals/runner.js";
import { buildExampleIndex } from "../fixtures/example-index.js";
import { runCli } from "../fixtures/run-cli.js";

let index: { dir: string; cleanup(): void };
let work: string;
beforeAll(async () => {
  index = await buildExampleIndex();
  work = mkdtempSync(join(tmpdir(), "atr-run-hardening-"));
}, 60_000);
afterAll(() => index?.cleanup());

function questions(name: string, records: Array<Record<string, unknown>>): string {
  const path = join(work, name);
  writeFileSync(path, records.map((r) => JSON.stringify(r)).join("\n") + "\n");
  return path;
}
const readRecords = (path: string) =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, any>);
const run = (...argv: string[]) => runCli(["run", "--index_path", index.dir, "--no_progress", ...argv]);

describe("duplicated question ids", () => {
  it("are refused before any work, naming the ids and their items", async () => {
    const data = questions("dup.jsonl", [
      { question_id: "q1", question: "Who manages Dunmere FC?" },
      { question_id: "q2", question: "What is the population of Brookhaven?" },
      { question_id: "q1", question: "Which club plays at Mill Lane?" },
    ]);
    const out = join(work, "dup-out.jsonl");
    const r = await run("--data_file_path", data, "--save_file_path", out);
    expect(r.code).toBe(2);
    expect(r.err).toContain('1 question_id value(s) occur more than once: "q1" (items 1, 3)');
    expect(readdirSync(work).filter((f) => f.startsWith("dup-out"))).toEqual([]);
    // The runner itself refuses too (for scripts that call it directly), with the list attached.
    const error = await runBatch({
      questions: readRecords(data) as never,
      answer: async () => ({ answer: "x" }),
      outputPath: join(work, "never.jsonl"),
    }).catch((e) => e);
    expect(error).toBeInstanceOf(DuplicateQuestionIdError);
    expect(error.duplicates).toEqual([{ id: "q1", items: [1, 3] }]);
    expect(existsSync(join(work, "never.jsonl"))).toBe(false);
  });
});

describe("--rerun keeps one configuration per file", () => {
  it("records carry the configuration hash; resuming with another configuration is refused, the same one resumes", async () => {
    const data = questions("rerun.jsonl", [
      { question_id: "a", question: "Who manages Dunmere FC?", table_id: "clubs" },
      { question_id: "b", question: "What is the population of Brookhaven?", table_id: "cities" },
    ]);
    const first = await run(
      "--data_file_path",
      data,
      "--save_file_path",
      join(work, "rerun-out.jsonl"),
      "--limit",
      "1",
    );
    expect(first.code, first.err).toBe(0);
    const path = first.out.trim();
    const hash = readRecords(path)[0]!.atr_stats.config_hash;
    expect(hash).toMatch(/^[0-9a-f]{12}$/);
    const other = await run("--data_file_path", data, "--rerun", path, "--max_iter", "2");
    expect(other.code).toBe(2);
    expect(other.err).toMatch(
      new RegExp(
        `was written with configuration ${hash}, this run has [0-9a-f]{12} \\(atr_stats.config_hash\\): rerun with the same flags`,
      ),
    );
    expect(readRecords(path)).toHaveLength(1);
    const same = await run("--data_file_path", data, "--rerun", path);
    expect(same.code, same.err).toBe(0);
    expect(readRecords(path).map((r) => [r.question_id, r.atr_stats.config_hash])).toEqual([
      ["a", hash],
      ["b", hash],
    ]);
  });
});

describe("flags and table ids", () => {
  it.each([
    [["--max_workers", "0"], "--max_workers takes an integer ≥ 1, not 0"],
    [["--max_workers", "-3"], "--max_workers takes an integer ≥ 1, not -3"],
    [["--max_workers", "1.5"], "--max_workers takes an integer ≥ 1, not 1.5"],
    [["--limit", "-1"], "--limit takes an integer ≥ 0, not -1"],
    [["--question_timeout_ms", "-5"], "--question_timeout_ms takes a number ≥ 0, not -5"],
    [["--baseline_top_k", "0"], "--baseline_top_k takes an integer ≥ 1, not 0"],
    [["--max_iter", "0"], "maxIter"],
    [["--max_question_chars", "0"], "maxQuestionChars"],
  ])("atr run %j is a usage error", async (flags, message) => {
    const data = questions("flags.jsonl", [{ question_id: "a", question: "Who manages Dunmere FC?" }]);
    const r = await run("--data_file_path", data, "--save_file_path", join(work, "flags-out.jsonl"), ...flags);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
  });

  it("a table_id naming no table of the index is refused by run (all of them listed) and ask", async () => {
    const data = questions("tables.jsonl", [
      { question_id: "a", question: "Who manages Dunmere FC?", table_id: "clubs" },
      { question_id: "b", question: "x?", table_id: "nope" },
      { question_id: "c", question: "y?", table_id: "nope" },
    ]);
    const r = await run("--data_file_path", data, "--save_file_path", join(work, "tables-out.jsonl"));
    expect(r.code).toBe(2);
    expect(r.err).toContain(`table_id "nope" (items 2, 3) name no table of ${index.dir}`);
    const ask = await runCli(["ask", "Who manages Dunmere FC?", "--index_path", index.dir, "--table_id", "nope"]);
    expect(ask.code).toBe(2);
    expect(ask.err).toContain(`--table_id nope: not a table of ${index.dir} (tables: cities, clubs`);
  });
});

describe("a broken run exits non-zero", () => {
  it("a corrupt index stops the run before any question, naming the problem", async () => {
    const broken = join(work, "broken-index");
    cpSync(index.dir, broken, { recursive: true });
    writeFileSync(join(broken, "tables.sqlite"), "not a database");
    const data = questions("broken.jsonl", [{ question_id: "a", question: "Who manages Dunmere FC?" }]);
    const r = await runCli([
      "run",
      "--index_path",
      broken,
      "--no_progress",
      "--data_file_path",
      data,
      "--save_file_path",
      join(work, "broken-out.jsonl"),
    ]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/tables\.sqlite/);
  });

  it("every question failing exits 1 and says so; the records are written", async () => {
    const data = questions("allfail.jsonl", [
      { question_id: "a", question: "Who manages Dunmere FC?" },
      { question_id: "b", question: "What is the population of Brookhaven?" },
    ]);
    const r = await run(
      "--data_file_path",
      data,
      "--save_file_path",
      join(work, "allfail-out.jsonl"),
      "--max_question_chars",
      "5",
    );
    expect(r.code).toBe(1);
    expect(r.err).toContain("every question failed (2 error records)");
    expect(readRecords(r.out.trim()).map((rec) => rec.error)).toEqual([
      expect.stringMatching(/^QuestionTooLongError: question is 23 characters long, over the limit of 5/),
      expect.stringMatching(/^QuestionTooLongError: question is 37 characters long/),
    ]);
  });
});

describe("question length and time limits", () => {
  it("an over-long question becomes an error record at once; the small one beside it is answered", async () => {
    const data = questions("long.jsonl", [
      { question_id: "big", question: "Who manages Dunmere FC? ".repeat(40_000) },
      { question_id: "small", question: "Who manages Dunmere FC?", table_id: "clubs" },
    ]);
    const started = Date.now();
    const r = await run(
      "--data_file_path",
      data,
      "--save_file_path",
      join(work, "long-out.jsonl"),
      "--question_timeout_ms",
      "30000",
    );
    expect(r.code, r.err).toBe(0);
    expect(Date.now() - started).toBeLessThan(30_000);
    const [big, small] = readRecords(r.out.trim());
    expect(big!.error).toMatch(
      /^QuestionTooLongError: question is 960000 characters long, over the limit of 4000 \(maxQuestionChars, --max_question_chars\)/,
    );
    expect(small!.agentic_tablerag_answer).toBe("Oskar Lind");
    expect(() => checkQuestionLength("x".repeat(4001), ensureConfiguration({}))).toThrow(QuestionTooLongError);
    expect(() => checkQuestionLength("x".repeat(4000), ensureConfiguration({}))).not.toThrow();
  });

  it("the per-question limit holds even when the answer blocks the event loop (the timer cannot fire)", async () => {
    const out = join(work, "timeout.jsonl");
    const summary = await runBatch({
      questions: [
        { question_id: "slow", question: "slow?" },
        { question_id: "fast", question: "fast?" },
      ],
      answer: async (input) => {
        if (input.question_id === "slow") {
          const until = Date.now() + 400;
          while (Date.now() < until); // synchronous work
        }
        return { answer: `done ${input.question_id}` };
      },
      outputPath: out,
      questionTimeoutMs: 100,
      maxWorkers: 1,
      fsync: false,
    });
    expect(summary.failed).toBe(1);
    expect(readRecords(out).map((r) => [r.question_id, r.error ?? r.agentic_tablerag_answer])).toEqual([
      ["slow", "QuestionTimeoutError: question timed out after 100 ms (--question_timeout_ms)"],
      ["fast", "done fast"],
    ]);
  });
});

describe("unknown configuration keys", () => {
  it("are refused naming the key (and the field meant); LangGraph's and LangSmith's own keys pass", () => {
    expect(() => ensureConfiguration({ configurable: { maxIters: 3 } })).toThrow(
      /unknown configuration key maxIters; the fields are indexPath/,
    );
    expect(() => ensureConfiguration({ configurable: { max_iter: 3 } })).toThrow(/max_iter \(did you mean maxIter\?\)/);
    expect(() => ensureConfiguration({ context: { routertype: "llm" } })).toThrow(
      /routertype \(did you mean routerType\?\)/,
    );
    const platform = {
      thread_id: "t",
      checkpoint_ns: "",
      checkpoint_id: "c",
      checkpoint_map: {},
      run_id: "r",
      assistant_id: "a",
      graph_id: "ATR",
      user_id: "u",
      __pregel_send: () => undefined,
      __pregel_scratchpad: {},
      langgraph_auth_user: {},
      langgraph_step: 1,
      langsmith_project: "p",
      "x-request-id": "1",
      "user-agent": "curl",
      maxIter: 2,
    };
    expect(ensureConfiguration({ configurable: platform }).maxIter).toBe(2);
  });
});
