/**
 * `atr run` and `atr score` end to end through the real CLI (spawned), over the examples/ corpus
 * with the offline NaiveRAG baseline; and the bounded trace flush: with tracing on and an
 * unreachable LangSmith endpoint the process still exits promptly.
 */
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { spawnAtr } from "../fixtures/spawn-atr.js";
import { beforeAll, describe, expect, it } from "vitest";
import { normalizeSquad } from "../../evals/scoring/hybridqa.js";
import { oracleMatches } from "../../evals/oracle-verifier.js";

const ROOT = resolve(import.meta.dirname, "..", "..");

const atr = (args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 60_000) => spawnAtr(args, env, timeoutMs);

let dir: string;
let index: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "atr-cli-run-"));
  index = join(dir, "index");
  const built = await atr([
    "build-index",
    "--excel_dir",
    "examples/tables",
    "--doc_dir",
    "examples/docs",
    "--save_path",
    index,
  ]);
  expect(built.code, built.stderr).toBe(0);
});

describe("atr run / atr score (CLI)", () => {
  it("runs the offline NaiveRAG baseline over examples/, prints the stamped path, and scores it", async () => {
    const run = await atr([
      "run",
      "--data_file_path",
      "examples/questions.jsonl",
      "--index_path",
      index,
      "--save_file_path",
      join(dir, "out", "rag.jsonl"),
      "--baseline",
      "naive_rag",
      "--backbone",
      "offline",
      "--no_progress",
      "--emit_trace",
    ]);
    expect(run.code, run.stderr).toBe(0);
    const path = run.stdout.trim();
    expect(path).toMatch(/rag_\d{8}_\d{6}\.jsonl$/);
    expect(readdirSync(join(dir, "out"))).toHaveLength(1);
    const records = readFileSync(path, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const input = readFileSync(join(ROOT, "examples", "questions.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(records.map((r) => r.question_id)).toEqual(input.map((q) => q.question_id));
    expect(
      records.every((r) => typeof r.agentic_tablerag_answer === "string" && r.atr_trace?.baseline === "naive_rag"),
    ).toBe(true);

    const score = await atr([
      "score",
      "--bench",
      "hybridqa",
      "--gold",
      "examples/questions.jsonl",
      "--pred",
      path,
      "--json",
    ]);
    expect(score.code, score.stderr).toBe(0);
    const report = JSON.parse(score.stdout);
    expect(report.counts).toMatchObject({ gold: input.length, predicted: input.length, missing: 0 });
    // The reported EM is the mean of the per-question official scores.
    const em = records.filter(
      (r, i) => normalizeSquad(r.agentic_tablerag_answer) === normalizeSquad(String(input[i].answer[0])),
    ).length;
    expect(em).toBeGreaterThan(0);
    expect(report.official.em).toBeCloseTo((100 * em) / input.length, 1);
  });

  it("exits promptly with LangSmith tracing on and an unreachable endpoint (bounded flush)", async () => {
    const run = await atr(
      [
        "run",
        "--data_file_path",
        "examples/questions.jsonl",
        "--index_path",
        index,
        "--limit",
        "3",
        "--save_file_path",
        join(dir, "traced.jsonl"),
        "--baseline",
        "naive_rag",
        "--backbone",
        "offline",
        "--no_progress",
        "--flush_timeout_ms",
        "1500",
      ],
      {
        LANGSMITH_TRACING: "true",
        LANGSMITH_ENDPOINT: "http://127.0.0.1:9",
        LANGSMITH_API_KEY: "test-key-not-real",
        LANGSMITH_PROJECT: "atr-test",
      },
      30_000,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.ms).toBeLessThan(20_000);
    expect(run.stderr).toMatch(/trace upload did not finish within 1500 ms/);
    expect(readFileSync(run.stdout.trim(), "utf8").trim().split("\n")).toHaveLength(3);
  });

  it("runs the ATR graph (offline) with traces: route facts in atr_stats, §9.2 atr_trace, prompt exit while tracing", async () => {
    const run = await atr(
      [
        "run",
        "--data_file_path",
        "examples/questions.jsonl",
        "--index_path",
        index,
        "--limit",
        "4",
        "--emit_trace",
        "--save_file_path",
        join(dir, "graph.jsonl"),
        "--backbone",
        "offline",
        "--no_progress",
        "--flush_timeout_ms",
        "1000",
      ],
      { LANGSMITH_TRACING: "true", LANGSMITH_ENDPOINT: "http://127.0.0.1:9", LANGSMITH_API_KEY: "test-key-not-real" },
      60_000,
    );
    expect(run.code, run.stderr).toBe(0);
    const records = readFileSync(run.stdout.trim(), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(records).toHaveLength(4);
    for (const r of records) {
      expect(Array.isArray(r.atr_trace.verifier_decisions)).toBe(true);
      expect(r.atr_trace.final_answer).toBe(r.agentic_tablerag_answer);
      // attempts are the routes tried; alternative SQL plans are traced beside their attempt
      expect(r.atr_stats.attempts).toBe(
        r.atr_trace.verifier_decisions.filter((d: { alternative?: boolean }) => !d.alternative).length,
      );
      if (r.atr_stats.attempts > 0)
        expect(["TEXT", "RETRIEVE", "SQL", "HYBRID"]).toContain(r.atr_stats.first_requested_route);
    }
  });

  it("--oracle_verifier answers with a produced answer matching the gold, keeps the system's answer and trace, and score says so", async () => {
    const run = await atr([
      "run",
      "--data_file_path",
      "examples/questions.jsonl",
      "--index_path",
      index,
      "--emit_trace",
      "--oracle_verifier",
      "--save_file_path",
      join(dir, "oracle.jsonl"),
      "--backbone",
      "offline",
      "--no_progress",
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("--oracle_verifier reads the gold answers");
    const records = readFileSync(run.stdout.trim(), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const input = readFileSync(join(ROOT, "examples", "questions.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(records).toHaveLength(input.length);
    let systemRight = 0;
    let oracleRight = 0;
    records.forEach((r, i) => {
      const { system_answer: system, matched } = r.atr_stats.oracle_verifier;
      const gold = input[i].answer.join(" ");
      expect(r.atr_trace.final_answer).toBe(system); // the trace is the system's, as in the reference
      if (matched) expect(oracleMatches(r.agentic_tablerag_answer, gold)).toBe(true);
      else expect(r.agentic_tablerag_answer).toBe(system);
      if (oracleMatches(system, gold)) systemRight++;
      if (matched) oracleRight++;
    });
    expect(systemRight).toBeGreaterThan(0);
    expect(oracleRight).toBeGreaterThanOrEqual(systemRight);

    const score = await atr([
      "score",
      "--bench",
      "wtq",
      "--gold",
      "examples/questions.jsonl",
      "--pred",
      run.stdout.trim(),
    ]);
    expect(score.code, score.stderr).toBe(0);
    expect(score.stdout).toContain(`ORACLE VERIFIER: ${input.length} records were answered with the gold in hand`);
  });
});
