/**
 * Numbers a question names a row by ("the runner who finished in 27:31.4", "the club that scored 52
 * points", "the team whose arena seats 8,250"): a cell holding the number whole names the row more
 * surely than the number's digit groups, which the bridge's word match splits ("27:31.4" → 27, 31, 4)
 * and finds in many rows. Used by the bridge (bridge.ts).
 */
import { MONTH_NAMES } from "../../text/lexicons.js";

/** A number as the question writes it: digit groups, a decimal part, a time's colons, an ordinal ending. */
const NUMBER_RE = /(?<![\w.:,])(\d[\d,]*(?:[.:]\d+)*)(?:st|nd|rd|th)?(?![\w:]|[.,]\d)/gi;
/** Words before a number that make it a bound, not a value a row holds ("more than 12", "after 1999"). */
const BOUND_BEFORE =
  /\b(?:than|over|under|above|below|after|before|since|until|till|least|most|exceeding|between|and|to|from|within|past|nearly|almost|about|around|approximately)\s*$/i;

const MONTHS = MONTH_NAMES.join("|");
/** A date's day and year ("born May 2 , 1950", "on 2 May 1950") are no cell values of their own. */
const DATE_RE = new RegExp(
  `\\b(?:(?:${MONTHS})\\s+\\d{1,2}(?:st|nd|rd|th)?(?:\\s*,?\\s*\\d{4})?|\\d{1,2}(?:st|nd|rd|th)?\\s+(?:${MONTHS})(?:\\s*,?\\s*\\d{4})?)\\b`,
  "gi",
);

/** The numbers a question names rows by, commas dropped ("12,199" → "12199"); bounds and dates are left out. */
export function namedNumbers(question: string): string[] {
  const found = new Set<string>();
  const text = question.replace(DATE_RE, (d) => " ".repeat(d.length));
  for (const m of text.matchAll(NUMBER_RE)) {
    if (BOUND_BEFORE.test(text.slice(0, m.index))) continue;
    found.add(m[1]!.replace(/,/g, ""));
  }
  return [...found];
}

/** Whether a cell is the number whole ("8,250", "27:31.4", "18th"), commas and an ordinal ending aside. */
export function cellIsNumber(value: string, n: string): boolean {
  const cell = value
    .trim()
    .replace(/,/g, "")
    .replace(/(\d)(?:st|nd|rd|th)$/i, "$1");
  return cell === n;
}

/** A comparison's word right before a number: "after 1999", "more than 12", "over 15", "below 300". */
const STRICT_BOUND = /\b(?:after|before|than|over|under|above|below)\s+(\d[\d,]*)\b/gi;

/**
 * Numbers a question compares rows with ("released after 1999", "more than 4 titles"), commas dropped: a
 * row holding the number is the one a strict bound leaves out, so the bridge's word match does not count
 * them.
 */
export function boundNumbers(question: string): string[] {
  return [...new Set([...question.matchAll(STRICT_BOUND)].map((m) => m[1]!.replace(/,/g, "")))];
}
