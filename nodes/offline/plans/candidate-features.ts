/**
 * Features of one SQL candidate for the learned verifier (answer-features.ts merges them): which
 * generator built it, where it stood among the attempt's candidates, whether it answers with the
 * next-best target column, whether its template fits the answer kind the question asks for, and
 * the shape of its result (rows, NULL cells, ties of a superlative).
 */
import type { QuestionAnalysis } from "../analysis.js";
import { parseSqlRows } from "../sql-result.js";
import type { NamedPlan } from "./types.js";

/** Templates whose answer is a computed number. */
const NUMERIC_TEMPLATES = new Set(["count", "count-column", "sum", "avg", "difference", "percent-change"]);
const NUMERIC_KINDS = new Set(["number", "count", "percent"]);

/** Feature of a candidate whose answer column holds years (answer-kind.ts `fitsKind` then takes "977" for a year). */
export const TARGET_YEARS = "cand:target-years";
/** Feature of a candidate whose answer column is text its header the question spells (`fitsKind` then takes "XL"). */
export const TARGET_SPELLED_TEXT = "cand:target-spelled-text";

/** Does the plan's template fit the answer kind the analysis expects? */
export function kindAgreement(
  template: string,
  analysis: Pick<QuestionAnalysis, "answerType">,
): "agree" | "disagree" | "open" {
  const kind = analysis.answerType;
  if (template === "choice") return kind === "choice" ? "agree" : "disagree";
  if (template === "moreless") return kind === "moreless" ? "agree" : "disagree";
  if (NUMERIC_TEMPLATES.has(template))
    return NUMERIC_KINDS.has(kind) ? "agree" : kind === "entity" ? "open" : "disagree";
  if (kind === "count" || kind === "choice" || kind === "moreless") return "disagree";
  return "open";
}

/** The plan-time features of the candidate at `rank` of an attempt's list. */
export function candidateFeatures(
  plan: NamedPlan,
  rank: number,
  analysis: Pick<QuestionAnalysis, "answerType">,
): Record<string, number> {
  return {
    [`gen=${plan.generator}`]: 1,
    [`cand:rank=${Math.min(rank, 3)}`]: 1,
    ...(rank > 0 ? { "cand:alt": 1 } : {}),
    ...(plan.targetRank > 0 ? { "cand:next-target": 1 } : {}),
    [`cand:kind=${kindAgreement(plan.template, analysis)}`]: 1,
    ...(plan.targetYears ? { [TARGET_YEARS]: 1 } : {}),
    ...(plan.targetSpelledText ? { [TARGET_SPELLED_TEXT]: 1 } : {}),
  };
}

/** The result's shape: how many rows, whether a cell is NULL or empty, whether a superlative returned ties. */
export function resultShape(sqlResult: string, template: string): string[] {
  const rows = parseSqlRows(sqlResult) ?? [];
  const out = [`res:rows=${rows.length === 0 ? "0" : rows.length === 1 ? "1" : rows.length <= 5 ? "2-5" : "6+"}`];
  if (rows.some((r) => r.some((v) => v === null || (typeof v === "string" && v.trim() === "")))) out.push("res:null");
  if ((template === "argmax" || template === "argmin") && rows.length > 1) out.push("res:ties");
  return out;
}
