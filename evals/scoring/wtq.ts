/**
 * WikiTableQuestions denotation accuracy, a line-by-line port of `evaluator.py` of
 * ppasupat/WikiTableQuestions (release 1.0.2): string normalisation, Number/Date/String values,
 * set semantics and the size-then-match check (see shared/data/README.md, "WTQ").
 *
 * Gold items are typed from `answer_canon` when the record has it (CoreNLP values: `12467.0`,
 * `2012-10-07`, `xxxx-11-xx`), else from the `answer` strings themselves (the train split).
 * Predicted items are typed from their own text, exactly as the evaluator types a TSV prediction.
 */
import { pyFloat, pyInt } from "./python-numbers.js";

/** `normalize()` of the official evaluator. */
export function normalizeWtq(input: string): string {
  // Remove diacritics.
  let x = input.normalize("NFKD").replace(/\p{Mn}/gu, "");
  // Normalise quotes and dashes.
  x = x
    .replace(/[‘’´`]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[‐‑‒–—−]/g, "-");
  for (;;) {
    const old = x;
    // Remove citations.
    x = x.trim().replace(/((?<!^)\[[^\]]*\]|\[\d+\]|[•♦†‡*#+])*$/u, "");
    // Remove details in parentheses.
    x = x.trim().replace(/(?<!^)( \([^)]*\))*$/u, "");
    // Remove outermost quotation marks.
    x = x.trim().replace(/^"([^"]*)"$/u, "$1");
    if (x === old) break;
  }
  if (x.endsWith(".")) x = x.slice(0, -1);
  return x.replace(/\s+/gu, " ").toLowerCase().trim();
}

export type WtqValue =
  | { kind: "string"; normalized: string }
  | { kind: "number"; normalized: string; amount: number }
  | { kind: "date"; normalized: string; ymd: [number, number, number] };

/** `NumberValue.parse`: Python int(), then float() (NaN and infinities refused). */
function parseNumber(text: string): number | undefined {
  const asInt = pyInt(text);
  if (asInt !== undefined) return asInt;
  const asFloat = pyFloat(text);
  return asFloat !== undefined && Number.isFinite(asFloat) ? asFloat : undefined;
}

/** `DateValue.parse`: `yyyy-mm-dd` with `xx`/`xxxx` placeholders (-1). */
export function parseWtqDate(text: string): [number, number, number] | undefined {
  const parts = text.toLowerCase().split("-");
  if (parts.length !== 3) return undefined;
  const field = (p: string, placeholders: string[]): number | undefined => (placeholders.includes(p) ? -1 : pyInt(p));
  const year = field(parts[0]!, ["xx", "xxxx"]);
  const month = field(parts[1]!, ["xx"]);
  const day = field(parts[2]!, ["xx"]);
  if (year === undefined || month === undefined || day === undefined) return undefined;
  if (year === -1 && month === -1 && day === -1) return undefined;
  if (!(month === -1 || (month >= 1 && month <= 12))) return undefined;
  if (!(day === -1 || (day >= 1 && day <= 31))) return undefined;
  return [year, month, day];
}

function numberValue(amount: number, original: string): WtqValue {
  // The evaluator stores near-integers as ints; equality then compares the rounded amount.
  const stored = Math.abs(amount - Math.round(amount)) < 1e-6 ? Math.round(amount) : amount;
  return { kind: "number", amount: stored, normalized: normalizeWtq(original) };
}

/** `to_value(original, corenlp_value)`. */
export function toWtqValue(original: string, canon?: string | null): WtqValue {
  const typed = canon ? canon : original;
  const amount = parseNumber(typed);
  if (amount !== undefined) return numberValue(amount, original);
  const ymd = parseWtqDate(typed);
  if (ymd) {
    // A date with only a year is a number.
    if (ymd[1] === -1 && ymd[2] === -1) return numberValue(ymd[0], original);
    return { kind: "date", ymd, normalized: normalizeWtq(original) };
  }
  return { kind: "string", normalized: normalizeWtq(original) };
}

/** Python set semantics of the evaluator's values (`__eq__`/`__hash__` per class). */
function sameValue(a: WtqValue, b: WtqValue): boolean {
  if (a.kind === "number" && b.kind === "number") return a.amount === b.amount;
  if (a.kind === "date" && b.kind === "date") return a.ymd.join() === b.ymd.join();
  if (a.kind === "string" && b.kind === "string") return a.normalized === b.normalized;
  return false;
}

function dedupe(values: WtqValue[]): WtqValue[] {
  const out: WtqValue[] = [];
  for (const v of values) if (!out.some((o) => sameValue(o, v))) out.push(v);
  return out;
}

/** `to_value_list`. */
export function toWtqValueList(originals: string[], canons?: Array<string | null> | null): WtqValue[] {
  return dedupe(originals.map((o, i) => toWtqValue(o, canons ? canons[i] : undefined)));
}

/** `Value.match(other)` where `target` is the gold value. */
function matches(target: WtqValue, pred: WtqValue): boolean {
  if (target.normalized === pred.normalized) return true;
  if (target.kind === "number" && pred.kind === "number") return Math.abs(target.amount - pred.amount) < 1e-6;
  if (target.kind === "date" && pred.kind === "date") return target.ymd.join() === pred.ymd.join();
  return false;
}

/** `check_denotation(target_values, predicted_values)`. */
export function checkDenotation(target: WtqValue[], predicted: WtqValue[]): boolean {
  if (target.length !== predicted.length) return false;
  return target.every((t) => predicted.some((p) => matches(t, p)));
}

/**
 * How one predicted answer string becomes the evaluator's list of predicted items: our answer is a
 * single string, and a multi-item denotation is written `a | b` (the convention of the released
 * converters and of our synthesis). So the string is split on `|`, each item trimmed; an empty
 * answer is an empty list (always wrong). Nothing else splits: a comma may belong to an item
 * ("October 7, 2012"). A record may instead carry the items as an array (`agentic_tablerag_answer_list`).
 */
export function wtqPredictionItems(prediction: string | string[] | null | undefined): string[] {
  if (prediction == null) return [];
  const items = Array.isArray(prediction) ? prediction.map(String) : String(prediction).split("|");
  return items.map((s) => s.trim()).filter((s) => s !== "");
}

export interface WtqGold {
  answer: string[];
  answer_canon?: Array<string | null> | null;
}

/** True when the predicted answer is the gold denotation. */
export function wtqCorrect(gold: WtqGold, prediction: string | string[] | null | undefined): boolean {
  const canon = gold.answer_canon && gold.answer_canon.length === gold.answer.length ? gold.answer_canon : null;
  const target = toWtqValueList(gold.answer, canon);
  const predicted = toWtqValueList(wtqPredictionItems(prediction));
  return checkDenotation(target, predicted);
}
