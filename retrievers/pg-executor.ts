/**
 * Read-only, time-limited execution of guarded SQL over View 5 in PostgreSQL (an index built with
 * `--sql_store postgres://…`; indexing/pg-store.ts writes the schema).
 *
 * Defence in depth beside the guard, as on SQLite: every session starts with
 * `default_transaction_read_only = on`, `statement_timeout` = the SQL time limit and
 * `search_path` = the index's schema (connection options, so they hold from the first statement);
 * each statement runs inside `BEGIN READ ONLY` through a server-side cursor declared over it (the
 * extended protocol refuses stacked statements), at most `maxRows + 1` rows are fetched, and the
 * transaction is rolled back. A client-side timer (time limit + 1 s) ends a connection that does
 * not answer at all.
 *
 * Results have SQLite's shape: numbers as JS numbers (BIGINT, NUMERIC included), booleans as 1/0,
 * result columns named as SQLite names them (retrievers/sqlite-result-names.ts), repeated names
 * `_2`, `_3` … — so a result string is the same on both stores.
 */
import pg from "pg";
import {
  DEFAULT_SQL_MAX_ROWS,
  DEFAULT_SQL_TIMEOUT_MS,
  SQL_FAILURE_PREFIX,
  type SqlExecution,
  type SqlExecutor,
  type SqlExecutorOptions,
} from "./sql-executor.js";
import type { SqlDialect } from "./sql-dialect.js";
import { sqliteResultNames } from "./sqlite-result-names.js";

const INT8 = 20;
const NUMERIC = 1700;
const BOOL = 16;

/** Type parsers of this executor only (node-pg's global ones stay untouched). */
const TYPES = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
    if (oid === BOOL) return (v: string) => (v === "t" ? 1 : 0);
    return pg.types.getTypeParser(oid, format);
  },
};

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** node-pg's message for a missing password names none of the ways to give one. */
function explain(error: unknown): string {
  const message = (error as Error)?.message ?? String(error);
  if (/client password must be a string/.test(message))
    return "the server wants a password: set PGPASSWORD, add a ~/.pgpass line, or give --sql_store with the URL including the password";
  return message;
}

export interface PgExecutorOptions extends SqlExecutorOptions {
  /** The index's schema. */
  schema: string;
  /** Connections kept open (concurrent questions). Default 4. */
  poolSize?: number;
}

export class PgSqlExecutor implements SqlExecutor {
  readonly dialect: SqlDialect = "postgres";
  private readonly pool: pg.Pool;
  private readonly timeoutMs: number;
  private readonly maxRows: number;
  private cursorId = 0;

  constructor(url: string, options: PgExecutorOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_SQL_TIMEOUT_MS;
    this.maxRows = options.maxRows ?? DEFAULT_SQL_MAX_ROWS;
    if (!(this.timeoutMs > 0)) throw new Error(`pg-executor: timeoutMs must be > 0, got ${this.timeoutMs}`);
    const sessionOptions = [
      "-c default_transaction_read_only=on",
      `-c statement_timeout=${Math.ceil(this.timeoutMs)}`,
      `-c search_path=${options.schema}`,
    ].join(" ");
    this.pool = new pg.Pool({
      connectionString: url,
      options: sessionOptions,
      max: options.poolSize ?? 4,
      idleTimeoutMillis: 10_000,
      connectionTimeoutMillis: 10_000,
      allowExitOnIdle: true,
    });
    // An idle connection that dies (server restart) must not crash the process.
    this.pool.on("error", () => undefined);
  }

  async execute(sql: string): Promise<SqlExecution> {
    const started = performance.now();
    const fail = (error: string): SqlExecution => ({
      result: `${SQL_FAILURE_PREFIX} ${error}`,
      ok: false,
      rowCount: 0,
      truncated: false,
      error,
      ms: performance.now() - started,
    });
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      return fail(`cannot connect to PostgreSQL: ${explain(error)}`);
    }
    const cursor = `atr_c${++this.cursorId}`;
    let broken = false;
    const timer = setTimeout(() => {
      broken = true;
      // No answer within the limit plus a margin: drop the connection (the server's own timeout failed).
      (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    }, this.timeoutMs + 1000);
    try {
      await client.query("BEGIN READ ONLY");
      try {
        const body = sql.trim().replace(/;\s*$/, "");
        await client.query({
          text: `DECLARE ${cursor} NO SCROLL CURSOR FOR ${body}`,
          queryMode: "extended",
        } as pg.QueryConfig);
        const fetched = await client.query({
          text: `FETCH FORWARD ${this.maxRows + 1} FROM ${cursor}`,
          rowMode: "array",
          types: TYPES,
        } as pg.QueryArrayConfig);
        const sqliteNames = sqliteResultNames(body);
        const names = sqliteNames?.length === fetched.fields.length ? sqliteNames : fetched.fields.map((f) => f.name);
        const seen = new Map<string, number>();
        const keys = names.map((name) => {
          const n = (seen.get(name) ?? 0) + 1;
          seen.set(name, n);
          return n === 1 ? name : `${name}_${n}`;
        });
        const truncated = fetched.rows.length > this.maxRows;
        const rows = fetched.rows.slice(0, this.maxRows).map((values) => {
          const row: Record<string, unknown> = {};
          keys.forEach((key, i) => {
            const v = values[i];
            row[key] = v instanceof Uint8Array ? "<blob>" : v !== null && typeof v === "object" ? String(v) : v;
          });
          return row;
        });
        const ms = performance.now() - started;
        if (ms > this.timeoutMs) return fail(`time limit of ${this.timeoutMs} ms exceeded`);
        return { result: JSON.stringify(rows), ok: true, rowCount: rows.length, truncated, ms };
      } finally {
        if (!broken) await client.query("ROLLBACK").catch(() => undefined);
      }
    } catch (error) {
      const message = (error as Error).message;
      if (broken) return fail(`time limit of ${this.timeoutMs} ms exceeded (no reply from PostgreSQL)`);
      return fail(
        /canceling statement due to statement timeout/.test(message)
          ? `time limit of ${this.timeoutMs} ms exceeded`
          : message,
      );
    } finally {
      clearTimeout(timer);
      client.release(broken);
    }
  }

  /** Runs a bookkeeping query (no guard: fixed SQL of this program) in a read-only transaction. */
  async bookkeeping<T extends Record<string, unknown>>(sql: string, values: unknown[] = []): Promise<T[]> {
    try {
      const result = await this.pool.query({ text: sql, values, types: TYPES });
      return result.rows as T[];
    } catch (error) {
      throw new Error(explain(error));
    }
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}

export { quoteIdent as pgQuoteIdent };
