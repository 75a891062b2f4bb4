/**
 * Column type inference and cell value parsing for View 5.
 *
 * Numbers: `1,234` → 1234, `$5.2` → 5.2 (also € £ ¥), `12%` → 12 (the number as written: a percent
 * column stays comparable with the text people type), `(3.4)` → −3.4 (accounting negative),
 * `−5` (Unicode minus) → −5, `12 km` → 12 (one trailing unit word), trailing footnote marks
 * (`12[3]`, `12*`, `12†`) ignored. A comma is a thousands separator only in groups of three.
 * Dates: `2019-06-30`, `2019/6/30`, `6/30/2019` (US order; day-first when the first part > 12),
 * `30.06.2019`, `June 30, 2019`, `June 30 , 2019` (HybridQA tokenisation), `30 June 2019`,
 * `Jun. 30 2019`, `June 2019` → `2019-06`. A bare year is a number, not a date.
 *
 * A column's type is the narrowest of integer < real < date < text that at least
 * {@link TYPE_THRESHOLD} of its non-empty, non-placeholder cells parse as. Cells of a typed column
 * that do not parse become SQL NULL in the typed column; the original text is always kept beside it.
 */
import type { ColumnType } from "./types.js";
import { monthNumber } from "../text/lexicons.js";

/** Fraction of a column's informative cells that must parse for the column to get that type. */
export const TYPE_THRESHOLD = 0.9;

/** Cells that mean "no value" and do not count against a numeric or date type. */
const PLACEHOLDERS = new Set([
  "-",
  "--",
  "—",
  "–",
  "−",
  "n/a",
  "na",
  "n.a.",
  "none",
  "null",
  "nil",
  "?",
  "$ -",
  "$-",
  "tbd",
  "tba",
  "…",
  "...",
]);

/** Longer cells are never numbers, dates or placeholders; checked first so huge cells cost nothing. */
const MAX_PARSE_CHARS = 64;

export function isPlaceholder(text: string): boolean {
  if (text.length > MAX_PARSE_CHARS) return false;
  const t = text.trim().toLowerCase();
  return t === "" || PLACEHOLDERS.has(t);
}

const CURRENCY = /^[$€£¥₹]\s*/;
const FOOTNOTE = /(\s*(\[[^\]]{0,12}\]|[*†‡§¶]+))+$/;
const NUMBER_CORE = /^[+-]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?$/;
const UNIT = /^(.*?\d)\s*([A-Za-z°µ][A-Za-z°µ/²³.]{0,11})$/;
const FOOTNOTE_ENDS = "]*†‡§¶";
const HAS_DIGIT = /\d/;
const DIGITS = /^\d{1,40}$/;

/** `text` without its trailing footnote marks; FOOTNOTE can only match text ending in one (tested first: much cheaper). */
function dropFootnote(text: string): string {
  return text.length > 0 && FOOTNOTE_ENDS.includes(text[text.length - 1]!) ? text.replace(FOOTNOTE, "") : text;
}

/** Parses a number as written in a table cell, or returns null. */
export function parseNumber(text: string): number | null {
  if (text.length > MAX_PARSE_CHARS) return null;
  // fast paths with the general rule's result: nothing below adds a digit; plain digits are the number
  if (!HAS_DIGIT.test(text)) return null;
  if (DIGITS.test(text)) return Number(text);
  let t = dropFootnote(text.trim()).trim();
  if (t === "" || t.length > 40) return null;
  t = t.replace(/[\u2212\u2012\u2013]/g, "-");
  let negative = false;
  // Accounting negative: (3.4), ($3.4), $(3.4)
  const paren = /^\$?\s*\(\s*(.+?)\s*\)$/.exec(t);
  if (paren) {
    negative = true;
    t = paren[1]!;
  }
  if (t.startsWith("-") && CURRENCY.test(t.slice(1))) {
    negative = !negative;
    t = t.slice(1);
  }
  t = t.replace(CURRENCY, "");
  if (t.endsWith("%")) t = t.slice(0, -1).trim();
  else {
    const unit = UNIT.exec(t);
    // ("9A", "12B": one capital after a whole number is a label, a class or a seat, not a unit; "£16.8M" is money.)
    if (unit && /^\d{1,3}[A-Z]$/.test(text.trim())) return null;
    // ("01 Jul", "3 March": a day of a month, not a number in the unit "Jul".)
    if (unit && monthNumber(unit[2]!.replace(/\.$/, "")) !== undefined) return null;
    if (unit) t = unit[1]!.trim();
  }
  // "1 234" is not accepted (ambiguous with two numbers); "+5" and "-5" are.
  if (!/\d/.test(t) || !NUMBER_CORE.test(t)) return null;
  const value = Number(t.replace(/,/g, ""));
  if (!Number.isFinite(value)) return null;
  return negative ? -value : value;
}

function iso(y: number, m: number, d?: number): string | null {
  if (y < 1000 || y > 2999 || m < 1 || m > 12) return null;
  const mm = String(m).padStart(2, "0");
  if (d === undefined) return `${y}-${mm}`;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d < 1 || d > days) return null;
  return `${y}-${mm}-${String(d).padStart(2, "0")}`;
}

/**
 * Parses a date in a common written form to ISO `YYYY-MM-DD` (or `YYYY-MM` for month + year), or null.
 * `dayFirst`: the column's slashed dates are day first (its other cells show it), so 03/12/2023 is 3 December.
 */
export function parseDate(text: string, dayFirst = false): string | null {
  if (text.length > MAX_PARSE_CHARS || !HAS_DIGIT.test(text)) return null; // every form below has a digit
  const t = dropFootnote(text.trim()).replace(/\s+,/g, ",").replace(/\s+/g, " ").trim();
  if (t.length < 6 || t.length > 40) return null;
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ]\d{1,2}:\d{2}(:\d{2})?(\.\d+)?Z?)?$/.exec(t);
  if (m) return iso(+m[1]!, +m[2]!, +m[3]!);
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(t);
  if (m) {
    const a = +m[1]!;
    const b = +m[2]!;
    const y = +m[3]!;
    // A dot separator is day-first (European); a slash is month-first unless that cannot be, or the column is day first.
    if (t.includes(".") || a > 12 || (dayFirst && b <= 12)) return iso(y, b, a);
    return iso(y, a, b);
  }
  m = /^([A-Za-z]{3,9}\.?) (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})$/.exec(t);
  if (m && monthNumber(m[1]!)) return iso(+m[3]!, monthNumber(m[1]!)!, +m[2]!);
  // ("3 March 2024", "3rd Mar, 2024", "03-Apr-2024", "3/Apr/2024")
  m = /^(\d{1,2})(?:(?:st|nd|rd|th)? ([A-Za-z]{3,9}\.?),? |-([A-Za-z]{3,9})-|\/([A-Za-z]{3,9})\/)(\d{4})$/.exec(t);
  if (m) {
    const month = monthNumber(m[2] ?? m[3] ?? m[4]!);
    if (month) return iso(+m[5]!, month, +m[1]!);
  }
  m = /^([A-Za-z]{3,9}\.?),? (\d{4})$/.exec(t);
  if (m && monthNumber(m[1]!)) return iso(+m[2]!, monthNumber(m[1]!)!);
  return null;
}

/** "2024-07": a year and a month, as a date column may hold them; "2010-11" is also how a season is written. */
const YEAR_MONTH = /^\s*(\d{4})-(0[1-9]|1[0-2])\s*$/;
function isSeasonLike(m: RegExpExecArray): boolean {
  return Number(m[2]) === (Number(m[1]) + 1) % 100;
}

/** "Free" among prices or fees: nothing to pay, the number 0 (its column stays numeric and sorts it first). */
const FREE = /^\s*free\s*$/i;

/** Infers a column's type from its cells (original text). See the file comment for the rule. */
export function inferColumnType(values: Iterable<string>): ColumnType {
  const counter = new ColumnTypeCounter();
  for (const v of values) counter.add(v);
  return counter.type();
}

/** inferColumnType one value at a time (a column of a million rows is typed without holding it). */
export class ColumnTypeCounter {
  private informative = 0;
  private integers = 0;
  private numbers = 0;
  private dates = 0;
  /** Slashed dates that can only be day first (31/03/2024) / only month first (3/31/2024). */
  private onlyDayFirst = 0;
  private onlyMonthFirst = 0;
  /** "2024-07" cells, and those that could also be a season ("2010-11"): dates only beside plain ones. */
  private yearMonths = 0;
  private seasonLike = 0;
  add(v: string): void {
    if (isPlaceholder(v)) return;
    this.informative++;
    const n = FREE.test(v) ? 0 : parseNumber(v);
    if (n !== null) {
      this.numbers++;
      if (Number.isSafeInteger(n) && !/[.%]/.test(dropFootnote(v))) this.integers++;
    } else if (YEAR_MONTH.test(v)) {
      if (isSeasonLike(YEAR_MONTH.exec(v)!)) this.seasonLike++;
      else this.yearMonths++;
    } else if (parseDate(v) !== null) {
      this.dates++;
      const m = /^\s*(\d{1,2})\/(\d{1,2})\/\d{4}\s*$/.exec(v);
      if (m && +m[1]! > 12 && +m[2]! <= 12) this.onlyDayFirst++;
      if (m && +m[2]! > 12 && +m[1]! <= 12) this.onlyMonthFirst++;
    }
  }
  /** The column's slashed dates are day first: some cell says so and none says otherwise. */
  dayFirst(): boolean {
    return this.onlyDayFirst > 0 && this.onlyMonthFirst === 0;
  }
  type(): ColumnType {
    if (this.informative === 0) return "text";
    const need = Math.ceil(this.informative * TYPE_THRESHOLD);
    if (this.numbers >= need) return this.integers === this.numbers ? "integer" : "real";
    if (this.dates + (this.yearMonths > 0 ? this.yearMonths + this.seasonLike : 0) >= need) return "date";
    return "text";
  }
}

/** The value stored in a column's typed SQL column: number, ISO date text, trimmed text, or null. */
export function typedValue(text: string, type: ColumnType, dayFirst = false): number | string | null {
  if (type === "text") {
    const t = text.trim();
    return t === "" ? null : t;
  }
  if (isPlaceholder(text)) return null;
  if (type === "date") return YEAR_MONTH.exec(text)?.slice(1, 3).join("-") ?? parseDate(text, dayFirst);
  const n = FREE.test(text) ? 0 : parseNumber(text);
  if (n === null) return null;
  if (type === "integer") return Number.isSafeInteger(n) ? n : null;
  return n;
}
