/**
 * Trains the learned order column of superlatives (nodes/offline/order-column-model.ts) on WTQ train.
 * Every question goes through the offline SQL planning (analysis → mentions → the registry's first
 * plan, as scripts/offline-dev.ts does). When the first plan is `superlative.order` (argmax/argmin),
 * the plan is rebuilt once per candidate order column (forceOrderColumn), run, and judged with the
 * official WTQ match: a column is positive when its answer is right. Rankings with no positive, or
 * only positives, teach nothing and are left out. The weights start at the hand score's and are
 * fitted listwise (softmax over a ranking's columns, -log of the positives' share, each question
 * weighing 1) with an L2 pull back to the hand weights.
 *
 *   npx tsx scripts/train-order-columns.ts --store /tmp/atr-idx/wtq-train/tables.sqlite \
 *     --questions FIT.jsonl [--out nodes/offline/models/order-columns.json] [--l2 0.03] [--epochs 300]
 *   npx tsx scripts/train-order-columns.ts --store ... --questions HELD_OUT.jsonl --evaluate MODEL.json
 *
 * `--cache FILE` keeps the labelled rankings of these questions (written once, read on the next run).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { readTableSchemas } from "../indexing/sql-store.js";
import { firstPlan } from "../nodes/offline/plans/registry.js";
import {
  forceOrderColumn,
  ORDER_FEATURES,
  orderHandWeights,
  recordOrderRankings,
  setOrderColumnModel,
  type OrderColumnModel,
  type OrderRanking,
} from "../nodes/offline/order-column-model.js";
import { judgeStatement, prepareQuestion, readQuestions } from "./sql-harness.js";
import { fitListwise, listwiseObjective, type LabelledRanking } from "../training/listwise-fit.js";

const { values } = parseArgs({
  options: {
    store: { type: "string" },
    questions: { type: "string" },
    out: { type: "string" },
    l2: { type: "string", default: "0.03" },
    epochs: { type: "string", default: "300" },
    evaluate: { type: "string" },
    cache: { type: "string" },
  },
});
if (!values.store || !values.questions) throw new Error("usage: --store tables.sqlite --questions questions.jsonl");
const questions = readQuestions(values.questions);
const db = new Database(values.store, { readonly: true, fileMustExist: true });
const schemas = readTableSchemas(db);
// Planned with the hand score while recording (the model must not steer the plans it learns from).
setOrderColumnModel(null);

type Ranking = LabelledRanking;
const cached = values.cache && existsSync(values.cache);
const rankings: Ranking[] = cached ? (JSON.parse(readFileSync(values.cache!, "utf8")) as Ranking[]) : [];
for (const q of cached ? [] : questions) {
  const input = prepareQuestion(db, schemas, q);
  if (!input) continue;
  let last: OrderRanking | undefined;
  recordOrderRankings((r) => (last = r));
  const plan = firstPlan(input);
  recordOrderRankings(null);
  if (!plan || plan.generator !== "superlative.order" || !last) continue;
  const ranking: OrderRanking = last;
  if (ranking.rows.length < 2) continue;
  // Execution labels: the plan rebuilt ordering by each candidate in turn (the same call of the same generator:
  // the ranking with the same columns), judged by the official match.
  const signature = ranking.rows.map((r) => r.column.index).join(",");
  const positive = ranking.rows.map((_, i) => {
    forceOrderColumn((r) => (r.rows.map((x) => x.column.index).join(",") === signature ? i : undefined));
    try {
      const swapped = firstPlan(input);
      if (!swapped || swapped.generator !== "superlative.order") return false;
      return judgeStatement(db, q, input.analysis, input.mentions, swapped.sql).ok;
    } finally {
      forceOrderColumn(null);
    }
  });
  if (!positive.some(Boolean) || positive.every(Boolean)) continue;
  rankings.push({ xs: ranking.rows.map((r) => r.x), positive });
}
db.close();
if (values.cache && !cached) writeFileSync(values.cache, JSON.stringify(rankings));

const used = rankings.length;
const l2 = Number(values.l2);
const w0 = orderHandWeights();
const evaluate = (w: readonly number[]) => listwiseObjective(rankings, w, w0, l2);

const before = evaluate(w0);
if (values.evaluate) {
  const trained = JSON.parse(readFileSync(values.evaluate, "utf8")) as OrderColumnModel;
  console.log(
    `${used} rankings: top-1 positive hand ${(100 * before.top1).toFixed(1)} % · ${values.evaluate} ${(100 * evaluate(trained.weights).top1).toFixed(1)} %`,
  );
  process.exit(0);
}
const epochs = Number(values.epochs);
const w = fitListwise(rankings, w0, { l2, epochs });
const after = evaluate(w);
console.log(
  `${used} rankings · loss ${before.loss.toFixed(4)} → ${after.loss.toFixed(4)} · top-1 positive ${(100 * before.top1).toFixed(1)} % → ${(100 * after.top1).toFixed(1)} %`,
);
if (values.out) {
  const model: OrderColumnModel = {
    trainedOn: `WTQ train: ${used} superlative rankings of ${values.questions}; scripts/train-order-columns.ts --l2 ${l2} --epochs ${epochs}`,
    features: [...ORDER_FEATURES],
    weights: w.map((x) => Math.round(x * 1e4) / 1e4),
  };
  writeFileSync(values.out, JSON.stringify(model, null, 1) + "\n");
  console.log(`wrote ${values.out}`);
}
