/**
 * "How long was Ana Ruiz in office?", "how many years did the Quarry Mine run?", "how long did Ida Holm live?": the
 * named row's time between two of its own columns — a start (From, Took office, Opened, Born) and an end (To, Left
 * office, Closed, Died) — the end's year minus the start's, "N years" asked how long and "N" asked how many years,
 * added up over the named rows.
 */
import type { CatalogColumn } from "../table-catalog.js";
import { ROW, col, holdsYears, mentionRows, summaryFilter, where, yearsText } from "./sql-parts.js";
import { SPAN_ASKED } from "./range-span.js";
import { yearAt, yearOf } from "./time-apart.js";
import type { PlanGenerator } from "./types.js";

/** A start and an end of a term (office, service, a station's life). */
const TERM_START = /\b(?:from|start|started|starts|begin|beginning|began|took|assumed|entered|opened|commenced)\b/;
const TERM_END = /\b(?:to|until|till|end|ended|ends|left|closed|ceased)\b/;
/** A start and an end of a life, asked only of one ("how long did she live?"). */
const LIFE_START = /\b(?:born|birth)\b/;
const LIFE_END = /\b(?:died|death)\b/;
const LIFE_ASKED = /\b(?:live|lived|alive|life|lifetime)\b/;

/** A header of a length of time. */
const LENGTH_HEADER = /\b(?:time|length|duration|tenure|days|years|term)\b/;

/**
 * The column's cells write a year: a year or date column, or years among other words ("June 1920") in half its
 * cells at least (an end may be "Present"; the named row's own cell is read below).
 */
function writesYears(c: CatalogColumn): boolean {
  if (c.schema.type === "date" || holdsYears(c)) return true;
  const filled = c.raw.filter((v) => v.trim() !== "");
  return (
    c.schema.type === "text" && filled.length >= 2 && filled.filter((v) => yearAt(v) > 0).length >= 0.5 * filled.length
  );
}

/** The one start column and the one end column of the kind asked, each writing years. */
function startAndEnd(columns: CatalogColumn[], life: boolean): [CatalogColumn, CatalogColumn] | null {
  const [start, end] = life ? [LIFE_START, LIFE_END] : [TERM_START, TERM_END];
  const named = (re: RegExp) =>
    columns.filter((c) => re.test(c.schema.name.toLowerCase().replace(/[^a-z]+/g, " ")) && writesYears(c));
  const starts = named(start);
  const ends = named(end).filter((c) => !starts.includes(c));
  return starts.length === 1 && ends.length === 1 ? [starts[0]!, ends[0]!] : null;
}

export const aggregateRowSpan: PlanGenerator = {
  name: "aggregate.row-span",
  applies: ({ analysis: a }) => SPAN_ASKED.test(a.normalized),
  build: (ctx) => {
    const { analysis: a, catalog, usable, table } = ctx;
    const open = catalog.columns.filter((c) => !usable || usable.has(c.index));
    const pair = startAndEnd(open, LIFE_ASKED.test(a.normalized));
    // (A column of the length itself, "Total time in office", "Years active", answers in its own words.)
    if (!pair || open.some((c) => !pair.includes(c) && LENGTH_HEADER.test(c.schema.name.toLowerCase()))) return null;
    const { filters, basePreds } = ctx.rows();
    const rows = mentionRows(filters);
    // (The named row's span: a question naming none asks of the whole table; a few named rows at most.)
    if (filters.length === 0 || !rows || rows.length === 0 || rows.length > 4) return null;
    // (Each row's years, read where its cells write them.)
    const spans = rows.map((r) => {
      const [from, to] = [yearOf(pair[0], r), yearOf(pair[1], r)];
      return from && to ? `WHEN ${r} THEN ${to} - ${from}` : null;
    });
    if (spans.some((s) => s === null)) return null;
    const total = `SUM(CASE ${ROW} ${spans.join(" ")} END)`;
    const asked = /\bhow long\b/.test(a.normalized) ? yearsText(total) : total;
    const preds = [
      ...basePreds,
      `${ROW} IN (${rows.join(", ")})`,
      `TRIM(${col(pair[0])}) <> ''`,
      `TRIM(${col(pair[1])}) <> ''`,
      ...summaryFilter(catalog),
    ];
    return {
      sql: `SELECT ${asked} FROM ${table}${where(preds)}`,
      template: "difference",
      targetColumn: pair[1].schema.name,
    };
  },
};
