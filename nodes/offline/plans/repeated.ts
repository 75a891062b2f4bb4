/**
 * "How many skippers won at least twice?", "which towns hosted more than once?", "who won 3 times or more?": the values
 * of a column that recur on at least (more than) N of the selected rows — counted, or listed in table order.
 */
import { stem } from "../../../text/stem.js";
import { headerMatch, isNumericColumn, rankTargetColumns } from "../columns.js";
import type { CatalogColumn } from "../table-catalog.js";
import { rowSelection } from "./conditions.js";
import { ROW, col, summaryFilter, where } from "./sql-parts.js";
import type { PlanContext, PlanGenerator, SqlPlan } from "./types.js";

const TIMES = "once|twice|two times|three times|four times|five times|\\d+ times";
/** (Not "at least twice as many goals": a ratio of two columns.) */
const REPEATED = new RegExp(`\\b(?:(at least|more than|over) (${TIMES})|(${TIMES}) or more)\\b(?! as\\b)`);
const TIMES_WORDS: Record<string, number> = { once: 1, twice: 2, two: 2, three: 3, four: 4, five: 5 };

/** A column whose non-empty values repeat (a value on several rows). */
function repeats(c: CatalogColumn): boolean {
  const filled = c.raw.filter((v) => v.trim() !== "").length;
  return c.distinct.size >= 1 && c.distinct.size < filled;
}

/** The values of `c` on `op n` of the selected rows: listed in table order, or counted when the question counts. */
function groupsPlan(ctx: PlanContext, c: CatalogColumn, basePreds: string[], op: string, n: number): SqlPlan {
  const { analysis: a, catalog, table } = ctx;
  const rows = where([...basePreds, `TRIM(${col(c)}) <> ''`, ...summaryFilter(catalog)]);
  const groups = `SELECT ${col(c)} FROM ${table}${rows} GROUP BY ${col(c)} HAVING COUNT(*) ${op} ${n}`;
  if (a.operator === "count")
    return {
      sql: `SELECT COUNT(DISTINCT ${col(c)}) FROM ${table} WHERE ${col(c)} IN (${groups})`,
      template: "count",
      targetColumn: c.schema.name,
    };
  return { sql: `${groups} ORDER BY MIN(${ROW})`, template: "lookup", targetColumn: c.schema.name };
}

export const countRepeated: PlanGenerator = {
  name: "count.repeated",
  applies: ({ analysis: a }) => REPEATED.test(a.normalized),
  build: (ctx) => {
    const { analysis: a, catalog, opts } = ctx;
    const m = REPEATED.exec(a.normalized)!;
    const words = (m[2] ?? m[3]!).split(" ");
    const n = /^\d+$/.test(words[0]!) ? Number(words[0]) : TIMES_WORDS[words[0]!]!;
    const op = m[1] === "more than" || m[1] === "over" ? ">" : ">=";
    // ("teams that were winners at least 5 times" beside a Winners column: the tally is a column, compared by rows.)
    const tallied = a.conditions.some(
      (k) =>
        k.hint.includes("times") &&
        catalog.columns.some(
          (c) =>
            isNumericColumn(c) &&
            headerMatch(
              k.hint.filter((w) => w !== "times"),
              c,
              false,
            ) >= 1,
        ),
    );
    if (tallied) return null;
    // (The count of times is the groups' bound, no condition on a column of numbers.)
    const stripped = { ...a, conditions: a.conditions.filter((c) => !c.hint.includes("times")) };
    const { filters, basePreds } = rowSelection({ ...ctx, analysis: stripped });
    const hints = a.targetHints.filter((w) => !/^(?:once|twice|times?|\d+)$/.test(w));
    const ranked = rankTargetColumns({ ...stripped, targetHints: hints, answerType: "entity" }, catalog, filters, {
      ...opts,
    }).filter((r) => !isNumericColumn(r.column) && r.column.schema.type !== "date" && repeats(r.column));
    const c = ranked[ctx.targetRank]?.column;
    if (!c) return null;
    return groupsPlan(ctx, c, basePreds, op, n);
  },
};

const NUMBER_WORDS: Record<string, number> = { ...TIMES_WORDS, one: 1 };
/** "which owner has two pets?", "who teaches more than one course?": a count of the table's own rows per value. */
const PER_VALUE =
  /\b(?:has|have|had|owns?|teach(?:es)?|runs?|manages?|leads?)\s+(exactly |more than |at least |over )?(one|two|three|four|five|\d+) ([a-z]{3,})\b/;

/** The count of rows a question binds to a value of another column, when its noun names the table's rows. */
function rowsPerValue(ctx: PlanContext): { op: string; n: number; noun: string } | null {
  const m = PER_VALUE.exec(ctx.analysis.normalized);
  if (!m) return null;
  const noun = stem(m[3]!);
  // (The noun must be what a row is, the table name's last word — "birds" are no rows of bird_sightings, which
  // counts them in a column — and no column may count it: "has two goals" of a Goals column is a cell.)
  const row = ctx.catalog.columns[0]?.tableWords?.at(-1);
  if (row === undefined || stem(row) !== noun) return null;
  if (ctx.catalog.columns.some((c) => isNumericColumn(c) && headerMatch([m[3]!], c, false) >= 1)) return null;
  const op = m[1] === "more than " || m[1] === "over " ? ">" : m[1] === "at least " ? ">=" : "=";
  const n = /^\d+$/.test(m[2]!) ? Number(m[2]) : NUMBER_WORDS[m[2]!]!;
  return { op, n, noun };
}

export const lookupRowsPerValue: PlanGenerator = {
  name: "lookup.rows-per-value",
  // (Asked for the values or their count, not yes or no: "does Sales have more than 1 employee?" counts Sales's rows
  // against 1, whose count yes-no.condition replans with the same words.)
  applies: (ctx) => /^(?:which|what|who|how many)\b/.test(ctx.analysis.normalized) && rowsPerValue(ctx) !== null,
  build: (ctx) => {
    const { analysis: a, catalog, opts } = ctx;
    const { op, n, noun } = rowsPerValue(ctx)!;
    // (The count is the groups' bound, not a condition on a column of numbers.)
    const stripped = { ...a, conditions: a.conditions.filter((c) => !c.hint.some((w) => stem(w) === noun)) };
    const { filters, basePreds } = rowSelection({ ...ctx, analysis: stripped });
    const hints = a.targetHints.filter((w) => stem(w) !== noun && !/^\d+$/.test(w));
    const c = rankTargetColumns({ ...stripped, targetHints: hints }, catalog, filters, opts).filter(
      (r) => !isNumericColumn(r.column) && r.column.schema.type !== "date" && repeats(r.column),
    )[ctx.targetRank]?.column;
    if (!c) return null;
    return groupsPlan(ctx, c, basePreds, op, n);
  },
};
