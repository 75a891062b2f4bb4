/**
 * Typed gold values for WTQ records that have no `answer_canon` (the train split), for training
 * labels only. The official evaluator types a gold item from its CoreNLP value when the record has
 * one (dev: "12,467" → `12467.0`, "July 2015" → `2015-07-xx`, "5 years" → `5.0`), else from the
 * answer string itself, so without it a right prediction `12467` of gold "12,467" scores wrong and
 * the verifier learns from a wrong label. `wtqTrainCanon` gives the value CoreNLP would give for
 * the shapes it normalises — numbers with thousands separators, currency or per cent signs,
 * ordinals, a number with a lower-case unit word, month-day-year dates in their common spellings —
 * and null for everything else (the string stays a string, as the evaluator would keep it).
 * Scoring of runs (`atr score`) never uses it: the official metric stays the official metric.
 */
import { monthNumber } from "../text/lexicons.js";

const NUMBER = String.raw`[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?`;

function numberCanon(text: string): string | null {
  const n = Number(text.replace(/,/g, ""));
  return Number.isFinite(n) ? String(n) : null;
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

function dateCanon(year: number | null, month: number, day: number | null): string | null {
  if (month < 1 || month > 12 || (day !== null && (day < 1 || day > 31))) return null;
  return `${year === null ? "xxxx" : String(year)}-${pad(month)}-${day === null ? "xx" : pad(day)}`;
}

/** The CoreNLP-like typed value of one gold answer string, or null when it stays a string. */
export function wtqTrainCanon(answer: string): string | null {
  const a = answer.trim();
  let m: RegExpExecArray | null;
  // 12,467 · $535 · 0.5% · 12th · 2 years (a number and one lower-case word)
  if ((m = new RegExp(`^(${NUMBER})$`).exec(a))) return numberCanon(m[1]!);
  if ((m = new RegExp(`^[$€£]\\s?(${NUMBER})$`).exec(a))) return numberCanon(m[1]!);
  if ((m = new RegExp(`^(${NUMBER})\\s?%$`).exec(a))) return numberCanon(m[1]!);
  if ((m = /^(\d+)(?:st|nd|rd|th)$/i.exec(a))) return numberCanon(m[1]!);
  if ((m = new RegExp(`^(${NUMBER}) [a-z]+$`).exec(a))) return numberCanon(m[1]!);
  // October 7, 2012 · 7 October 2012 · October 2012 · October 7 · October · 2/20/2010
  const word = String.raw`([A-Za-z]{3,9})\.?`;
  if ((m = new RegExp(`^${word} (\\d{1,2}),? (\\d{4})$`).exec(a))) {
    const month = monthNumber(m[1]!);
    return month ? dateCanon(Number(m[3]), month, Number(m[2])) : null;
  }
  if ((m = new RegExp(`^(\\d{1,2}) ${word},? (\\d{4})$`).exec(a))) {
    const month = monthNumber(m[2]!);
    return month ? dateCanon(Number(m[3]), month, Number(m[1])) : null;
  }
  if ((m = new RegExp(`^${word},? (\\d{4})$`).exec(a))) {
    const month = monthNumber(m[1]!);
    return month ? dateCanon(Number(m[2]), month, null) : null;
  }
  if ((m = new RegExp(`^${word} (\\d{1,2})$`).exec(a))) {
    const month = monthNumber(m[1]!);
    return month ? dateCanon(null, month, Number(m[2])) : null;
  }
  // (a bare "May" stays a string: CoreNLP reads it as the verb as often as the month)
  if ((m = new RegExp(`^${word}$`).exec(a)) && a.toLowerCase() !== "may") {
    const month = monthNumber(m[1]!);
    return month ? dateCanon(null, month, null) : null;
  }
  if ((m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(a))) return dateCanon(Number(m[3]), Number(m[1]), Number(m[2]));
  return null;
}

/** The canon list of a record's answers (null per item that stays a string), or null when none is typed. */
export function wtqTrainCanons(answers: readonly string[]): Array<string | null> | null {
  const canon = answers.map(wtqTrainCanon);
  return canon.some((c) => c !== null) ? canon : null;
}
