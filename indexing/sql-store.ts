/**
 * View 5: the embedded relational store, `tables.sqlite` in the index directory.
 *
 * Layout (every identifier below is double-quoted in SQL):
 * - One data table per source table (per sheet for .xlsx). Its physical name is
 *   `physicalTableName(tableId)` (indexing/identifiers.ts); names that would collide with an earlier
 *   table, start with `_` or `sqlite_` get `t_` / `_2`, `_3`… — always read the name from `_tables`.
 *   Columns, in this order:
 *     `_row` INTEGER PRIMARY KEY   0-based row index (ROW_ID_COLUMN; same as View 4's rowIdx)
 *     then per logical column, in header order (physical names from `physicalColumnNames`):
 *     `<physical>`       typed value: INTEGER | REAL | TEXT (ISO `YYYY-MM-DD` / `YYYY-MM` for dates)
 *                        | TEXT (trimmed). NULL when the cell is empty, a placeholder (`-`, `n/a`…)
 *                        or does not parse as the column's type.
 *     `<physical>__raw`  TEXT, the original cell text exactly as loaded ("" for empty, never NULL).
 *   Data column names never start with `_` and never contain `__`, so neither can collide.
 * - `_tables(position, table_id, physical, file, sheet, title, row_count)`: one row per source table,
 *   `position` = load order.
 * - `_columns(table_id, position, name, physical, raw_physical, type, examples)`: one row per logical
 *   column; `type` ∈ integer|real|date|text; `examples` is a JSON array of up to three distinct
 *   non-empty original values (each cut to EXAMPLE_MAX_CHARS).
 * - `_meta(key, value)`: `store_format` = STORE_FORMAT.
 * - Tables over LARGE_TABLE_ROWS rows also get build-time statistics and lexical indexes
 *   (`_column_stats`, `_table_stats`, `_values`, `_values_fts`, `_value_tokens`, `_rows_fts`; layout in
 *   indexing/table-stats.ts), so questions over them read indexes instead of the table.
 * A streamed table (a large CSV, indexing/load-tables.ts) is read twice, never held: once to type its
 * columns, once to insert its rows, in the table's one transaction. The statistics of a large table
 * and the views read it back from this file (`storedTable`).
 * Passages are not in SQLite; they live in `passages.jsonl` (see open-index.ts).
 * Readers open the file read-only (`{readonly: true, fileMustExist: true}`).
 */
import Database from "better-sqlite3";
import { ColumnTypeCounter, typedValue } from "./column-types.js";
import { physicalColumnNames, physicalTableName, quoteIdent } from "./identifiers.js";
import { createStatsTables, finishStatsTables, TableStatsCollector, writeTableStats } from "./table-stats.js";
import { isLargeTable } from "./table-size.js";
import type { ColumnBounds, DistinctCell } from "./cell-selection.js";
import {
  ROW_ID_COLUMN,
  sourceRows,
  type ColumnType,
  type StreamedTable,
  type TableSchema,
  type TableSource,
} from "./types.js";

export const SQLITE_FILE = "tables.sqlite";
export const STORE_FORMAT = "2";
/** Suffix of the raw-text twin of every typed column. */
export const RAW_SUFFIX = "__raw";
/** Schema examples longer than this are cut (with "…"): a 50 MB cell must not flow into every view. */
export const EXAMPLE_MAX_CHARS = 200;

const SQL_TYPE: Record<ColumnType, string> = { integer: "INTEGER", real: "REAL", date: "TEXT", text: "TEXT" };

export class SqlStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SqlStoreError";
  }
}

export { quoteIdent };

/** Infers column types, physical names and examples for one table (physical table name given), in one pass over its rows. */
export function tableSchemaFor(table: TableSource, physical: string): TableSchema {
  const physicalColumns = physicalColumnNames(table.header);
  const width = table.header.length;
  const types = table.header.map(() => new ColumnTypeCounter());
  const examples = table.header.map((): string[] => []);
  const seen = table.header.map(() => new Set<string>());
  let rowCount = 0;
  for (const row of sourceRows(table)) {
    rowCount++;
    for (let c = 0; c < width; c++) {
      const v = row[c] ?? "";
      types[c]!.add(v);
      if (examples[c]!.length === 3) continue;
      // Cut before trimming so a huge cell is not copied whole.
      const t = (v.length > EXAMPLE_MAX_CHARS * 2 ? v.slice(0, EXAMPLE_MAX_CHARS * 2) : v).trim();
      if (t === "" || seen[c]!.has(t)) continue;
      seen[c]!.add(t);
      examples[c]!.push(t.length > EXAMPLE_MAX_CHARS ? `${t.slice(0, EXAMPLE_MAX_CHARS)}…` : t);
    }
  }
  const columns = table.header.map((name, c) => {
    const type = types[c]!.type();
    return {
      name,
      physical: physicalColumns[c]!,
      rawPhysical: `${physicalColumns[c]!}${RAW_SUFFIX}`,
      type,
      ...(type === "date" && types[c]!.dayFirst() ? { dayFirst: true as const } : {}),
      examples: examples[c]!,
    };
  });
  const schema: TableSchema = { tableId: table.id, physical, file: table.file, rowCount, columns };
  if (table.sheet !== undefined) schema.sheet = table.sheet;
  if (table.title !== undefined) schema.title = table.title;
  return schema;
}

/** Physical table names for tables in load order: identifier rule, then de-collided and de-reserved. */
export function physicalTableNames(tableIds: readonly string[]): string[] {
  const taken = new Set<string>();
  return tableIds.map((id) => {
    let base = physicalTableName(id);
    if (base.startsWith("_") || base.toLowerCase().startsWith("sqlite_")) base = `t_${base.replace(/^_+/, "")}`;
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base}_${n}`;
    taken.add(name.toLowerCase());
    return name;
  });
}

export interface WriteSqlStoreOptions {
  /** Called after each table is written. */
  onTable?: (done: number, total: number) => void;
}

/** Writes tables.sqlite at `path` (must not exist) and returns the schemas in load order. */
export function writeSqlStore(
  path: string,
  tables: readonly TableSource[],
  options: WriteSqlStoreOptions = {},
): TableSchema[] {
  const db = new Database(path);
  try {
    // The file lives in a temp build directory that is swapped in only when complete, so no journal.
    db.pragma("journal_mode = OFF");
    db.pragma("synchronous = OFF");
    db.exec(`
      CREATE TABLE _meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE _tables (position INTEGER PRIMARY KEY, table_id TEXT NOT NULL UNIQUE, physical TEXT NOT NULL UNIQUE,
        file TEXT NOT NULL, sheet TEXT, title TEXT, row_count INTEGER NOT NULL);
      CREATE TABLE _columns (table_id TEXT NOT NULL, position INTEGER NOT NULL, name TEXT NOT NULL, physical TEXT NOT NULL,
        raw_physical TEXT NOT NULL, type TEXT NOT NULL, examples TEXT NOT NULL, PRIMARY KEY (table_id, position));
    `);
    createStatsTables(db);
    db.prepare("INSERT INTO _meta (key, value) VALUES ('store_format', ?)").run(STORE_FORMAT);
    const insertTable = db.prepare(
      "INSERT INTO _tables (position, table_id, physical, file, sheet, title, row_count) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    const insertColumn = db.prepare(
      "INSERT INTO _columns (table_id, position, name, physical, raw_physical, type, examples) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    const physicalNames = physicalTableNames(tables.map((t) => t.id));
    const schemas: TableSchema[] = [];
    tables.forEach((raw, position) => {
      const schema = tableSchemaFor(raw, physicalNames[position]!);
      const write = db.transaction(() => {
        const defs = [`${quoteIdent(ROW_ID_COLUMN)} INTEGER PRIMARY KEY`];
        for (const col of schema.columns) {
          defs.push(
            `${quoteIdent(col.physical)} ${SQL_TYPE[col.type]}`,
            `${quoteIdent(col.rawPhysical)} TEXT NOT NULL`,
          );
        }
        db.exec(`CREATE TABLE ${quoteIdent(schema.physical)} (${defs.join(", ")})`);
        const placeholders = new Array(1 + 2 * schema.columns.length).fill("?").join(", ");
        const insertRow = db.prepare(`INSERT INTO ${quoteIdent(schema.physical)} VALUES (${placeholders})`);
        const types = schema.columns.map((c) => c.type);
        const dayFirst = schema.columns.map((c) => c.dayFirst === true);
        const params: Array<number | string | null> = new Array(1 + 2 * types.length);
        // a large table's statistics are counted from the rows as they go in (none is read back for them)
        const stats = isLargeTable(schema.rowCount)
          ? new TableStatsCollector(types.length, schema.rowCount)
          : undefined;
        const cells: string[] = new Array<string>(types.length);
        let r = 0;
        for (const row of sourceRows(raw)) {
          params[0] = r++;
          for (let c = 0; c < types.length; c++) {
            const text = row[c] ?? "";
            params[1 + 2 * c] = typedValue(text, types[c]!, dayFirst[c]);
            params[2 + 2 * c] = text;
            cells[c] = text;
          }
          insertRow.run(params);
          stats?.add(cells);
        }
        if (r !== schema.rowCount)
          throw new Error(`read ${r} rows, ${schema.rowCount} the first time (the file changed during the build)`);
        insertTable.run(
          position,
          schema.tableId,
          schema.physical,
          schema.file,
          schema.sheet ?? null,
          schema.title ?? null,
          schema.rowCount,
        );
        schema.columns.forEach((col, c) => {
          insertColumn.run(
            schema.tableId,
            c,
            col.name,
            col.physical,
            col.rawPhysical,
            col.type,
            JSON.stringify(col.examples),
          );
        });
        if (stats) writeTableStats(db, schema, position, stats);
      });
      try {
        write();
      } catch (error) {
        throw new SqlStoreError(
          `writing table "${raw.id}" (${raw.file}) to ${SQLITE_FILE} failed: ${(error as Error).message}`,
        );
      }
      schemas.push(schema);
      options.onTable?.(position + 1, tables.length);
    });
    finishStatsTables(db);
    return schemas;
  } finally {
    db.close();
  }
}

/**
 * A large table read back from tables.sqlite for the views, so the build never holds its rows: the
 * rows in order and each column's distinct cells (grouped by SQLite), every cell passed through
 * `viewCell` first (the views' cut of overlong cells, which must leave a cell of at most 10,000
 * UTF-16 units alone). `db` is the built store, open read-only.
 */
/** The characters String.prototype.trim removes (WhiteSpace and LineTerminator of ECMAScript). */
export const JS_WHITESPACE =
  "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff";
/** Cells of at most this many characters are never cut by `viewCell` (a character is at most two UTF-16 units). */
const VIEW_CUT_SAFE_CHARS = 5000;

export function storedTable(
  db: Database.Database,
  schema: TableSchema,
  viewCell: (cell: string) => string,
): {
  raw: StreamedTable;
  distinctCells: (column: number) => Iterable<DistinctCell>;
  columnBounds: (column: number) => ColumnBounds;
} {
  db.function("atr_view_cell", { deterministic: true }, (cell: unknown) => viewCell(String(cell)).trim());
  const table = quoteIdent(schema.physical);
  const row = quoteIdent(ROW_ID_COLUMN);
  const rows = db
    .prepare(`SELECT ${schema.columns.map((c) => quoteIdent(c.rawPhysical)).join(", ")} FROM ${table} ORDER BY ${row}`)
    .raw();
  const raw: StreamedTable = {
    kind: "streamed",
    id: schema.tableId,
    file: schema.file,
    header: schema.columns.map((c) => c.name),
    rowCount: schema.rowCount,
    *readRows() {
      for (const cells of rows.iterate() as Iterable<string[]>) yield cells.map(viewCell);
    },
  };
  if (schema.sheet !== undefined) raw.sheet = schema.sheet;
  if (schema.title !== undefined) raw.title = schema.title;
  return {
    raw,
    distinctCells: (column) => {
      const cell = quoteIdent(schema.columns[column]!.rawPhysical);
      return db
        .prepare(
          // SQLite trims JavaScript's whitespace itself; only a cell that may be cut goes through JavaScript
          `SELECT v, count(*), min(${row}) AS first FROM (SELECT CASE WHEN length(${cell}) > ${VIEW_CUT_SAFE_CHARS} ` +
            `THEN atr_view_cell(${cell}) ELSE trim(${cell}, ?) END AS v, ${row} FROM ${table}) ` +
            `WHERE v <> '' GROUP BY v ORDER BY first`,
        )
        .raw()
        .iterate(JS_WHITESPACE) as Iterable<DistinctCell>;
    },
    columnBounds: (column) => {
      // A distinct (trimmed) cell lies within one of the column's normalised values, unless it normalises to
      // nothing (those rows bound it alone) or may be cut for the views (then only the row count bounds it).
      const s = db
        .prepare(
          "SELECT max_freq, unvalued_rows, max_chars, digits_only FROM _column_stats WHERE table_id = ? AND col = ?",
        )
        .get(schema.tableId, column) as
        { max_freq: number; unvalued_rows: number; max_chars: number; digits_only: number } | undefined;
      if (!s || s.max_chars > VIEW_CUT_SAFE_CHARS) return { maxFreq: schema.rowCount, digitsOnly: false };
      return { maxFreq: Math.max(s.max_freq, s.unvalued_rows), digitsOnly: s.digits_only === 1 };
    },
  };
}

/** Opens tables.sqlite read-only; a missing file is an error naming it. */
export function openSqlStore(path: string): Database.Database {
  try {
    return new Database(path, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new SqlStoreError(`cannot open ${path} read-only: ${(error as Error).message}`);
  }
}

/** A `_tables` bookkeeping row. */
export type TableRow = {
  table_id: string;
  physical: string;
  file: string;
  sheet: string | null;
  title: string | null;
  row_count: number;
};
/** A `_columns` bookkeeping row. */
export type ColumnRow = {
  table_id: string;
  name: string;
  physical: string;
  raw_physical: string;
  type: ColumnType;
  examples: string;
};

/** The bookkeeping queries (the same on every store: indexing/pg-store.ts copies these tables). */
export const TABLE_ROWS_SQL = "SELECT table_id, physical, file, sheet, title, row_count FROM _tables ORDER BY position";
export const COLUMN_ROWS_SQL =
  "SELECT table_id, name, physical, raw_physical, type, examples FROM _columns ORDER BY table_id, position";

/** Reads the TableSchema of every table back from the bookkeeping tables (insertion = load order). */
export function readTableSchemas(db: Database.Database): Map<string, TableSchema> {
  let tableRows: TableRow[];
  let columnRows: ColumnRow[];
  try {
    const format = db.prepare("SELECT value FROM _meta WHERE key = 'store_format'").pluck().get();
    if (format !== STORE_FORMAT) throw new Error(`store_format is ${String(format)}, expected ${STORE_FORMAT}`);
    tableRows = db.prepare(TABLE_ROWS_SQL).all() as TableRow[];
    columnRows = db.prepare(COLUMN_ROWS_SQL).all() as ColumnRow[];
  } catch (error) {
    throw new SqlStoreError(
      `${SQLITE_FILE} is not a View 5 store of this format (${(error as Error).message}); rebuild the index`,
    );
  }
  return schemasFromRows(tableRows, columnRows, SQLITE_FILE);
}

/** The TableSchema of every table from its bookkeeping rows; `source` names the store in errors. */
export function schemasFromRows(
  tableRows: readonly TableRow[],
  columnRows: readonly ColumnRow[],
  source: string,
): Map<string, TableSchema> {
  const map = new Map<string, TableSchema>();
  for (const t of tableRows) {
    const schema: TableSchema = {
      tableId: t.table_id,
      physical: t.physical,
      file: t.file,
      rowCount: t.row_count,
      columns: [],
    };
    if (t.sheet !== null) schema.sheet = t.sheet;
    if (t.title !== null) schema.title = t.title;
    map.set(t.table_id, schema);
  }
  for (const c of columnRows) {
    const schema = map.get(c.table_id);
    if (!schema) throw new SqlStoreError(`${source}: _columns names unknown table "${c.table_id}"; rebuild the index`);
    schema.columns.push({
      name: c.name,
      physical: c.physical,
      rawPhysical: c.raw_physical,
      type: c.type,
      examples: JSON.parse(c.examples) as string[],
    });
  }
  return map;
}

/**
 * Consistency of tables.sqlite with what the index records. "open" (every open; cost independent of
 * the data): table and row counts against the manifest, every data table present. "full"
 * (`atr inspect-index`): also SQLite's integrity check and each data table's row count.
 */
export function sqlStoreViolations(
  db: Database.Database,
  tables: Map<string, TableSchema>,
  counts: { tables: number; rows: number },
  depth: "open" | "full",
): string[] {
  const out: string[] = [];
  const rows = [...tables.values()].reduce((sum, t) => sum + t.rowCount, 0);
  if (tables.size !== counts.tables)
    out.push(`${SQLITE_FILE} has ${tables.size} tables but counts.tables is ${counts.tables}`);
  if (rows !== counts.rows) out.push(`${SQLITE_FILE} has ${rows} rows but counts.rows is ${counts.rows}`);
  const present = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
  for (const t of tables.values())
    if (!present.has(t.physical))
      out.push(`${SQLITE_FILE}: table "${t.physical}" (${t.tableId}) is listed in _tables but missing`);
  if (depth === "open") return out;
  const integrity = db.prepare("PRAGMA integrity_check").pluck().all() as string[];
  if (integrity.length !== 1 || integrity[0] !== "ok")
    out.push(`${SQLITE_FILE} fails SQLite's integrity check: ${integrity.slice(0, 5).join("; ")}`);
  for (const t of tables.values()) {
    if (!present.has(t.physical)) continue;
    const n = db
      .prepare(`SELECT COUNT(*) FROM ${quoteIdent(t.physical)}`)
      .pluck()
      .get() as number;
    if (n !== t.rowCount)
      out.push(`${SQLITE_FILE}: table "${t.physical}" has ${n} rows but _tables records ${t.rowCount}`);
  }
  return out;
}
