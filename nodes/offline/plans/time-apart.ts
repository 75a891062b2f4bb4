/**
 * "How many years passed between the Oak Bridge and the Elm Bridge?", "how long after the Oak Bridge was the Elm
 * Bridge built?": two named rows of one column, their times apart — the years between the two rows' years (of a
 * year column, or of a date column's dates), "N years" asked how long and "N" asked how many years.
 */
import { headerMatch } from "../columns.js";
import type { EntityMention } from "../mentions.js";
import type { CatalogColumn } from "../table-catalog.js";
import { sqlFragmentsInUse as d } from "../sql-dialect.js";
import { ROW, col, holdsYears, mentionPredicate, namedDateColumn, where, yearExpr, yearsText } from "./sql-parts.js";
import type { PlanContext, PlanGenerator, SqlPlan } from "./types.js";

/**
 * A length of time asked between two things: "how long (how many years) … between / after / before / apart". Not
 * since a time or until now ("how long has it been since …"): that is measured from today, which no row holds.
 */
const TIME_APART =
  /^(?:[^,]*, )?how (?:long|many years)\b(?=.*\b(?:between|after|before|apart|passed|elapsed)\b)(?!.*\b(?:since|ago|until|today|now)\b)/;

/** The two mentions of one column that name two different rows, when exactly one column has such a pair. */
function namedPair(named: readonly EntityMention[]): [EntityMention, EntityMention] | null {
  const columns = new Set(named.map((m) => m.columnIndex));
  const pairs = [...columns]
    .map((c) => named.filter((m) => m.columnIndex === c))
    .filter((ms) => ms.length === 2 && ms[0]!.rows[0] !== ms[1]!.rows[0] && ms[0]!.value !== ms[1]!.value);
  return pairs.length === 1 ? [pairs[0]![0]!, pairs[0]![1]!] : null;
}

/** A year written inside a cell's text: "August 28, 1994", "Film Act 1978", "3rd Edition (1998)". */
const YEAR_IN_TEXT = /(?<![\d.,])(?:1[5-9]\d\d|20\d\d)(?![\d,])/;

/** Where the cell's year starts, in characters from 1 (as SQL's substr counts), or 0 when it holds none. */
export function yearAt(cell: string | undefined): number {
  const m = YEAR_IN_TEXT.exec(cell ?? "");
  return m ? Array.from(cell!.slice(0, m.index)).length + 1 : 0;
}

/** A text column whose cells write a year among other words (four in five of its filled cells). */
export function holdsYearsInText(c: CatalogColumn): boolean {
  const filled = c.raw.filter((v) => v !== undefined && v.trim() !== "");
  return filled.length >= 2 && filled.filter((v) => yearAt(v) > 0).length >= 0.8 * filled.length;
}

/** The rows' time: the date or year column the question's words name, else the table's only one, else a column of dates written as text. */
function timeColumn(ctx: PlanContext, avoid: Set<number>): CatalogColumn | undefined {
  const { analysis: a, catalog, usable } = ctx;
  const open = catalog.columns.filter((c) => (!usable || usable.has(c.index)) && !avoid.has(c.index));
  const dated = open.filter((c) => c.schema.type === "date" || holdsYears(c));
  const found = namedDateColumn(a, catalog, usable, avoid) ?? (dated.length === 1 ? dated[0] : undefined);
  if (found || dated.length > 1) return found;
  const texts = open.filter((c) => c.schema.type === "text" && holdsYearsInText(c));
  const named = texts.filter((c) => headerMatch(a.contentWords, c, false) >= 0.8);
  return named.length === 1 ? named[0] : texts.length === 1 ? texts[0] : undefined;
}

/** The year of a row's cell: of a year or date column, or where the row's text writes it; null when it writes none. */
export function yearOf(c: CatalogColumn, row: number, alias?: string): string | null {
  if (c.schema.type !== "text" || holdsYears(c)) return yearExpr(c, alias);
  const at = yearAt(c.raw[row]);
  return at > 0 ? d().int(`substr(${col(c, alias)}, ${at}, 4)`) : null;
}

const howLong = (ctx: PlanContext) => /^(?:[^,]*, )?how long\b/.test(ctx.analysis.normalized);

/** The answer: "N years" asked how long, the number asked how many years. */
function asked(ctx: PlanContext, apart: string): string {
  return howLong(ctx) ? yearsText(apart) : apart;
}

/** Two named rows of one column: the years between their times. */
function twoRows(ctx: PlanContext, m1: EntityMention, m2: EntityMention): SqlPlan | null {
  const { catalog, table } = ctx;
  const time = timeColumn(ctx, new Set([m1.columnIndex]));
  // (How long between two whole dates may be days or months: the years alone would say "0 years".)
  if (!time || (time.schema.type === "date" && howLong(ctx))) return null;
  // (Each named value's first row.)
  const [r1, r2] = [m1.rows[0]!, m2.rows[0]!];
  const [y1, y2] = [yearOf(time, r1, "a"), yearOf(time, r2, "b")];
  if (!y1 || !y2) return null;
  const preds = [
    mentionPredicate(m1, catalog, "a"),
    mentionPredicate(m2, catalog, "b"),
    `a.${ROW} = ${r1}`,
    `b.${ROW} = ${r2}`,
    `TRIM(${col(time, "a")}) <> ''`,
    `TRIM(${col(time, "b")}) <> ''`,
  ];
  return {
    sql: `SELECT ${asked(ctx, `ABS(${y1} - ${y2})`)} FROM ${table} AS a, ${table} AS b${where(preds)} ORDER BY a.${ROW}, b.${ROW} LIMIT 1`,
    template: "difference",
    targetColumn: time.schema.name,
  };
}

export const aggregateTimeApart: PlanGenerator = {
  name: "aggregate.time-apart",
  applies: ({ analysis: a }) => TIME_APART.test(a.normalized),
  build: (ctx) => {
    const named = ctx.input.mentions.filter(
      (m) => (!ctx.usable || ctx.usable.has(m.columnIndex)) && m.positive === undefined && m.rows.length > 0,
    );
    const pair = namedPair(named);
    return pair ? twoRows(ctx, ...pair) : null;
  },
};
