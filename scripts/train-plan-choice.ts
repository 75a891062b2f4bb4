/**
 * Trains the plan choice (nodes/offline/plan-choice.ts) on WTQ train with execution labels: for every
 * question, the registry's candidate plans over the question's condition links are run, each answer is
 * judged with the official WTQ match, and the rankings with both right and wrong candidates are fitted
 * listwise (training/listwise-fit.ts) from the prior "the first plan wins", with an L2 pull back to it.
 *
 *   npx tsx scripts/train-plan-choice.ts --store /tmp/atr-idx/wtq-train/tables.sqlite \
 *     --questions FIT.jsonl [--l2 0.0001] [--margin 1] [--epochs 400] [--out nodes/offline/models/plan-choice.json]
 *   npx tsx scripts/train-plan-choice.ts --store ... --questions EVAL.jsonl --evaluate MODEL.json
 *   npx tsx scripts/train-plan-choice.ts --store ... --questions FIT.jsonl --inner FIT-OUT.jsonl --l2 0.0003,0.0001 --margin 0,0.5,1
 *
 * Every mode prints the oracle (questions some candidate answers right). `--evaluate` prints how many
 * questions the model's choice answers right against the first plan's, with better / worse; `--inner
 * HELD.jsonl` fits on the questions whose tables are not HELD's and reports HELD's questions (a
 * table-disjoint part of the fit questions) for each L2 weight of `--l2 a,b,…` and margin of `--margin a,b,…`
 * (another candidate is taken only when it scores more than the margin above the first plan).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { readTableSchemas } from "../indexing/sql-store.js";
import { analyzeQuestion } from "../nodes/offline/analysis.js";
import { linkMentions } from "../nodes/offline/condition-links.js";
import {
  bestCandidate,
  executePlans,
  planChoiceFeatures,
  planChoiceScore,
  PLAN_CHOICE_CAP,
  type PlanChoiceModel,
} from "../nodes/offline/plan-choice.js";
import { planCandidates } from "../nodes/offline/plans/registry.js";
import { loadCatalog } from "../nodes/offline/table-catalog.js";
import { wtqCorrect } from "../evals/scoring/wtq.js";
import { fitListwise, listwiseObjective, type LabelledRanking } from "../training/listwise-fit.js";
import { readQuestions } from "./sql-harness.js";

const { values } = parseArgs({
  options: {
    store: { type: "string" },
    questions: { type: "string" },
    out: { type: "string" },
    l2: { type: "string", default: "0.0001" },
    margin: { type: "string", default: "1" },
    epochs: { type: "string", default: "400" },
    evaluate: { type: "string" },
    inner: { type: "string" },
  },
});
if (!values.store || !values.questions) throw new Error("usage: --store tables.sqlite --questions questions.jsonl");

const db = new Database(values.store, { readonly: true, fileMustExist: true });
const schemas = readTableSchemas(db);

interface Ranking {
  tableId: string;
  features: Array<Record<string, number>>;
  positive: boolean[];
}
const all: Ranking[] = [];
let firstRight = 0;
let oracle = 0;
let questions = 0;
for (const q of readQuestions(values.questions)) {
  const schema = schemas.get(q.table_id);
  if (!schema) continue;
  questions++;
  const catalog = loadCatalog(db, schema);
  const analysis = analyzeQuestion(q.question);
  const mentions = linkMentions(q.question, analysis, catalog);
  const input = { analysis, catalog, mentions };
  const plans = planCandidates(input, PLAN_CHOICE_CAP);
  if (plans.length === 0) continue;
  const runs = executePlans(plans, (sql) => db.prepare(sql).all(), q.question, analysis, mentions);
  const positive = runs.map((r) => wtqCorrect({ answer: q.answer, answer_canon: null }, r.answer));
  if (positive[0]) firstRight++;
  if (positive.some(Boolean)) oracle++;
  if (runs.length < 2) continue;
  all.push({
    tableId: q.table_id,
    features: runs.map((r, rank) => planChoiceFeatures(input, r, rank, runs[0]!)),
    positive,
  });
}
db.close();
console.log(
  `${questions} questions: first plan right ${firstRight}, some candidate right ${oracle}; ${all.length} with alternatives`,
);

/** Right answers of the weights' choice (plan-choice.ts `bestCandidate`), and better / worse against the first plan. */
function choose(rankings: readonly Ranking[], weights: Readonly<Record<string, number>>, minMargin: number) {
  let right = 0;
  let better = 0;
  let worse = 0;
  for (const r of rankings) {
    const best = bestCandidate(
      r.features.map((f) => planChoiceScore(weights, f)),
      minMargin,
    );
    if (r.positive[best]) right++;
    if (r.positive[best] && !r.positive[0]) better++;
    if (!r.positive[best] && r.positive[0]) worse++;
  }
  return { right, better, worse, first: rankings.filter((r) => r.positive[0]).length };
}

const prior: Record<string, number> = { base: 1 };
if (values.evaluate) {
  const model = JSON.parse(readFileSync(values.evaluate, "utf8")) as PlanChoiceModel;
  const c = choose(all, model.weights, model.minMargin);
  console.log(`first plan ${c.first} right → model ${c.right} (better ${c.better} / worse ${c.worse})`);
  process.exit(0);
}

/** Fits sparse weights on the mixed rankings of `rankings` (dense over the names they use). */
function fit(rankings: readonly Ranking[], l2: number, epochs: number): Record<string, number> {
  const mixed = rankings.filter((r) => r.positive.some(Boolean) && !r.positive.every(Boolean));
  const names = [...new Set(mixed.flatMap((r) => r.features.flatMap((f) => Object.keys(f))))].sort();
  if (!names.includes("base")) names.push("base");
  const dense: LabelledRanking[] = mixed.map((r) => ({
    xs: r.features.map((f) => names.map((n) => f[n] ?? 0)),
    positive: r.positive,
  }));
  const p = names.map((n) => prior[n] ?? 0);
  const w = fitListwise(dense, p, { l2, epochs });
  const before = listwiseObjective(dense, p, p, l2).loss;
  const after = listwiseObjective(dense, w, p, l2).loss;
  console.log(
    `  ${mixed.length} mixed rankings, ${names.length} features · loss ${before.toFixed(4)} → ${after.toFixed(4)}`,
  );
  const out: Record<string, number> = {};
  names.forEach((n, i) => {
    const v = Math.round(w[i]! * 1e4) / 1e4;
    if (v !== 0) out[n] = v;
  });
  return out;
}

const epochs = Number(values.epochs);
const l2s = values.l2.split(",").map(Number);
const margins = values.margin.split(",").map(Number);
if (values.inner) {
  // The inner held-out tables judge each L2 weight; the others fit.
  const innerTables = new Set(readQuestions(values.inner).map((q) => q.table_id));
  const heldOut = (t: string) => innerTables.has(t);
  const fitPart = all.filter((r) => !heldOut(r.tableId));
  const testPart = all.filter((r) => heldOut(r.tableId));
  for (const l2 of l2s) {
    const w = fit(fitPart, l2, epochs);
    for (const m of margins) {
      const a = choose(fitPart, w, m);
      const b = choose(testPart, w, m);
      console.log(
        `l2 ${l2} margin ${m}: fit ${a.first} → ${a.right} (${a.better} / ${a.worse}) · inner held-out ${b.first} → ${b.right} (${b.better} / ${b.worse})`,
      );
    }
  }
  process.exit(0);
}
const w = fit(all, l2s[0]!, epochs);
const c = choose(all, w, margins[0]!);
console.log(`fit: first plan ${c.first} right → ${c.right} (better ${c.better} / worse ${c.worse})`);
for (const [name, v] of Object.entries(w)
  .sort((x, y) => Math.abs(y[1]) - Math.abs(x[1]))
  .slice(0, 30))
  console.log(`  ${name} ${v}`);
if (values.out) {
  const model: PlanChoiceModel = {
    trainedOn: `WTQ train: the mixed rankings of ${values.questions}; scripts/train-plan-choice.ts --l2 ${l2s[0]} --margin ${margins[0]} --epochs ${epochs}`,
    weights: w,
    minMargin: margins[0]!,
  };
  writeFileSync(values.out, JSON.stringify(model, null, 1) + "\n");
  console.log(`wrote ${values.out}`);
}
