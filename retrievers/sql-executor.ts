/**
 * Read-only, time-limited execution of guarded SQL over View 5 (tables.sqlite).
 *
 * Only SQL admitted by retrievers/sql-guard.ts should reach this file; it adds defence in depth:
 * the connection is opened `{readonly: true, fileMustExist: true}`, a statement whose
 * `stmt.readonly` is false is refused, at most `maxRows` rows are read, and a time limit applies.
 *
 * better-sqlite3 has no statement timeout or interrupt, so there are two executors:
 * - `WorkerSqlExecutor` (default): one persistent worker thread per database with its own read-only
 *   connection. The caller ALWAYS gets control back at the time limit: the worker is terminated and a
 *   fresh one is started for the next query. (A single native SQLite step already running — e.g. a
 *   huge aggregate — may still finish on the discarded thread before it exits; the answer path is not
 *   blocked by it.) Overhead ≈ a message round trip per query.
 * - `InlineSqlExecutor`: runs on the caller's thread with `stmt.iterate()`, checking the clock between
 *   rows. Cheapest, but a query that spends long before producing its next row (an aggregate over a
 *   large join) is not interrupted. For tests, tools and small tables.
 *
 * Results are rows serialised as a JSON array of objects (column name → value; repeated result names
 * get `_2`, `_3` …), or the failure string "SQL execution failed: <reason>" (reference §7.1).
 */
import Database from "better-sqlite3";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

export interface SqlExecution {
  /** Rows serialised as a JSON string, or "SQL execution failed: <reason>". */
  result: string;
  ok: boolean;
  rowCount: number;
  /** True when more than `maxRows` rows were available (the result holds the first `maxRows`). */
  truncated: boolean;
  error?: string;
  ms: number;
}

export interface SqlExecutor {
  execute(sql: string): Promise<SqlExecution>;
  close(): Promise<void>;
}

export interface SqlExecutorOptions {
  /** Time limit per statement in ms. Default 2000. */
  timeoutMs?: number;
  /** Maximum rows returned. Default 200. */
  maxRows?: number;
}

export const DEFAULT_SQL_TIMEOUT_MS = 2000;
export const DEFAULT_SQL_MAX_ROWS = 200;
export const SQL_FAILURE_PREFIX = "SQL execution failed:";
/** A worker that has not opened its connection within this time is treated as failed. */
const WORKER_STARTUP_MS = 10_000;

export class SqlExecutorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SqlExecutorError";
  }
}

interface RawOutcome {
  ok: boolean;
  rows?: Array<Record<string, unknown>>;
  truncated?: boolean;
  error?: string;
}

/**
 * The statement runner, as JavaScript source so that the worker (which has no TypeScript loader)
 * and the inline executor run the very same code.
 */
const RUN_SOURCE = `function runReadOnly(db, sql, maxRows, timeoutMs) {
  const start = Date.now();
  let stmt;
  try { stmt = db.prepare(sql); } catch (e) { return { ok: false, error: String(e && e.message || e) }; }
  if (!stmt.readonly) return { ok: false, error: "statement is not read-only" };
  if (!stmt.reader) return { ok: false, error: "statement returns no rows" };
  const seen = new Map();
  const keys = stmt.columns().map((c) => {
    const n = (seen.get(c.name) || 0) + 1;
    seen.set(c.name, n);
    return n === 1 ? c.name : c.name + "_" + n;
  });
  stmt.raw(true);
  const rows = [];
  let truncated = false;
  try {
    for (const values of stmt.iterate()) {
      if (rows.length >= maxRows) { truncated = true; break; }
      const row = {};
      for (let i = 0; i < keys.length; i++) {
        const v = values[i];
        row[keys[i]] = typeof v === "bigint" ? Number(v) : v && typeof v === "object" ? "<blob>" : v;
      }
      rows.push(row);
      if (Date.now() - start > timeoutMs) return { ok: false, error: "time limit of " + timeoutMs + " ms exceeded" };
    }
  } catch (e) {
    return { ok: false, error: String(e && e.message || e) };
  }
  if (Date.now() - start > timeoutMs) return { ok: false, error: "time limit of " + timeoutMs + " ms exceeded" };
  return { ok: true, rows, truncated };
}`;

type RunReadOnly = (db: Database.Database, sql: string, maxRows: number, timeoutMs: number) => RawOutcome;
const runReadOnly = new Function(`${RUN_SOURCE}; return runReadOnly;`)() as RunReadOnly;

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
${RUN_SOURCE}
let db = null, openError = null;
try { db = new Database(workerData.path, { readonly: true, fileMustExist: true }); }
catch (e) { openError = String(e && e.message || e); }
parentPort.postMessage({ ready: true });
parentPort.on("message", (m) => {
  const out = openError ? { ok: false, error: "cannot open " + workerData.path + ": " + openError }
    : runReadOnly(db, m.sql, workerData.maxRows, workerData.timeoutMs);
  parentPort.postMessage({ id: m.id, out });
});
`;

function toExecution(out: RawOutcome, started: number): SqlExecution {
  const ms = performance.now() - started;
  if (!out.ok) {
    const error = out.error ?? "unknown error";
    return { result: `${SQL_FAILURE_PREFIX} ${error}`, ok: false, rowCount: 0, truncated: false, error, ms };
  }
  const rows = out.rows ?? [];
  return { result: JSON.stringify(rows), ok: true, rowCount: rows.length, truncated: out.truncated ?? false, ms };
}

function resolveOptions(options: SqlExecutorOptions): Required<SqlExecutorOptions> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_SQL_TIMEOUT_MS;
  const maxRows = options.maxRows ?? DEFAULT_SQL_MAX_ROWS;
  if (!(timeoutMs > 0)) throw new SqlExecutorError(`sql-executor: timeoutMs must be > 0, got ${timeoutMs}`);
  if (!(Number.isInteger(maxRows) && maxRows > 0)) throw new SqlExecutorError(`sql-executor: maxRows must be a positive integer, got ${maxRows}`);
  return { timeoutMs, maxRows };
}

/** Runs on the caller's thread over an already opened READ-ONLY connection (see file comment). */
export class InlineSqlExecutor implements SqlExecutor {
  private readonly options: Required<SqlExecutorOptions>;

  constructor(
    private readonly db: Database.Database,
    options: SqlExecutorOptions = {},
  ) {
    if (!db.readonly) {
      throw new SqlExecutorError("sql-executor: the View 5 connection must be opened with {readonly: true, fileMustExist: true}");
    }
    this.options = resolveOptions(options);
  }

  async execute(sql: string): Promise<SqlExecution> {
    const started = performance.now();
    return toExecution(runReadOnly(this.db, sql, this.options.maxRows, this.options.timeoutMs), started);
  }

  async close(): Promise<void> {}
}

interface Pending {
  resolve: (execution: SqlExecution) => void;
  timer: NodeJS.Timeout;
  started: number;
}

/** One persistent worker thread with its own read-only connection; hard time limit (see file comment). */
export class WorkerSqlExecutor implements SqlExecutor {
  private readonly options: Required<SqlExecutorOptions>;
  private worker: Worker | null = null;
  /** Resolves when the current worker has opened its connection (time limits start after that). */
  private ready: Promise<void> = Promise.resolve();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly path: string,
    options: SqlExecutorOptions = {},
  ) {
    if (!existsSync(path)) throw new SqlExecutorError(`sql-executor: ${path} does not exist; build the index first (atr build-index)`);
    this.options = resolveOptions(options);
  }

  private spawn(): Worker {
    const driver = createRequire(import.meta.url).resolve("better-sqlite3");
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { path: this.path, driver, maxRows: this.options.maxRows, timeoutMs: this.options.timeoutMs },
    });
    worker.unref();
    this.ready = new Promise((resolve) => {
      const startup = setTimeout(resolve, WORKER_STARTUP_MS);
      worker.once("message", () => {
        clearTimeout(startup);
        resolve();
      });
      worker.once("exit", () => resolve());
    });
    worker.on("message", (message: { id: number; out: RawOutcome }) => {
      const entry = this.pending.get(message.id);
      if (!entry) return;
      this.pending.delete(message.id);
      clearTimeout(entry.timer);
      entry.resolve(toExecution(message.out, entry.started));
    });
    const fail = (reason: string) => {
      if (this.worker === worker) this.worker = null;
      this.failAll(reason);
    };
    worker.on("error", (error) => fail(`worker error: ${error.message}`));
    worker.on("exit", (code) => {
      if (this.worker === worker) fail(`worker exited with code ${code}`);
    });
    return worker;
  }

  private failAll(reason: string): void {
    for (const [id, entry] of this.pending) {
      clearTimeout(entry.timer);
      this.pending.delete(id);
      entry.resolve(toExecution({ ok: false, error: reason }, entry.started));
    }
  }

  async execute(sql: string): Promise<SqlExecution> {
    if (this.closed) return toExecution({ ok: false, error: "executor is closed" }, performance.now());
    const worker = (this.worker ??= this.spawn());
    await this.ready;
    if (this.worker !== worker) return toExecution({ ok: false, error: "worker failed to start" }, performance.now());
    const id = this.nextId++;
    const started = performance.now();
    return new Promise<SqlExecution>((resolve) => {
      const timer = setTimeout(() => {
        // Hard limit: drop this worker (and whatever is queued behind it) and start afresh next time.
        if (this.worker === worker) this.worker = null;
        void worker.terminate();
        this.pending.delete(id);
        resolve(toExecution({ ok: false, error: `time limit of ${this.options.timeoutMs} ms exceeded` }, started));
        this.failAll(`time limit of ${this.options.timeoutMs} ms exceeded by an earlier query`);
      }, this.options.timeoutMs);
      this.pending.set(id, { resolve, timer, started });
      worker.postMessage({ id, sql });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    this.failAll("executor is closed");
    if (worker) await worker.terminate();
  }
}

/** Opens the default executor for a tables.sqlite file (`mode` "worker" unless told otherwise). */
export function openSqlExecutor(path: string, options: SqlExecutorOptions & { mode?: "worker" | "inline" } = {}): SqlExecutor {
  if (options.mode === "inline") {
    return new InlineSqlExecutor(new Database(path, { readonly: true, fileMustExist: true }), options);
  }
  return new WorkerSqlExecutor(path, options);
}
