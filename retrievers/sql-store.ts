/**
 * The SQL store behind View 5, as the nodes see it: guarded statements run read-only with a row
 * limit and a time limit (`execute`, the SqlExecutor contract), plus the store's table list and
 * schemas. Two implementations — the embedded SQLite file (tables.sqlite, retrievers/sql-executor.ts)
 * and a PostgreSQL schema (retrievers/pg-executor.ts) — chosen by the index's manifest, so a node
 * only ever sees `SqlStore` and its `dialect` (which grammar the guard parses and the writer emits).
 */
import Database from "better-sqlite3";
import { join } from "node:path";
import { connectionUrl, redactUrl } from "../indexing/pg-store.js";
import {
  COLUMN_ROWS_SQL,
  openSqlStore as openSqliteFile,
  readTableSchemas,
  schemasFromRows,
  SQLITE_FILE,
  TABLE_ROWS_SQL,
  type ColumnRow,
  type TableRow,
} from "../indexing/sql-store.js";
import { ROW_ID_COLUMN, type Manifest, type TableSchema } from "../indexing/types.js";
import { PgSqlExecutor } from "./pg-executor.js";
import type { SqlDialect } from "./sql-dialect.js";
import { openSqlExecutor, type SqlExecution, type SqlExecutor, type SqlExecutorOptions } from "./sql-executor.js";

export interface SqlStore extends SqlExecutor {
  readonly dialect: SqlDialect;
  /** Where the store is: the file path, or the URL without password plus the schema. */
  readonly location: string;
  /** Names of every table the store holds (data and bookkeeping). */
  tableNames(): Promise<string[]>;
  /** The tables' schemas read back from `_tables` / `_columns`, in load order. */
  tableSchemas(): Promise<Map<string, TableSchema>>;
}

export interface OpenStoreOptions extends SqlExecutorOptions {
  /** PostgreSQL URL given when answering (may carry the password); default: the manifest's. */
  url?: string;
  /** SQLite only: "process" (default, hard time limit) or "inline". */
  mode?: "process" | "inline";
}

class SqliteStore implements SqlStore {
  readonly dialect: SqlDialect = "sqlite";
  private readonly executor: SqlExecutor;
  constructor(
    readonly location: string,
    options: OpenStoreOptions,
  ) {
    this.executor = openSqlExecutor(location, options);
  }
  execute(sql: string): Promise<SqlExecution> {
    return this.executor.execute(sql);
  }
  private read<T>(fn: (db: Database.Database) => T): T {
    const db = openSqliteFile(this.location);
    try {
      return fn(db);
    } finally {
      db.close();
    }
  }
  async tableNames(): Promise<string[]> {
    return this.read(
      (db) => db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[],
    );
  }
  async tableSchemas(): Promise<Map<string, TableSchema>> {
    return this.read(readTableSchemas);
  }
  close(): Promise<void> {
    return this.executor.close();
  }
}

class PostgresStore extends PgSqlExecutor implements SqlStore {
  readonly location: string;
  constructor(
    url: string,
    readonly schema: string,
    options: SqlExecutorOptions,
  ) {
    super(url, { ...options, schema });
    this.location = `${redactUrl(url)} schema ${schema}`;
  }
  async tableNames(): Promise<string[]> {
    const rows = await this.bookkeeping<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name",
      [this.schema],
    );
    return rows.map((r) => r.table_name);
  }
  async tableSchemas(): Promise<Map<string, TableSchema>> {
    const tables = await this.bookkeeping<TableRow>(TABLE_ROWS_SQL);
    const columns = await this.bookkeeping<ColumnRow>(COLUMN_ROWS_SQL);
    return schemasFromRows(tables, columns, this.location);
  }
  /** The schema name recorded in the store's `_meta` (tells an index from a rebuilt one). */
  async recordedSchema(): Promise<string | undefined> {
    const rows = await this.bookkeeping<{ value: string }>("SELECT value FROM _meta WHERE key = 'index_schema'");
    return rows[0]?.value;
  }
}

/** Opens the store of an index directory: its PostgreSQL schema when the manifest names one, else tables.sqlite. */
export function openIndexStore(
  index: { dir: string; manifest: Pick<Manifest, "sqlStore"> },
  options: OpenStoreOptions = {},
): SqlStore {
  const record = index.manifest.sqlStore;
  if (record?.kind === "postgres") return new PostgresStore(connectionUrl(record, options.url), record.schema, options);
  return new SqliteStore(join(index.dir, SQLITE_FILE), options);
}

/**
 * What differs between a store and the index that names it (empty = consistent): every table and
 * its row count and columns, and for PostgreSQL the schema recorded in `_meta`. Cost: two
 * bookkeeping queries, independent of the data.
 */
export async function storeViolations(store: SqlStore, expected: Map<string, TableSchema>): Promise<string[]> {
  const out: string[] = [];
  let got: Map<string, TableSchema>;
  let names: Set<string>;
  try {
    got = await store.tableSchemas();
    names = new Set(await store.tableNames());
    if (store instanceof PostgresStore) {
      const recorded = await store.recordedSchema();
      if (recorded !== store.schema)
        out.push(
          `${store.location}: _meta.index_schema is ${JSON.stringify(recorded)}, expected the manifest's schema`,
        );
    }
  } catch (error) {
    return [`${store.location}: cannot read the View 5 bookkeeping tables (${(error as Error).message})`];
  }
  if (got.size !== expected.size) out.push(`${store.location} has ${got.size} tables, the index ${expected.size}`);
  for (const [id, want] of expected) {
    const have = got.get(id);
    if (!have) {
      out.push(`${store.location}: table ${id} is missing from _tables`);
      continue;
    }
    if (!names.has(want.physical))
      out.push(`${store.location}: table "${want.physical}" (${id}) is listed in _tables but missing`);
    if (have.physical !== want.physical || have.rowCount !== want.rowCount)
      out.push(
        `${store.location}: table ${id} is ${have.physical} with ${have.rowCount} rows, the index has ${want.physical} with ${want.rowCount}`,
      );
    const cols = (t: TableSchema) => [ROW_ID_COLUMN, ...t.columns.map((c) => `${c.physical}:${c.type}`)].join(",");
    if (cols(have) !== cols(want))
      out.push(`${store.location}: table ${id} has columns ${cols(have)}, the index ${cols(want)}`);
  }
  return out;
}
