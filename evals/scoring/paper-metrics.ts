/**
 * The paper's benchmark-independent metric set (reference §12.1, `atr/evaluate.py`): answer
 * cleaning, two normalisations (A multiplies scale words out, B keeps them), exact / normalised
 * EM, relaxed match and SQuAD-style token F1. These are the numbers of the paper's tables; the
 * official metric of each benchmark is computed separately (wtq.ts, tatqa.ts, hybridqa.ts).
 *
 * Deliberate difference from the published script: none in the formulas; the gold string is built
 * from our `answer` list when the record has no `answer-text` (see `paperGoldText`).
 */

import { multisetF1 } from "./tokens.js";

const NULL_LIKE = new Set(["null", "none", "n/a", "na"]);

/** The published cleaning of gold and predicted strings (tags, "the answer is", "based on …," …). */
export function cleanAnswer(input: string | null | undefined): string {
  let s = String(input ?? "").trim();
  if (NULL_LIKE.has(s.toLowerCase())) return "";
  const rules: RegExp[] = [
    /^<\s*(final_answer|answer)\s*>\s*:?\s*/i,
    /^(the\s+)?(final\s+)?answer\s+(to\s+the\s+question\s+)?is\s*:?\s*/i,
    /^(based on|according to)\b[^,]*,\s*/i,
    /^(sub-query|step)\s*\d+\s*:\s*/i,
    /^[:\-]\s*/,
  ];
  for (let changed = true; changed;) {
    changed = false;
    for (const re of rules) {
      const next = s.replace(re, "");
      if (next !== s) {
        s = next.trim();
        changed = true;
      }
    }
  }
  s = s.replace(/\s+is\s+the\s+(final\s+)?answer\s*$/i, "");
  s = s.replace(/[.!]+$/, "");
  s = s.replace(/\s+/g, " ").trim();
  const quoted = /^(["'])(.*)\1$/s.exec(s);
  if (quoted) s = quoted[2]!.trim();
  return NULL_LIKE.has(s.toLowerCase()) ? "" : s;
}

// The published script's own list, zero–twenty exactly: the paper's metric, not text/lexicons.ts's
// number words (which also read thirty … thousand and would change the scores).
const NUMBER_WORDS = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
  "twenty",
];
const NUMBER_WORD_RE = new RegExp(`\\b(${NUMBER_WORDS.join("|")})\\b`, "g");
const SCALE_VALUE: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9 };

/** Normalisation A (`keepScale` false) or B (`keepScale` true). */
export function normalizePaper(input: string, keepScale = false): string {
  let s = input.normalize("NFKC").toLowerCase();
  s = s.replace(/(\d),(?=\d)/g, "$1");
  if (!keepScale) {
    s = s.replace(/(\d+(?:\.\d+)?)\s*(thousand|million|billion)\b/g, (_, n: string, w: string) =>
      String(Math.round(Number(n) * SCALE_VALUE[w]!)),
    );
  }
  s = s.replace(NUMBER_WORD_RE, (w) => String(NUMBER_WORDS.indexOf(w)));
  s = s.replace(/[^0-9a-z\s]/g, " ");
  s = s.replace(/\b(a|an|the)\b/g, " ");
  return s.replace(/\s+/g, " ").trim();
}

function wholeWordIn(needle: string, hay: string): boolean {
  if (!needle || !hay) return false;
  return ` ${hay} `.includes(` ${needle} `);
}

function relaxedUnder(gold: string, pred: string): boolean {
  if (!gold || !pred) return false;
  if (gold === pred || wholeWordIn(gold, pred) || wholeWordIn(pred, gold)) return true;
  const goldTokens = [...new Set(gold.split(" "))];
  const predTokens = new Set(pred.split(" "));
  const covered = goldTokens.filter((t) => predTokens.has(t)).length;
  return covered / goldTokens.length >= 0.8;
}

/** SQuAD-style token F1 on normalised strings; 0 when either is empty. */
function tokenF1(gold: string, pred: string): number {
  const g = gold ? gold.split(" ") : [];
  const p = pred ? pred.split(" ") : [];
  return g.length === 0 || p.length === 0 ? 0 : multisetF1(g, p);
}

export interface PaperScore {
  exact: number;
  normalizedEm: number;
  relaxed: number;
  tokenF1: number;
}

/** The four per-row numbers of `atr/evaluate.py` (the gold must be non-empty; callers skip rows without gold). */
export function scorePaper(goldText: string, prediction: string | null | undefined): PaperScore {
  const gold = cleanAnswer(goldText);
  const pred = cleanAnswer(prediction);
  const goldA = normalizePaper(gold);
  const predA = normalizePaper(pred);
  const goldB = normalizePaper(gold, true);
  const predB = normalizePaper(pred, true);
  return {
    exact: gold !== "" && gold === pred ? 1 : 0,
    normalizedEm: goldA !== "" && goldA === predA ? 1 : 0,
    relaxed: relaxedUnder(goldA, predA) || relaxedUnder(goldB, predB) ? 1 : 0,
    tokenF1: tokenF1(goldA, predA),
  };
}

/**
 * The gold string the paper's metrics compare against: `answer-text` when the record has one
 * (the published converters' field), else the `answer` list joined with ` | ` (as the published
 * WTQ/TAT-QA converters join multi-answers), plus ` <scale>` for TAT-QA when the text lacks it.
 */
export function paperGoldText(record: Record<string, unknown>): string | undefined {
  const explicit = record["answer-text"];
  if (typeof explicit === "string" && explicit.trim() !== "") return explicit;
  const answer = record.answer;
  let text: string | undefined;
  if (Array.isArray(answer)) text = answer.map(String).join(" | ");
  else if (typeof answer === "string" || typeof answer === "number") text = String(answer);
  if (text === undefined || text.trim() === "") return undefined;
  const scale = record.scale;
  if (typeof scale === "string" && scale !== "" && !text.toLowerCase().includes(scale)) text = `${text} ${scale}`;
  return text;
}
