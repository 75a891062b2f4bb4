/**
 * Coercion of structured replies to domain values, following the reference's root semantics:
 * decomposer fields (§3.3) and verifier verdicts (§8.4).
 */
import type { Modality, Operator, SubQueryPlan, Verdict } from "../types.js";
import { MODALITIES, OPERATORS } from "../types.js";
import type { ReplyOf } from "./schemas.js";

/** Uncertainty: a finite number in [0, 1], else 1.0 (never triggers the early stop). */
export function coerceUncertainty(value: unknown): number {
  if (typeof value === "boolean") return 1;
  const n =
    typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : Number.NaN;
  return Number.isFinite(n) && n >= 0 && n <= 1 ? n : 1;
}

/** Entity mentions: a string becomes one element; non-empty trimmed strings, de-duplicated in order. */
export function coerceEntities(value: unknown): string[] {
  const list = typeof value === "string" ? [value] : Array.isArray(value) ? value : [];
  const out: string[] = [];
  for (const item of list) {
    if (typeof item !== "string") continue;
    const t = item.trim();
    if (t !== "" && !out.includes(t)) out.push(t);
  }
  return out;
}

export function coercePlan(reply: ReplyOf<"decompose">): SubQueryPlan {
  const modality = String(reply.required_modalities).trim().toLowerCase();
  const operator = String(reply.expected_operator).trim().toLowerCase();
  const subQuery = reply.sub_query.trim();
  return {
    subQuery: subQuery.toUpperCase() === "TERMINATE" ? "TERMINATE" : subQuery,
    requiredModalities: (MODALITIES as readonly string[]).includes(modality) ? (modality as Modality) : "both",
    expectedOperator: (OPERATORS as readonly string[]).includes(operator) ? (operator as Operator) : "lookup",
    needGlobalTableView: ["yes", "true"].includes(String(reply.need_global_table_view).trim().toLowerCase()),
    entityMentions: coerceEntities(reply.entity_mentions),
    uncertainty: coerceUncertainty(reply.uncertainty),
  };
}

/** Only exactly 0, 0.5 or 1 (number or numeric string) is a verdict; anything else is 0.5. */
export function coerceVerdict(value: unknown): Verdict {
  if (typeof value === "boolean") return 0.5;
  const n =
    typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : Number.NaN;
  return n === 0 || n === 0.5 || n === 1 ? n : 0.5;
}
