/**
 * View 3 schema entries and View 4 cell and row entries (reference §4.5, §4.7, §4.8 with DESIGN.md's
 * fixes): the cell budget reaches every table and prefers entity-like values.
 */
import type { CellEntry, Passage, RowEntry, SchemaEntry, TableSchema, TableSource } from "./types.js";
import { sourceRows, type RawTable } from "./types.js";
import { MONTH_PATTERN } from "../text/lexicons.js";

/** A distinct non-empty (trimmed) value of one column: how many rows hold it, the first of them. */
export type DistinctCell = [value: string, freq: number, firstRow: number];

export interface LoadedTableLike<T extends TableSource = RawTable> {
  raw: T;
  schema: TableSchema;
  /**
   * A column's distinct cells in the order of their first row, when the table is read from the
   * store (a large table: SQLite groups them); otherwise they are counted from the rows.
   */
  distinctCells?: (column: number) => Iterable<DistinctCell>;
  /**
   * With `distinctCells`: what bounds the scores of a column's cells without reading them — the
   * largest number of rows one value holds (or more), and whether every cell is digits only.
   */
  columnBounds?: (column: number) => ColumnBounds;
}

/** What bounds the scores of one column's distinct cells (see `LoadedTableLike.columnBounds`). */
export interface ColumnBounds {
  /** At least the largest frequency of one of its distinct cells. */
  maxFreq: number;
  /** Every cell is digits only (its entity-likeness is then at most a year's). */
  digitsOnly: boolean;
}

export interface CellBudget {
  /** Total cells over the dataset (default 10,000). */
  budget: number;
  /** Cells per table at most (default 50). */
  perTableQuota: number;
}

export interface RowCaps {
  /** Total rows (0 = no cap). */
  budget: number;
  /** Rows per table (0 = no cap). */
  perTableQuota: number;
  /** Row text length (0 = no cap). */
  maxChars: number;
}

/** "Title (id)" when a title is known, else the id. */
export function tableLabel(table: { id?: string; tableId?: string; title?: string }): string {
  const id = table.tableId ?? table.id ?? "";
  return table.title ? `${table.title} (${id})` : id;
}

export function schemaEntries(tables: LoadedTableLike<TableSource>[]): SchemaEntry[] {
  const out: SchemaEntry[] = [];
  for (const { schema } of tables) {
    for (const col of schema.columns) {
      const examples = col.examples.join(", ");
      out.push({
        tableId: schema.tableId,
        column: col.name,
        type: col.type,
        examples,
        text: `table: ${tableLabel(schema)} | column: ${col.name} | type: ${col.type} | examples: ${examples}`,
      });
    }
  }
  return out;
}

const MONTHS = new RegExp(`\\b(${MONTH_PATTERN})[a-z]*\\.?\\b`, "i");

/**
 * How much a cell value looks like something a question names (0…1): names, titles, codes and dates
 * score high; long free text, empty markers and plain small numbers score low.
 */
export function entityLikeness(value: string): number {
  const v = value.trim();
  if (v === "" || /^(-|–|—|n\/?a|none|null|nan|\?|tbd|tba)$/i.test(v)) return 0;
  const words = v.split(/\s+/).length;
  if (v.length > 80 || words > 10) return 0.1; // free text
  if (/^[-+]?[\d.,]+%?$/.test(v)) {
    const digits = v.replace(/\D/g, "");
    if (/^(1[5-9]|20)\d\d$/.test(v)) return 0.7; // a year
    return digits.length >= 4 ? 0.35 : 0.15; // plain numbers: rarely named in questions
  }
  if (MONTHS.test(v) || /^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}$/.test(v)) return 0.8; // dates
  if (/^[A-Z0-9][A-Z0-9-]{1,9}$/.test(v) && /[A-Z]/.test(v)) return 0.85; // codes, abbreviations
  if (/\p{Lu}/u.test(v)) return words <= 6 ? 1 : 0.7; // capitalised: names, titles
  if (/\p{L}/u.test(v)) return words <= 4 ? 0.6 : 0.4; // lower-case words
  return 0.3;
}

interface Pair {
  column: string;
  value: string;
  freq: number;
  score: number;
  firstRow: number;
}

/** Distinct (column, value) pairs of one table with their entity-likeness, best first. */
export function rankedPairs(raw: RawTable): Pair[] {
  return bestPairs(raw, Infinity).best;
}

/**
 * The `keep` best of a table's distinct pairs (the order of `rankedPairs`) and how many there are.
 * A large table has millions of pairs and keeps a few hundred: they are selected as they come, not
 * all held and sorted.
 */
export function bestPairs(
  raw: TableSource,
  keep: number,
  distinctCells?: LoadedTableLike["distinctCells"],
  columnBounds?: LoadedTableLike["columnBounds"],
): { count: number; best: Pair[] } {
  if (distinctCells && columnBounds && keep > 0 && keep !== Infinity)
    return boundedBestPairs(raw, keep, distinctCells, columnBounds);
  // best first; ties: earlier row, then column order of appearance (the stable sort's order)
  if (keep === Infinity) {
    const list = [...scoredPairs(raw, distinctCells)];
    return { count: list.length, best: list.sort((a, b) => b.score - a.score || a.firstRow - b.firstRow) };
  }
  const before = (a: Pair, ai: number, b: Pair, bi: number) =>
    a.score > b.score || (a.score === b.score && (a.firstRow < b.firstRow || (a.firstRow === b.firstRow && ai < bi)));
  const top: Array<{ p: Pair; i: number }> = [];
  let i = 0;
  for (const p of scoredPairs(raw, distinctCells)) {
    const at0 = i++;
    if (keep <= 0) continue;
    if (top.length === keep) {
      const last = top[keep - 1]!;
      if (!before(p, at0, last.p, last.i)) continue;
      top.pop();
    }
    let at = top.length;
    while (at > 0 && before(p, at0, top[at - 1]!.p, top[at - 1]!.i)) at--;
    top.splice(at, 0, { p, i: at0 });
  }
  return { count: i, best: top.map((t) => t.p) };
}

/** The most a cell of a column can score (`pairScore`): entity-likeness at most 1 (0.7 for digits), frequency at most maxFreq. */
function scoreBound({ maxFreq, digitsOnly }: ColumnBounds): number {
  return pairScore(digitsOnly ? "1999" : "Name", maxFreq);
}

/**
 * `bestPairs` of a large table read from the store: the columns whose cells could score best are
 * read first, and a column none of whose cells can beat the `keep`-th best so far is not read at
 * all (a million-row table's unique ids, names and numbers). The choice is `bestPairs`' — best
 * score first, then earlier row, then earlier column — and `count` is then at least `keep` (all
 * `allocateQuotas` needs: it never gives a table more than `keep`).
 */
function boundedBestPairs(
  raw: TableSource,
  keep: number,
  distinctCells: NonNullable<LoadedTableLike["distinctCells"]>,
  columnBounds: NonNullable<LoadedTableLike["columnBounds"]>,
): { count: number; best: Pair[] } {
  const bounds = raw.header.map((_, c) => scoreBound(columnBounds(c)));
  const order = raw.header.map((_, c) => c).sort((a, b) => bounds[b]! - bounds[a]! || a - b);
  const before = (a: Pair & { c: number }, b: Pair & { c: number }) =>
    a.score > b.score || (a.score === b.score && (a.firstRow < b.firstRow || (a.firstRow === b.firstRow && a.c < b.c)));
  const top: Array<Pair & { c: number }> = [];
  let count = 0;
  for (const c of order) {
    if (top.length === keep && bounds[c]! < top[keep - 1]!.score) continue;
    const column = raw.header[c]!;
    for (const [value, freq, firstRow] of distinctCells(c)) {
      count++;
      const p = { column, value, freq, score: pairScore(value, freq), firstRow, c };
      if (top.length === keep) {
        if (!before(p, top[keep - 1]!)) continue;
        top.pop();
      }
      let at = top.length;
      while (at > 0 && before(p, top[at - 1]!)) at--;
      top.splice(at, 0, p);
    }
  }
  return { count, best: top.map(({ c: _c, ...p }) => p) };
}

/** How much a distinct (column, value) pair is worth a place in the cell budget. */
function pairScore(value: string, freq: number): number {
  return entityLikeness(value) + 0.05 * Math.log1p(freq);
}

/** The distinct pairs, column by column, each column's in the order of their first row. */
function* scoredPairs(raw: TableSource, distinctCells: LoadedTableLike["distinctCells"]): Generator<Pair> {
  const score = pairScore;
  if (distinctCells) {
    for (const [c, column] of raw.header.entries())
      for (const [value, freq, firstRow] of distinctCells(c))
        yield { column, value, freq, score: score(value, freq), firstRow };
    return;
  }
  const pairs = new Map<string, Pair>();
  raw.header.forEach((column, c) => {
    let r = 0;
    for (const row of sourceRows(raw)) {
      const value = (row[c] ?? "").trim();
      if (value !== "") {
        const key = `${c}\u0000${value}`;
        const p = pairs.get(key);
        if (p) p.freq++;
        else pairs.set(key, { column, value, freq: 1, score: 0, firstRow: r });
      }
      r++;
    }
  });
  for (const p of pairs.values()) {
    p.score = score(p.value, p.freq);
    yield p;
  }
}

/**
 * Per-table quotas that reach every table: water-filling of the budget, no table above the
 * per-table quota; a table with fewer pairs than its share frees the rest for the others.
 * When there are more tables than budget, the first `budget` tables get one cell each.
 */
export function allocateQuotas(available: number[], { budget, perTableQuota }: CellBudget): number[] {
  const quotas = available.map(() => 0);
  let remaining = budget;
  let open = available.map((_, i) => i).filter((i) => available[i]! > 0);
  while (remaining > 0 && open.length > 0) {
    const share = Math.max(1, Math.floor(remaining / open.length));
    const next: number[] = [];
    for (const i of open) {
      if (remaining <= 0) break;
      const cap = Math.min(perTableQuota, available[i]!);
      const give = Math.min(share, cap - quotas[i]!, remaining);
      quotas[i]! += give;
      remaining -= give;
      if (quotas[i]! < cap) next.push(i);
    }
    if (next.length === open.length && share === 0) break;
    open = next;
  }
  return quotas;
}

export function cellText(table: { title?: string }, column: string, value: string): string {
  return table.title
    ? `column: ${column} | value: ${value} | table: ${table.title}`
    : `column: ${column} | value: ${value}`;
}

export function cellEntries(tables: LoadedTableLike<TableSource>[], limits: CellBudget): CellEntry[] {
  // no table gets more than the per-table quota (allocateQuotas)
  const ranked = tables.map((t) =>
    bestPairs(t.raw, Math.max(0, limits.perTableQuota), t.distinctCells, t.columnBounds),
  );
  const quotas = allocateQuotas(
    ranked.map((r) => r.count),
    limits,
  );
  const out: CellEntry[] = [];
  tables.forEach(({ raw, schema }, t) => {
    // keep the chosen pairs in table order (column, then first row) for readable files
    const chosen = ranked[t]!.best.slice(0, quotas[t]!);
    for (const p of chosen) {
      out.push({
        tableId: schema.tableId,
        column: p.column,
        value: p.value,
        freq: p.freq,
        text: cellText(raw, p.column, p.value),
      });
    }
  });
  return out;
}

export function rowText(tableId: string, header: string[], row: string[], maxChars: number): string {
  const parts = [`Table ${tableId}`];
  header.forEach((h, i) => {
    const v = (row[i] ?? "").replace(/\s+/g, " ").trim();
    if (v !== "") parts.push(`${h}: ${v}`);
  });
  const text = parts.join(" | ");
  if (maxChars > 0 && text.length > maxChars)
    return maxChars <= 1 ? "…".slice(0, maxChars) : `${text.slice(0, maxChars - 1)}…`;
  return text;
}

export function validateRowCaps(caps: RowCaps): void {
  for (const [name, v] of [
    ["row_budget", caps.budget],
    ["row_per_table_quota", caps.perTableQuota],
    ["max_row_chars", caps.maxChars],
  ] as const) {
    if (!Number.isInteger(v) || v < 0)
      throw new RangeError(`--${name} must be 0 (no cap) or a positive integer, got ${v}`);
  }
}

/** A row entry as stored in rows.jsonl: `linked` = passages its cells link to (HybridQA), for search only. */
export interface IndexedRow extends RowEntry {
  /** Opening text of the passages linked from this row's cells (embedded and matched, not shown). */
  linked?: string;
}

/** Text embedded and matched for an entry: its text, plus linked-passage openings for rows that have them. */
export function searchText(entry: { text: string; linked?: string }): string {
  return entry.linked ? `${entry.text} | ${entry.linked}` : entry.text;
}

/** Characters of each linked passage added to a row's searchable text. */
export const LINKED_PASSAGE_CHARS = 500;

/** Row → opening text of the passages linked from its cells (row −1 = header is ignored). */
export function linkedPassageText(passages: readonly Passage[]): Map<string, Map<number, string>> {
  const out = new Map<string, Map<number, string>>();
  for (const p of passages) {
    if (!p.tableId || !p.cells) continue;
    const opening = p.text.replace(/\s+/g, " ").slice(0, LINKED_PASSAGE_CHARS);
    let byRow = out.get(p.tableId);
    if (!byRow) out.set(p.tableId, (byRow = new Map()));
    for (const r of new Set(p.cells.map(([row]) => row))) {
      if (r < 0) continue;
      byRow.set(r, byRow.has(r) ? `${byRow.get(r)} ${opening}` : opening);
    }
  }
  return out;
}

/** Every row of every table (within the caps), in table order; `rowIdx` is the 0-based row index. */
export function rowEntries(tables: LoadedTableLike[], caps: RowCaps, passages: readonly Passage[] = []): IndexedRow[] {
  const linked = linkedPassageText(passages);
  validateRowCaps(caps);
  const out: IndexedRow[] = [];
  for (const { raw, schema } of tables) {
    const links = linked.get(schema.tableId);
    let n = raw.rows.length;
    if (caps.perTableQuota > 0) n = Math.min(n, caps.perTableQuota);
    if (caps.budget > 0) n = Math.min(n, caps.budget - out.length);
    for (let r = 0; r < n; r++) {
      const row = raw.rows[r]!;
      const values: Record<string, string> = {};
      raw.header.forEach((h, i) => (values[h] = row[i] ?? ""));
      const entry: IndexedRow = {
        tableId: schema.tableId,
        rowIdx: r,
        text: rowText(schema.tableId, raw.header, row, caps.maxChars),
        values,
      };
      const link = links?.get(r);
      if (link) entry.linked = link;
      out.push(entry);
    }
  }
  return out;
}
