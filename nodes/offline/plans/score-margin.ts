/**
 * "How far apart was the cup final's score difference?", "the goal difference of the 3 May fixture": the one row's
 * score cell holds both sides ("W 45–28", "2–1", "L 8-21") — the difference is the two numbers apart, not the cell.
 */
import { headerMatch } from "../columns.js";
import type { CatalogColumn } from "../table-catalog.js";
import { ROW, col, summaryFilter, where } from "./sql-parts.js";
import type { PlanGenerator } from "./types.js";

/** The wordings of one row's margin: the difference in (of) the score(s), the score (goal, point) difference. */
const MARGIN =
  /\b(?:difference (?:in|of|between) (?:the )?(?:[a-z]+(?:'s| s) )?(?:final )?(?:scores?|points|goals)|(?:score|goal|point|points) (?:difference|differential|margin)|margin of (?:victory|defeat))\b/;

/** A score cell with both sides: an optional outcome word, two whole numbers and a dash, perhaps a note in brackets. */
const PAIR = /^\s*(?:[A-Za-z]{1,4}\.?\s+)?\d+\s*[–\-−]\s*\d+\s*(?:\([^)]*\))?\s*\*?\s*$/;

/** A column whose filled cells are mostly score pairs. */
function isPairColumn(c: CatalogColumn): boolean {
  const filled = c.raw.filter((v) => v.trim() !== "");
  return filled.length >= 2 && filled.filter((v) => PAIR.test(v)).length >= 0.6 * filled.length;
}

/** The two numbers of a score cell apart (SQLite: the outcome word trimmed, either dash). */
function marginExpr(c: CatalogColumn): string {
  const s = `REPLACE(REPLACE(LTRIM(TRIM(${col(c)}), 'WLTDwltd '), '–', '-'), '−', '-')`;
  return `ABS(CAST(substr(${s}, 1, instr(${s}, '-') - 1) AS INTEGER) - CAST(substr(${s}, instr(${s}, '-') + 1) AS INTEGER))`;
}

export const aggregateScoreMargin: PlanGenerator = {
  name: "aggregate.score-margin",
  applies: ({ analysis: a }) => MARGIN.test(a.normalized),
  build: (ctx) => {
    const { analysis: a, catalog, usable, table } = ctx;
    const pairs = catalog.columns.filter((c) => (!usable || usable.has(c.index)) && isPairColumn(c));
    if (pairs.length === 0) return null;
    // (The pair column the question's words name, else the table's only one.)
    const named = pairs.filter((c) => headerMatch(a.contentWords, c, false) >= 0.8);
    const column = named.length === 1 ? named[0]! : pairs.length === 1 ? pairs[0]! : undefined;
    if (!column) return null;
    const { filters, basePreds } = ctx.rows();
    if (basePreds.length === 0) return null;
    // ("between the top two finishers", "between A and B": two named rows, not one row's two sides.)
    if (filters.some((m, i) => filters.some((o, j) => j > i && o.columnIndex === m.columnIndex && o.value !== m.value)))
      return null;
    return {
      sql: `SELECT ${marginExpr(column)} FROM ${table}${where([...basePreds, `instr(REPLACE(REPLACE(${col(column)}, '–', '-'), '−', '-'), '-') > 0`, ...summaryFilter(catalog)])} ORDER BY ${ROW} LIMIT 1`,
      template: "difference",
      targetColumn: column.schema.name,
    };
  },
};
