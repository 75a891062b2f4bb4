/**
 * The profile of a table that the offline strategies read (nodes/offline/table-catalog.ts): per
 * column the share of numbers, years and clock times, and per table its summary rows ("Total"),
 * leading header rows and the years its headers name. Computed from the rows in memory for a small
 * table, and once at build time for a large one (indexing/table-stats.ts stores it), with the same
 * code — so both read the same numbers.
 */
import { parseDate, parseNumber } from "./column-types.js";
import { normaliseText } from "../text/normalise.js";
import { MONTH_PATTERN, monthNumber } from "../text/lexicons.js";

/** The number a cell starts with ("2.8 miles (4.5 km)" → 2.8, "328 (100)" → 328), as SQLite's CAST reads it. */
export function leadingNumber(text: string): number | null {
  const m = /^\s*[$€£]?\s*([-+]?\d[\d,]*(?:\.\d+)?)(?![\d:])/.exec(text);
  if (!m) return null;
  const v = Number(m[1]!.replace(/,/g, ""));
  return Number.isFinite(v) ? v : null;
}

/** The number a catalogue reads in a cell (a parsed number, else its leading number; a day of a month is none). */
export function cellNumber(text: string): number | null {
  const v = parseNumber(text);
  if (v !== null) return v;
  // ("01 Jul", "3rd March": a day of a month without its year, no number to add up or compare.)
  const dayMonth = /^\s*\d{1,2}(?:st|nd|rd|th)?\s+([A-Za-z]{3,9})\.?\s*$/.exec(text);
  if (dayMonth && monthNumber(dayMonth[1]!) !== undefined) return null;
  return leadingNumber(text);
}

export interface ColumnShares {
  numericShare: number;
  yearShare: number;
  /** Clock times / durations ("3:45", "1:02:03.5"). */
  timeShare: number;
}

/** Shares of the non-empty cells of a column that are numbers, years, clock times. */
export function columnShares(raw: readonly string[], num: ReadonlyArray<number | null>): ColumnShares {
  const counter = new SharesCounter();
  raw.forEach((v, r) => counter.add(v, num[r] ?? null));
  return counter.shares();
}

/** columnShares one cell at a time (`num` = the cell's cellNumber). */
export class SharesCounter {
  private nonEmpty = 0;
  private numbers = 0;
  private years = 0;
  private times = 0;
  add(v: string, n: number | null): void {
    if (v.trim() !== "") this.nonEmpty++;
    if (n !== null) {
      this.numbers++;
      if (Number.isInteger(n) && n >= 1000 && n <= 2100) this.years++;
    } else if (parseDate(v) !== null || /^\s*(1[0-9]|20)\d\d\b/.test(v)) this.years++;
    if (/^\s*\+?\d{1,2}(:\d{2}){1,2}(\.\d+)?\s*$/.test(v)) this.times++;
  }
  shares(): ColumnShares {
    const nonEmpty = this.nonEmpty || 1;
    return {
      numericShare: this.numbers / nonEmpty,
      yearShare: this.years / nonEmpty,
      timeShare: this.times / nonEmpty,
    };
  }
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
  for (let r = 0; r < rowCount; r++) if (isSummaryRow(columns, (c) => columns[c]!.norm[r] ?? "")) summaryRows.add(r);
  const totals = new TotalsCheck(columns, rowCount);
  if (totals.wanted)
    for (let r = 0; r < rowCount - 1; r++) if (!summaryRows.has(r)) totals.add((c) => columns[c]!.num[r] ?? null);
  if (totals.isTotals(summaryRows, (c) => columns[c]!.num[rowCount - 1] ?? null)) summaryRows.add(rowCount - 1);
  const headerRows = headerRowsOf(columns, rowCount, rowCells);
  const columnYears = columnYearsOf(columns, headerRows, (r, c) => columns[c]!.raw[r] ?? "");
  return { summaryRows, headerRows, columnYears };
}

/**
 * The same profile from what a large table's build collects while it writes the rows (`ProfileRows`:
 * the first three rows, the last, the column sums), so the rows are not read again: `candidates`
 * gives the cells of every row one of whose cells could name a summary (its normalised text starts
 * with a word of SUMMARY_PREFIXES — no other row can be one), in any order; `rows()` (every row in
 * order) is read only when a summary row stands above the last row, whose numbers the totals check
 * must then leave out of its sums.
 */
export function tableProfileOfParts(
  columns: ReadonlyArray<ColumnShares & { name: string }>,
  rowCount: number,
  collected: ProfileRows,
  candidates: Iterable<{ row: number; cells: readonly string[] }>,
  rows: () => Iterable<readonly string[]>,
): TableProfile {
  const summaryRows = new Set<number>();
  for (const { row, cells } of candidates)
    if (isSummaryRow(columns, (c) => normaliseText(cells[c] ?? ""))) summaryRows.add(row);
  const totals = new TotalsCheck(columns, rowCount);
  if (totals.wanted) {
    if ([...summaryRows].some((r) => r < rowCount - 1)) {
      let r = 0;
      for (const cells of rows()) {
        if (r < rowCount - 1 && !summaryRows.has(r)) totals.add((c) => cellNumber(cells[c] ?? ""));
        r++;
      }
    } else totals.addSums(collected.sums, collected.counts);
  }
  const last = collected.last;
  if (totals.isTotals(summaryRows, (c) => cellNumber(last[c] ?? ""))) summaryRows.add(rowCount - 1);
  const headerRows = headerRowsOf(columns, rowCount, (row) => collected.first[row] ?? []);
  const columnYears = columnYearsOf(columns, headerRows, (row, c) => collected.first[row]?.[c] ?? "");
  return { summaryRows, headerRows, columnYears };
}

/** The words a summary row's label starts with (a superset of SUMMARY's matches: `isSummaryLabel` decides). */
export const SUMMARY_PREFIXES = ["total", "sum", "overall", "grand total", "average", "mean", "all"] as const;

/** What tableProfileOfParts needs of the rows, collected one row at a time (`nums` = each cell's cellNumber). */
export class ProfileRows {
  readonly first: Array<readonly string[]> = [];
  last: readonly string[] = [];
  /** Per column, the sum and count of the numbers of every row but the last, in row order. */
  readonly sums: number[];
  readonly counts: number[];
  private r = 0;
  constructor(
    width: number,
    private readonly rowCount: number,
  ) {
    this.sums = new Array<number>(width).fill(0);
    this.counts = new Array<number>(width).fill(0);
  }
  add(cells: readonly string[], nums: ReadonlyArray<number | null>): void {
    // (copies: the caller may reuse its array for the next row)
    if (this.r < 3) this.first.push([...cells]);
    if (this.r < this.rowCount - 1) {
      for (let c = 0; c < this.sums.length; c++) {
        const v = nums[c];
        if (v === null || v === undefined) continue;
        this.sums[c]! += v;
        this.counts[c]!++;
      }
    } else this.last = [...cells];
    this.r++;
  }
}

/** A labelled summary row: its first non-empty text cell reads "Total", "Average", "All …". */
function isSummaryRow(columns: readonly ColumnShares[], norm: (c: number) => string): boolean {
  for (let c = 0; c < columns.length; c++) {
    const v = norm(c);
    if (v === "") continue;
    const summary = SUMMARY.test(v);
    if (summary && columns[c]!.numericShare < 0.5) return true;
    if (columns[c]!.numericShare < 0.5 || summary) return false;
  }
  return false;
}

/** A whole date: a day beside a month's name ("4 May 1992", "May 4, 1992") or written in numbers ("6/14/79"). */
const DAY_AND_MONTH = new RegExp(
  `\\b\\d{1,2}(?:st|nd|rd|th)? (?:${MONTH_PATTERN})\\b|\\b(?:${MONTH_PATTERN})\\.? \\d{1,2}\\b|\\b\\d{1,2}[/.]\\d{1,2}[/.]\\d{2,4}\\b`,
  "i",
);

/** Leading header rows (at most three) of a table of amounts under year headers. */
function headerRowsOf(
  columns: readonly ColumnShares[],
  rowCount: number,
  rowCells: (r: number) => readonly string[],
): Set<number> {
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
    // ("Ana Ruiz | Leeds | 4 May 1992" over "Ben Cole | York | 9 June 1990": whole dates that go on in the next
    // row are a column of dates, the row one of data.)
    const below = r + 1 < rowCount ? rowCells(r + 1) : [];
    const datedRow = yearCells.every((c) => DAY_AND_MONTH.test(cells[c]!) && DAY_AND_MONTH.test(below[c] ?? ""));
    if ((first !== "" && /\d/.test(first)) || rest.length === 0 || rest.some(numberLike) || !overAmounts || datedRow)
      break;
    headerRows.add(r);
  }
  return headerRows;
}

/** The years each column's name and header rows name. */
function columnYearsOf(
  columns: ReadonlyArray<{ name: string }>,
  headerRows: Set<number>,
  cell: (r: number, c: number) => string,
): Map<number, number[]> {
  const columnYears = new Map<number, number[]>();
  columns.forEach((c, index) => {
    const texts = [c.name, ...[...headerRows].map((r) => cell(r, index))];
    const years = [...new Set(texts.flatMap((t) => [...t.matchAll(YEAR_IN_TEXT)].map((m) => Number(m[1]))))];
    if (years.length > 0) columnYears.set(index, years);
  });
  return columnYears;
}

/**
 * An unlabelled totals row (first cell empty or a rank): the last row, when its amounts are the sums
 * of the rows above in at least half of the numeric columns it fills (and at least one). The rows
 * above that are not summary rows are added in order (`add`), then the last row is checked.
 */
class TotalsCheck {
  private readonly amounts: number[];
  private readonly sums: number[];
  private readonly counts: number[];
  /** Whether a totals row is possible at all (enough rows, some amount column). */
  readonly wanted: boolean;
  constructor(
    columns: readonly ColumnShares[],
    private readonly rowCount: number,
  ) {
    this.amounts = columns.flatMap((c, i) =>
      c.numericShare >= 0.7 && c.yearShare < 0.5 && c.timeShare < 0.5 ? [i] : [],
    );
    this.sums = this.amounts.map(() => 0);
    this.counts = this.amounts.map(() => 0);
    this.wanted = rowCount >= 4 && this.amounts.length > 0;
  }
  /** Sums and counts per column (of every column, in row order) instead of `add` row by row. */
  addSums(sums: readonly number[], counts: readonly number[]): void {
    this.amounts.forEach((c, k) => {
      this.sums[k] = sums[c]!;
      this.counts[k] = counts[c]!;
    });
  }
  add(num: (c: number) => number | null): void {
    this.amounts.forEach((c, k) => {
      const v = num(c);
      if (v === null || v === undefined) return;
      this.sums[k]! += v;
      this.counts[k]!++;
    });
  }
  isTotals(summaryRows: Set<number>, lastNum: (c: number) => number | null): boolean {
    const r = this.rowCount - 1;
    if (this.rowCount < 4 || summaryRows.has(r)) return false;
    let filled = 0;
    let matches = 0;
    this.amounts.forEach((c, k) => {
      const last = lastNum(c);
      if (last === null || last === undefined) return;
      filled++;
      const sum = this.sums[k]!;
      if (this.counts[k]! >= 2 && sum !== 0 && Math.abs(last - sum) <= Math.max(0.5, 0.005 * Math.abs(sum))) matches++;
    });
    return matches >= 1 && matches * 2 >= filled;
  }
}
