/**
 * Where the described-row reader loses the right answer on HybridQA-style data, with counts: for
 * each question (bypassing the graph, as scripts/reader-candidates.ts does), whether the row the
 * bridge finds is a gold row, whether the reader's asked cell is right or wrong or absent, whether a
 * gold answer is a cell of that row or written in its linked passages, the rank of the first right
 * span among all the passage reader proposes (1, 2–4, 5+, none), and whether the reader's first
 * answer (asked cell, else top span) is right. Prints one count per combination, by answer source.
 *
 *   npx tsx scripts/reader-losses.ts --questions ../shared/data/hybridqa/train/questions.jsonl --index /tmp/atr-idx/hybridqa-train [--per_question]
 *
 * `--per_question` prints instead "Q <question_id> <0|1>" (first answer right), for paired
 * better/worse counts between two commits (`paste a b | awk '$3 != $6'`).
 */
import { parseArgs } from "node:util";
import { loadQuestions } from "../evals/dataset.js";
import { squadExact, normalizeSquad } from "../evals/scoring/hybridqa.js";
import { openSearchableIndex } from "../retrievers/open-search.js";
import { createOfflineStrategies } from "../nodes/offline/index.js";
import { createBridge } from "../nodes/offline/bridge.js";
import { askedCell, describedRowSpans } from "../nodes/offline/reader.js";
import { readerQuestion } from "./helpers/reader-question.js";

const { values } = parseArgs({
  options: {
    questions: { type: "string" },
    index: { type: "string" },
    per_question: { type: "boolean", default: false },
  },
});
if (!values.questions || !values.index) throw new Error("reader-losses: give --questions FILE.jsonl and --index DIR");
const index = await openSearchableIndex(values.index);
const strategies = createOfflineStrategies(index);
const bridge = createBridge(index);
const counts = new Map<string, number>();
for (const q of loadQuestions(values.questions)) {
  const record = q as Record<string, unknown>;
  const { question, golds, right, plan, row } = await readerQuestion(q, strategies, bridge);
  const goldRows = new Set(
    ((record["answer_node"] as Array<[string, [number, number]]> | undefined) ?? []).map((n) => n[1][0]),
  );
  const input = { question, subQuery: plan.subQuery, plan };
  const cell = row ? askedCell(input, row) : undefined;
  const spans = row ? describedRowSpans(input, row, Number.MAX_SAFE_INTEGER) : [];
  const rank = spans.findIndex((s) => right(s.answer));
  const passages = normalizeSquad((row?.passages ?? []).map((p) => p.text).join(" "));
  const inText = golds.some((g) => normalizeSquad(g) !== "" && ` ${passages} `.includes(` ${normalizeSquad(g)} `));
  const inCells = golds.some((g) => (row?.values ?? []).some((v) => squadExact(g, v) === 1));
  const first = right(cell ?? spans[0]?.answer ?? "");
  if (values.per_question) {
    console.log(`Q ${String(q.question_id)} ${first ? 1 : 0}`);
    continue;
  }
  const key = [
    `answer from ${String(record["answer_from"] ?? "none")}`,
    `row ${!row ? "none" : goldRows.has(row.rowId) ? "right" : "wrong"}`,
    `asked cell ${cell === undefined ? "none" : right(cell) ? "right" : "wrong"}`,
    `gold in cells ${inCells ? "yes" : "no"}`,
    `gold in passages ${inText ? "yes" : "no"}`,
    `first right span ${rank < 0 ? "none" : rank === 0 ? "1" : rank < 4 ? "2-4" : "5+"}`,
    `first answer ${first ? "right" : "wrong"}`,
  ].join(" · ");
  counts.set(key, (counts.get(key) ?? 0) + 1);
}
if (!values.per_question)
  for (const [key, n] of [...counts].sort((a, b) => a[0].localeCompare(b[0])))
    console.log(`${String(n).padStart(4)}  ${key}`);
index.close();
