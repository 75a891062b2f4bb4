/**
 * Trains the reading choice (nodes/offline/reading-choice.ts) on a TAT-QA-style split: every value
 * question (not a clause or description question: those never reach the choice) is read over its
 * whole table and its report's passages — the cells (table-cells.ts) and the passage reader's best
 * span (reader.ts) — and scored with the official TAT-QA metric. Where exactly one of the two
 * readings is right, the pair is an example (a two-item ranking: the cells, the span). The weights
 * start at the old rule's (the cells win) and are fitted listwise with an L2 pull back to it
 * (training/listwise-fit.ts). Prints the out-of-fold effect (folds grouped by report: a report's
 * questions are held out together), then fits on every example and writes the model.
 *
 *   npx tsx scripts/train-reading-choice.ts --split ../shared/data/tatqa/train [--out nodes/offline/models/reading-choice.json]
 *     [--folds 5] [--l2 0.001] [--epochs 1000] [--evaluate MODEL.json] [--show]
 *
 * `--evaluate MODEL.json` prints what a trained model changes on the split given, without training.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fnv1a32 } from "../indexing/hash.js";
import { scoreTatqa, tatPredictionFromText } from "../evals/scoring/tatqa.js";
import { readJsonl } from "../training/labels.js";
import { fitListwise, type LabelledRanking } from "../training/listwise-fit.js";
import { analyzeQuestion } from "../nodes/offline/analysis.js";
import { answerFromCells } from "../nodes/offline/table-cells.js";
import { CELL_CONFIDENCE, readPassageSpans } from "../nodes/offline/reader.js";
import { asksForDescription } from "../nodes/offline/answer-kind.js";
import { clauseAsk } from "../nodes/offline/clause-question.js";
import {
  checkReadingChoiceModel,
  passageScore,
  READING_CHOICE_FEATURES,
  READING_CHOICE_PRIOR,
  readingChoiceFeatures,
  sameAmount,
  type ReadingChoiceModel,
} from "../nodes/offline/reading-choice.js";
import { planOf } from "../nodes/offline/decompose.js";
import { splitReports, type TatQuestion as Question } from "./helpers/tatqa-reports.js";

const { values } = parseArgs({
  options: {
    split: { type: "string", default: "../shared/data/tatqa/train" },
    out: { type: "string", default: "nodes/offline/models/reading-choice.json" },
    folds: { type: "string", default: "5" },
    l2: { type: "string", default: "0.001" },
    epochs: { type: "string", default: "1000" },
    evaluate: { type: "string" },
    show: { type: "boolean", default: false },
  },
});
const dir = values.split!;
interface Pair {
  q: Question;
  x: number[];
  cells: string;
  span: string;
  cellsRight: boolean;
  spanRight: boolean;
}

const right = (q: Question, answer: string) =>
  scoreTatqa({ answer: q.answer, scale: q.scale, answer_type: q.answer_type }, tatPredictionFromText(answer)).em === 1;

/** The value questions of the split that have both readings, with their features and labels. */
function pairs(): Pair[] {
  const reportOf = splitReports(dir, "train-reading-choice");
  const out: Pair[] = [];
  for (const q of readJsonl<Question>(join(dir, "questions.jsonl"))) {
    if (clauseAsk(q.question) || asksForDescription(q.question)) continue;
    const { tableId, rows, markdown, passages } = reportOf(q.table_id);
    const cells = answerFromCells(q.question, rows, `Table name: ${tableId}\n${markdown}\n${passages.join("\n")}`);
    if (!cells || !cells.periodTable || cells.confidence < CELL_CONFIDENCE) continue;
    const plan = planOf(q.question, analyzeQuestion(q.question, { hasPassages: true }));
    const evidence = passages.map((p) => `[Source: ${tableId}.json]\n${p}`).join("\n\n");
    const [span] = readPassageSpans(q.question, q.question, plan, evidence, undefined, 1);
    // Readings that state the same number agree: the cells' (with the table's scale) stand.
    if (!span?.answer || sameAmount(cells.answer, span.answer)) continue;
    out.push({
      q,
      x: readingChoiceFeatures(cells, span),
      cells: cells.answer,
      span: span.answer,
      cellsRight: right(q, cells.answer),
      spanRight: right(q, span.answer),
    });
  }
  return out;
}

function fit(examples: readonly Pair[]): number[] {
  const rankings: LabelledRanking[] = examples
    .filter((p) => p.cellsRight !== p.spanRight)
    .map((p) => ({ xs: [p.x.map(() => 0), p.x], positive: [p.cellsRight, p.spanRight] }));
  return fitListwise(rankings, READING_CHOICE_PRIOR, { l2: Number(values.l2), epochs: Number(values.epochs) });
}

/** Better / worse of choosing by `weights` against the cells, over `examples`. */
function effect(examples: readonly Pair[], weights: (p: Pair) => readonly number[]): { better: Pair[]; worse: Pair[] } {
  const better: Pair[] = [];
  const worse: Pair[] = [];
  for (const p of examples) {
    if (passageScore(weights(p), p.x) <= 0 || p.cellsRight === p.spanRight) continue;
    (p.spanRight ? better : worse).push(p);
  }
  return { better, worse };
}

function report(label: string, e: { better: Pair[]; worse: Pair[] }): void {
  const reports = new Set([...e.better, ...e.worse].map((p) => p.q.table_id)).size;
  console.log(`${label}: ${e.better.length} better / ${e.worse.length} worse (over ${reports} reports)`);
  if (values.show)
    for (const [tag, list] of [
      ["better", e.better],
      ["worse", e.worse],
    ] as const)
      for (const p of list) console.log(`  ${tag}\t${p.q.question}\t${p.cells} → ${p.span}`);
}

const examples = pairs();
const informative = examples.filter((p) => p.cellsRight !== p.spanRight);
console.log(
  `${examples.length} value questions with both readings; ${informative.length} with exactly one right (span right in ${informative.filter((p) => p.spanRight).length})`,
);
if (values.evaluate) {
  const model = checkReadingChoiceModel(JSON.parse(readFileSync(values.evaluate, "utf8")), values.evaluate);
  report(
    `model ${values.evaluate}`,
    effect(examples, () => model.weights),
  );
} else {
  const k = Number(values.folds);
  const fold = (p: Pair) => fnv1a32(p.q.table_id) % k;
  const byFold = Array.from({ length: k }, (_, f) => fit(examples.filter((p) => fold(p) !== f)));
  report(
    `out of fold (${k} folds by report)`,
    effect(examples, (p) => byFold[fold(p)]!),
  );
  const weights = fit(examples);
  report(
    "fitted on all (in sample)",
    effect(examples, () => weights),
  );
  const model: ReadingChoiceModel = {
    trainedOn: `${dir} (${informative.length} value questions where exactly one reading is right); scripts/train-reading-choice.ts --l2 ${values.l2} --epochs ${values.epochs}`,
    features: [...READING_CHOICE_FEATURES],
    weights: weights.map((w) => Math.round(w * 1000) / 1000),
  };
  console.log(READING_CHOICE_FEATURES.map((f, i) => `${f} ${model.weights[i]}`).join(", "));
  writeFileSync(values.out!, `${JSON.stringify(model, null, 1)}\n`);
  console.log(`wrote ${values.out}`);
}
