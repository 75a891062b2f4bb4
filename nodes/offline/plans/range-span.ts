/**
 * "How long did Ana serve?", "how many years did Bo coach the side?": the named row's cell is a span of years
 * ("1981–2007", "1996–99") — its length is the end minus the start, in years ("26 years" asked how long, "26" asked
 * how many years), added up over the named rows ("including her second term").
 */
import { isMeasureUnit } from "../../../text/lexicons.js";
import { headerMatch } from "../columns.js";
import type { CatalogColumn } from "../table-catalog.js";
import { col, summaryFilter, where, yearsText } from "./sql-parts.js";
import type { PlanGenerator } from "./types.js";

/** A duration of the row itself, not the time between two rows ("how long after A", "how long ago"). */
export const SPAN_ASKED =
  /\b(?:how long|how many (?:total )?years)\b(?!.*\b(?:after|before|since|between|ago|until|from)\b)/;

/** A span of years: four digits, a dash, two or four digits. */
const SPAN = /^\s*(\d{4})\s*[–\-−]\s*(\d{2}|\d{4})\s*$/;

/** Longer than a lifetime is no span: "2022-07" is a month (read as a span it would run to 2107). */
const LONGEST_SPAN = 60;

/** The span's length in years as spanExpr computes it; undefined when the cell is no span. */
function spanYears(cell: string): number | undefined {
  const m = SPAN.exec(cell);
  if (!m) return undefined;
  const start = Number(m[1]);
  const tail = Number(m[2]);
  const end = m[2]!.length === 2 ? Math.floor(start / 100) * 100 + tail + (tail < start % 100 ? 100 : 0) : tail;
  const years = end - start;
  return years >= 0 && years <= LONGEST_SPAN ? years : undefined;
}

function isSpanColumn(c: CatalogColumn): boolean {
  const filled = c.raw.filter((v) => v.trim() !== "");
  return filled.length >= 2 && filled.filter((v) => spanYears(v) !== undefined).length >= 0.5 * filled.length;
}

/** "How long is the trail in km?", "… in hours?": another unit than years is asked, not a span of years. */
function asksOtherUnit(words: readonly string[]): boolean {
  return words.some((w) => isMeasureUnit(w));
}

/** The span's length in years (a two-digit end year is in the start's century, or the next one). */
function spanExpr(c: CatalogColumn): string {
  const s = `REPLACE(REPLACE(TRIM(${col(c)}), '–', '-'), '−', '-')`;
  const start = `CAST(substr(${s}, 1, 4) AS INTEGER)`;
  const tail = `TRIM(substr(${s}, instr(${s}, '-') + 1))`;
  const two = `CAST(${tail} AS INTEGER)`;
  const end = `CASE WHEN length(${tail}) = 2 THEN ${start} / 100 * 100 + ${two} + CASE WHEN ${two} < ${start} % 100 THEN 100 ELSE 0 END ELSE CAST(${tail} AS INTEGER) END`;
  return `${end} - ${start}`;
}

export const aggregateRangeSpan: PlanGenerator = {
  name: "aggregate.range-span",
  applies: ({ analysis: a }) => SPAN_ASKED.test(a.normalized) && !asksOtherUnit(a.normalized.split(" ")),
  build: (ctx) => {
    const { analysis: a, catalog, usable, table } = ctx;
    const spans = catalog.columns.filter((c) => (!usable || usable.has(c.index)) && isSpanColumn(c));
    if (spans.length === 0) return null;
    const named = spans.filter((c) => headerMatch(a.contentWords, c, false) >= 0.8);
    const column = named.length === 1 ? named[0]! : spans.length === 1 ? spans[0]! : undefined;
    if (!column) return null;
    const { filters, basePreds } = ctx.rows();
    // (The named row's span: a question naming none asks of the whole table.)
    if (filters.length === 0) return null;
    const total = `SUM(${spanExpr(column)})`;
    const asked = /\bhow long\b/.test(a.normalized) ? yearsText(total) : total;
    return {
      sql: `SELECT ${asked} FROM ${table}${where([...basePreds, `${col(column)} GLOB '[0-9][0-9][0-9][0-9]*[0-9][0-9]'`, ...summaryFilter(catalog)])}`,
      template: "sum",
      targetColumn: column.schema.name,
    };
  },
};
