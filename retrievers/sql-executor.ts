/**
 * Read-only, time-limited execution of guarded SQL over View 5 (tables.sqlite).
 *
 * Only SQL admitted by retrievers/sql-guard.ts should reach this file; it adds defence in depth:
 * the connection is opened `{readonly: true, fileMustExist: true}`, a statement whose
 * `stmt.readonly` is false is refused, at most `maxRows` rows are read, and a time limit applies.
 *
 * better-sqlite3 has no statement timeout or interrupt, so there are two executors:
 * - `ProcessSqlExecutor` (default): one persistent child process (retrievers/sql-child.js) per
 *   database with its own read-only connection, fed over IPC. At the time limit the caller gets control back and the
 *   process is killed with SIGKILL — this stops even a single long native SQLite step (a worker
 *   thread cannot be stopped inside native code, and a stuck one even blocks process exit) — and a
 *   fresh process is started for the next query. Overhead ≈ one IPC round trip per query; the
 *   ~100 ms start-up is paid once, and again only after a timeout. Children are killed on exit.
 * - `InlineSqlExecutor`: runs on the caller's thread with `stmt.iterate()`, checking the clock between
 *   rows. Cheapest, but a query that spends long before producing its next row (an aggregate over a
 *   large join) is not interrupted. For tests, tools and small tables.
 *
 * Both run the same statement runner, retrievers/sql-statement-runner.js.
 *
 * Results are rows serialised as a JSON array of objects (column name → value; repeated result names
 * get `_2`, `_3` …), or the failure string "SQL execution failed: <reason>" (reference §7.1).
 */
import Database from "better-sqlite3";
import { existsSync } from "node:fs";
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { runReadOnly, timeLimitError, type RawOutcome } from "./sql-statement-runner.js";
import type { SqlDialect } from "./sql-dialect.js";

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
  /** The store's SQL dialect (retrievers/sql-dialect.ts); "sqlite" when absent. */
  readonly dialect?: SqlDialect;
  execute(sql: string): Promise<SqlExecution>;
  close(): Promise<void>;
}

export interface SqlExecutorOptions {
  /** Time limit per statement in ms. Default `DEFAULT_SQL_TIMEOUT_MS` (10 s). */
  timeoutMs?: number;
  /** Maximum rows returned. Default 200. */
  maxRows?: number;
}

/**
 * The one default of the statement time limit (`sqlTimeoutMs` in graph/configuration.ts uses it).
 * The published system bounds a whole SQL-service call at 180 s (`ATR_SQL_TIMEOUT_SEC`, NL2SQL
 * included; reference §7.1) and sets no tighter statement limit, so a limit of a few seconds would
 * refuse statements it answers; 10 s still bounds a runaway join on a laptop.
 */
export const DEFAULT_SQL_TIMEOUT_MS = 10_000;
export const DEFAULT_SQL_MAX_ROWS = 200;
export const SQL_FAILURE_PREFIX = "SQL execution failed:";
/** A child that has not opened its connection within this time is treated as failed. */
const CHILD_STARTUP_MS = 10_000;

export class SqlExecutorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SqlExecutorError";
  }
}

/** Where the child's code lives: a plain-JavaScript module, so bare `node` runs it. */
const CHILD_MODULE = fileURLToPath(new URL("./sql-child.js", import.meta.url));

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
  if (!(Number.isInteger(maxRows) && maxRows > 0))
    throw new SqlExecutorError(`sql-executor: maxRows must be a positive integer, got ${maxRows}`);
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
      throw new SqlExecutorError(
        "sql-executor: the View 5 connection must be opened with {readonly: true, fileMustExist: true}",
      );
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
  sql: string;
}

/** Whether a child (and its IPC channel) keeps this process's event loop alive. */
function setRef(child: ChildProcess, on: boolean): void {
  const channel = child.channel as { ref?: () => void; unref?: () => void } | undefined;
  if (on) {
    child.ref();
    channel?.ref?.();
  } else {
    child.unref();
    channel?.unref?.();
  }
}

/** Child processes still alive, killed when this process exits (a stuck native step ignores IPC). */
const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;
function trackChild(child: ChildProcess): void {
  liveChildren.add(child);
  child.once("exit", () => liveChildren.delete(child));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const c of liveChildren) c.kill("SIGKILL");
    });
  }
}

/**
 * One persistent child process with its own read-only connection; a hard time limit (see file
 * comment): on timeout the process is killed with SIGKILL — which stops even a native SQLite step —
 * and a fresh one starts for the next query.
 */
export class ProcessSqlExecutor implements SqlExecutor {
  private readonly options: Required<SqlExecutorOptions>;
  private child: ChildProcess | null = null;
  /** Resolves when the current child has opened its connection (time limits start after that). */
  private ready: Promise<void> = Promise.resolve();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly path: string,
    options: SqlExecutorOptions = {},
  ) {
    if (!existsSync(path))
      throw new SqlExecutorError(`sql-executor: ${path} does not exist; build the index first (atr build-index)`);
    this.options = resolveOptions(options);
  }

  private spawn(): ChildProcess {
    const child = fork(CHILD_MODULE, [], {
      stdio: ["ignore", "ignore", "inherit", "ipc"],
      // Bare node: no loader flags of this process (tsx, vitest), no NODE_OPTIONS.
      execArgv: [],
      env: {
        ...Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== "NODE_OPTIONS")),
        ATR_SQL_CHILD: JSON.stringify({
          path: this.path,
          maxRows: this.options.maxRows,
          timeoutMs: this.options.timeoutMs,
        }),
      },
    });
    trackChild(child);
    // An idle child must not keep the parent alive; `hold` refs it while a reply is awaited.
    setRef(child, false);
    this.ready = new Promise((resolve) => {
      const startup = setTimeout(resolve, CHILD_STARTUP_MS);
      startup.unref();
      child.once("message", () => {
        clearTimeout(startup);
        resolve();
      });
      child.once("exit", () => resolve());
    });
    child.on("message", (message: { id?: number; out?: RawOutcome }) => {
      if (message.id === undefined || !message.out) return;
      const entry = this.pending.get(message.id);
      if (!entry) return;
      this.pending.delete(message.id);
      clearTimeout(entry.timer);
      entry.resolve(toExecution(message.out, entry.started));
    });
    const fail = (reason: string) => {
      if (this.child === child) this.child = null;
      this.failAll(reason);
    };
    child.on("error", (error) => fail(`SQL process error: ${error.message}`));
    child.on("exit", (code, signal) => {
      if (this.child === child) fail(`SQL process exited (${signal ?? code})`);
    });
    return child;
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
    const child = (this.child ??= this.spawn());
    setRef(child, true);
    try {
      await this.ready;
      if (this.child !== child || !child.connected)
        return toExecution({ ok: false, error: "SQL process failed to start" }, performance.now());
      return await this.send(child, sql);
    } finally {
      if (this.pending.size === 0) setRef(child, false);
    }
  }

  private send(child: ChildProcess, sql: string): Promise<SqlExecution> {
    const id = this.nextId++;
    const started = performance.now();
    return new Promise<SqlExecution>((resolve) => {
      const timer = setTimeout(() => {
        // Hard limit: kill this process (and whatever is queued behind it); start afresh next time.
        if (this.child === child) this.child = null;
        child.kill("SIGKILL");
        this.pending.delete(id);
        resolve(toExecution({ ok: false, error: timeLimitError(this.options.timeoutMs) }, started));
        // Queries of other questions queued behind this one get a fresh process and a fresh limit.
        for (const [otherId, other] of [...this.pending]) {
          clearTimeout(other.timer);
          this.pending.delete(otherId);
          void this.execute(other.sql).then(other.resolve);
        }
      }, this.options.timeoutMs);
      this.pending.set(id, { resolve, timer, started, sql });
      child.send({ id, sql });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const child = this.child;
    this.child = null;
    this.failAll("executor is closed");
    if (child) child.kill("SIGKILL");
  }
}

/** Opens the default executor for a tables.sqlite file (`mode` "process" unless told otherwise). */
export function openSqlExecutor(
  path: string,
  options: SqlExecutorOptions & { mode?: "process" | "inline" } = {},
): SqlExecutor {
  if (options.mode === "inline") {
    return new InlineSqlExecutor(new Database(path, { readonly: true, fileMustExist: true }), options);
  }
  return new ProcessSqlExecutor(path, options);
}
