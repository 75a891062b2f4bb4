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

/** A year standing alone in a cell: not a part of a longer number, a season ("2008/09", "1995–96") or a range. */
const LONE_YEAR = /(?<![\d/–—.,:-])(1[0-9]{3}|20[0-9]{2})(?![\d/–—.,:-]|s\b)/g;

/**
 * The answer of a year question read from a cell that holds one year among other text ("12 May
 * 1998", "1994 Winter Games", "2001 (final)"): the year. A bare year, a cell naming two years or
 * none, and seasons stay as they are. (Chosen on the fit tables of the table-disjoint wtq/train
 * split: 13 answers right that were wrong, none the other way; docs/OFFLINE-BACKBONE.md.)
 */
export function yearOfCell(text: string): string {
  const t = text.trim();
  if (/^(1[0-9]{3}|20[0-9]{2})$/.test(t)) return t;
  // (A whole date, "2012-10-30" or "30/10/2012": its year, which a range's dash or slash would otherwise hide.)
  const dated =
    /^(1[0-9]{3}|20[0-9]{2})-[01]\d-[0-3]\d(?:[ T][\d:]+)?$/.exec(t) ??
    /^\d{1,2}[/.]\d{1,2}[/.](1[0-9]{3}|20[0-9]{2})$/.exec(t);
  if (dated) return dated[1]!;
  const years = new Set([...t.matchAll(LONE_YEAR)].map((m) => m[1]!));
  return years.size === 1 ? [...years][0]! : t;
}
