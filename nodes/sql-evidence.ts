/**
 * Reading the SQL result string for fusion (reference §8.1, §8.2).
 *
 * Our improvement over the reference (§15.12): the constrained executor's failure sentinel
 * "not found", a failure string ("SQL execution failed: …") and empty results are never turned into
 * an answer — `sqlScalar` returns undefined for them and `isEmptySqlResult` tells the fusion fast
 * path to fall through to the fusion prompt instead.
 */
import { SQL_FAILURE_PREFIX } from "../retrievers/sql-executor.js";

/** The constrained executor's failure answer. */
export const NOT_FOUND = "not found";

/** True when the string is the failure sentinel, a failure message, or carries no rows/value. */
export function isEmptySqlResult(result: string | null | undefined): boolean {
  const t = (result ?? "").trim();
  if (t === "" || t === "(none)" || t.toLowerCase() === NOT_FOUND || t.startsWith(SQL_FAILURE_PREFIX)) return true;
  if (!/^[[{]|^null$/.test(t)) return false;
  try {
    const data = JSON.parse(t) as unknown;
    if (data === null) return true;
    if (Array.isArray(data)) return data.length === 0 || data.every((row) => isEmptyRow(row));
    return Object.keys(data as object).length === 0;
  } catch {
    return false;
  }
}

function isEmptyRow(row: unknown): boolean {
  if (row === null) return true;
  if (Array.isArray(row)) return row.length === 0 || row.every((v) => v === null);
  if (typeof row === "object") return Object.values(row as object).every((v) => v === null);
  return false;
}

/** A scalar as answer text; floating-point noise (0.30000000000000004) is trimmed to 12 significant digits. */
function scalarText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return undefined;
    return Number.isInteger(value) ? String(value) : String(Number.parseFloat(value.toPrecision(12)));
  }
  if (typeof value === "boolean") return String(value);
  return undefined;
}

/** The single value of a one-row, one-column shape, or undefined. */
function single(data: unknown): string | undefined {
  if (Array.isArray(data)) {
    if (data.length !== 1) return undefined;
    const only = data[0];
    if (Array.isArray(only)) return only.length === 1 ? scalarText(only[0]) : undefined;
    if (only && typeof only === "object") return single(only);
    return scalarText(only);
  }
  if (data && typeof data === "object") {
    const values = Object.values(data as Record<string, unknown>);
    return values.length === 1 ? scalarText(values[0]) : undefined;
  }
  return scalarText(data);
}

/**
 * §8.1 scalar extraction: `[[v]]` / `[v]` / `[{col: v}]` / `{col: v}` → v (non-null scalar); JSON null
 * → nothing; non-JSON text on one line and shorter than 200 chars → the text. Never the failure
 * sentinel, a failure message, or a blank value.
 */
export function sqlScalar(result: string | null | undefined): string | undefined {
  if (isEmptySqlResult(result)) return undefined;
  const t = (result ?? "").trim();
  let data: unknown;
  try {
    data = JSON.parse(t);
  } catch {
    if (/^[[{]/.test(t)) return undefined; // truncated rows are not an answer
    return !t.includes("\n") && t.length < 200 ? t : undefined;
  }
  const value = single(data);
  if (value === undefined || value.trim() === "" || value.trim().toLowerCase() === NOT_FOUND) return undefined;
  return value;
}

/**
 * Conditional fusion mode (`useMarkdownFusion`): a scalar that is 0, 0.0, [], null or none is not
 * trusted on its own (the reference cross-checks it against the table markdown).
 */
export function isUninformativeScalar(value: string): boolean {
  return /^(0|0\.0+|\[\]|null|none)$/i.test(value.trim());
}
