/**
 * Trains the condition-link chooser (nodes/offline/condition-links.ts) on WTQ train with execution
 * labels: for every question with mentions, each link candidate (the base links, a mention dropped,
 * relinked to another column, widened, all dropped) is planned with the registry's first plan, run,
 * and judged with the official WTQ match. Rankings with both right and wrong candidates are fitted
 * listwise (training/listwise-fit.ts) from the prior "the base links win", with an L2 pull back to it.
 *
 *   npx tsx scripts/train-condition-links.ts --store /tmp/atr-idx/wtq-train/tables.sqlite \
 *     --questions FIT.jsonl [--l2 0.01] [--epochs 300] [--out nodes/offline/models/condition-links.json]
 *   npx tsx scripts/train-condition-links.ts --store ... --questions EVAL.jsonl --evaluate MODEL.json
 *
 * Both modes print the oracle (questions some candidate answers right) by candidate kind; `--evaluate`
 * also prints how many questions the model's choice answers right against the base links', with
 * better / worse.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { readTableSchemas } from "../indexing/sql-store.js";
import {
  baseLinkWeights,
  linkCandidates,
  linkFeatureVector,
  LINK_FEATURES,
  type ConditionLinkModel,
} from "../nodes/offline/condition-links.js";
import { firstPlan } from "../nodes/offline/plans/registry.js";
import { linearScore } from "../nodes/offline/target-column-model.js";
import { fitListwise, listwiseObjective, type LabelledRanking } from "../training/listwise-fit.js";
import { judgeStatement, prepareQuestion, readQuestions } from "./sql-harness.js";

const { values } = parseArgs({
  options: {
    store: { type: "string" },
    questions: { type: "string" },
    out: { type: "string" },
    l2: { type: "string", default: "0.01" },
    epochs: { type: "string", default: "300" },
    evaluate: { type: "string" },
  },
});
if (!values.store || !values.questions) throw new Error("usage: --store tables.sqlite --questions questions.jsonl");

const db = new Database(values.store, { readonly: true, fileMustExist: true });
const schemas = readTableSchemas(db);
const questions = readQuestions(values.questions);

interface Ranking extends LabelledRanking {
  kinds: string[];
}
const rankings: Ranking[] = [];
const all: Ranking[] = [];
let withCandidates = 0;
let baseRight = 0;
const rescuedBy = new Map<string, number>();
for (const q of questions) {
  const prepared = prepareQuestion(db, schemas, q);
  if (!prepared) continue;
  const { analysis, catalog, mentions } = prepared;
  const cands = linkCandidates(catalog, mentions);
  if (cands.length <= 1) continue;
  withCandidates++;
  const basePlan = firstPlan({ analysis, catalog, mentions });
  const judged = new Map<string, boolean>();
  const xs: number[][] = [];
  const positive: boolean[] = [];
  const kinds: string[] = [];
  for (const cand of cands) {
    const plan = cand.kind === "base" ? basePlan : firstPlan({ analysis, catalog, mentions: cand.mentions });
    if (!plan) {
      if (cand.kind === "base") break;
      continue;
    }
    let ok = judged.get(plan.sql);
    if (ok === undefined) judged.set(plan.sql, (ok = judgeStatement(db, q, analysis, cand.mentions, plan.sql).ok));
    xs.push(linkFeatureVector(analysis, catalog, cand, cands[0]!, basePlan, plan));
    positive.push(ok);
    kinds.push(cand.kind);
  }
  if (xs.length === 0) continue;
  if (positive[0]) baseRight++;
  else {
    const rescuers = new Set(kinds.filter((_, i) => positive[i]));
    for (const k of rescuers) rescuedBy.set(k, (rescuedBy.get(k) ?? 0) + 1);
    if (rescuers.size > 0) rescuedBy.set("any", (rescuedBy.get("any") ?? 0) + 1);
  }
  const r = { xs, positive, kinds, weight: 1 };
  all.push(r);
  if (positive.some(Boolean) && !positive.every(Boolean)) rankings.push(r);
}
db.close();
console.log(
  `${questions.length} questions, ${withCandidates} with alternative links; base links right ${baseRight}; wrong but some candidate right: ${[...rescuedBy].map(([k, n]) => `${k} ${n}`).join(", ")}`,
);

/** Right answers of a weight vector's choice over every question with mentions, and better/worse against the base. */
function choose(w: readonly number[]): { right: number; better: number; worse: number } {
  let right = 0;
  let better = 0;
  let worse = 0;
  for (const r of all) {
    let best = 0;
    r.xs.forEach((x, i) => {
      if (linearScore(w, x) > linearScore(w, r.xs[best]!)) best = i;
    });
    if (r.positive[best]) right++;
    if (r.positive[best] && !r.positive[0]) better++;
    if (!r.positive[best] && r.positive[0]) worse++;
  }
  return { right, better, worse };
}

const prior = baseLinkWeights();
const l2 = Number(values.l2);
if (values.evaluate) {
  const model = JSON.parse(readFileSync(values.evaluate, "utf8")) as ConditionLinkModel;
  const c = choose(model.weights);
  console.log(
    `base ${choose(prior).right} right → model ${c.right} (better ${c.better} / worse ${c.worse}) over ${all.length} questions`,
  );
  process.exit(0);
}
const epochs = Number(values.epochs);
const before = listwiseObjective(rankings, prior, prior, l2);
const w = fitListwise(rankings, prior, { l2, epochs });
const after = listwiseObjective(rankings, w, prior, l2);
const c = choose(w);
console.log(
  `${rankings.length} mixed rankings · loss ${before.loss.toFixed(4)} → ${after.loss.toFixed(4)} · fit: base ${choose(prior).right} right → ${c.right} (better ${c.better} / worse ${c.worse})`,
);
for (const [i, name] of LINK_FEATURES.entries())
  if (Math.abs(w[i]! - prior[i]!) > 0.05) console.log(`  ${name} ${w[i]!.toFixed(3)}`);
if (values.out) {
  const model: ConditionLinkModel = {
    trainedOn: `WTQ train: ${rankings.length} questions with right and wrong links of ${values.questions}; scripts/train-condition-links.ts --l2 ${l2} --epochs ${epochs}`,
    features: [...LINK_FEATURES],
    weights: w.map((x) => Math.round(x * 1e4) / 1e4),
  };
  writeFileSync(values.out, JSON.stringify(model, null, 1) + "\n");
  console.log(`wrote ${values.out}`);
}
