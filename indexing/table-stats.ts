/**
 * Build-time statistics and lexical indexes of the LARGE tables (indexing/table-size.ts) in
 * tables.sqlite, so that a question over a table of a million rows reads a few index pages instead
 * of the table. Written by writeSqlStore beside each large table; small tables have none (their
 * rows are read whole when needed, as before).
 *
 * - `_column_stats(table_id, col, numeric_share, year_share, time_share, empty_share,
 *   num_min, num_max, argmax_row, argmin_row, distinct_count)`: one row per column (col = header
 *   position; argmax/argmin = first row holding the largest / smallest number).
 * - `_table_stats(table_id, summary_rows, header_rows, column_years)`: the table profile
 *   (indexing/table-profile.ts) as JSON.
 * - `_values(table_id, col, norm, raw, freq, rows)`: every distinct normalised value of every
 *   column (`normaliseText`), the first original text with it, how many rows hold it and which
 *   (JSON array); indexed by (table_id, norm).
 * - `_values_fts`: FTS5 over `_values.norm` (external content, rowid = `_values` rowid): the tables'
 *   words → values.
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
import { cellNumber, columnShares, tableProfile, type ProfileColumn } from "./table-profile.js";
import { normaliseText } from "../text/normalise.js";
import type { RawTable, TableSchema } from "./types.js";

/** The row index of the table at load position `position`. */
export function rowsFtsTable(position: number): string {
  return `_rows_fts_${position}`;
}

export function createStatsTables(db: Database.Database): void {
  db.exec(`
    CREATE TABLE _column_stats (table_id TEXT NOT NULL, col INTEGER NOT NULL, numeric_share REAL NOT NULL, year_share REAL NOT NULL,
      time_share REAL NOT NULL, empty_share REAL NOT NULL, num_min REAL, num_max REAL, argmax_row INTEGER, argmin_row INTEGER,
      distinct_count INTEGER NOT NULL, PRIMARY KEY (table_id, col));
    CREATE TABLE _table_stats (table_id TEXT PRIMARY KEY, summary_rows TEXT NOT NULL, header_rows TEXT NOT NULL, column_years TEXT NOT NULL);
    CREATE TABLE _values (table_id TEXT NOT NULL, col INTEGER NOT NULL, norm TEXT NOT NULL, raw TEXT NOT NULL, freq INTEGER NOT NULL, rows TEXT NOT NULL);
    CREATE VIRTUAL TABLE _values_fts USING fts5 (norm, content = '_values', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 0');
    CREATE TABLE _value_tokens (table_id TEXT NOT NULL, token TEXT NOT NULL, PRIMARY KEY (table_id, token)) WITHOUT ROWID;
  `);
}

/** Builds the indexes over `_values` once every table is in (faster than maintaining them per insert). */
export function finishStatsTables(db: Database.Database): void {
  db.exec(
    `CREATE INDEX _values_key ON _values (table_id, norm); INSERT INTO _values_fts (_values_fts) VALUES ('rebuild');`,
  );
}

/** Writes the statistics and indexes of one large table (inside the caller's transaction). */
export function writeTableStats(db: Database.Database, raw: RawTable, schema: TableSchema, position: number): void {
  const n = raw.rows.length;
  const insertValue = db.prepare(
    "INSERT INTO _values (table_id, col, norm, raw, freq, rows) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const insertToken = db.prepare("INSERT INTO _value_tokens (table_id, token) VALUES (?, ?)");
  const tokens = new Set<string>();
  const insertColumn = db.prepare("INSERT INTO _column_stats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const columns: ProfileColumn[] = schema.columns.map((col, c) => {
    const cells = raw.rows.map((row) => row[c] ?? "");
    const norm = cells.map(normaliseText);
    const num = cells.map(cellNumber);
    const shares = columnShares(cells, num);
    let empty = 0;
    let min: number | null = null;
    let max: number | null = null;
    let argmin: number | null = null;
    let argmax: number | null = null;
    const distinct = new Map<string, { raw: string; rows: number[] }>();
    for (let r = 0; r < n; r++) {
      if (cells[r]!.trim() === "") empty++;
      const v = num[r];
      if (v !== null && v !== undefined) {
        if (max === null || v > max) ((max = v), (argmax = r));
        if (min === null || v < min) ((min = v), (argmin = r));
      }
      const key = norm[r]!;
      if (key === "") continue;
      const d = distinct.get(key);
      if (d) d.rows.push(r);
      else distinct.set(key, { raw: cells[r]!, rows: [r] });
    }
    for (const [key, d] of distinct) {
      insertValue.run(schema.tableId, c, key, d.raw, d.rows.length, JSON.stringify(d.rows));
      for (const token of key.split(" ")) if (token.length >= 5 && !/\d/.test(token)) tokens.add(token);
    }
    insertColumn.run(
      schema.tableId,
      c,
      shares.numericShare,
      shares.yearShare,
      shares.timeShare,
      n > 0 ? empty / n : 0,
      min,
      max,
      argmax,
      argmin,
      distinct.size,
    );
    return { name: col.name, raw: cells, norm, num, ...shares };
  });
  const profile = tableProfile(columns, n, (r) => raw.rows[r] ?? []);
  db.prepare("INSERT INTO _table_stats VALUES (?, ?, ?, ?)").run(
    schema.tableId,
    JSON.stringify([...profile.summaryRows].sort((a, b) => a - b)),
    JSON.stringify([...profile.headerRows]),
    JSON.stringify([...profile.columnYears]),
  );
  for (const token of tokens) insertToken.run(schema.tableId, token);
  const table = quoteIdent(schema.physical);
  schema.columns.forEach((col, c) => {
    db.exec(`CREATE INDEX ${quoteIdent(`_ix_${position}_${c}`)} ON ${table} (${quoteIdent(col.rawPhysical)})`);
    if (col.type !== "text")
      db.exec(`CREATE INDEX ${quoteIdent(`_ixt_${position}_${c}`)} ON ${table} (${quoteIdent(col.physical)})`);
  });
  const fts = quoteIdent(rowsFtsTable(position));
  const cols = schema.columns.map((c) => quoteIdent(c.rawPhysical)).join(", ");
  db.exec(
    `CREATE VIRTUAL TABLE ${fts} USING fts5 (${cols}, content = ${quoteIdent(schema.physical)}, content_rowid = '_row', tokenize = 'unicode61');` +
      `INSERT INTO ${fts} (${fts}) VALUES ('rebuild');`,
  );
}

/** An FTS5 query matching any of `words` (each quoted: no FTS operator can come from the text). */
export function ftsAnyOf(words: readonly string[]): string | undefined {
  const safe = [...new Set(words.filter((w) => /^[\p{L}\p{N}]+$/u.test(w)))];
  return safe.length > 0 ? safe.map((w) => `"${w}"`).join(" OR ") : undefined;
}
