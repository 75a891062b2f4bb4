/**
 * Trains the learned target-column scorer (nodes/offline/target-column-model.ts) on WTQ train.
 * Every question goes through the offline SQL planning (analysis → mentions → the registry's first
 * plan, as scripts/offline-dev.ts does), recording the feature vectors of every column ranking the
 * generators ask for. When the plan reads its answer from one column (lookup, argmax/argmin,
 * first/last, next/previous, group-count), the ranking that chose that column gets execution
 * labels: the plan's statement is run once per column, answering with that column, and a column is
 * positive when the answer is right under the official WTQ match. Rankings with no positive, or
 * only positives, teach nothing and are left out. The weights start at the hand score's and are
 * fitted listwise (softmax over a ranking's columns, -log of the positives'
 * share, each question weighing 1) with an L2 pull back to the hand weights; the features of the
 * column's position keep their hand weights (FROZEN).
 *
 *   npx tsx scripts/train-target-columns.ts --store /tmp/atr-idx/wtq-train/tables.sqlite \
 *     --questions ../shared/data/wtq/train/questions.jsonl [--exclude EVAL.jsonl] \
 *     [--out nodes/offline/models/target-columns.json] [--l2 0.03] [--epochs 300] [--freeze hintMatch,typeFit]
 *
 * `--exclude` drops the questions on the tables of another file (a table-disjoint evaluation sample);
 * `--evaluate MODEL.json` prints, for the questions given, the top-1 share of a trained model beside
 * the hand score's instead of training.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { readTableSchemas } from "../indexing/sql-store.js";
import { wtqCorrect } from "../evals/scoring/wtq.js";
import { analyzeQuestion } from "../nodes/offline/analysis.js";
import { askedWords, findMentions } from "../nodes/offline/mentions.js";
import { firstPlan } from "../nodes/offline/plans/registry.js";
import { col } from "../nodes/offline/plans/sql-parts.js";
import type { CatalogColumn } from "../nodes/offline/table-catalog.js";
import { loadCatalog } from "../nodes/offline/table-catalog.js";
import {
  handWeights,
  linearScore,
  recordTargetRankings,
  setTargetColumnModel,
  TARGET_FEATURES,
  type TargetColumnModel,
} from "../nodes/offline/target-column-model.js";
import { answerOf } from "./sql-harness.js";
import { fitListwise, listwiseObjective } from "../training/listwise-fit.js";

const { values } = parseArgs({
  options: {
    store: { type: "string" },
    questions: { type: "string" },
    exclude: { type: "string" },
    out: { type: "string" },
    l2: { type: "string", default: "0.03" },
    freeze: { type: "string", default: "" },
    epochs: { type: "string", default: "300" },
    evaluate: { type: "string" },
  },
});
if (!values.store || !values.questions) throw new Error("usage: --store tables.sqlite --questions questions.jsonl");

interface Question {
  question_id: string;
  question: string;
  table_id: string;
  answer: string[];
}
const readQuestions = (path: string): Question[] =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Question);
const excluded = new Set(values.exclude ? readQuestions(values.exclude).map((q) => q.table_id) : []);
const questions = readQuestions(values.questions).filter((q) => !excluded.has(q.table_id));

const db = new Database(values.store, { readonly: true, fileMustExist: true });
const schemas = readTableSchemas(db);
// Scored with the hand weights while recording (the model must not steer the plans it learns from).
setTargetColumnModel(null);

/** One recorded ranking: feature vectors, which are positive, and the question's weight. */
interface Ranking {
  xs: number[][];
  positive: boolean[];
  weight: number;
}
const rankings: Ranking[] = [];
let used = 0;
/** The templates whose statement reads the answer column and nothing else from it (the column can be swapped). */
const SWAPPABLE = new Set(["lookup", "argmax", "argmin", "first", "last", "next", "previous", "group-count"]);
const w0 = handWeights();
for (const q of questions) {
  const schema = schemas.get(q.table_id);
  if (!schema) continue;
  const catalog = loadCatalog(db, schema);
  const analysis = analyzeQuestion(q.question);
  const mentions = findMentions(q.question, catalog, { avoidWords: askedWords(analysis) });
  const recorded: Array<Array<{ column: CatalogColumn; x: number[] }>> = [];
  recordTargetRankings((rows) => recorded.push(rows));
  const plan = firstPlan({ analysis, catalog, mentions });
  recordTargetRankings(null);
  if (!plan || !SWAPPABLE.has(plan.template)) continue;
  // The ranking that chose the plan's answer column (its best column under the hand score).
  const ranking = recorded.find((rows) => {
    const best = rows.reduce((x, y) => (linearScore(w0, y.x) > linearScore(w0, x.x) ? y : x), rows[0]!);
    return best?.column.schema.name === plan.targetColumn;
  });
  if (!ranking) continue;
  const chosen = col(ranking.find((r) => r.column.schema.name === plan.targetColumn)!.column);
  // Execution labels: the plan's statement answering with each column in turn, judged by the official match.
  const positive = ranking.map((r) => {
    try {
      const rows = db.prepare(plan.sql.replaceAll(chosen, col(r.column))).all();
      return wtqCorrect({ answer: q.answer, answer_canon: null }, answerOf(q.question, analysis, mentions, rows));
    } catch {
      return false;
    }
  });
  if (!positive.some(Boolean) || positive.every(Boolean)) continue;
  used++;
  rankings.push({ xs: ranking.map((r) => r.x), positive, weight: 1 });
}
db.close();

const l2 = Number(values.l2);
// The column's place in the table keeps its hand weights: WTQ's tables put the answer left, so a fitted
// weight learns that layout and then answers with the id column a generated table starts with.
// `--freeze a,b` keeps more features at their hand weights (the header-match terms, for plain tables).
const FROZEN = new Set([
  "index",
  "relativeIndex",
  "leftKey",
  "firstText",
  ...values.freeze!.split(",").filter(Boolean),
]);
const frozen = TARGET_FEATURES.map((f) => FROZEN.has(f));
const evaluate = (w: readonly number[]) => listwiseObjective(rankings, w, w0, l2);

const before = evaluate(w0);
if (values.evaluate) {
  // Held-out check of a trained model: its top-1 on these questions' rankings beside the hand score's.
  const trained = JSON.parse(readFileSync(values.evaluate, "utf8")) as TargetColumnModel;
  console.log(
    `${used} questions: top-1 positive hand ${(100 * before.top1).toFixed(1)} % · ${values.evaluate} ${(100 * evaluate(trained.weights).top1).toFixed(1)} %`,
  );
  process.exit(0);
}
const epochs = Number(values.epochs);
const w = fitListwise(rankings, w0, { l2, epochs, frozen });
const after = evaluate(w);
console.log(
  `${used} questions, ${rankings.length} rankings · loss ${before.loss.toFixed(4)} → ${after.loss.toFixed(4)} · top-1 positive ${(100 * before.top1).toFixed(1)} % → ${(100 * after.top1).toFixed(1)} %`,
);
if (values.out) {
  const model: TargetColumnModel = {
    trainedOn: `WTQ train: ${used} questions of ${values.questions}${values.exclude ? ` (tables of ${values.exclude} excluded)` : ""}; scripts/train-target-columns.ts --l2 ${l2} --epochs ${epochs}`,
    features: [...TARGET_FEATURES],
    weights: w.map((x) => Math.round(x * 1e4) / 1e4),
  };
  writeFileSync(values.out, JSON.stringify(model, null, 1) + "\n");
  console.log(`wrote ${values.out}`);
}
