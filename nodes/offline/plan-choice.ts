/**
 * The learned plan choice: which of the registry's candidate plans (plans/registry.ts
 * `planCandidates`: every applicable generator, then the same generators answering with the next-best
 * target columns) answers the question. The candidates are run, and a linear score over named features
 * of each — its generator and template against the first plan's, the shape of its result (rows, an
 * empty answer, a number where a name is asked, an answer the question already holds, a count of every
 * row), whether the question names its target column — picks one. The first plan is a candidate with
 * its own indicator (the prior: the first plan wins every question), so the choice moves only when an
 * alternative scores higher. Trained on the fit tables of a table-disjoint split of WTQ train with
 * execution labels (scripts/train-plan-choice.ts: each candidate's answer judged with the official
 * match); without models/plan-choice.json the first plan stays.
 */
import type { QuestionAnalysis } from "./analysis.js";
import { headerMatch, isNumericColumn } from "./columns.js";
import { splitList } from "./answer-format.js";
import { sqlRowsAnswer } from "./fuse.js";
import type { EntityMention } from "./mentions.js";
import { ModelFile, ModelFileError } from "./model-file.js";
import { kindAgreement } from "./plans/candidate-features.js";
import { firstPlan, planCandidates } from "./plans/registry.js";
import type { NamedPlan, SqlPlanInput } from "./plans/types.js";
import { normaliseText } from "../../text/normalise.js";

/** Runs one statement of the plan choice and returns its rows (throws when it fails). */
export type RunStatement = (sql: string) => unknown[];

/** How many candidates the choice weighs (the first plan included): the SQL route's own candidates (sql-writer.ts). */
export const PLAN_CHOICE_CAP = 4;

/** Tables larger than this keep the first plan (every candidate is run). */
const MAX_ROWS = 5000;

/** A candidate plan with what running it gave: its row count (-1 when it failed) and the SQL route's answer. */
export interface ExecutedPlan {
  plan: NamedPlan;
  rows: number;
  answer: string;
}

/** Runs each plan and forms the answer the SQL route would give (plan-choice features and training labels). */
export function executePlans(
  plans: readonly NamedPlan[],
  run: RunStatement,
  question: string,
  analysis: QuestionAnalysis,
  mentions: readonly EntityMention[],
): ExecutedPlan[] {
  return plans.map((plan) => {
    try {
      const rows = run(plan.sql);
      return { plan, rows: rows.length, answer: sqlRowsAnswer(question, analysis, mentions, rows) };
    } catch {
      return { plan, rows: -1, answer: "" };
    }
  });
}

const NUMBER = /^-?[\d,]*\.?\d+$/;

function countBucket(n: number): string {
  return n === 0 ? "0" : n === 1 ? "1" : n <= 5 ? "2-5" : "6+";
}

/** The named features of the candidate at `rank` (0 = the first plan), against the first plan's run. */
export function planChoiceFeatures(
  input: Pick<SqlPlanInput, "analysis" | "catalog" | "mentions">,
  cand: ExecutedPlan,
  rank: number,
  first: ExecutedPlan,
): Record<string, number> {
  const a = input.analysis;
  const { plan, answer } = cand;
  const f: Record<string, number> = {};
  if (rank === 0) f.base = 1;
  else {
    f.alt = 1;
    f[`alt:gen=${plan.generator}`] = 1;
    f[`alt:tpl=${plan.template}`] = 1;
    f[`alt:from=${first.plan.template}`] = 1;
    if (plan.template === first.plan.template) f["alt:same-template"] = 1;
    if (answer === first.answer) f["alt:same-answer"] = 1;
  }
  if (plan.targetRank > 0) f["target-rank"] = plan.targetRank;
  f[`kind=${kindAgreement(plan.template, a)}`] = 1;
  // The answer's items, not the statement's rows: tied rows of one value ("the largest quantity") are one answer.
  const items = splitList(answer);
  f[`items=${cand.rows < 0 ? "err" : countBucket(items.length)}`] = 1;
  // (Ties of a superlative are their own case: the question asked for one row, the table holds several.)
  const ties = (plan.template === "argmax" || plan.template === "argmin") && items.length > 1;
  if (ties) f.ties = 1;
  else if (items.length > 1) f[a.listAnswer ? "list×many" : "single×many"] = 1;
  if (items.length === 0) f.empty = 1;
  else f[`${items.every((x) => NUMBER.test(x)) ? "number" : "text"}×${a.answerType}`] = 1;
  const said = normaliseText(answer);
  if (said !== "" && ` ${normaliseText(a.normalized)} `.includes(` ${said} `)) f["in-question"] = 1;
  const target = input.catalog.columns.find((c) => c.schema.name === plan.targetColumn);
  if (target) {
    const named = headerMatch(a.contentWords, target, false);
    if (named >= 1.5) f.named = 1;
    else if (named > 0) f["named:weak"] = 1;
    // (Right for the row after a named one, wrong for a lookup that repeats the named value.)
    if (input.mentions.some((m) => m.column === plan.targetColumn)) f[`target-is-mention×${plan.template}`] = 1;
    if (isNumericColumn(target)) f[`numeric-target×${a.answerType}`] = 1;
    // The most frequent value of a column whose values are all different is no answer to "the most".
    if (
      plan.template === "group-count" &&
      items.length === 1 &&
      (target.distinct.get(normaliseText(items[0]!))?.length ?? 0) <= 1
    )
      f["group-count:once"] = 1;
  }
  if (plan.template === "count") {
    if (answer === String(input.catalog.rowCount)) f["count=all"] = 1;
    if (answer === "0") f["count=0"] = 1;
  }
  f[`op=${a.operator}×tpl=${plan.template}`] = 1;
  return f;
}

export interface PlanChoiceModel {
  trainedOn: string;
  /** Feature name → weight; a feature not listed weighs 0. */
  weights: Record<string, number>;
  /** Another candidate is taken only when it scores more than this above the first plan (chosen on held-out tables). */
  minMargin: number;
}

/** Validates a parsed model file: `weights` maps feature names to finite numbers, `base` among them; `minMargin` ≥ 0. */
export function checkPlanChoiceModel(value: unknown, path: string): PlanChoiceModel {
  const m = value as PlanChoiceModel;
  if (!m || typeof m.weights !== "object" || m.weights === null)
    throw new ModelFileError(path, "needs a weights object (feature name → number)");
  for (const [name, w] of Object.entries(m.weights))
    if (typeof w !== "number" || !Number.isFinite(w))
      throw new ModelFileError(path, `weight of ${name} is not a number`);
  if (!("base" in m.weights)) throw new ModelFileError(path, "has no weight for the first plan's indicator `base`");
  if (typeof m.minMargin !== "number" || !(m.minMargin >= 0)) throw new ModelFileError(path, "needs minMargin ≥ 0");
  return m;
}

const file = new ModelFile<PlanChoiceModel>("plan-choice.json", checkPlanChoiceModel);

/** Replaces the model (null = always the first plan; undefined = read the file again) — tests and training. */
export function setPlanChoiceModel(model: PlanChoiceModel | null | undefined): void {
  file.set(model);
}

/** The score of one candidate's features under `weights`. */
export function planChoiceScore(weights: Readonly<Record<string, number>>, features: Record<string, number>): number {
  let s = 0;
  for (const [name, v] of Object.entries(features)) s += (weights[name] ?? 0) * v;
  return s;
}

/** The index of the best score (ties keep the earlier candidate), or 0 when it beats the first plan's by `minMargin` or less. */
export function bestCandidate(scores: readonly number[], minMargin: number): number {
  let best = 0;
  scores.forEach((s, i) => {
    if (s > scores[best]!) best = i;
  });
  return scores[best]! - scores[0]! > minMargin ? best : 0;
}

/** The chosen plan, where it stood among the candidates, and its score minus the first plan's (0 when it is the first). */
export interface PlanChoice {
  plan: NamedPlan;
  rank: number;
  margin: number;
}

/**
 * The plan the model chooses among the candidates of `input` for `question` (each run with `run`), or the first plan
 * when there is no model, one candidate, or a table over MAX_ROWS rows; null when no generator applies.
 */
export function choosePlan(question: string, input: SqlPlanInput, run: RunStatement): PlanChoice | null {
  const model = file.get();
  if (!model || input.catalog.rowCount > MAX_ROWS) {
    const plan = firstPlan(input);
    return plan ? { plan, rank: 0, margin: 0 } : null;
  }
  const plans = planCandidates(input, PLAN_CHOICE_CAP);
  if (plans.length <= 1) return plans[0] ? { plan: plans[0], rank: 0, margin: 0 } : null;
  const runs = executePlans(plans, run, question, input.analysis, input.mentions);
  const scores = runs.map((r, rank) => planChoiceScore(model.weights, planChoiceFeatures(input, r, rank, runs[0]!)));
  const best = bestCandidate(scores, model.minMargin);
  return { plan: plans[best]!, rank: best, margin: scores[best]! - scores[0]! };
}
