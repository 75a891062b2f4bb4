/**
 * SQL expressions the plan generators build statements from: quoted columns, numbers stored as text
 * read through CAST, dates, binding and mention predicates, the summary-row filter.
 */
import { quoteIdent } from "../../../indexing/sql-store.js";
import { ROW_ID_COLUMN } from "../../../indexing/types.js";
import { bindingColumn } from "../../../retrievers/sql-guard.js";
import type { QuestionAnalysis } from "../analysis.js";
import { headerMatch, isNumericColumn, isYearColumn } from "../columns.js";
import type { EntityMention } from "../mentions.js";
import { sameRawText, type CatalogColumn, type TableCatalog } from "../table-catalog.js";
import type { RequiredBinding } from "./types.js";
import { MONTH_NAMES } from "../../../text/lexicons.js";
import { sqlFragmentsInUse as d } from "../sql-dialect.js";

export const ROW = quoteIdent(ROW_ID_COLUMN);

/** Words of money going out: "how much did I spend on food?", "which category are my expenses highest in?". */
const SPENDING = /\b(?:spend|spends|spent|spending|expenses?|expenditures?|outgoings?)\b/;

/**
 * A question of spending over a ledger's column of signed amounts (money in above zero, money out below, a date
 * on each row: a bank statement's Amount): the amounts below zero, as positive sums, are what it asks about. (Not
 * a financial report's year columns, whose negatives are losses.)
 */
export function spendsSignedAmounts(a: QuestionAnalysis, c: CatalogColumn, catalog: TableCatalog): boolean {
  if (!SPENDING.test(a.normalized) || !catalog.columns.some((x) => x.schema.type === "date")) return false;
  let below = 0;
  let above = 0;
  for (const n of c.num) {
    if (n !== null && n < 0) below += 1;
    else if (n !== null && n > 0) above += 1;
  }
  return below >= 2 && above >= 1;
}

/** SQL string literal with quotes doubled. */
export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

export function col(c: CatalogColumn, alias?: string, raw = true): string {
  const name = quoteIdent(raw ? c.schema.rawPhysical : c.schema.physical);
  return alias ? `${alias}.${name}` : name;
}

/** A cell that holds nothing: blank, a dash or "n/a" (a vacancy in a list, not a value). */
export function blankCell(c: CatalogColumn, alias?: string): string {
  return `TRIM(${col(c, alias)}) IN ('', '-', '—', '–', 'n/a', 'N/A', 'none', 'None')`;
}

/** Numeric value of a column: the typed column when numeric, else the raw text parsed by CAST. */
export function numExpr(c: CatalogColumn, alias?: string): string {
  if (c.schema.type === "integer" || c.schema.type === "real") return col(c, alias, false);
  if (c.timeShare >= 0.5) {
    // "m:ss.xx" (or "h:mm:ss") as seconds; a leading "+" (gap times) is dropped.
    const r = `REPLACE(TRIM(${col(c, alias)}), '+', '')`;
    // (No parentheses around CASE: the guard's parser refuses "SELECT (CASE …) FROM" in a sub-query.)
    const colon = d().instr(r, "':'");
    // ("2:20:58", a marathon time: hours, minutes and seconds.)
    const rest = `substr(${r}, ${colon} + 1)`;
    const second = d().instr(rest, "':'");
    const hms = `${d().real(`substr(${r}, 1, ${colon} - 1)`)} * 3600 + ${d().real(`substr(${rest}, 1, ${second} - 1)`)} * 60 + ${d().real(`substr(${rest}, ${second} + 1)`)}`;
    return `CASE WHEN ${colon} > 0 AND ${second} > 0 THEN ${hms} WHEN ${colon} > 0 THEN ${d().real(`substr(${r}, 1, ${colon} - 1)`)} * 60 + ${d().real(`REPLACE(substr(${r}, ${colon} + 1), ':', '')`)} ELSE ${d().real(r)} END`;
  }
  if (c.schema.type === "date") return d().int(`substr(${col(c, alias, false)}, 1, 4)`);
  const bare = `REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(TRIM(${col(c, alias)}), ',', ''), '$', ''), '%', ''), '+', ''), '(', ''), ')', '')`;
  // "(874)" / "$(874)" is an accounting negative.
  return `CASE WHEN ${d().glob(`TRIM(${col(c, alias)})`, "(*")} OR ${d().glob(`TRIM(${col(c, alias)})`, "$(*")} THEN -${d().real(bare)} ELSE ${d().real(bare)} END`;
}

/** Predicate: the column holds a usable number (or date). */
export function hasNum(c: CatalogColumn, alias?: string): string {
  if (c.schema.type !== "text") return `${col(c, alias, false)} IS NOT NULL`;
  return `(${d().glob(col(c, alias), "*[0-9]*")} AND ${d().glob(`TRIM(${col(c, alias)})`, "[0-9$+.(-]*")})`;
}

/** Ordering expression: ISO text for dates, numbers otherwise. */
export function orderExpr(c: CatalogColumn, alias?: string): string {
  if (c.schema.type === "date") return col(c, alias, false);
  if (!isNumericColumn(c) && isYearColumn(c)) return d().int(col(c, alias));
  return numExpr(c, alias);
}

export function yearExpr(c: CatalogColumn, alias?: string): string {
  if (c.schema.type === "date") return d().int(`substr(${col(c, alias, false)}, 1, 4)`);
  if (isNumericColumn(c)) return numExpr(c, alias);
  return d().int(col(c, alias));
}

/** A whole number of years as an answer to "how long": "1 year", "26 years". */
export function yearsText(expr: string): string {
  return `CASE WHEN ${expr} = 1 THEN '1 year' ELSE ${expr} || ' years' END`;
}

export function bindingPredicate(b: RequiredBinding, catalog: TableCatalog, alias?: string): string {
  const c = catalog.columns[b.columnIndex]!;
  const name = quoteIdent(bindingColumn(c.schema));
  const ref = alias ? `${alias}.${name}` : name;
  return b.fuzzy ? `${ref} LIKE ${sqlString(`%${b.value}%`)}` : `${ref} = ${sqlString(b.value)}`;
}

export function mentionPredicate(m: EntityMention, catalog: TableCatalog, alias?: string): string {
  const c = catalog.columns[m.columnIndex]!;
  if (m.positive !== undefined)
    return m.positive ? `${numExpr(c, alias)} > 0` : `COALESCE(${numExpr(c, alias)}, 0) <= 0`;
  if (!sameRawText(c, m.rows)) return `${alias ? `${alias}.` : ""}${ROW} IN (${m.rows.join(", ")})`;
  return `${col(c, alias)} = ${sqlString(m.value)}`;
}

export function sameBinding(m: EntityMention, b: RequiredBinding, catalog: TableCatalog): boolean {
  if (m.columnIndex !== b.columnIndex) return false;
  const v = catalog.columns[b.columnIndex]!.raw[m.rows[0]!] ?? m.value;
  return b.fuzzy ? v.toLowerCase().includes(b.value.toLowerCase()) : v.trim() === b.value.trim();
}

export const MONTHS: readonly string[] = MONTH_NAMES;

/** A column of years (not amounts that happen to fall in 1000–2100: "$1,200"). */
export function holdsYears(c: CatalogColumn): boolean {
  return isYearColumn(c) && !c.raw.some((v) => /[$€£¥,]/.test(v));
}

/**
 * A running total the question does not name (Balance, Cumulative, YTD): each row already holds the rows before
 * it, so "the total income" of a bank statement adds up its Amount, never its Balance.
 */
export function isUnnamedRunningTotal(c: CatalogColumn, a: QuestionAnalysis): boolean {
  return (
    c.headerWords.some((h) => /^(?:balance|cumulative|running|runn|ytd)$/.test(h)) && headerMatch(a.contentWords, c) < 1
  );
}

/** A column of dates (typed, or text naming months) that a month condition or grouping reads. */
export function monthColumn(
  catalog: TableCatalog,
  ok: (c: CatalogColumn) => boolean,
  month?: number,
): CatalogColumn | undefined {
  const names = month === undefined ? MONTHS : [MONTHS[month]!];
  const named = (v: string) => names.some((m) => new RegExp(`\\b${m.slice(0, 3)}`, "i").test(v));
  return catalog.columns.find(
    (c) =>
      ok(c) &&
      (c.schema.type === "date" || c.raw.some(named)) &&
      (c.schema.type === "date" || c.headerWords.some((h) => /^(date|month|day|time|held|played)$/.test(h))),
  );
}

/** A date column of whole months ("Jan 2023", "2023-01", "01/2023"): every filled cell names a month of a year. */
export function isMonthLevel(c: CatalogColumn): boolean {
  const filled = c.raw.filter((v) => v.trim() !== "");
  return (
    c.schema.type === "date" &&
    filled.length > 0 &&
    filled.every((v) => /^\s*(?:[A-Za-z]{3,9}\.?,? \d{4}|\d{4}-\d{1,2}|\d{1,2}\/\d{4})\s*$/.test(v))
  );
}

/**
 * A column numbering the rows (game 1, 2, 3 …, episode numbers): most rows hold the previous row's number plus
 * one. Such a column is counted by rows, never added up ("how many games …" does not sum "Game").
 */
export function isSequence(c: CatalogColumn): boolean {
  const values = c.num.filter((n): n is number => n !== null);
  if (values.length < 3 || !values.every(Number.isInteger)) return false;
  let steps = 0;
  for (let i = 1; i < values.length; i++) if (values[i] === values[i - 1]! + 1) steps++;
  return steps >= 0.6 * (values.length - 1);
}

/** Rows selected by every mention (intersection), for deciding between a value and a sum. */
export function mentionRows(mentions: EntityMention[]): number[] | undefined {
  let rows: Set<number> | undefined;
  for (const m of mentions) rows = rows ? new Set(m.rows.filter((r) => rows!.has(r))) : new Set(m.rows);
  return rows ? [...rows] : undefined;
}

export function summaryFilter(catalog: TableCatalog, alias?: string): string[] {
  if (catalog.summaryRows.size === 0) return [];
  const ref = alias ? `${alias}.${ROW}` : ROW;
  return [`${ref} NOT IN (${[...catalog.summaryRows].join(", ")})`];
}

export function where(preds: string[]): string {
  return preds.length ? ` WHERE ${preds.join(" AND ")}` : "";
}

/** The date or year column the question's words name ("started" → Start date), if exactly one does. */
export function namedDateColumn(
  a: QuestionAnalysis,
  catalog: TableCatalog,
  usable: Set<number> | undefined,
  avoid: Set<number>,
): CatalogColumn | undefined {
  const dated = catalog.columns.filter(
    (c) => (!usable || usable.has(c.index)) && !avoid.has(c.index) && (c.schema.type === "date" || holdsYears(c)),
  );
  // (Any one word: "how many cars were sold in 2023" names Sale Date by its second word.)
  const match = (c: CatalogColumn) => Math.max(0, ...a.contentWords.map((w) => headerMatch([w], c, false)));
  const named = dated.filter((c) => match(c) >= 0.8);
  // ("which field was harvested last?" of farm_harvest.csv: the table's own word names "Harvest Date" only weakly.)
  const weak = named.length === 0 ? dated.filter((c) => match(c) >= 0.5) : [];
  if (named.length > 1) {
    // ("due for a service in September" of Last Service and Next Service Due: the one more words name.)
    const words = (c: CatalogColumn) => a.contentWords.reduce((sum, w) => sum + headerMatch([w], c, false), 0);
    const [first, second] = named.map((c) => ({ c, n: words(c) })).sort((x, y) => y.n - x.n);
    return first!.n > second!.n ? first!.c : undefined;
  }
  return named.length === 1 ? named[0] : weak.length === 1 ? weak[0] : undefined;
}
