// @ts-check
/**
 * Runs one statement over a read-only View 5 connection: the code both SQL executors run — the
 * inline one on the caller's thread, the process one inside retrievers/sql-child.js. Plain
 * JavaScript (type-checked through JSDoc) so the child starts with bare `node`, without a
 * TypeScript loader (~0.45 s more per start, paid again after every time-out).
 */

/**
 * @typedef {{ ok: boolean, rows?: Array<Record<string, unknown>>, truncated?: boolean, error?: string }} RawOutcome
 */

/** @param {number} timeoutMs */
export function timeLimitError(timeoutMs) {
  return `time limit of ${timeoutMs} ms exceeded`;
}

/** @param {unknown} error */
function message(error) {
  return String((error && /** @type {{ message?: unknown }} */ (error).message) || error);
}

/**
 * Result names made unique (a repeated name gets `_2`, `_3` …) so rows can be objects.
 * @param {Array<{ name: string }>} columns
 */
function uniqueKeys(columns) {
  /** @type {Map<string, number>} */
  const seen = new Map();
  return columns.map((c) => {
    const n = (seen.get(c.name) ?? 0) + 1;
    seen.set(c.name, n);
    return n === 1 ? c.name : `${c.name}_${n}`;
  });
}

/**
 * Prepares `sql`, refuses anything that writes or returns no rows, and reads at most `maxRows` rows,
 * checking the clock between rows (the process executor also kills its child at the limit, which
 * stops a long native step that produces no row).
 * @param {import("better-sqlite3").Database} db  opened `{readonly: true, fileMustExist: true}`
 * @param {string} sql
 * @param {number} maxRows
 * @param {number} timeoutMs
 * @returns {RawOutcome}
 */
export function runReadOnly(db, sql, maxRows, timeoutMs) {
  const start = Date.now();
  let stmt;
  try {
    stmt = db.prepare(sql);
  } catch (e) {
    return { ok: false, error: message(e) };
  }
  if (!stmt.readonly) return { ok: false, error: "statement is not read-only" };
  if (!stmt.reader) return { ok: false, error: "statement returns no rows" };
  const keys = uniqueKeys(stmt.columns());
  stmt.raw(true);
  /** @type {Array<Record<string, unknown>>} */
  const rows = [];
  let truncated = false;
  try {
    for (const values of /** @type {Iterable<unknown[]>} */ (stmt.iterate())) {
      if (rows.length >= maxRows) {
        truncated = true;
        break;
      }
      /** @type {Record<string, unknown>} */
      const row = {};
      for (let i = 0; i < keys.length; i++) {
        const v = values[i];
        row[keys[i]] = typeof v === "bigint" ? Number(v) : v && typeof v === "object" ? "<blob>" : v;
      }
      rows.push(row);
      if (Date.now() - start > timeoutMs) return { ok: false, error: timeLimitError(timeoutMs) };
    }
  } catch (e) {
    return { ok: false, error: message(e) };
  }
  if (Date.now() - start > timeoutMs) return { ok: false, error: timeLimitError(timeoutMs) };
  return { ok: true, rows, truncated };
}
