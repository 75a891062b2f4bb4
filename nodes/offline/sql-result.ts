/**
 * Reading the executor's result string (rows serialised as JSON) for fusion and verification:
 * the scalar extraction of reference §8.1 and the rows as arrays of cell values.
 */

type Cell = string | number | boolean | null;

/** Rows of a JSON result (`[[…]]`, `[{…}]`, `{…}`, `[v, …]`) as arrays of cells, or undefined. */
export function parseSqlRows(result: string): Cell[][] | undefined {
  const t = result.trim();
  if (!/^[[{]/.test(t)) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(t);
  } catch {
    return undefined;
  }
  const toCell = (v: unknown): Cell => (v === null || ["string", "number", "boolean"].includes(typeof v) ? (v as Cell) : JSON.stringify(v));
  if (Array.isArray(data)) {
    return data.map((row) => {
      if (Array.isArray(row)) return row.map(toCell);
      if (row && typeof row === "object") return Object.values(row as Record<string, unknown>).map(toCell);
      return [toCell(row)];
    });
  }
  if (data && typeof data === "object") return [Object.values(data as Record<string, unknown>).map(toCell)];
  return undefined;
}

/** Column names of a `[{…}]` result, in order (empty for other shapes). */
export function sqlColumns(result: string): string[] {
  try {
    const data = JSON.parse(result.trim()) as unknown;
    const first = Array.isArray(data) ? data[0] : data;
    return first && typeof first === "object" && !Array.isArray(first) ? Object.keys(first as object) : [];
  } catch {
    return [];
  }
}

/**
 * §8.1: `[[v]]` → v; `[v]` → v; `[{col: v}]` / `{col: v}` with one key → v; JSON null → nothing;
 * non-JSON text on one line shorter than 200 chars → the text. Otherwise undefined.
 */
export function extractScalar(result: string): string | number | undefined {
  const t = result.trim();
  if (t === "" || t === "(none)") return undefined;
  let data: unknown;
  try {
    data = JSON.parse(t);
  } catch {
    return !t.includes("\n") && t.length < 200 ? t : undefined;
  }
  const scalar = (v: unknown): string | number | undefined =>
    typeof v === "string" || typeof v === "number" ? v : typeof v === "boolean" ? String(v) : undefined;
  if (Array.isArray(data)) {
    if (data.length !== 1) return undefined;
    const only = data[0];
    if (Array.isArray(only)) return only.length === 1 ? scalar(only[0]) : undefined;
    if (only && typeof only === "object") {
      const values = Object.values(only as Record<string, unknown>);
      return values.length === 1 ? scalar(values[0]) : undefined;
    }
    return scalar(only);
  }
  if (data && typeof data === "object") {
    const values = Object.values(data as Record<string, unknown>);
    return values.length === 1 ? scalar(values[0]) : undefined;
  }
  return scalar(data);
}
