/**
 * TAT-QA exact match and numeracy-aware F1 with scale: a port of the official `tatqa_metric.py`
 * and `tatqa_utils.py` (NExTplusplus/TAT-QA): `get_answer_str`, `add_percent_pred`,
 * `normalize_answer`, `get_metrics`, and the EM = F1 rule for arithmetic/count questions.
 *
 * Our system answers with one string, so `predictionFromText` first turns it into the official
 * `(answer list, scale)` pair the way the published `scripts/eval_tatqa.py` does (reference §12.2):
 * scale from a scale word or `%` in the text, the trailing scale word removed, multi-span splitting.
 */
import { pyFloat, pyFormatFixed, pyNumberStr, pyRound } from "./python-numbers.js";
import { ARTICLES, ASCII_PUNCT } from "./tokens.js";
import { MONTH_PATTERN } from "../../text/lexicons.js";

export type TatScale = "" | "thousand" | "million" | "billion" | "percent";

/** `scale_to_num`: substring tests in this order, as the original. */
export function scaleToNum(scale: string): number {
  const s = scale.toLowerCase();
  if (s.includes("hundred")) return 100;
  if (s.includes("thousand")) return 1000;
  if (s.includes("million")) return 1_000_000;
  if (s.includes("billion")) return 1_000_000_000;
  if (s.includes("percent")) return 0.01;
  return 1;
}

const EXCLUDE_IN_NUM = new Set([..."'\"\\$€£¥%(),[]"]);
function cleanNum(text: string): string {
  return [...text].filter((ch) => !EXCLUDE_IN_NUM.has(ch)).join("");
}

/** Python `str.split()` with no argument. */
function pySplit(text: string): string[] {
  return text.split(/\s+/u).filter((w) => w !== "");
}

/** `is_number`. */
export function tatIsNumber(text: string): boolean {
  const words = pySplit(pySplit(text).map(cleanNum).join(" "));
  if (words.length === 0) return false;
  const num = pyFloat(words[0]!);
  if (num === undefined || Number.isNaN(num)) return false;
  if (words.length >= 2 && scaleToNum(words[1]!) === 1) return false;
  return true;
}

/** A number with Python's int/float distinction (it decides how `str()` prints it). */
interface PyNum {
  value: number;
  isInt: boolean;
}

/** `extract_one_num_from_str`. */
function extractOneNum(text: string): PyNum | undefined {
  const m = /([+-]?\d+(\.\d+)?)|([+-]?\.\d+)/.exec(cleanNum(text));
  if (!m || m[1] === undefined) return undefined; // only the first alternative counts, as in the original
  return { value: Number(m[1]), isInt: !m[1].includes(".") };
}

/** `word_scale_handle`: the scale word right after the first number. */
function wordScale(text: string): PyNum {
  const m = /([\d.]+\s?[a-zA-Z]+)/.exec(text);
  if (!m) return { value: 1, isInt: true };
  const v = scaleToNum(m[0].toLowerCase());
  return { value: v, isInt: v !== 0.01 };
}

/** `to_number`: value × word scale × sign of `(…)` × 1/100 for `%`, rounded to 4 places. */
export function tatToNumber(text: string): PyNum | undefined {
  const num = extractOneNum(text);
  if (!num) return undefined;
  const scale = wordScale(text);
  const negative = /(\([\d.\s%]+\))/.test(text.trim()) ? -1 : 1;
  const percent = /([\d.\s]+%)/.test(text.trim()) ? 0.01 : 1;
  const isInt = num.isInt && scale.isInt && percent === 1;
  const product = num.value * scale.value * negative * percent;
  return { value: isInt ? product : pyRound(product, 4), isInt };
}

/** `normalize_answer`: per space-separated token, lower → strip punctuation (non-numbers) → canonical number → drop articles. */
export function normalizeTatAnswer(text: string): string {
  const parts = text.split(" ").map((token) => {
    let t = token.toLowerCase();
    if (!tatIsNumber(t)) t = [...t].filter((ch) => !ASCII_PUNCT.has(ch)).join("");
    if (tatIsNumber(t)) {
      const n = tatToNumber(t);
      t = n ? pyNumberStr(n.value, n.isInt) : "None";
    }
    return pySplit(t.replace(ARTICLES, " ")).join(" ");
  });
  return parts
    .filter((p) => p.trim() !== "")
    .join(" ")
    .trim();
}

/** `get_answer_str`: sorted items, numbers scaled and printed `%.4f`, scale appended to text; one joined string. */
export function tatAnswerString(answers: string[], scale: string): string {
  const sorted = [...answers].map(String).sort();
  const out = sorted.map((item) => {
    if (tatIsNumber(item)) {
      const n = tatToNumber(item);
      if (!n) return scale ? `${item} ${scale}` : item;
      if (item.includes("%")) return pyFormatFixed(n.value, 4);
      return pyFormatFixed(pyRound(n.value, 2) * scaleToNum(scale), 4);
    }
    return scale ? `${item} ${scale}` : item;
  });
  return out.join(" ");
}

function tokenSet(normalized: string): Set<string> {
  return new Set(pySplit(normalized));
}

/** `_compute_f1` over token sets. */
function bagF1(pred: Set<string>, gold: Set<string>): number {
  let inter = 0;
  for (const t of gold) if (pred.has(t)) inter++;
  const precision = pred.size === 0 ? 1 : inter / pred.size;
  const recall = gold.size === 0 ? 1 : inter / gold.size;
  return precision === 0 && recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

/** `get_metrics` for one predicted string against one gold string. */
export function tatGetMetrics(predicted: string, gold: string): { em: number; f1: number } {
  const p = normalizeTatAnswer(predicted);
  const g = normalizeTatAnswer(gold);
  const em = p === g ? 1 : 0;
  return { em, f1: pyRound(bagF1(tokenSet(p), tokenSet(g)), 2) };
}

export interface TatGold {
  answer: string[];
  answer_type: string;
  scale: string;
}

export interface TatPrediction {
  answer: string[];
  scale: string;
}

export interface TatScore {
  em: number;
  f1: number;
  /** Predicted scale equals the gold scale (counted only for non-empty predictions, as the original). */
  scaleCorrect: boolean;
}

/** `TaTQAEmAndF1.__call__` for one question. A missing or empty prediction scores 0. */
export function scoreTatqa(gold: TatGold, prediction: TatPrediction | null | undefined): TatScore {
  if (!prediction || prediction.answer.length === 0) {
    return { em: 0, f1: 0, scaleCorrect: false };
  }
  if (gold.answer.length === 0) return { em: 0, f1: 0, scaleCorrect: false };
  const goldStrings = [tatAnswerString(gold.answer, gold.scale)];
  const predStrings = [tatAnswerString(prediction.answer, prediction.scale)];
  // add_percent_pred: a single unscaled number is also tried at its raw value.
  if (prediction.answer.length === 1) {
    const only = String(prediction.answer[0]);
    if (!prediction.scale && !only.includes("%") && tatIsNumber(only)) {
      const n = tatToNumber(only);
      if (n) predStrings.push(pyFormatFixed(n.value, 4));
    }
  }
  // metric_max_over_ground_truths: Python max over (em, f1) tuples.
  let best = { em: 0, f1: 0 };
  let first = true;
  for (const p of predStrings) {
    for (const g of goldStrings) {
      const m = tatGetMetrics(p, g);
      if (first || m.em > best.em || (m.em === best.em && m.f1 > best.f1)) best = m;
      first = false;
    }
  }
  const f1 = gold.answer_type === "arithmetic" || gold.answer_type === "count" ? best.em : best.f1;
  return { em: best.em, f1, scaleCorrect: gold.scale === prediction.scale };
}

const SCALE_WORDS: Array<[TatScale, RegExp]> = [
  ["billion", /\bbillions?\b/i],
  ["million", /\bmillions?\b/i],
  ["thousand", /\bthousands?\b/i],
  ["percent", /%|\bper ?cent\b/i],
];
const MONTH_DAY = new RegExp(`\\b(${MONTH_PATTERN})[a-z]*\\.? \\d{1,2}\\b`, "i");

/**
 * One answer string → the official `(answer list, scale)` pair, as reference §12.2: the scale is
 * the first of billion/million/thousand/percent whose word (or `%`) the text contains, and a
 * trailing scale word is removed; multi-span answers are split on ` | ` or `; `; on `, ` before a
 * digit or `$` when a `(YYYY), ` pattern exists; on ` and ` only into exactly two parts that both
 * hold digits; on `, ` only when there is no `d,ddd` number, no `Month DD` date, and every part has
 * at most 4 words. A record's `agentic_tablerag_scale` field, when present, overrides the inferred scale.
 */
export function tatPredictionFromText(text: string, explicitScale?: string): TatPrediction {
  let t = String(text ?? "").trim();
  let scale: string = "";
  for (const [name, re] of SCALE_WORDS) {
    if (re.test(t)) {
      scale = name;
      break;
    }
  }
  if (explicitScale !== undefined && explicitScale !== null) scale = explicitScale;
  // Remove a trailing scale word (the number and the scale travel separately).
  t = t.replace(/\s*\b(billions?|millions?|thousands?|per ?cent)\s*$/i, "").trim();
  let parts: string[];
  if (/ \| |; /.test(t)) parts = t.split(/ \| |; /);
  else if (/\(\d{4}\), /.test(t)) parts = t.split(/, (?=[\d$])/);
  else if (/ and /.test(t) && t.split(" and ").length === 2 && t.split(" and ").every((p) => /\d/.test(p))) {
    parts = t.split(" and ");
  } else if (
    t.includes(", ") &&
    !/\d,\d{3}/.test(t) &&
    !MONTH_DAY.test(t) &&
    t.split(", ").every((p) => p.trim().split(/\s+/).length <= 4)
  ) {
    parts = t.split(", ");
  } else parts = [t];
  parts = parts.map((p) => p.trim()).filter((p) => p !== "");
  return { answer: parts, scale };
}
