/**
 * For tests/evals/answer-workers.test.ts: starts two answer processes over the fake entry (argv[2]),
 * prints their pids, gives both a question that never yields, and exits with code 3 mid-question.
 */
import { startAnswerWorkers } from "../../../evals/answer-workers.js";

const workers = await startAnswerWorkers({ transport: "process", entry: process.argv[2]!, payload: {}, workers: 2 });
const seen = new Promise<void>((resolve) => {
  for (const id of ["spin1", "spin2"]) {
    void workers
      .answer({ question: "never?", question_id: id }, { configurable: {}, started: () => resolve() })
      .catch(() => undefined);
  }
});
await seen;
console.log(JSON.stringify(workers.pids()));
await new Promise((r) => setTimeout(r, 300));
process.exit(3);
