/**
 * Build-time statistics and lexical indexes of the LARGE tables (indexing/table-size.ts) in
 * tables.sqlite, so that a question over a table of a million rows reads a few index pages instead
 * of the table. Written by writeSqlStore beside each large table; small tables have none (their
 * rows are read whole when needed, as before).
 *
 * - `_column_stats(table_id, col, numeric_share, year_share, time_share, empty_share,
 *   num_min, num_max, argmax_row, argmin_row, distinct_count, max_freq, unvalued_rows, max_chars,
 *   digits_only)`: one row per column (col = header position; argmax/argmin = first row holding the
 *   largest / smallest number; distinct_count and max_freq = how many normalised values, and the
 *   most rows one of them holds; unvalued_rows = rows whose cell normalises to nothing; max_chars =
 *   the longest cell; digits_only = 1 when every cell is digits only).
 * - `_table_stats(table_id, summary_rows, header_rows, column_years)`: the table profile
 *   (indexing/table-profile.ts) as JSON.
 * - `_values(table_id, col, norm, raw, freq, rows)`: every distinct normalised value of every
 *   column (`normaliseText`), the first original text with it, how many rows hold it and which
 *   (JSON array); indexed by (table_id, norm).
 * - `_values_fts`: FTS5 over the `_values.norm` that are not one number (external content = the view
 *   `_value_words`, rowid = `_values` rowid): the tables' words → values. A value that is one number
 *   ("1234": an id, a score — most of a large table's distinct values) is found by `_values_key`
 *   instead (`numberWords`), which answers the same word exactly and keeps the FTS index small.
 * - `_value_tokens(table_id, token)`: the words of five or more letters (no digits) of each table's
 *   values, for typo matching.
 * - `_rows_fts_<position>`: FTS5 over the raw-text columns of the table at that load position
 *   (external content = the data table itself, rowid = `_row`): the lexical recall of row search.
 * - `_ix_<position>_<col>` / `_ixt_<position>_<col>`: a B-tree index on each raw-text column, and
 *   on each typed number/date column, so the SQL routes' filters (`"city__raw" = 'X'`), extremes
 *   (`MAX("score")`) and counts read index pages instead of scanning the table.
 * The FTS indexes are filled by FTS5's own 'rebuild' (in SQLite, not row by row from JavaScript).
 */
import type Database from "better-sqlite3";
import { quoteIdent } from "./identifiers.js";
import {
  cellNumber,
  ProfileRows,
  SharesCounter,
  SUMMARY_PREFIXES,
  tableProfileOfParts,
  type ColumnShares,
} from "./table-profile.js";
import { normaliseText } from "../text/normalise.js";
import { ROW_ID_COLUMN, type TableSchema } from "./types.js";

/** The row index of the table at load position `position`. */
export function rowsFtsTable(position: number): string {
  return `_rows_fts_${position}`;
}

export function createStatsTables(db: Database.Database): void {
  db.exec(`
    CREATE TABLE _column_stats (table_id TEXT NOT NULL, col INTEGER NOT NULL, numeric_share REAL NOT NULL, year_share REAL NOT NULL,
      time_share REAL NOT NULL, empty_share REAL NOT NULL, num_min REAL, num_max REAL, argmax_row INTEGER, argmin_row INTEGER,
      distinct_count INTEGER NOT NULL, max_freq INTEGER NOT NULL, unvalued_rows INTEGER NOT NULL, max_chars INTEGER NOT NULL,
      digits_only INTEGER NOT NULL, PRIMARY KEY (table_id, col));
    CREATE TABLE _table_stats (table_id TEXT PRIMARY KEY, summary_rows TEXT NOT NULL, header_rows TEXT NOT NULL, column_years TEXT NOT NULL);
    CREATE TABLE _values (table_id TEXT NOT NULL, col INTEGER NOT NULL, norm TEXT NOT NULL, raw TEXT NOT NULL, freq INTEGER NOT NULL, rows TEXT NOT NULL);
    CREATE VIEW _value_words (id, norm) AS SELECT rowid, norm FROM _values WHERE norm GLOB '*[^0-9]*';
    CREATE VIRTUAL TABLE _values_fts USING fts5 (norm, content = '_value_words', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 0');
    CREATE TABLE _value_tokens (table_id TEXT NOT NULL, token TEXT NOT NULL, PRIMARY KEY (table_id, token)) WITHOUT ROWID;
  `);
}

/** Builds the indexes over `_values` once every table is in (faster than maintaining them per insert). */
export function finishStatsTables(db: Database.Database): void {
  db.exec(
    `CREATE INDEX _values_key ON _values (table_id, norm); INSERT INTO _values_fts (_values_fts) VALUES ('rebuild');`,
  );
}

/**
 * What a large table's statistics need of its rows, collected while writeSqlStore inserts them
 * (`add`, every row in order), so that no row is read back for them: the column counters and what
 * the table profile needs (ProfileRows).
 */
export class TableStatsCollector {
  private readonly counters: ColumnCounter[];
  private readonly nums: Array<number | null>;
  readonly profileRows: ProfileRows;
  rows = 0;
  constructor(width: number, rowCount: number) {
    this.counters = Array.from({ length: width }, () => new ColumnCounter());
    this.nums = new Array<number | null>(width).fill(null);
    this.profileRows = new ProfileRows(width, rowCount);
  }
  add(cells: readonly string[]): void {
    for (let c = 0; c < this.counters.length; c++) this.nums[c] = this.counters[c]!.add(cells[c]!, this.rows);
    this.profileRows.add(cells, this.nums);
    this.rows++;
  }
  counter(c: number): ColumnCounter {
    return this.counters[c]!;
  }
}

/**
 * Writes the statistics and indexes of one large table (inside the caller's transaction) from what
 * `collected` saw while its rows were inserted, plus one grouping query per column for its distinct
 * values, so memory does not grow with its rows and no pass reads the rows back.
 */
export function writeTableStats(
  db: Database.Database,
  schema: TableSchema,
  position: number,
  collected: TableStatsCollector,
): void {
  const n = schema.rowCount;
  if (collected.rows !== n) throw new Error(`statistics saw ${collected.rows} rows of ${n}`);
  const table = quoteIdent(schema.physical);
  const rawCols = schema.columns.map((c) => quoteIdent(c.rawPhysical));
  const readRows = (): Iterable<string[]> =>
    db
      .prepare(`SELECT ${rawCols.join(", ")} FROM ${table} ORDER BY ${quoteIdent(ROW_ID_COLUMN)}`)
      .raw()
      .iterate() as Iterable<string[]>;
  const counters = schema.columns.map((_, c) => collected.counter(c));
  const shares = counters.map((k) => k.shares());
  db.function("atr_norm", { deterministic: true }, (text: unknown) => normaliseText(String(text)));
  const insertColumn = db.prepare("INSERT INTO _column_stats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const lastValue = db.prepare("SELECT coalesce(max(rowid), 0) FROM _values").pluck();
  const valueCounts = db.prepare(
    "SELECT coalesce(max(freq), 0) AS most, total(freq) AS rows FROM _values WHERE rowid > ?",
  );
  const tokens = new Set<string>();
  const firstValue = (lastValue.get() as number) + 1;
  schema.columns.forEach((col, c) => {
    // every distinct normalised value, in the order of its first row, with that row's original text
    // (a bare column beside the one min() aggregate takes its value from the row holding the minimum)
    const raw = quoteIdent(col.rawPhysical);
    const before = lastValue.get() as number;
    const distinct = db
      .prepare(
        `INSERT INTO _values (table_id, col, norm, raw, freq, rows) SELECT ?, ?, norm, raw, freq, rows FROM (` +
          `SELECT atr_norm(${raw}) AS norm, min(_row) AS first, ${raw} AS raw, count(*) AS freq, ` +
          `json_group_array(_row ORDER BY _row) AS rows FROM ${table} GROUP BY 1) WHERE norm <> '' ORDER BY first`,
      )
      .run(schema.tableId, c).changes;
    const norms = db
      .prepare("SELECT norm FROM _values WHERE table_id = ? AND col = ?")
      .pluck()
      .iterate(schema.tableId, c) as Iterable<string>;
    for (const key of norms)
      for (const token of key.split(" ")) if (token.length >= 5 && !/\d/.test(token)) tokens.add(token);
    const k = counters[c]!;
    const values = valueCounts.get(before) as { most: number; rows: number };
    insertColumn.run(
      schema.tableId,
      c,
      shares[c]!.numericShare,
      shares[c]!.yearShare,
      shares[c]!.timeShare,
      n > 0 ? k.empty / n : 0,
      k.min,
      k.max,
      k.argmax,
      k.argmin,
      distinct,
      values.most,
      n - values.rows,
      k.maxChars,
      k.digitsOnly ? 1 : 0,
    );
  });
  const profile = tableProfileOfParts(
    schema.columns.map((col, c) => ({ name: col.name, ...shares[c]! })),
    n,
    collected.profileRows,
    summaryCandidates(db, schema, firstValue, shares),
    readRows,
  );
  db.prepare("INSERT INTO _table_stats VALUES (?, ?, ?, ?)").run(
    schema.tableId,
    JSON.stringify([...profile.summaryRows].sort((a, b) => a - b)),
    JSON.stringify([...profile.headerRows]),
    JSON.stringify([...profile.columnYears]),
  );
  const insertToken = db.prepare("INSERT INTO _value_tokens (table_id, token) VALUES (?, ?)");
  for (const token of tokens) insertToken.run(schema.tableId, token);
  schema.columns.forEach((col, c) => {
    db.exec(`CREATE INDEX ${quoteIdent(`_ix_${position}_${c}`)} ON ${table} (${quoteIdent(col.rawPhysical)})`);
    if (col.type !== "text")
      db.exec(`CREATE INDEX ${quoteIdent(`_ixt_${position}_${c}`)} ON ${table} (${quoteIdent(col.physical)})`);
  });
  const fts = quoteIdent(rowsFtsTable(position));
  db.exec(
    `CREATE VIRTUAL TABLE ${fts} USING fts5 (${rawCols.join(", ")}, content = ${table}, content_rowid = '_row', tokenize = 'unicode61');` +
      `INSERT INTO ${fts} (${fts}) VALUES ('rebuild');`,
  );
}

/**
 * The rows (with their cells) of which a cell could label a summary row: a cell of a column that is
 * not mostly numbers whose normalised value starts with a word of SUMMARY_PREFIXES (read from this
 * table's `_values`, from rowid `firstValue` on) — the only rows the profile's summary test can accept.
 */
function* summaryCandidates(
  db: Database.Database,
  schema: TableSchema,
  firstValue: number,
  shares: readonly ColumnShares[],
): Iterable<{ row: number; cells: readonly string[] }> {
  const cols = shares.flatMap((s, c) => (s.numericShare < 0.5 ? [c] : []));
  if (cols.length === 0) return;
  const prefixes = SUMMARY_PREFIXES.map(() => "norm GLOB ?").join(" OR ");
  const lists = db
    .prepare(`SELECT rows FROM _values WHERE rowid >= ? AND col IN (${cols.join(", ")}) AND (${prefixes})`)
    .pluck()
    .all(firstValue, ...SUMMARY_PREFIXES.map((p) => `${p}*`)) as string[];
  const rows = [...new Set(lists.flatMap((l) => JSON.parse(l) as number[]))].sort((a, b) => a - b);
  const read = db
    .prepare(
      `SELECT ${schema.columns.map((c) => quoteIdent(c.rawPhysical)).join(", ")} FROM ${quoteIdent(schema.physical)} WHERE ${quoteIdent(ROW_ID_COLUMN)} = ?`,
    )
    .raw();
  for (const row of rows) yield { row, cells: read.get(row) as string[] };
}

const DIGITS_ONLY = /^[0-9]*$/;

/** One column's counters of the first pass: empty cells, extremes, and what columnShares counts. */
class ColumnCounter {
  empty = 0;
  min: number | null = null;
  max: number | null = null;
  argmin: number | null = null;
  argmax: number | null = null;
  maxChars = 0;
  digitsOnly = true;
  private readonly shareCounter = new SharesCounter();
  /** Counts one cell (row r); returns its cellNumber. */
  add(cell: string, r: number): number | null {
    if (cell.trim() === "") this.empty++;
    if (cell.length > this.maxChars) this.maxChars = cell.length;
    if (this.digitsOnly && !DIGITS_ONLY.test(cell)) this.digitsOnly = false;
    const v = cellNumber(cell);
    this.shareCounter.add(cell, v);
    if (v !== null) {
      if (this.max === null || v > this.max) ((this.max = v), (this.argmax = r));
      if (this.min === null || v < this.min) ((this.min = v), (this.argmin = r));
    }
    return v;
  }
  shares(): ColumnShares {
    return this.shareCounter.shares();
  }
}

/** A normalised value that is one number: in `_values` (found by `_values_key`), not in `_values_fts`. */
const NUMBER_VALUE = /^[0-9]+$/;

/** The words of `words` that name a number-only value (looked up in `_values` by `norm`, not through `_values_fts`). */
export function numberWords(words: readonly string[]): string[] {
  return [...new Set(words.filter((w) => NUMBER_VALUE.test(w)))];
}

/** An FTS5 query matching any of `words` (each quoted: no FTS operator can come from the text). */
export function ftsAnyOf(words: readonly string[]): string | undefined {
  const safe = [...new Set(words.filter((w) => /^[\p{L}\p{N}]+$/u.test(w)))];
  return safe.length > 0 ? safe.map((w) => `"${w}"`).join(" OR ") : undefined;
}
