/**
 * Reading the executor's result string (rows serialised as JSON) for fusion and verification:
 * the rows as arrays of cell values and the column names (the §8.1 scalar is nodes/sql-evidence.ts).
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
  const toCell = (v: unknown): Cell =>
    v === null || ["string", "number", "boolean"].includes(typeof v) ? (v as Cell) : JSON.stringify(v);
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
