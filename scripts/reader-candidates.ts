/**
 * Reader candidates on HybridQA-style data, bypassing the graph: for each question, the offline
 * decomposer's first plan, the row the bridge finds (bridge.ts) and the top-k candidates of the
 * described-row reader. Prints, by answer source (passage / table): whether the row found is the
 * gold row, whether a gold answer is written in that row's cells or linked passages, and recall at
 * k = 1..4 of the reader's candidates — what is missing when no candidate is right.
 *
 *   npx tsx scripts/reader-candidates.ts --questions ../shared/data/hybridqa/train/questions.jsonl --index /tmp/atr-idx/hybridqa-train [--limit N] [--show miss]
 */
import { parseArgs } from "node:util";
import { loadQuestions } from "../evals/dataset.js";
import { squadExact, normalizeSquad } from "../evals/scoring/hybridqa.js";
import { openSearchableIndex } from "../retrievers/open-search.js";
import { createOfflineStrategies } from "../nodes/offline/index.js";
import { createBridge } from "../nodes/offline/bridge.js";
import { describedRowCandidates } from "../nodes/offline/reader-candidates.js";

const { values } = parseArgs({
  options: {
    questions: { type: "string" },
    index: { type: "string" },
    limit: { type: "string" },
    show: { type: "string" },
  },
});
if (!values.questions || !values.index)
  throw new Error("reader-candidates: give --questions FILE.jsonl and --index DIR");
const questions = loadQuestions(values.questions).slice(0, values.limit ? Number(values.limit) : undefined);
const index = await openSearchableIndex(values.index);
const strategies = createOfflineStrategies(index);
const bridge = createBridge(index);

type Tally = { n: number; rowFound: number; rowRight: number; inRow: number; at: number[] };
const tallies = new Map<string, Tally>();
for (const q of questions) {
  const golds = (Array.isArray(q.answer) ? q.answer : [q.answer]).map(String);
  const right = (a: string) => golds.some((g) => squadExact(g, a) === 1);
  const from = String((q as Record<string, unknown>)["answer_from"] ?? "none");
  const t = tallies.get(from) ?? { n: 0, rowFound: 0, rowRight: 0, inRow: 0, at: [0, 0, 0, 0] };
  tallies.set(from, t);
  t.n++;
  const plan = await strategies.decompose({
    question: String(q.question),
    tableId: String(q.table_id),
    history: [],
    consecutiveFailures: 0,
    schemaPreview: "",
  });
  const row = bridge.findRow(String(q.question), String(q.table_id));
  if (!row) continue;
  t.rowFound++;
  const goldRows = new Set(
    (((q as Record<string, unknown>)["answer_node"] as Array<[string, [number, number]]> | undefined) ?? []).map(
      (n) => n[1][0],
    ),
  );
  if (goldRows.has(row.rowId)) t.rowRight++;
  const text = normalizeSquad([...row.values, ...row.passages.map((p) => p.text)].join(" "));
  if (golds.some((g) => normalizeSquad(g) !== "" && ` ${text} `.includes(` ${normalizeSquad(g)} `))) t.inRow++;
  const candidates = describedRowCandidates({ question: String(q.question), subQuery: plan.subQuery, plan }, row, 4);
  const hit = candidates.findIndex((c) => right(c.answer));
  if (hit >= 0) for (let k = hit; k < 4; k++) t.at[k]!++;
  if (values.show === "miss" && hit !== 0)
    console.log(
      JSON.stringify({
        q: q.question,
        gold: golds,
        rowRight: goldRows.has(row.rowId),
        hit,
        candidates: candidates.map((c) => c.answer),
      }),
    );
}
const pct = (a: number, n: number) => (n === 0 ? "–" : ((100 * a) / n).toFixed(1));
for (const [from, t] of tallies) {
  console.log(
    `${from}: ${t.n} questions · row found ${pct(t.rowFound, t.n)} % · gold row ${pct(t.rowRight, t.n)} % · gold written in the row or its passages ${pct(t.inRow, t.n)} % · recall@1..4 ${t.at.map((a) => pct(a, t.n)).join(" / ")} %`,
  );
}
index.close();
