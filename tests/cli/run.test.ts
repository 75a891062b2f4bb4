/** `atr run` usage errors, in-process (the runs themselves: tests/evals/cli-run.test.ts). */
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../fixtures/run-cli.js";

describe("atr run", () => {
  it("a --rerun file that does not exist is a usage error, not a fresh run under that name", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atr-run-"));
    const questions = join(dir, "questions.jsonl");
    writeFileSync(questions, `${JSON.stringify({ question_id: "1", question: "Who manages Dunmere FC?" })}\n`);
    const typo = join(dir, "out", "naive_rag_2026.jsonl");
    const r = await runCli(["run", "--data_file_path", questions, "--index_path", join(dir, "index"), "--rerun", typo]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`--rerun ${typo}: no such results file`);
    expect(existsSync(join(dir, "out"))).toBe(false);
  });
});
