/**
 * The SQL fragments the offline writer (nodes/offline/sql-writer.ts) emits that differ between the
 * View 5 stores. SQLite's are today's text exactly; PostgreSQL's compute the same values:
 * - `real`/`int`: SQLite's lenient CAST of text (longest numeric prefix after leading spaces, 0
 *   when none, NULL stays NULL) is `atr_real`/`atr_int`, SQL functions that indexing/pg-store.ts
 *   creates in every index schema (`postgresHelperFunctions`) (a plain PostgreSQL CAST fails on "12 pts");
 * - `instr` is `strpos`; `x GLOB 'p'` is an anchored POSIX regex `x ~ '^…$'` (case-sensitive, as GLOB);
 * - `SUM(predicate)` (SQLite sums booleans as 0/1) is `SUM(CAST(predicate AS INTEGER))`, and
 *   `NOT COALESCE(predicate, 0)` is `NOT COALESCE(predicate, FALSE)`.
 * - the month tests' `LIKE '%may%'` (case-insensitive for ASCII on SQLite) is `ILIKE` on PostgreSQL.
 * - `weekday` (SQLite's `strftime('%w', …)`) is `atr_weekday`, an index schema function too.
 * - `number2` (a per-group average as "46166.67", "47000"): SQLite's ROUND of a REAL; PostgreSQL rounds a
 *   NUMERIC and prints it through DOUBLE PRECISION, which drops the trailing zeros SQLite never writes.
 * A fuzzy binding keeps `LIKE` on both (the guard requires it; its value is copied from the cells,
 * so its case matches).
 */
import type { SqlDialect } from "../../retrievers/sql-dialect.js";

export interface SqlFragments {
  /** Text → REAL as SQLite's CAST reads it. */
  real(expr: string): string;
  /** Text → INTEGER as SQLite's CAST reads it. */
  int(expr: string): string;
  /** 1-based position of `needle` (an SQL expression) in `expr`, 0 when absent. */
  instr(expr: string, needle: string): string;
  /** `expr` matches the GLOB pattern (given unquoted). */
  glob(expr: string, pattern: string): string;
  /** How many rows satisfy a predicate (SQLite sums booleans as 0/1; PostgreSQL has no SUM(boolean)). */
  countTrue(predicate: string): string;
  /** The predicate is false or NULL (PostgreSQL will not COALESCE a boolean with 0). */
  notTrue(predicate: string): string;
  /** ASCII-case-insensitive LIKE with a pattern given unquoted (SQLite's LIKE; ILIKE on PostgreSQL). Not for bindings: the guard wants `LIKE` there. */
  likeText(expr: string, pattern: string): string;
  /** A number as text to 2 decimals, whole numbers without them ("46166.67", "47000"), for labels ("Sales: 47000"). */
  number2(expr: string): string;
  /** A number rounded to `digits` decimals, still a number (an average shown as "63214.29", not to 12 digits). */
  round(expr: string, digits: number): string;
  /** The day of the week of an ISO date (0 Sunday … 6 Saturday), an integer; NULL for NULL. */
  weekday(expr: string): string;
}

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;

export const SQLITE_FRAGMENTS: SqlFragments = {
  real: (e) => `CAST(${e} AS REAL)`,
  int: (e) => `CAST(${e} AS INTEGER)`,
  instr: (e, n) => `instr(${e}, ${n})`,
  glob: (e, p) => `${e} GLOB ${quote(p)}`,
  countTrue: (p) => `SUM(${p})`,
  notTrue: (p) => `NOT COALESCE(${p}, 0)`,
  likeText: (e, p) => `${e} LIKE ${quote(p)}`,
  number2: (e) =>
    `CASE WHEN ROUND(${e}, 2) = CAST(ROUND(${e}, 2) AS INTEGER) THEN CAST(CAST(ROUND(${e}, 2) AS INTEGER) AS TEXT) ELSE CAST(ROUND(${e}, 2) AS TEXT) END`,
  round: (e, digits) => `ROUND(${e}, ${digits})`,
  weekday: (e) => `CAST(strftime('%w', ${e}) AS INTEGER)`,
};

/** A GLOB pattern as an anchored POSIX regex; literal specials go in brackets (the guard refuses backslashes). */
export function globToRegex(pattern: string): string {
  let out = "^";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === "*") out += ".*";
    else if (ch === "?") out += ".";
    else if (ch === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end < 0) throw new Error(`globToRegex: unclosed [ in ${JSON.stringify(pattern)}`);
      out += pattern.slice(i, end + 1);
      i = end;
    } else if (/[$.()+|{}]/.test(ch)) out += `[${ch}]`;
    else if (ch === "^" || ch === "\\")
      throw new Error(`globToRegex: ${ch} outside [] is not supported (${JSON.stringify(pattern)})`);
    else out += ch;
  }
  return `${out}$`;
}

export const POSTGRES_FRAGMENTS: SqlFragments = {
  real: (e) => `atr_real(${e})`,
  int: (e) => `atr_int(${e})`,
  instr: (e, n) => `strpos(${e}, ${n})`,
  glob: (e, p) => `${e} ~ ${quote(globToRegex(p))}`,
  countTrue: (p) => `SUM(CAST(${p} AS INTEGER))`,
  notTrue: (p) => `NOT COALESCE(${p}, FALSE)`,
  likeText: (e, p) => `${e} ILIKE ${quote(p)}`,
  number2: (e) =>
    // (Through DOUBLE PRECISION, whose text has no trailing zeros: "12.5", as SQLite writes it, not "12.50".)
    `CASE WHEN ROUND(CAST(${e} AS NUMERIC), 2) = CAST(ROUND(CAST(${e} AS NUMERIC), 2) AS BIGINT) THEN CAST(CAST(ROUND(CAST(${e} AS NUMERIC), 2) AS BIGINT) AS TEXT) ELSE CAST(CAST(ROUND(CAST(${e} AS NUMERIC), 2) AS DOUBLE PRECISION) AS TEXT) END`,
  round: (e, digits) => `CAST(ROUND(CAST(${e} AS NUMERIC), ${digits}) AS DOUBLE PRECISION)`,
  weekday: (e) => `atr_weekday(${e})`,
};

export function sqlFragments(dialect: SqlDialect | undefined): SqlFragments {
  return dialect === "postgres" ? POSTGRES_FRAGMENTS : SQLITE_FRAGMENTS;
}

let inUse: SqlFragments = SQLITE_FRAGMENTS;

/** The fragments of the plan being built (withSqlFragments sets them; SQLite's otherwise). */
export function sqlFragmentsInUse(): SqlFragments {
  return inUse;
}

/**
 * Runs a synchronous plan build with the store's fragments in use (the plan generators and their
 * SQL parts read them, so the dialect need not thread through every helper); restored afterwards.
 */
export function withSqlFragments<T>(dialect: SqlDialect | undefined, build: () => T): T {
  const previous = inUse;
  inUse = sqlFragments(dialect);
  try {
    return build();
  } finally {
    inUse = previous;
  }
}
