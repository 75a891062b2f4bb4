/**
 * The cascade's cost with a chat model that answers every step correctly (tests/fixtures/gold-model.ts):
 * on a small HybridQA-like set over examples/ (a players table with linked player passages; the
 * questions are this test's own), every question costs at most 2 LLM calls with the cascade — the
 * one-call prompted tier, plus a verifier call only when the answer is not grounded in the offline
 * evidence — where the LLM-only loop pays decompose + answer + verify and more, and every answer is
 * the LLM-only run's.
 */
import { describe, expect, it } from "vitest";
import type { QuestionRecord } from "../../evals/dataset.js";
import { answerQuestion } from "../../graph/answer.js";
import { openIndex } from "../../indexing/open-index.js";
import { createGoldModel, isRight } from "../fixtures/gold-model.js";
import { scriptedBackbone, useExampleIndex } from "../fixtures/example-index.js";

const index = useExampleIndex();

const QUESTIONS: QuestionRecord[] = [
  // passage answers reached through a table row
  {
    question_id: "hq-1",
    question: "Which club did the Brookhaven United forward born in 2000 play for before joining?",
    table_id: "players",
    answer: ["Nordlys IF"],
  },
  {
    question_id: "hq-2",
    question: "What shirt number does the Ashford Rovers forward wear?",
    table_id: "players",
    answer: ["9"],
  },
  {
    question_id: "hq-3",
    question: "Before football, what did the Carrow Athletic goalkeeper train as?",
    table_id: "players",
    answer: ["pastry chef"],
  },
  // table answers
  { question_id: "hq-4", question: "How many goals did Kenji Sato score?", table_id: "players", answer: ["14"] },
  {
    question_id: "hq-5",
    question: "What is the nationality of Aleksi Virtanen?",
    table_id: "players",
    answer: ["Finland"],
  },
];

describe("cascade LLM calls with a model that answers every step correctly", () => {
  it("≤ 2 calls per question with the cascade, the LLM-only run's answers, fewer calls than LLM-only", async () => {
    const opened = await openIndex(index.dir);
    try {
      const gold = createGoldModel("hybridqa", QUESTIONS, opened.db);
      const backbone = scriptedBackbone(gold);
      const runAll = async (cascade: boolean) => {
        const out: Array<{ answer: string; calls: number; tier?: string }> = [];
        for (const q of QUESTIONS) {
          const r = await answerQuestion(
            { question: String(q.question), question_id: String(q.question_id), table_id: String(q.table_id) },
            { configurable: { indexPath: index.dir, backbone, cascade } },
          );
          out.push({ answer: r.answer, calls: r.usage.llmCalls, ...(r.tier ? { tier: r.tier } : {}) });
        }
        return out;
      };
      const plain = await runAll(false);
      const cascade = await runAll(true);
      expect(gold.problems).toEqual([]);
      // The scripted model answers right, so both runs do.
      plain.forEach((p, i) =>
        expect(isRight("hybridqa", QUESTIONS[i]!, p.answer), `${QUESTIONS[i]!.question_id}: ${p.answer}`).toBe(true),
      );
      expect(cascade.map((c) => c.answer)).toEqual(plain.map((p) => p.answer));
      for (const c of cascade) expect(c.calls).toBeLessThanOrEqual(2);
      // Every cascade answer came from the offline tier or the one-call prompted tier, never the LLM loop.
      for (const c of cascade) expect(["offline", "findings"]).toContain(c.tier);
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      expect(mean(plain.map((p) => p.calls))).toBeGreaterThanOrEqual(3); // decompose + answer + verify at least
      expect(mean(cascade.map((c) => c.calls))).toBeLessThan(mean(plain.map((p) => p.calls)));
    } finally {
      opened.close();
    }
  }, 120_000);
});
