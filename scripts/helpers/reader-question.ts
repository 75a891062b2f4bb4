/**
 * One benchmark question as the reader scripts (reader-choice, reader-losses, reader-signals, reader-spans,
 * train-row-answers) take it, bypassing the graph: its text, a test of an answer against its gold answers
 * (official exact match), the offline decomposer's plan and the row the bridge describes.
 */
import { squadExact } from "../../evals/scoring/hybridqa.js";
import type { createBridge } from "../../nodes/offline/bridge.js";
import type { createOfflineStrategies } from "../../nodes/offline/index.js";

export async function readerQuestion(
  q: Record<string, unknown>,
  strategies: ReturnType<typeof createOfflineStrategies>,
  bridge: ReturnType<typeof createBridge>,
) {
  const question = String(q.question);
  const golds = (Array.isArray(q.answer) ? q.answer : [q.answer]).map(String);
  const right = (a: string | undefined) => a !== undefined && golds.some((g) => squadExact(g, a) === 1);
  const plan = await strategies.decompose({
    question,
    tableId: String(q.table_id),
    history: [],
    consecutiveFailures: 0,
    schemaPreview: "",
  });
  const row = bridge.findRow(question, String(q.table_id));
  return { question, golds, right, plan, row };
}
