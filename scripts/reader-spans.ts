/**
 * The span re-ranking of the described-row reader on HybridQA-style data (reader.ts
 * `describedRowSpans`, span-rerank.ts): for each question whose first answer is a passage span (no
 * asked cell), the top SPAN_RERANK_K spans of the hand score with their re-ranking features,
 * labelled right when the span matches a gold answer (official exact match). Prints how often the
 * first span is right with the hand order, with the shipped weights and out of fold for weights fit
 * listwise (training/listwise-fit.ts) in 5 folds grouped by table (`--salts a,b` repeats the folds
 * with other table shuffles and averages); how well the out-of-fold share P of the reader's first
 * span (hand order) separates right from wrong — what the verifier gets as `rc:rerank-p`; `--fit`
 * also prints the weights fit on every question, to paste into SPAN_RERANK_WEIGHTS; `--use a,b` fits
 * only those features.
 *
 *   npx tsx scripts/reader-spans.ts --questions ../shared/data/hybridqa/train/questions.jsonl --index /tmp/atr-idx/hybridqa-train [--fit] [--l2 0.01,0.003]
 */
import { parseArgs } from "node:util";
import { createHash } from "node:crypto";
import { loadQuestions } from "../evals/dataset.js";
import { openSearchableIndex } from "../retrievers/open-search.js";
import { createOfflineStrategies } from "../nodes/offline/index.js";
import { createBridge } from "../nodes/offline/bridge.js";
import { askedCell, handRowSpans, rowRerankContext } from "../nodes/offline/reader.js";
import {
  SPAN_RERANK_FEATURES,
  SPAN_RERANK_K,
  SPAN_ORDER_WEIGHTS,
  SPAN_RERANK_PRIOR,
  rerankScores,
  softmax,
  spanRerankFeatures,
} from "../nodes/offline/span-rerank.js";
import { fitListwise, type LabelledRanking } from "../training/listwise-fit.js";
import { readerQuestion } from "./helpers/reader-question.js";

const { values } = parseArgs({
  options: {
    questions: { type: "string" },
    index: { type: "string" },
    fit: { type: "boolean", default: false },
    l2: { type: "string", default: "0.01" },
    epochs: { type: "string", default: "600" },
    k: { type: "string" },
    salts: { type: "string", default: "0" },
    use: { type: "string" },
  },
});
if (!values.questions || !values.index) throw new Error("reader-spans: give --questions FILE.jsonl and --index DIR");
const l2s = values.l2.split(",").map(Number);
// `--use a,b`: fit only these features (and the hand score's two), the others keep their prior weight.
const used = values.use ? new Set(["score-gap", "first", ...values.use.split(",")]) : undefined;
const frozen = SPAN_RERANK_FEATURES.map((f) => (used ? !used.has(f) : false));
const epochs = Number(values.epochs);
const index = await openSearchableIndex(values.index);
const strategies = createOfflineStrategies(index);
const bridge = createBridge(index);

interface Item {
  table: string;
  ranking: LabelledRanking;
}
const items: Item[] = [];
let questions = 0;
for (const q of loadQuestions(values.questions)) {
  questions++;
  const { question, right, plan, row } = await readerQuestion(q, strategies, bridge);
  if (!row) continue;
  const input = { question, subQuery: plan.subQuery, plan };
  if (askedCell(input, row) !== undefined) continue;
  const spans = handRowSpans(input, row, values.k ? Number(values.k) : SPAN_RERANK_K);
  if (spans.length === 0) continue;
  items.push({
    table: String(q.table_id),
    ranking: {
      xs: spanRerankFeatures(spans, rowRerankContext(input, row)),
      positive: spans.map((s) => right(s.answer)),
    },
  });
}
index.close();

const salts = values.salts.split(",");
const foldOf = (salt: string) => (table: string) =>
  createHash("sha1")
    .update(`${salt === "0" ? "" : salt}${table}`)
    .digest()[0]! % 5;
const pick = (r: LabelledRanking, w: readonly number[]) => {
  const s = rerankScores(r.xs, w);
  let best = 0;
  s.forEach((v, i) => {
    if (v > s[best]! + 1e-9) best = i;
  });
  return best;
};
const rightFirst = (its: Item[], w: readonly number[]) =>
  its.filter((i) => i.ranking.positive[pick(i.ranking, w)] === true).length;
const trainable = (its: Item[]) =>
  its.map((i) => i.ranking).filter((r) => r.xs.length >= 2 && r.positive.some(Boolean));
const any = items.filter((i) => i.ranking.positive.some(Boolean)).length;
console.log(
  `${questions} questions; first answer a passage span: ${items.length}; a right span in the top ${SPAN_RERANK_K}: ${any}`,
);
console.log(`right first span, hand order: ${rightFirst(items, SPAN_RERANK_PRIOR)}`);
console.log(`right first span, shipped order: ${rightFirst(items, SPAN_ORDER_WEIGHTS)}`);
// Out-of-fold share P of the reader's first span (the first l2, the first salt), right / all per bucket.
const buckets = [0.3, 0.5, 0.7, 0.9, 1.01];
const tally = buckets.map(() => ({ right: 0, all: 0 }));
for (const l2 of l2s) {
  let oof = 0;
  let better = 0;
  let worse = 0;
  for (const salt of salts) {
    const fold = foldOf(salt);
    for (let k = 0; k < 5; k++) {
      const w = fitListwise(trainable(items.filter((i) => fold(i.table) !== k)), SPAN_RERANK_PRIOR, {
        l2,
        epochs,
        frozen,
      });
      for (const it of items.filter((i) => fold(i.table) === k)) {
        const now = it.ranking.positive[pick(it.ranking, w)] === true;
        if (l2 === l2s[0] && salt === salts[0]) {
          const p = softmax(rerankScores(it.ranking.xs, w))[0]!;
          const t = tally[buckets.findIndex((e) => p < e)]!;
          t.all++;
          if (it.ranking.positive[0]) t.right++;
        }
        const before = it.ranking.positive[pick(it.ranking, SPAN_RERANK_PRIOR)] === true;
        oof += now ? 1 : 0;
        if (now && !before) better++;
        if (before && !now) worse++;
      }
    }
  }
  const n = salts.length;
  console.log(
    `fit out of fold (5 table-grouped folds × ${n}, l2 ${l2}): ${(oof / n).toFixed(1)} right first spans (${(better / n).toFixed(1)} better / ${(worse / n).toFixed(1)} worse)`,
  );
}
console.log(
  `reader's first span, out-of-fold P (l2 ${l2s[0]}), right / all: ${tally
    .map((t, b) => `P < ${buckets[b]!.toFixed(1)}: ${t.right} / ${t.all}`)
    .join(" · ")}`,
);
if (values.fit) {
  const l2 = l2s[0]!;
  const w = fitListwise(trainable(items), SPAN_RERANK_PRIOR, { l2, epochs, frozen });
  console.log(`fit on all (l2 ${l2}): ${rightFirst(items, w)} right first spans`);
  console.log(SPAN_RERANK_FEATURES.map((f, d) => `${f} ${w[d]!.toFixed(3)}`).join("\n"));
  console.log(`[${w.map((x) => x.toFixed(3)).join(", ")}]`);
}
