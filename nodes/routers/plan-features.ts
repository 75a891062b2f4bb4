/**
 * What the offline question analysis knows about a sub-query, as tokens for the learned router:
 * the answer kind, the operator the analysis found, where the decomposer grounded the question
 * (cell mentions and their kind, the SQL template it expects, that template's confidence) and
 * whether the passage bridge rewrote it to a passage question. The v1/v2 text (./features.ts)
 * carries only the plan's four categorical fields; these separate the questions those fields lump
 * together (a passage question and a cell question both read `[MOD] both [ENT] x`).
 *
 * Plans without an offline analysis (the prompted backbone's) give no tokens, so a model trained
 * with them still routes such plans from the v1/v2 text alone.
 */
import { analysisOf } from "../offline/analysis.js";
import type { SubQueryPlan } from "../types.js";

const bucket = (n: number, top: number) => (n >= top ? `${top}+` : String(n));

/** The analysis tokens of a plan (empty when it carries no offline analysis). */
export function planTokens(plan: SubQueryPlan): string[] {
  const a = analysisOf(plan);
  if (!a) return [];
  const tokens = [`A:type=${a.answerType}`, `A:op=${a.operator}`, `A:mod=${a.modality}`];
  if (a.detectors) tokens.push(`A:kind=${a.detectors.answerKind}`);
  if (a.listAnswer) tokens.push("A:list");
  if (a.arithmetic) tokens.push(`A:arith=${a.arithmetic}`);
  if (a.aggregate) tokens.push(`A:agg=${a.aggregate}`);
  if (a.comparison) tokens.push(`A:cmp=${a.comparison.kind}`);
  if (a.position) tokens.push("A:position");
  tokens.push(`A:cond#=${bucket(a.conditions.length, 2)}`, `A:num#=${bucket(a.numbers.length, 3)}`);
  // The passage bridge turned a table question into a passage one (decompose.ts sets `text`).
  if (plan.requiredModalities === "text" && a.modality !== "text") tokens.push("B:bridged");
  const g = a.grounding;
  if (!g) return [...tokens, "G:none"];
  tokens.push(`G:hinted=${g.hinted === true}`, `G:mentions#=${bucket(g.mentions.length, 3)}`);
  for (const kind of new Set(g.mentions.map((m) => m.kind))) tokens.push(`G:mention=${kind}`);
  if (g.template) tokens.push(`G:tpl=${g.template}`);
  if (g.generator) tokens.push(`G:gen=${g.generator}`);
  if (g.features) tokens.push(`G:ground=${g.features.grounding}`, `G:target=${g.features.target}`);
  if (typeof g.confidence === "number") tokens.push(`G:conf=${Math.round(g.confidence * 5) / 5}`);
  // Crossed with the answer kind: "a number from a named cell" and "a name from a named cell" route apart.
  tokens.push(`X:${a.answerType}|${g.template ?? "-"}|${g.mentions.length > 0}`);
  return tokens;
}
