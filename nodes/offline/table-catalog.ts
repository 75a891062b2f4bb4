/**
 * In-memory view of one View 5 table for the offline strategies: every column's original cell text
 * by row, its normalised forms and a token index. Read once per table from tables.sqlite (the
 * read-only connection of the opened index) and cached per connection, so a question costs no
 * repeated reads.
 */
import type Database from "better-sqlite3";
import { quoteIdent } from "../../indexing/sql-store.js";
import { parseDate, parseNumber } from "../../indexing/column-types.js";
import { ROW_ID_COLUMN, type ColumnSchema, type TableSchema } from "../../indexing/types.js";

/** One column of a catalogued table. */
export interface CatalogColumn {
  schema: ColumnSchema;
  /** Position in the table's header. */
  index: number;
  /** Original cell text by row. */
  raw: string[];
  /** normaliseText(raw) by row. */
  norm: string[];
  /** Parsed number by row (null when the cell is not a number). */
  num: Array<number | null>;
  /** Share of non-empty cells that parse as numbers / years. */
  numericShare: number;
  yearShare: number;
  /** Share of non-empty cells that are clock times / durations ("3:45", "1:02:03.5"). */
  timeShare: number;
  /** Header words (normalised, stemmed). */
  headerWords: string[];
  /** Distinct normalised values → rows holding them. */
  distinct: Map<string, number[]>;
}

export interface TableCatalog {
  schema: TableSchema;
  rowCount: number;
  columns: CatalogColumn[];
  /** Token → set of "columnIndex:normalisedValue" keys, for partial and fuzzy matches. */
  tokenIndex: Map<string, Set<string>>;
  /** Rows whose leading text cell says "total"/"sum"/"all" (excluded from aggregates and superlatives). */
  summaryRows: Set<number>;
  /** Leading data rows that are really header rows (first cell empty, no amounts): "| | 2019 | 2018 |". */
  headerRows: Set<number>;
  /** Column index → years its header (name or header rows) names ("2019", "Fiscal 2018", "Dec 31, 2019"). */
  columnYears: Map<number, number[]>;
}

const YEAR_IN_TEXT = /\b(19[5-9]\d|20[0-4]\d)\b/g;
const AMOUNT = /[$€£]|\d,\d{3}|\(\s*\d/;

/** Lower-case, accents stripped, punctuation → space, collapsed. Citation marks like [1] dropped. */
export function normaliseText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\[[^\]]{0,8}\]/g, " ")
    .replace(/[\u2018\u2019'`´]/g, "")
    .replace(/[^a-z0-9\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]+/g, " ")
    .trim();
}

/** Crude English stemmer for header/question word matching: plural and -ed/-ing endings. */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(sses|xes|ches|shes)$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  return w;
}

export function headerWordsOf(name: string): string[] {
  return normaliseText(name.replace(/([a-z])([A-Z])/g, "$1 $2"))
    .split(" ")
    .filter((w) => w !== "")
    .map(stem);
}

/** The number a cell starts with ("2.8 miles (4.5 km)" → 2.8, "328 (100)" → 328), as SQLite's CAST reads it. */
export function leadingNumber(text: string): number | null {
  const m = /^\s*[$€£]?\s*([-+]?\d[\d,]*(?:\.\d+)?)(?![\d:])/.exec(text);
  if (!m) return null;
  const v = Number(m[1]!.replace(/,/g, ""));
  return Number.isFinite(v) ? v : null;
}

// ("All", "all 13", "all places"; not "All of You", a song title.)
const SUMMARY = /^(total|totals|sum|overall|grand total|average|mean)\b|^all( \d+| [a-z]+s)?$/;

/** Builds the catalog of one table from its rows of original text (used by tests and by loadCatalog). */
export function catalogFromRows(schema: TableSchema, rows: string[][]): TableCatalog {
  const columns: CatalogColumn[] = schema.columns.map((col, index) => {
    const raw = rows.map((r) => r[index] ?? "");
    const norm = raw.map(normaliseText);
    const num = raw.map((v) => parseNumber(v) ?? leadingNumber(v));
    const nonEmpty = raw.filter((v) => v.trim() !== "").length || 1;
    const numericShare = num.filter((n) => n !== null).length / nonEmpty;
    const yearShare =
      raw.filter((v, r) => {
        const n = num[r];
        if (n !== null && n !== undefined) return Number.isInteger(n) && n >= 1000 && n <= 2100;
        return parseDate(v) !== null || /^\s*(1[0-9]|20)\d\d\b/.test(v);
      }).length / nonEmpty;
    const timeShare = raw.filter((v) => /^\s*\+?\d{1,2}(:\d{2}){1,2}(\.\d+)?\s*$/.test(v)).length / nonEmpty;
    const distinct = new Map<string, number[]>();
    norm.forEach((n, r) => {
      if (n === "") return;
      const list = distinct.get(n);
      if (list) list.push(r);
      else distinct.set(n, [r]);
    });
    return { schema: col, index, raw, norm, num, numericShare, yearShare, timeShare, headerWords: headerWordsOf(col.name), distinct };
  });
  const tokenIndex = new Map<string, Set<string>>();
  for (const c of columns) {
    for (const n of c.distinct.keys()) {
      for (const t of new Set(n.split(" "))) {
        let set = tokenIndex.get(t);
        if (!set) tokenIndex.set(t, (set = new Set()));
        set.add(`${c.index}:${n}`);
      }
    }
  }
  const summaryRows = new Set<number>();
  rows.forEach((_, r) => {
    for (const c of columns) {
      const v = c.norm[r] ?? "";
      if (v === "") continue;
      if (SUMMARY.test(v) && c.numericShare < 0.5) summaryRows.add(r);
      if (c.numericShare < 0.5 || SUMMARY.test(v)) break;
    }
  });
  const totals = totalsRow(columns, rows.length, summaryRows);
  if (totals !== undefined) summaryRows.add(totals);
  const headerRows = new Set<number>();
  for (let r = 0; r < Math.min(3, rows.length); r++) {
    const cells = rows[r]!;
    const first = (cells[0] ?? "").trim();
    const rest = cells.slice(1).filter((v) => v.trim() !== "");
    // A header row names years or words, never amounts or counts; it names at least one year, over a
    // column of amounts (not a column of years); its first cell is empty or a note ("(in millions)").
    const numberLike = (v: string) => AMOUNT.test(v) || (/^[\s\d.,%-]+$/.test(v) && !/^\s*(19[5-9]\d|20[0-4]\d)\s*$/.test(v));
    const yearCells = cells.map((v, c) => (c > 0 && /\b(19[5-9]\d|20[0-4]\d)\b/.test(v) ? c : -1)).filter((c) => c > 0);
    const overAmounts = yearCells.length > 0 && yearCells.every((c) => columns[c]!.yearShare < 0.5 && columns[c]!.numericShare >= 0.5);
    if ((first !== "" && /\d/.test(first)) || rest.length === 0 || rest.some(numberLike) || !overAmounts) break;
    headerRows.add(r);
  }
  const columnYears = new Map<number, number[]>();
  for (const c of columns) {
    const texts = [c.schema.name, ...[...headerRows].map((r) => c.raw[r] ?? "")];
    const years = [...new Set(texts.flatMap((t) => [...t.matchAll(YEAR_IN_TEXT)].map((m) => Number(m[1]))))];
    if (years.length > 0) columnYears.set(c.index, years);
  }
  return { schema, rowCount: rows.length, columns, tokenIndex, summaryRows, headerRows, columnYears };
}

/**
 * An unlabelled totals row (first cell empty or a rank): the last row, when its amounts are the sums
 * of the rows above in at least half of the numeric columns it fills (and at least one).
 */
function totalsRow(columns: CatalogColumn[], rowCount: number, summaryRows: Set<number>): number | undefined {
  const r = rowCount - 1;
  if (rowCount < 4 || summaryRows.has(r)) return undefined;
  const amounts = columns.filter((c) => c.numericShare >= 0.7 && c.yearShare < 0.5 && c.timeShare < 0.5 && c.num[r] != null);
  let matches = 0;
  for (const c of amounts) {
    const others = c.num.slice(0, r).filter((v, i): v is number => v !== null && !summaryRows.has(i));
    const sum = others.reduce((x, y) => x + y, 0);
    if (others.length >= 2 && sum !== 0 && Math.abs(c.num[r]! - sum) <= Math.max(0.5, 0.005 * Math.abs(sum))) matches++;
  }
  return matches >= 1 && matches * 2 >= amounts.length ? r : undefined;
}

const caches = new WeakMap<object, Map<string, TableCatalog>>();

/** Reads (once per connection) the catalog of a table from tables.sqlite. */
export function loadCatalog(db: Database.Database, schema: TableSchema): TableCatalog {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const hit = cache.get(schema.tableId);
  if (hit) return hit;
  const cols = schema.columns.map((c) => quoteIdent(c.rawPhysical));
  const sql = `SELECT ${cols.length ? cols.join(", ") : "1"} FROM ${quoteIdent(schema.physical)} ORDER BY ${quoteIdent(ROW_ID_COLUMN)}`;
  const rows = (db.prepare(sql).raw().all() as unknown[][]).map((r) => r.map((v) => (v === null ? "" : String(v))));
  const catalog = catalogFromRows(schema, rows);
  cache.set(schema.tableId, catalog);
  return catalog;
}
