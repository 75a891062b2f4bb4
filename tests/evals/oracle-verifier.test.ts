import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { goldText, oracleChoice, oracleMatches, oracleNormalise } from "../../evals/oracle-verifier.js";
import { runBatch, type AnswerFn } from "../../evals/runner.js";
import { answerCandidates } from "../../graph/answer.js";

describe("oracle verifier (§8.6 diagnostic)", () => {
  it("takes the gold from answer-text, else answer, else answers, joining lists with spaces", () => {
    expect(goldText({ "answer-text": "Paris", answer: ["Lyon"] })).toBe("Paris");
    expect(goldText({ answer: ["New", "York"], answers: ["x"] })).toBe("New York");
    expect(goldText({ answers: ["1990", "1991"] })).toBe("1990 1991");
    expect(goldText({ answer: [], answers: "7" })).toBe("7");
    expect(goldText({ question: "q" })).toBeUndefined();
  });

  it("matches after normalisation: equal, one inside the other, or every gold token in the prediction", () => {
    expect(oracleNormalise("The  Dunmere F.C.!")).toBe("dunmere f c");
    expect(oracleMatches("the Dunmere FC", "Dunmere FC")).toBe(true);
    expect(oracleMatches("Dunmere", "Dunmere FC")).toBe(true); // prediction inside the gold
    expect(oracleMatches("1990 and 1991", "1991 1990")).toBe(true); // every gold token present
    expect(oracleMatches("Carrow", "Dunmere FC")).toBe(false);
    expect(oracleMatches("", "x")).toBe(false);
    expect(oracleMatches("the", "a")).toBe(false); // both empty once articles go
  });

  it("picks the first matching candidate in order, none when nothing matches", () => {
    expect(oracleChoice(["12", "Carrow", "carrow city"], "Carrow")).toBe("Carrow");
    expect(oracleChoice(["12", "13"], "Carrow")).toBeUndefined();
  });

  it("orders the graph's candidates final, best, steps, produced; distinct and non-empty", () => {
    const candidates = answerCandidates({
      answer: "A",
      bestAnswer: "B",
      steps: [
        { subQuery: "s", answer: "A", failed: false },
        { subQuery: "t", answer: "C", failed: true },
      ],
      trace: [{ produced_answer: "" }, { produced_answer: "D" }, { produced_answer: "B" }] as never,
    });
    expect(candidates).toEqual(["A", "B", "C", "D"]);
  });

  it("the runner writes the oracle's pick and keeps the system's answer beside it, only when asked", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atr-oracle-"));
    const questions = [
      { question_id: "hit", question: "who?", answer: ["Ann Lee"] },
      { question_id: "miss", question: "where?", answer: ["Carrow"] },
      { question_id: "nogold", question: "when?" },
    ];
    const answer: AnswerFn = async () => ({ answer: "not found", candidates: ["not found", "12", "ann lee"] });
    const read = (path: string) =>
      readFileSync(path, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));

    await runBatch({ questions, answer, outputPath: join(dir, "oracle.jsonl"), oracleVerifier: true, fsync: false });
    const [hit, miss, nogold] = read(join(dir, "oracle.jsonl"));
    expect(hit.agentic_tablerag_answer).toBe("ann lee");
    expect(hit.atr_stats.oracle_verifier).toEqual({ system_answer: "not found", matched: true });
    expect(miss.agentic_tablerag_answer).toBe("not found");
    expect(miss.atr_stats.oracle_verifier).toEqual({ system_answer: "not found", matched: false });
    expect(nogold.atr_stats.oracle_verifier).toEqual({ system_answer: "not found", matched: false, no_gold: true });

    await runBatch({ questions, answer, outputPath: join(dir, "plain.jsonl"), fsync: false });
    const plain = read(join(dir, "plain.jsonl"));
    expect(plain.map((r) => r.agentic_tablerag_answer)).toEqual(["not found", "not found", "not found"]);
    expect(plain.some((r) => "oracle_verifier" in r.atr_stats)).toBe(false);
  });
});
