/**
 * The view of one View 5 table that the offline strategies read: every column's original cell text
 * by row, its normalised forms and numbers, the distinct values and a token index, and the table
 * profile (indexing/table-profile.ts). Cached per connection, so a question costs no repeated reads.
 * - A small table's catalogue is built in memory from all its rows (read once from tables.sqlite).
 * - A large table's (indexing/table-size.ts) is never read whole: its shares, profile, distinct
 *   values and tokens come from the build-time statistics and indexes (indexing/table-stats.ts);
 *   `raw`/`norm`/`num` hold the first LARGE_TABLE_ROWS rows — what the column-shape heuristics scan —
 *   and read any other row from tables.sqlite when it is indexed; `distinct` and `tokenIndex` answer
 *   `get`/`has` through indexes, and `tokenIndex.keys()` lists the words of five or more letters
 *   without digits (what typo matching compares against).
 */
import type Database from "better-sqlite3";
import { quoteIdent } from "../../indexing/sql-store.js";
import { ftsAnyOf, numberWords } from "../../indexing/table-stats.js";
import { cellNumber, columnShares, tableProfile } from "../../indexing/table-profile.js";
import { normaliseText } from "../../text/normalise.js";
import { stem } from "../../text/stem.js";
import { withAbbreviations } from "../../text/column-words.js";
import { isLargeTable, LARGE_TABLE_ROWS } from "../../indexing/table-size.js";
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
  /** Words of the table's name (stemmed): "Order Date" of an orders table is a date, "order" only modifies it. */
  tableWords?: string[];
  /** Distinct normalised values → rows holding them. */
  distinct: Map<string, number[]>;
  /**
   * A large table's most rows one non-empty normalised value holds (build-time `_column_stats.max_freq`;
   * 1 = every value is unique); undefined for a small table.
   */
  maxFreq?: number;
  /** A large table's test of `sameRawText` through an index (a small table's reads `raw`). */
  sameRaw?: (rows: readonly number[]) => boolean;
}

/**
 * True when `rows` of the column all hold the same original text (`raw[row]`, undefined for a row the
 * table does not have). A large table answers through the column's index, without reading the rows.
 */
export function sameRawText(column: CatalogColumn, rows: readonly number[]): boolean {
  if (column.sameRaw) return column.sameRaw(rows);
  return new Set(rows.map((r) => column.raw[r])).size <= 1;
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

export { leadingNumber } from "../../indexing/table-profile.js";

export function headerWordsOf(name: string): string[] {
  // ("orderDate" is two words; "kWh" one: a single lower-case letter before a capital is a unit's prefix.
  // A header in degrees is a temperature: "High (°C)".)
  return withAbbreviations(
    normaliseText(name.replace(/([a-z]{2})([A-Z])/g, "$1 $2").replace(/°\s?[CF]\b/g, " temperature"))
      .split(" ")
      .filter((w) => w !== ""),
  ).map(stem);
}

/** Builds the catalog of one table from its rows of original text (used by tests and by loadCatalog). */
export function catalogFromRows(schema: TableSchema, rows: string[][]): TableCatalog {
  const columns: CatalogColumn[] = schema.columns.map((col, index) => {
    const raw = rows.map((r) => r[index] ?? "");
    const norm = raw.map(normaliseText);
    const num = raw.map(cellNumber);
    const distinct = new Map<string, number[]>();
    norm.forEach((n, r) => {
      if (n === "") return;
      const list = distinct.get(n);
      if (list) list.push(r);
      else distinct.set(n, [r]);
    });
    return {
      schema: col,
      index,
      raw,
      norm,
      num,
      ...columnShares(raw, num),
      headerWords: headerWordsOf(col.name),
      tableWords: headerWordsOf(schema.tableId),
      distinct,
    };
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
  const profile = tableProfile(
    columns.map((c) => ({ ...c, name: c.schema.name })),
    rows.length,
    (r) => rows[r]!,
  );
  return { schema, rowCount: rows.length, columns, tokenIndex, ...profile };
}

const caches = new WeakMap<object, Map<string, TableCatalog>>();

/** Reads (once per connection) the catalog of a table from tables.sqlite. */
export function loadCatalog(db: Database.Database, schema: TableSchema): TableCatalog {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const hit = cache.get(schema.tableId);
  if (hit) return hit;
  const indexed =
    isLargeTable(schema.rowCount) &&
    db.prepare("SELECT 1 FROM _table_stats WHERE table_id = ?").pluck().get(schema.tableId) !== undefined;
  const catalog = indexed
    ? largeCatalog(db, schema)
    : catalogFromRows(schema, readRows(db, schema, Number.MAX_SAFE_INTEGER));
  cache.set(schema.tableId, catalog);
  if (cache.size > 64) cache.delete(cache.keys().next().value!);
  return catalog;
}

/** The first `limit` rows of a table as original text. */
function readRows(db: Database.Database, schema: TableSchema, limit: number): string[][] {
  const cols = schema.columns.map((c) => quoteIdent(c.rawPhysical));
  const sql = `SELECT ${cols.length ? cols.join(", ") : "1"} FROM ${quoteIdent(schema.physical)} WHERE ${quoteIdent(ROW_ID_COLUMN)} < ? ORDER BY ${quoteIdent(ROW_ID_COLUMN)}`;
  return (db.prepare(sql).raw().all(limit) as unknown[][]).map((r) => r.map((v) => (v === null ? "" : String(v))));
}

/** Array methods that only read the array's own elements (0 … length − 1): run on the plain sample. */
const SAMPLE_METHODS = new Set<PropertyKey>([
  "filter",
  "map",
  "some",
  "every",
  "forEach",
  "reduce",
  "find",
  "findIndex",
  "indexOf",
  "includes",
  "join",
  "slice",
  "entries",
  "keys",
  "values",
  Symbol.iterator,
]);

/**
 * `sample` for its own rows; any other row read through `fetch` (the array's length stays the
 * sample's). The read-only array methods run on the sample itself: they visit only its rows, and
 * through the proxy every element would cost two traps (the column heuristics scan these arrays
 * many times a question).
 */
function sampledRows<T>(sample: T[], fetch: (row: number) => T | undefined): T[] {
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(sample, {
    get(target, prop, receiver) {
      if (typeof prop === "string") {
        const c = prop.charCodeAt(0);
        if (c >= 48 && c <= 57) {
          const row = +prop;
          if (Number.isInteger(row)) return row < target.length ? target[row] : fetch(row);
        }
      }
      if (SAMPLE_METHODS.has(prop)) {
        let f = bound.get(prop);
        if (f === undefined)
          bound.set(prop, (f = (Reflect.get(target, prop) as (...a: unknown[]) => unknown).bind(target)));
        return f;
      }
      return Reflect.get(target, prop, receiver);
    },
  });
}

/** Distinct normalised values of one large-table column → rows, answered by the `_values` index. */
class IndexedDistinct extends Map<string, number[]> {
  private readonly lookup: Database.Statement;
  private readonly all: Database.Statement;
  private readonly memo = new Map<string, number[] | null>();
  constructor(
    db: Database.Database,
    readonly tableId: string,
    readonly col: number,
    private readonly count: number,
  ) {
    super();
    this.lookup = db.prepare("SELECT rows FROM _values WHERE table_id = ? AND norm = ? AND col = ?").pluck();
    this.all = db.prepare("SELECT norm, rows FROM _values WHERE table_id = ? AND col = ?").raw();
  }
  override get(key: string): number[] | undefined {
    let rows = this.memo.get(key);
    if (rows === undefined) {
      const json = this.lookup.get(this.tableId, key, this.col) as string | undefined;
      rows = json === undefined ? null : (JSON.parse(json) as number[]);
      this.memo.set(key, rows);
      if (this.memo.size > 10_000) this.memo.delete(this.memo.keys().next().value!);
    }
    return rows ?? undefined;
  }
  override has(key: string): boolean {
    return this.get(key) !== undefined;
  }
  override get size(): number {
    return this.count;
  }
  /** Every value of the column (a scan of the index: only the rare demonym matching walks it). */
  override *entries(): MapIterator<[string, number[]]> {
    for (const [norm, rows] of this.all.iterate(this.tableId, this.col) as Iterable<[string, string]>)
      yield [norm, JSON.parse(rows) as number[]];
  }
  override *keys(): MapIterator<string> {
    for (const [norm] of this.entries()) yield norm;
  }
  override [Symbol.iterator](): MapIterator<[string, number[]]> {
    return this.entries();
  }
}

/** Token → "column:normalised value" keys of a large table, answered by `_values_fts` (and `_values` for a number). */
class IndexedTokens extends Map<string, Set<string>> {
  private readonly lookup: Database.Statement;
  private readonly numberLookup: Database.Statement;
  private readonly vocab: Database.Statement;
  private readonly memo = new Map<string, Set<string> | null>();
  private words?: string[];
  constructor(
    db: Database.Database,
    readonly tableId: string,
  ) {
    super();
    this.lookup = db
      .prepare(
        "SELECT v.rowid, v.col, v.norm FROM _values_fts CROSS JOIN _values v ON v.rowid = _values_fts.rowid WHERE _values_fts MATCH ? AND v.table_id = ?",
      )
      .raw();
    // a value that is one number is not in _values_fts: its normalised text is the token
    this.numberLookup = db.prepare("SELECT rowid, col, norm FROM _values WHERE table_id = ? AND norm = ?").raw();
    this.vocab = db.prepare("SELECT token FROM _value_tokens WHERE table_id = ?").pluck();
  }
  override get(token: string): Set<string> | undefined {
    let keys = this.memo.get(token);
    if (keys === undefined) {
      const match = ftsAnyOf([token]);
      keys = null;
      if (match) {
        const rows = this.lookup.all(match, this.tableId) as Array<[number, number, string]>;
        if (numberWords([token]).length > 0) {
          rows.push(...(this.numberLookup.all(this.tableId, token) as Array<[number, number, string]>));
          rows.sort((a, b) => a[0] - b[0]); // the FTS index's order (by rowid), with the numbers among them
        }
        const found = new Set<string>();
        for (const [, col, norm] of rows) {
          // FTS matches the token anywhere; the catalogue's tokens are the value's space-separated words
          if (norm.split(" ").includes(token)) found.add(`${col}:${norm}`);
        }
        if (found.size > 0) keys = found;
      }
      this.memo.set(token, keys);
      if (this.memo.size > 10_000) this.memo.delete(this.memo.keys().next().value!);
    }
    return keys ?? undefined;
  }
  override has(token: string): boolean {
    return this.get(token) !== undefined;
  }
  /** The words of five or more letters without digits (what typo matching compares against). */
  override keys(): MapIterator<string> {
    this.words ??= this.vocab.all(this.tableId) as string[];
    return this.words[Symbol.iterator]() as MapIterator<string>;
  }
}

interface ColumnStatsRow {
  col: number;
  numeric_share: number;
  year_share: number;
  time_share: number;
  distinct_count: number;
  max_freq: number;
}

/** The catalogue of a large table from its build-time statistics (see the file comment). */
function largeCatalog(db: Database.Database, schema: TableSchema): TableCatalog {
  const sample = readRows(db, schema, LARGE_TABLE_ROWS);
  const stats = new Map(
    (
      db
        .prepare(
          "SELECT col, numeric_share, year_share, time_share, distinct_count, max_freq FROM _column_stats WHERE table_id = ?",
        )
        .all(schema.tableId) as ColumnStatsRow[]
    ).map((r) => [r.col, r]),
  );
  const profile = db
    .prepare("SELECT summary_rows, header_rows, column_years FROM _table_stats WHERE table_id = ?")
    .get(schema.tableId) as { summary_rows: string; header_rows: string; column_years: string };
  const columns: CatalogColumn[] = schema.columns.map((col, index) => {
    const cell = db
      .prepare(
        `SELECT ${quoteIdent(col.rawPhysical)} FROM ${quoteIdent(schema.physical)} WHERE ${quoteIdent(ROW_ID_COLUMN)} = ?`,
      )
      .pluck();
    const rawAt = (row: number): string | undefined => {
      if (!Number.isInteger(row) || row < 0 || row >= schema.rowCount) return undefined;
      const v = cell.get(row) as string | null | undefined;
      return v == null ? "" : String(v);
    };
    const raw = sample.map((r) => r[index] ?? "");
    const norm = raw.map(normaliseText);
    const num = raw.map(cellNumber);
    const s = stats.get(index);
    // the rows holding `text` between two rows, in order: a range of the column's index (text, rowid)
    const holding = db
      .prepare(
        `SELECT ${quoteIdent(ROW_ID_COLUMN)} FROM ${quoteIdent(schema.physical)} WHERE ${quoteIdent(col.rawPhysical)} = ? AND ${quoteIdent(ROW_ID_COLUMN)} BETWEEN ? AND ? ORDER BY ${quoteIdent(ROW_ID_COLUMN)}`,
      )
      .pluck();
    const inTable = (r: number) => Number.isInteger(r) && r >= 0 && r < schema.rowCount;
    // (a mention's rows are asked about once per plan: remembered by the list itself)
    const sameMemo = new WeakMap<readonly number[], boolean>();
    const sameRaw = (rows: readonly number[]): boolean => {
      let same = sameMemo.get(rows);
      if (same === undefined) sameMemo.set(rows, (same = sameRawRows(rows)));
      return same;
    };
    const sameRawRows = (rows: readonly number[]): boolean => {
      if (rows.length <= 1) return true;
      // a row the table does not have reads undefined, unlike any text
      if (!rows.every(inTable)) return rows.every((r) => !inTable(r));
      const unique = [...new Set(rows)].sort((a, b) => a - b);
      // every one of them is among the rows holding the first one's text (both lists ascending)
      const held = holding.all(rawAt(rows[0]!)!, unique[0]!, unique[unique.length - 1]!) as number[];
      let j = 0;
      for (const r of unique) {
        while (j < held.length && held[j]! < r) j++;
        if (held[j] !== r) return false;
      }
      return true;
    };
    return {
      schema: col,
      index,
      ...(s ? { maxFreq: s.max_freq } : {}),
      sameRaw,
      raw: sampledRows(raw, rawAt),
      norm: sampledRows(norm, (r) => {
        const v = rawAt(r);
        return v === undefined ? undefined : normaliseText(v);
      }),
      num: sampledRows(num, (r) => {
        const v = rawAt(r);
        return v === undefined ? undefined : cellNumber(v);
      }) as Array<number | null>,
      numericShare: s?.numeric_share ?? 0,
      yearShare: s?.year_share ?? 0,
      timeShare: s?.time_share ?? 0,
      headerWords: headerWordsOf(col.name),
      tableWords: headerWordsOf(schema.tableId),
      distinct: new IndexedDistinct(db, schema.tableId, index, s?.distinct_count ?? 0),
    };
  });
  return {
    schema,
    rowCount: schema.rowCount,
    columns,
    tokenIndex: new IndexedTokens(db, schema.tableId),
    summaryRows: new Set(JSON.parse(profile.summary_rows) as number[]),
    headerRows: new Set(JSON.parse(profile.header_rows) as number[]),
    columnYears: new Map(JSON.parse(profile.column_years) as Array<[number, number[]]>),
  };
}
