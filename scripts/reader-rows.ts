/**
 * The bridge's row choice on HybridQA-style data (bridge.ts, row-choice.ts): for each question the
 * rows close to the best word score, with their row-choice features, labelled by the gold answer's
 * rows (`answer_node`). Prints row accuracy (questions with a gold row) with the shipped weights,
 * with the hand prior (word score, first row on ties), and out of fold for weights fit listwise
 * (training/listwise-fit.ts) in 5 folds grouped by table; `--fit` also prints the weights fit on
 * every question, to paste into ROW_CHOICE_WEIGHTS.
 *
 *   npx tsx scripts/reader-rows.ts --questions ../shared/data/hybridqa/train/questions.jsonl --index /tmp/atr-idx/hybridqa-train [--fit] [--l2 0.01]
 */
import { parseArgs } from "node:util";
import { createHash } from "node:crypto";
import { loadQuestions } from "../evals/dataset.js";
import { openSearchableIndex } from "../retrievers/open-search.js";
import { createBridge } from "../nodes/offline/bridge.js";
import { ROW_CHOICE_FEATURES, ROW_CHOICE_PRIOR, ROW_CHOICE_WEIGHTS, chooseRow } from "../nodes/offline/row-choice.js";
import { fitListwise, type LabelledRanking } from "../training/listwise-fit.js";

const { values } = parseArgs({
  options: {
    questions: { type: "string" },
    index: { type: "string" },
    fit: { type: "boolean", default: false },
    l2: { type: "string", default: "0.01" },
    epochs: { type: "string", default: "400" },
    band: { type: "string" },
  },
});
if (!values.questions || !values.index) throw new Error("reader-rows: give --questions FILE.jsonl and --index DIR");
const l2s = values.l2.split(",").map(Number);
const epochs = Number(values.epochs);
const index = await openSearchableIndex(values.index);
const bridge = createBridge(index, values.band ? { choiceBand: Number(values.band) } : {});

interface Item {
  table: string;
  ranking: LabelledRanking;
  /** The bridge's own pick is a gold row (whatever the candidates). */
  shipped: boolean;
  /** The bridge's pick came from the superlative's order, not from the choice among close rows. */
  ordered: boolean;
}
const items: Item[] = [];
let withGold = 0;
for (const q of loadQuestions(values.questions)) {
  const record = q as Record<string, unknown>;
  const goldRows = new Set(
    ((record["answer_node"] as Array<[string, [number, number]]> | undefined) ?? []).map((n) => n[1][0]),
  );
  if (goldRows.size === 0) continue;
  withGold++;
  const question = String(q.question);
  const table = String(q.table_id);
  const row = bridge.findRow(question, table);
  const candidates = bridge.findRow.choiceCandidates(question, table) ?? [];
  const xs = candidates.map((c) => c.features);
  items.push({
    table,
    shipped: row !== undefined && goldRows.has(row.rowId),
    ordered: row !== undefined && candidates.length > 0 && candidates[chooseRow(xs)]!.rowId !== row.rowId,
    ranking: { xs: candidates.map((c) => c.features), positive: candidates.map((c) => goldRows.has(c.rowId)) },
  });
}
index.close();

const fold = (table: string) => createHash("sha1").update(table).digest()[0]! % 5;
const picks = (it: Item, w: readonly number[]) =>
  it.ordered ? it.shipped : it.ranking.xs.length > 0 && it.ranking.positive[chooseRow(it.ranking.xs, w)] === true;
// A question whose row was picked outside the choice (superlative order) counts as the bridge picked it.
const pct = (n: number) => `${((100 * n) / withGold).toFixed(1)} %`;
const trainable = (its: Item[]) =>
  its.map((i) => i.ranking).filter((r) => r.xs.length >= 2 && r.positive.some(Boolean));
const anyGold = items.filter((i) => i.ranking.positive.some(Boolean)).length;
console.log(`questions with a gold row: ${withGold}; a gold row among the close rows: ${anyGold} (${pct(anyGold)})`);
console.log(
  `bridge's row is gold (shipped weights, superlative order included): ${pct(items.filter((i) => i.shipped).length)}`,
);
console.log(`hand prior (word score, first on ties): ${pct(items.filter((i) => picks(i, ROW_CHOICE_PRIOR)).length)}`);
console.log(`shipped weights: ${pct(items.filter((i) => picks(i, ROW_CHOICE_WEIGHTS)).length)}`);
for (const l2 of l2s) {
  let oof = 0;
  for (let k = 0; k < 5; k++) {
    const w = fitListwise(trainable(items.filter((i) => fold(i.table) !== k)), ROW_CHOICE_PRIOR, { l2, epochs });
    for (const it of items.filter((i) => fold(i.table) === k)) oof += picks(it, w) ? 1 : 0;
  }
  console.log(`fit out of fold (5 table-grouped folds, l2 ${l2}): ${pct(oof)}`);
}
const l2 = l2s[0]!;
if (values.fit) {
  const w = fitListwise(trainable(items), ROW_CHOICE_PRIOR, { l2, epochs });
  console.log(`fit on all: ${pct(items.filter((i) => picks(i, w)).length)}`);
  console.log(ROW_CHOICE_FEATURES.map((f, d) => `${f} ${w[d]!.toFixed(3)}`).join("\n"));
  console.log(`[${w.map((x) => x.toFixed(3)).join(", ")}]`);
}
