/**
 * The profile of a table that the offline strategies read (nodes/offline/table-catalog.ts): per
 * column the share of numbers, years and clock times, and per table its summary rows ("Total"),
 * leading header rows and the years its headers name. Computed from the rows in memory for a small
 * table, and once at build time for a large one (indexing/table-stats.ts stores it), with the same
 * code — so both read the same numbers.
 */
import { parseDate, parseNumber } from "./column-types.js";

/** The number a cell starts with ("2.8 miles (4.5 km)" → 2.8, "328 (100)" → 328), as SQLite's CAST reads it. */
export function leadingNumber(text: string): number | null {
  const m = /^\s*[$€£]?\s*([-+]?\d[\d,]*(?:\.\d+)?)(?![\d:])/.exec(text);
  if (!m) return null;
  const v = Number(m[1]!.replace(/,/g, ""));
  return Number.isFinite(v) ? v : null;
}

/** The number a catalogue reads in a cell (a parsed number, else its leading number). */
export function cellNumber(text: string): number | null {
  return parseNumber(text) ?? leadingNumber(text);
}

export interface ColumnShares {
  numericShare: number;
  yearShare: number;
  /** Clock times / durations ("3:45", "1:02:03.5"). */
  timeShare: number;
}

/** Shares of the non-empty cells of a column that are numbers, years, clock times. */
export function columnShares(raw: readonly string[], num: ReadonlyArray<number | null>): ColumnShares {
  const nonEmpty = raw.filter((v) => v.trim() !== "").length || 1;
  const numericShare = num.filter((n) => n !== null).length / nonEmpty;
  const yearShare =
    raw.filter((v, r) => {
      const n = num[r];
      if (n !== null && n !== undefined) return Number.isInteger(n) && n >= 1000 && n <= 2100;
      return parseDate(v) !== null || /^\s*(1[0-9]|20)\d\d\b/.test(v);
    }).length / nonEmpty;
  const timeShare = raw.filter((v) => /^\s*\+?\d{1,2}(:\d{2}){1,2}(\.\d+)?\s*$/.test(v)).length / nonEmpty;
  return { numericShare, yearShare, timeShare };
}

/** What the row-level profile reads of each column. */
export interface ProfileColumn extends ColumnShares {
  name: string;
  raw: readonly string[];
  norm: readonly string[];
  num: ReadonlyArray<number | null>;
}

export interface TableProfile {
  summaryRows: Set<number>;
  headerRows: Set<number>;
  columnYears: Map<number, number[]>;
}

const YEAR_IN_TEXT = /\b(19[5-9]\d|20[0-4]\d)\b/g;
const AMOUNT = /[$€£]|\d,\d{3}|\(\s*\d/;
// ("All", "all 13", "all places"; not "All of You", a song title.)
const SUMMARY = /^(total|totals|sum|overall|grand total|average|mean)\b|^all( \d+| [a-z]+s)?$/;

/** Summary rows, header rows and header years of a table (`rowCount` rows, cells by column). */
export function tableProfile(
  columns: readonly ProfileColumn[],
  rowCount: number,
  rowCells: (r: number) => readonly string[],
): TableProfile {
  const summaryRows = new Set<number>();
  for (let r = 0; r < rowCount; r++) {
    for (const c of columns) {
      const v = c.norm[r] ?? "";
      if (v === "") continue;
      if (SUMMARY.test(v) && c.numericShare < 0.5) summaryRows.add(r);
      if (c.numericShare < 0.5 || SUMMARY.test(v)) break;
    }
  }
  const totals = totalsRow(columns, rowCount, summaryRows);
  if (totals !== undefined) summaryRows.add(totals);
  const headerRows = new Set<number>();
  for (let r = 0; r < Math.min(3, rowCount); r++) {
    const cells = rowCells(r);
    const first = (cells[0] ?? "").trim();
    const rest = cells.slice(1).filter((v) => v.trim() !== "");
    // A header row names years or words, never amounts or counts; it names at least one year, over a
    // column of amounts (not a column of years); its first cell is empty or a note ("(in millions)").
    const numberLike = (v: string) =>
      AMOUNT.test(v) || (/^[\s\d.,%-]+$/.test(v) && !/^\s*(19[5-9]\d|20[0-4]\d)\s*$/.test(v));
    const yearCells = cells.map((v, c) => (c > 0 && /\b(19[5-9]\d|20[0-4]\d)\b/.test(v) ? c : -1)).filter((c) => c > 0);
    const overAmounts =
      yearCells.length > 0 && yearCells.every((c) => columns[c]!.yearShare < 0.5 && columns[c]!.numericShare >= 0.5);
    if ((first !== "" && /\d/.test(first)) || rest.length === 0 || rest.some(numberLike) || !overAmounts) break;
    headerRows.add(r);
  }
  const columnYears = new Map<number, number[]>();
  columns.forEach((c, index) => {
    const texts = [c.name, ...[...headerRows].map((r) => c.raw[r] ?? "")];
    const years = [...new Set(texts.flatMap((t) => [...t.matchAll(YEAR_IN_TEXT)].map((m) => Number(m[1]))))];
    if (years.length > 0) columnYears.set(index, years);
  });
  return { summaryRows, headerRows, columnYears };
}

/**
 * An unlabelled totals row (first cell empty or a rank): the last row, when its amounts are the sums
 * of the rows above in at least half of the numeric columns it fills (and at least one).
 */
function totalsRow(columns: readonly ProfileColumn[], rowCount: number, summaryRows: Set<number>): number | undefined {
  const r = rowCount - 1;
  if (rowCount < 4 || summaryRows.has(r)) return undefined;
  const amounts = columns.filter(
    (c) => c.numericShare >= 0.7 && c.yearShare < 0.5 && c.timeShare < 0.5 && c.num[r] != null,
  );
  let matches = 0;
  for (const c of amounts) {
    let sum = 0;
    let count = 0;
    for (let i = 0; i < r; i++) {
      const v = c.num[i];
      if (v === null || v === undefined || summaryRows.has(i)) continue;
      sum += v;
      count++;
    }
    if (count >= 2 && sum !== 0 && Math.abs(c.num[r]! - sum) <= Math.max(0.5, 0.005 * Math.abs(sum))) matches++;
  }
  return matches >= 1 && matches * 2 >= amounts.length ? r : undefined;
}
