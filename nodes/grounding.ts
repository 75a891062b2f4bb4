/**
 * Programmatic grounding (reference §8.4): an answer the verifier accepted is demoted to 0.5 when it
 * cannot be found in the evidence. Our fix (DESIGN.md "does better"): a number that is computed from
 * evidence numbers — a difference, sum, ratio, percentage or percentage change of two of them, or
 * the sum/average of all — counts as grounded, so arithmetic answers from SQL results or tables are
 * not systematically rejected (reference §15.13).
 */
import { normaliseForGrounding } from "../text/normalise.js";
import { NOT_FOUND } from "./answer-validity.js";

/** Numbers in normalised text. */
export function numbersIn(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/-?\d+(?:\.\d+)?/g)) {
    const n = Number(m[0]);
    if (Number.isFinite(n)) out.push(n);
  }
  return out;
}

function close(a: number, b: number): boolean {
  if (a === b) return true;
  const scale = Math.max(Math.abs(a), Math.abs(b));
  return scale > 0 && Math.abs(a - b) / scale <= 0.01;
}

/** Values derivable from the evidence numbers by one arithmetic step (bounded to 60 numbers). */
export function derivedNumbers(evidenceNumbers: readonly number[]): number[] {
  const xs = [...new Set(evidenceNumbers)].slice(0, 60);
  const out: number[] = [];
  for (let i = 0; i < xs.length; i++) {
    for (let j = 0; j < xs.length; j++) {
      if (i === j) continue;
      const a = xs[i]!;
      const b = xs[j]!;
      out.push(a - b, a + b);
      if (b !== 0) out.push(a / b, (a / b) * 100, ((a - b) / b) * 100);
    }
  }
  if (xs.length > 1) {
    const sum = xs.reduce((s, x) => s + x, 0);
    out.push(sum, sum / xs.length);
  }
  return out;
}

export interface GroundingOptions {
  /** Accept numbers computed from the evidence numbers (our fix). Default true. */
  allowComputed?: boolean;
}

/** True when the answer is supported by the evidence text (empty and "not found" always are). */
export function isGrounded(answer: string, evidence: string, options: GroundingOptions = {}): boolean {
  const a = normaliseForGrounding(answer);
  if (a === "" || a === NOT_FOUND) return true;
  const e = normaliseForGrounding(evidence);
  const evidenceNumbers = numbersIn(e);
  if (a.length === 1) {
    if (e.split(" ").includes(a)) return true;
    return /\d/.test(a) && evidenceNumbers.some((n) => n === Number(a));
  }
  if (e.includes(a)) return true;
  const answerNumbers = numbersIn(a);
  if (answerNumbers.some((x) => evidenceNumbers.some((y) => close(x, y)))) return true;
  const tokens = a.split(" ").filter((t) => t.length >= 3);
  if (tokens.length > 0) {
    const evidenceTokens = new Set(e.split(" "));
    const present = tokens.filter((t) => evidenceTokens.has(t) || e.includes(t)).length;
    if ((tokens.length === 1 && present === 1) || present / tokens.length >= 0.65) return true;
  }
  if (options.allowComputed !== false && answerNumbers.length > 0 && evidenceNumbers.length > 1) {
    const derived = derivedNumbers(evidenceNumbers);
    if (answerNumbers.some((x) => derived.some((y) => close(x, y) || close(Math.abs(x), Math.abs(y))))) return true;
  }
  return false;
}
