/**
 * View 5 in PostgreSQL (`atr build-index --sql_store postgres://…`): the tables of the freshly
 * written tables.sqlite, copied into one schema per index with the same layout — data tables
 * (`_row` primary key, typed columns and `__raw` text), `_tables`, `_columns`, `_meta` and the
 * large-table statistics — bulk-loaded with COPY (pg-copy-streams), then the same B-tree indexes. SQLite's FTS5 tables have no
 * PostgreSQL twin and are not copied (the in-process readers use the local tables.sqlite; see
 * docs/SCALING-OUT.md).
 *
 * The manifest records `sqlStore: {kind, url, schema}` with the password removed (a password comes
 * from PGPASSWORD, ~/.pgpass, or the URL given when answering). PostgreSQL's `_meta` has one more
 * row, `index_schema` = the schema name, so a reader can tell its index from a rebuilt one.
 */
import Database from "better-sqlite3";
import { randomBytes } from "node:crypto";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { quoteIdent } from "./identifiers.js";

export interface SqlStoreRecord {
  kind: "postgres";
  /** Connection URL without a password. */
  url: string;
  /** The index's schema. */
  schema: string;
}

export class PgStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PgStoreError";
  }
}

/** Whether a --sql_store value names a PostgreSQL server. */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/** The URL without its password (user, host, port, database and parameters kept). */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new PgStoreError(
      `--sql_store ${JSON.stringify(url.replace(/:[^:@/]*@/, ":***@"))} is not a URL (expected postgres://user@host:port/database)`,
    );
  }
  parsed.password = "";
  for (const key of [...parsed.searchParams.keys()])
    if (key.toLowerCase() === "password") parsed.searchParams.delete(key);
  return parsed.toString();
}

/**
 * The URL to connect with: `given` (an answer-time URL, may carry a password) when set, else the
 * recorded one (node-pg then reads PGPASSWORD or ~/.pgpass).
 */
export function connectionUrl(record: SqlStoreRecord, given?: string): string {
  return given && given !== "" ? given : record.url;
}

/** A new schema name for an index saved at `savePath`: `atr_<base>_<random>` (lower case, ≤ 63 bytes). */
export function newSchemaName(savePath: string): string {
  const base = (savePath.split(/[\\/]/).filter(Boolean).pop() ?? "index")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 40);
  return `atr_${base || "index"}_${randomBytes(4).toString("hex")}`;
}

const PG_TYPE: Record<string, string> = { INTEGER: "BIGINT", REAL: "DOUBLE PRECISION", TEXT: "TEXT" };

/** One COPY text-format field (tab-separated; `\N` is NULL). */
function copyField(value: unknown): string {
  if (value === null || value === undefined) return "\\N";
  const text = typeof value === "string" ? value : String(value);
  return text.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r");
}

interface ColumnInfo {
  name: string;
  type: string;
  notnull: number;
  pk: number;
}

/** Ordinary tables of a SQLite file, without FTS5 virtual tables and their shadow tables. */
export function copyableTables(db: Database.Database): string[] {
  const rows = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY rowid").all() as Array<{
    name: string;
    sql: string | null;
  }>;
  const virtual = rows.filter((r) => /^CREATE VIRTUAL TABLE/i.test(r.sql ?? "")).map((r) => r.name);
  return rows
    .filter(
      (r) =>
        !virtual.includes(r.name) && !virtual.some((v) => r.name.startsWith(`${v}_`)) && !r.name.startsWith("sqlite_"),
    )
    .map((r) => r.name);
}

/**
 * The functions behind the offline writer's PostgreSQL fragments (nodes/offline/sql-dialect.ts), created in each index schema at build time. SQLite's
 * CAST: leading white space skipped, the longest numeric prefix read (REAL: sign, digits, point,
 * exponent; INTEGER: sign and digits), 0 when there is none; NULL stays NULL.
 */
export function postgresHelperFunctions(schema: string): string[] {
  const s = `"${schema.replace(/"/g, '""')}"`;
  return [
    `CREATE FUNCTION ${s}.atr_real(v text) RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT CASE WHEN v IS NULL THEN NULL
        ELSE COALESCE(CAST(substring(v from '^\\s*([+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?)') AS double precision), 0) END $$`,
    `CREATE FUNCTION ${s}.atr_int(v text) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT CASE WHEN v IS NULL THEN NULL
        ELSE COALESCE(CAST(substring(v from '^\\s*([+-]?[0-9]{1,18})') AS bigint), 0) END $$`,
    `CREATE FUNCTION ${s}.atr_real(v double precision) RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT v $$`,
    `CREATE FUNCTION ${s}.atr_int(v double precision) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT CAST(trunc(v) AS bigint) $$`,
    // (strftime('%w', …) of an ISO date: 0 Sunday … 6 Saturday; NULL when the text is no date.)
    `CREATE FUNCTION ${s}.atr_weekday(v text) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT CASE WHEN v ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}' THEN CAST(EXTRACT(DOW FROM CAST(substr(v, 1, 10) AS date)) AS integer) END $$`,
  ];
}

export interface CopyToPostgresOptions {
  onTable?: (done: number, total: number) => void;
}

/**
 * Copies every ordinary table of the SQLite file into a new schema `schema` at `url` (the schema
 * must not exist). On failure the schema is dropped and the error names the table.
 */
export async function copySqliteToPostgres(
  sqlitePath: string,
  url: string,
  schema: string,
  options: CopyToPostgresOptions = {},
): Promise<void> {
  const db = new Database(sqlitePath, { readonly: true, fileMustExist: true });
  const client = new pg.Client({ connectionString: url });
  try {
    try {
      await client.connect();
    } catch (error) {
      throw new PgStoreError(`cannot connect to --sql_store ${redactUrl(url)}: ${(error as Error).message}`);
    }
    const tables = copyableTables(db);
    await client.query(`CREATE SCHEMA ${quoteIdent(schema)}`);
    try {
      let done = 0;
      for (const table of tables) {
        try {
          await copyTable(db, client, schema, table);
        } catch (error) {
          throw new PgStoreError(
            `copying table "${table}" to PostgreSQL schema ${schema} failed: ${(error as Error).message}`,
          );
        }
        options.onTable?.(++done, tables.length);
      }
      for (const sql of postgresHelperFunctions(schema)) await client.query(sql);
      await client.query(`INSERT INTO ${quoteIdent(schema)}."_meta" (key, value) VALUES ('index_schema', $1)`, [
        schema,
      ]);
      // Planner statistics for this schema's tables only (a bare ANALYZE would visit every index's schema).
      await client.query(`ANALYZE ${tables.map((t) => `${quoteIdent(schema)}.${quoteIdent(t)}`).join(", ")}`);
    } catch (error) {
      await client.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`).catch(() => undefined);
      throw error;
    }
  } finally {
    db.close();
    await client.end().catch(() => undefined);
  }
}

async function copyTable(db: Database.Database, client: pg.Client, schema: string, table: string): Promise<void> {
  const columns = db.prepare(`PRAGMA table_info(${quoteIdent(table)})`).all() as ColumnInfo[];
  const defs = columns.map(
    (c) => `${quoteIdent(c.name)} ${PG_TYPE[c.type.toUpperCase()] ?? "TEXT"}${c.notnull ? " NOT NULL" : ""}`,
  );
  const pk = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
  if (pk.length > 0) defs.push(`PRIMARY KEY (${pk.map((c) => quoteIdent(c.name)).join(", ")})`);
  const target = `${quoteIdent(schema)}.${quoteIdent(table)}`;
  await client.query(`CREATE TABLE ${target} (${defs.join(", ")})`);
  const names = columns.map((c) => quoteIdent(c.name));
  const rows = db
    .prepare(`SELECT ${names.join(", ")} FROM ${quoteIdent(table)}`)
    .raw(true)
    .iterate() as IterableIterator<unknown[]>;
  // Batches of lines keep the stream's per-chunk overhead low on million-row tables.
  const lines = Readable.from(
    (function* () {
      let batch: string[] = [];
      for (const row of rows) {
        batch.push(`${row.map(copyField).join("\t")}\n`);
        if (batch.length === 2000) {
          yield batch.join("");
          batch = [];
        }
      }
      if (batch.length > 0) yield batch.join("");
    })(),
  );
  await pipeline(lines, client.query(copyFrom(`COPY ${target} (${names.join(", ")}) FROM STDIN`)));
  // The table's own B-tree indexes too (a large table's per-column indexes, `_values_key`): without
  // them PostgreSQL scans a million rows where SQLite reads a few index pages.
  const indexes = db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`)
    .pluck()
    .all(table) as string[];
  for (const index of indexes) {
    const cols = (db.prepare(`PRAGMA index_info(${quoteIdent(index)})`).all() as Array<{ name: string | null }>).map(
      (c) => c.name,
    );
    if (cols.some((c) => c === null)) continue; // an index on an expression: none are written today
    await client.query(
      `CREATE INDEX ${quoteIdent(index)} ON ${target} (${cols.map((c) => quoteIdent(c!)).join(", ")})`,
    );
  }
}

/** Drops an index's schema (a replaced or failed build); a missing schema is not an error. */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
