/**
 * Minimal answer strings for the offline backbone, in the forms the benchmark scorers compare
 * (data/README.md "Official evaluation rules"):
 * - numbers as stored in the evidence; computed numbers rounded to 2 decimals (TAT-QA rounds gold
 *   arithmetic answers the same way; WTQ compares numbers, so "12.0" and "12" agree);
 * - a TAT-QA style scale word ("thousand", "million", …) after a number when the evidence declares
 *   its amounts in that scale ("in thousands", "$ in millions"), and "%" after percentages;
 * - lists joined with {@link LIST_SEPARATOR}, which the scorers split on.
 */
import { parseNumber } from "../../indexing/column-types.js";
import { boundedMemo } from "../../text/bounded-memo.js";
import { invisiblesToSpaces } from "../../text/normalise.js";
import { analysisOf, analyzeQuestion } from "./analysis.js";
import { answerKindOf, numericValue } from "./answer-kind.js";
import type { SubQueryPlan } from "../types.js";

import { NOT_FOUND } from "../answer-validity.js";

export { NOT_FOUND };

/** Separator of list answers: the WTQ and TAT-QA scorers (evals/scoring) split on it; "A, B" would be ambiguous with "3,795". */
export const LIST_SEPARATOR = " | ";

/** Answers that mean "no answer" (compared lower-case, trimmed). */
const SENTINELS = new Set([
  "",
  "not found",
  "none",
  "null",
  "n/a",
  "na",
  "error",
  "[]",
  "{}",
  "(none)",
  "unknown",
  "undefined",
  "nan",
  "no answer",
  "no_match",
]);

/** True for empty answers, "not found", "none", "error", "[]" and the executor's failure text. */
export function isSentinel(answer: string | null | undefined): boolean {
  if (answer === null || answer === undefined) return true;
  const a = answer.trim().toLowerCase();
  return SENTINELS.has(a) || a.startsWith("sql execution failed") || a === "[null]" || a === "[[null]]";
}

/** Trims an answer: answer tags, surrounding quotes, a trailing period, repeated and invisible spaces. */
export function cleanAnswer(answer: string): string {
  let a = answer.replace(/^\s*(<answer>|<final_answer>)\s*:?\s*/i, "").replace(/^\s*(final answer|answer)\s*:\s*/i, "");
  // (A cell's zero-width spaces would stay inside the answer as words of their own.)
  a = invisiblesToSpaces(a.split("\n")[0]!).replace(/\s+/g, " ").trim();
  // ('"Shock Therapy" (interlude)', '"A" / "B"': a quoted title among other words keeps its quotes; only quotes
  // around the whole answer go.)
  const quotedPart =
    (a.match(/["“”]/g) ?? []).length > 2 ||
    /^["“][^"“”]*["”]\s*[\p{L}\p{N}([/]|[\p{L}\p{N})\]/]\s*["“][^"“”]*["”]$/u.test(a);
  for (let i = 0; i < 3; i++) {
    const before = a;
    a = quotedPart ? a.replace(/^['‘’`]+|['‘’`]+$/g, "").trim() : a.replace(/^["'“”‘’`]+|["'“”‘’`]+$/g, "").trim();
    if (!/\b[A-Z][a-z]?\.$|\b(Inc|Ltd|Jr|Sr|Co|Corp|St)\.$/.test(a)) a = a.replace(/\s*\.+$/, "").trim();
    a = a.replace(/^[,;:]+|[,;:]+$/g, "").trim();
    if (a === before) break;
  }
  // HybridQA-style tokenised punctuation: "Smith , Jr ." → keep as is (the scorer drops punctuation).
  return a;
}

/** A computed number as a minimal string: integers plain, others rounded to 2 decimals. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return NOT_FOUND;
  if (Number.isInteger(value)) return String(value);
  const rounded = Math.round(value * 100) / 100;
  if (rounded === 0 && value !== 0) return String(Number(value.toPrecision(2)));
  return String(rounded);
}

/** A number from SQL: floating-point noise trimmed to 12 significant digits (WTQ compares to 1e-6). */
function sqlNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number.parseFloat(value.toPrecision(12)));
}

/** A scalar from SQL (number, numeric text or text) as an answer string. */
export function formatScalar(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? sqlNumber(value) : "";
  if (typeof value === "boolean") return value ? "yes" : "no";
  const text = String(value).trim();
  // SQLite may return numeric text with a float tail ("12.0", "3.14159265358979").
  if (/^-?\d+\.\d{13,}$/.test(text) || /^-?\d+\.0+$/.test(text)) return sqlNumber(Number(text));
  return text;
}

export type Scale = "" | "thousand" | "million" | "billion";

const SCALE_PATTERNS: Array<[RegExp, Scale]> = [
  [
    /\bin (?:us |u\.s\. )?(?:\$|dollars|usd|€|£|euros?|pounds?)?\s*billions?\b|\(\s*(?:\$|€|£|usd)?\s*billions?\)/i,
    "billion",
  ],
  [
    /\bin (?:us |u\.s\. )?(?:\$|dollars|usd|€|£|euros?|pounds?|rmb|¥)?\s*millions?\b|\(\s*(?:\$|€|£|usd)?\s*millions?\)|[$€£]\s*['’‘]?m\b|\b(?:usd|eur|gbp|rmb|chf|aud|cad|sek|nok|dkk)\s?m\b|(?:^|\|)\s*(?:us\s?)?[$€£]\s*millions?\s*(?=\||$)|\(\s*[$€£]\s*m\s*\)|\b(?:rmb|usd|us\$|hk\$|a\$|eur|gbp)\s*['’‘]\s*millions?\b/i,
    "million",
  ],
  [
    /\bin (?:us |u\.s\. )?(?:\$|dollars|usd|€|£|euros?|pounds?|rmb|¥)?\s*thousands?\b|\(\s*(?:\$|€|£|usd)?\s*thousands?\)|[$€£]\s*['’‘]?000s?\b|\bin \$?000['’‘]?s\b|\(\s*000['’‘]?s\s*\)|(?:^|\|)\s*(?:us\s?)?[$€£]\s*thousands?\s*(?=\||$)|\(\s*\$?000\s*\)|\b(?:rmb|usd|us\$|hk\$|a\$|eur|gbp)\s*['’‘]\s*000s?\b|\(\s*1,000\s*\)/i,
    "thousand",
  ],
];

/**
 * The scale in which the evidence states its amounts ("(in thousands)", "$ in millions",
 * "amounts in millions", "$'000"), or "" when it declares none. The first declaration wins.
 */
export function scaleFromEvidence(evidence: string): Scale {
  return declaredScale(evidence);
}

/** Remembered by the text: the fusion, the cell readers and the verifier's features ask it of the same evidence. */
const declaredScale = boundedMemo(256, (evidence: string): Scale => {
  // Passages may break lines anywhere ("(in\nthousands)"): the patterns read single spaces.
  const text = evidence.replace(/\s+/g, " ");
  let best: { at: number; scale: Scale } | undefined;
  for (const [re, scale] of SCALE_PATTERNS) {
    const m = re.exec(text);
    if (m && (!best || m.index < best.at)) best = { at: m.index, scale };
  }
  return best?.scale ?? "";
});

/**
 * Appends the evidence's scale word to a bare number or a list of bare numbers ("6,388" →
 * "6,388 thousand"; "193 | 167" → "193 | 167 thousand": the TAT-QA scorer reads one scale per answer).
 */
export function withScale(answer: string, scale: Scale): string {
  if (!scale) return answer;
  const a = answer.trim();
  if (/%|\b(thousand|million|billion|trillion|percent)s?\b/i.test(a)) return a;
  if (!splitList(a).every((item) => parseNumber(item) !== null)) return a;
  // Years ("2018", "2019 | 2018") are periods, not amounts.
  if (splitList(a).every((item) => /^(19|20)\d\d$/.test(item))) return a;
  return `${a} ${scale}`;
}

/** Removes a trailing scale word ("67 million" → "67"), for comparisons across scale sources. */
export function withoutScale(answer: string): string {
  return answer.replace(/\s+(thousand|million|billion)s?\s*$/i, "").trim();
}

/** Appends "%" to a bare number ("-19.91" → "-19.91%"). */
export function asPercent(answer: string): string {
  const a = answer.trim();
  if (a.endsWith("%") || parseNumber(a) === null) return a;
  return `${a}%`;
}

/** Joins list items (de-duplicated, order kept) into one answer string. */
export function joinList(items: readonly string[]): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of items) {
    const c = cleanAnswer(item);
    const key = c.toLowerCase();
    if (c === "" || isSentinel(c) || seen.has(key)) continue;
    seen.add(key);
    out.push(c);
  }
  return out.join(LIST_SEPARATOR);
}

/** Splits a list answer back into items. */
export function splitList(answer: string): string[] {
  return answer
    .split("|")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/**
 * Formats a numeric answer for the question: "%" for percentages; for amounts taken from a table
 * or computed from one (`tabular`), the scale the evidence declares ("in thousands"). Numbers read
 * from passage sentences keep their own form ("$480 million").
 */
export function formatForQuestion(
  answer: string,
  input: { subQuery: string; question: string; plan: SubQueryPlan },
  evidence: string,
  tabular = false,
): string {
  // Over tables alone (no passages, e.g. WTQ) answers keep their form: no "%" and no scale word.
  if (input.plan.requiredModalities === "table") return answer;
  const kind = answerKindOf(input.plan, input.subQuery || input.question);
  const a = analysisOf(input.plan) ?? analyzeQuestion(input.subQuery || input.question);
  const items = splitList(answer);
  if (
    items.some((i) => numericValue(i) === null) ||
    /[a-z]{3,}/i.test(answer.replace(/\b(thousand|million|billion)\b/gi, ""))
  )
    return answer;
  if (kind === "percent" || a.arithmetic === "percent_change") return asPercent(answer);
  if (!tabular || kind === "count" || a.arithmetic === "ratio" || /%/.test(answer)) return answer;
  return withScale(answer, scaleFromEvidence(evidence));
}
