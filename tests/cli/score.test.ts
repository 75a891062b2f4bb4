/** `atr score` usage errors, in-process. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../fixtures/run-cli.js";

describe("atr score", () => {
  it("a --pred file that does not exist is a usage error naming it, not a score of 0", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atr-score-"));
    const gold = join(dir, "gold.jsonl");
    writeFileSync(gold, `${JSON.stringify({ question_id: "1", question: "q", answer: ["April"] })}\n`);
    const pred = join(dir, "results.jsonl");
    writeFileSync(pred, `${JSON.stringify({ question_id: "1", agentic_tablerag_answer: "April" })}\n`);
    const typo = join(dir, "resluts.jsonl");
    const r = await runCli(["score", "--bench", "hybridqa", "--gold", gold, "--pred", pred, "--pred", typo, "--json"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`--pred ${typo}: no such file`);
    const ok = await runCli(["score", "--bench", "hybridqa", "--gold", gold, "--pred", pred, "--json"]);
    expect(ok.code, ok.err).toBe(0);
    expect(JSON.parse(ok.out).official).toMatchObject({ em: 100 });
  });
});
