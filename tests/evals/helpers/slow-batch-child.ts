/**
 * A child process for the kill-and-resume test: runs the real batch runner over a question file
 * with a slow fake answer function (answer = "A:" + question_id, after `delayMs`).
 * Usage: node --import tsx slow-batch-child.ts QUESTIONS OUT resume|fresh DELAY_MS
 */
import { loadQuestions } from "../../../evals/dataset.js";
import { runBatch } from "../../../evals/runner.js";

const [questionsPath, outputPath, mode, delay] = process.argv.slice(2);
const delayMs = Number(delay ?? "5");
const summary = await runBatch({
  questions: loadQuestions(questionsPath!),
  outputPath: outputPath!,
  resume: mode === "resume",
  maxWorkers: 4,
  answer: async (input) => {
    await new Promise((r) => setTimeout(r, delayMs * (0.5 + Math.random())));
    return { answer: `A:${input.question_id}`, usage: { llmCalls: 1, totalTokens: 10 } };
  },
});
process.stdout.write(`${JSON.stringify(summary)}\n`);
