/**
 * "The average attendance of the first three games", "the total of the last two entries", "the first 5 elections":
 * the first (last) N of the rows the other conditions select, in the table's order.
 */
import type { QuestionAnalysis } from "../analysis.js";
import { NUMBER_WORD_PATTERN, NUMBER_WORDS } from "../../../text/lexicons.js";
import { ROW, where } from "./sql-parts.js";

/** "first three games", "last 2 entries": not a time ("the first 10 years", "the last six months") nor a place. */
const FIRST_N = new RegExp(
  `\\b(first|last) (\\d{1,2}|${NUMBER_WORD_PATTERN})\\b(?! (?:years?|months?|weeks?|days?|hours?|minutes?|seconds?|decades?|centur(?:y|ies)|places?|positions?|rounds?|times?|laps?|quarters?|halves)\\b)`,
);

/** The predicate keeping the first (last) N of the rows `preds` select, or null when the question asks none. */
export function firstRowsPredicate(a: QuestionAnalysis, table: string, preds: string[]): string | null {
  const m = FIRST_N.exec(a.normalized);
  if (!m) return null;
  const n = /^\d+$/.test(m[2]!) ? Number(m[2]) : NUMBER_WORDS[m[2]!]!;
  if (!(n >= 2)) return null;
  const order = m[1] === "last" ? "DESC" : "ASC";
  return `${ROW} IN (SELECT ${ROW} FROM ${table}${where(preds)} ORDER BY ${ROW} ${order} LIMIT ${n})`;
}
