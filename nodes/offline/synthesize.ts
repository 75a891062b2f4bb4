/**
 * Offline final synthesis (reference §8.5 without an LLM), over the accepted steps only:
 * - a comparison between options the question names ("A or B", "between A and B") → the option
 *   whose step answer wins in the question's direction (most/least, earlier/later…), or the option
 *   a step answered directly;
 * - "more or less … than" → "more" | "less"; "how many more … than" → the difference;
 * - list questions → every step answer, joined;
 * - otherwise the most specific answer: the last accepted one.
 * The result is validated: it is never a sentinel while a valid step answer exists.
 */
import { analyzeQuestion, type QuestionAnalysis } from "./analysis.js";
import { numericValue } from "./answer-kind.js";
import { NOT_FOUND, cleanAnswer, formatNumber, isSentinel, joinList } from "./answer-format.js";
import { normaliseForContainment } from "../../text/normalise.js";
import { parseDate } from "../../indexing/column-types.js";
import type { SynthesizeInput } from "../strategies.js";
import type { Step } from "../types.js";

/** A comparable value of an answer: a number, else a date as yyyymmdd, else null. */
function comparable(answer: string): number | null {
  const n = numericValue(answer.replace(/%$/, ""));
  if (n !== null) return n;
  const d = parseDate(answer);
  if (d) return Number(d.replace(/-/g, "").padEnd(8, "0"));
  return null;
}

/** The step that talks about an option: its sub-query names the option. */
function stepFor(option: string, steps: Step[]): Step | undefined {
  const o = normaliseForContainment(option);
  return steps.find((s) => ` ${normaliseForContainment(s.subQuery)} `.includes(` ${o} `));
}

/** The option as the question writes it (the analysis lower-cases its text). */
function asWritten(option: string, question: string): string {
  const at = question.toLowerCase().replace(/\s+/g, " ").indexOf(option.toLowerCase());
  return cleanAnswer(at >= 0 ? question.replace(/\s+/g, " ").slice(at, at + option.length) : option);
}

function pickOption(a: QuestionAnalysis, steps: Step[], question: string): string | undefined {
  const options = a.comparison?.options ?? [];
  if (options.length < 2) return undefined;
  // A step that answered with one of the options decided it already.
  for (const s of [...steps].reverse()) {
    const ans = normaliseForContainment(s.answer);
    const hit = options.find((o) => normaliseForContainment(o) === ans);
    if (hit) return cleanAnswer(s.answer);
  }
  const values = options.map((o) => {
    const step = stepFor(o, steps);
    return step ? comparable(step.answer) : null;
  });
  if (values.some((v) => v === null)) return undefined;
  const direction = a.comparison?.direction ?? a.sortDirection ?? "max";
  let bestIndex = 0;
  values.forEach((v, i) => {
    if (direction === "min" ? v! < values[bestIndex]! : v! > values[bestIndex]!) bestIndex = i;
  });
  return asWritten(options[bestIndex]!, question);
}

function twoValues(a: QuestionAnalysis, steps: Step[]): [number, number] | undefined {
  const options = a.comparison?.options ?? [];
  let pair: Array<number | null>;
  if (options.length >= 2)
    pair = options.slice(0, 2).map((o) => {
      const s = stepFor(o, steps);
      return s ? comparable(s.answer) : null;
    });
  else pair = steps.slice(-2).map((s) => comparable(s.answer));
  if (pair.length < 2 || pair.some((v) => v === null)) return undefined;
  return [pair[0]!, pair[1]!];
}

/** Pure synthesis over accepted steps. */
export function synthesizeSteps(question: string, acceptedSteps: Step[]): string {
  const steps = acceptedSteps.filter((s) => !s.failed && !isSentinel(s.answer));
  if (steps.length === 0) return NOT_FOUND;
  const last = cleanAnswer(steps[steps.length - 1]!.answer);
  if (steps.length === 1) return last;
  // A step that already asked the whole question answers it.
  const q = normaliseForContainment(question);
  const whole = [...steps].reverse().find((s) => normaliseForContainment(s.subQuery) === q);
  if (whole) return cleanAnswer(whole.answer);
  const a = analyzeQuestion(question);
  const kind = a.comparison?.kind;
  if (kind === "choice") return pickOption(a, steps, question) ?? last;
  if (kind === "moreless") {
    const v = twoValues(a, steps);
    // ("higher or lower" is answered in its own words.)
    const [more, less] = a.comparison?.words?.[0] === "higher" ? a.comparison.words : ["more", "less"];
    if (v) return v[0] > v[1] ? more : v[0] < v[1] ? less : "same";
    return last;
  }
  if (kind === "difference") {
    const v = twoValues(a, steps);
    if (v && comparable(last) !== Math.abs(v[0] - v[1])) return formatNumber(Math.abs(v[0] - v[1]));
    return last;
  }
  if (a.listAnswer) return joinList(steps.map((s) => s.answer));
  return last;
}

/** Strategies.synthesize for the offline backbone. */
export async function synthesize(input: SynthesizeInput): Promise<string> {
  return synthesizeSteps(input.question, input.steps);
}
