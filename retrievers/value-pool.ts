/**
 * The value pool of scoped cell search: every distinct (column, value) of a table, so the cell
 * budget bounds the global cell index but never hides a value of a table the question is scoped to.
 * - A small table's pool is read whole (from its View 4 row entries, or View 5 when rows were
 *   capped), embedded on first use and cached per table.
 * - A large table's pool (indexing/table-size.ts) is never read whole: the values sharing a word
 *   with the query come from the build-time value index (`_values_fts`, and `_values` itself for the
 *   values that are one number; indexing/table-stats.ts),
 *   together with the table's budgeted cells; they are embedded when asked for, and cached.
 */
import type Database from "better-sqlite3";
import { cellText } from "../indexing/cell-selection.js";
import type { IndexEmbedder } from "../indexing/embeddings/types.js";
import { quoteIdent as quote } from "../indexing/sql-store.js";
import { ftsAnyOf, numberWords } from "../indexing/table-stats.js";
import { contentWords } from "../text/tokenise.js";
import { normaliseText } from "../text/normalise.js";
import { isLargeTable } from "../indexing/table-size.js";
import type { CellEntry, TableSchema } from "../indexing/types.js";
import type { LoadedViews } from "../indexing/views.js";
import { Bm25Stats } from "./bm25.js";

/** Values of a large table that share a word with the query, at most this many (best BM25 first). */
export const LARGE_POOL_CANDIDATES = 300;

/** A set of pooled cells with their embeddings (`vectors` row-major, one per cell). */
export interface PooledCells {
  cells: CellEntry[];
  vectors: Float32Array;
  stats: Bm25Stats;
}

/** The query's words as the value index spells them (normaliseText), stop words left out. */
export function valueWords(query: string): string[] {
  const content = new Set(contentWords(query));
  return normaliseText(query)
    .split(" ")
    .filter((w) => content.has(w));
}

export class ValuePool {
  private readonly poolCache = new Map<string, PooledCells>();
  private readonly valueCache = new Map<string, CellEntry[]>();
  /** Where each pooled cell's vector is, so ranking against an entity needs no re-embedding. */
  readonly cellVectors = new WeakMap<CellEntry, { vectors: Float32Array; idx: number }>();
  private readonly largeCells = new Map<string, CellEntry>();

  constructor(
    private readonly views: LoadedViews,
    private readonly embedder: IndexEmbedder,
    private readonly db: Database.Database | undefined,
    private readonly tables: Map<string, TableSchema> | undefined,
    private readonly fullValuePool: boolean,
  ) {}

  /** True when the table is reached through the build-time value index rather than read whole. */
  isLarge(tableId: string): boolean {
    const schema = this.tables?.get(tableId);
    return this.fullValuePool && !!schema && !!this.db && isLargeTable(schema.rowCount);
  }

  /** Every distinct (column, value) of a small table as cell entries (no embedding), cached. */
  tableCells(tableId: string): CellEntry[] | undefined {
    const cached = this.valueCache.get(tableId);
    if (cached) return cached;
    const schema = this.tables?.get(tableId);
    const values = this.fullValuePool
      ? this.distinctValues(tableId, schema)
      : this.views.cellIds(tableId).map((id) => this.views.cells.get(id));
    if (!values) return undefined;
    const title = schema?.title;
    const cells: CellEntry[] = values.map(({ column, value, freq }) => ({
      tableId,
      column,
      value,
      freq,
      text: cellText({ title }, column, value),
    }));
    this.valueCache.set(tableId, cells);
    if (this.valueCache.size > 64) this.valueCache.delete(this.valueCache.keys().next().value!);
    return cells;
  }

  /** A small table's value pool with embeddings, embedded once and cached. */
  async tablePool(tableId: string): Promise<PooledCells | undefined> {
    const cached = this.poolCache.get(tableId);
    if (cached) return cached;
    const cells = this.tableCells(tableId);
    if (!cells) return undefined;
    const vectors = await this.embedder.embedMatrix(cells.map((c) => c.text));
    const pool = { cells, vectors, stats: new Bm25Stats(cells.map((c) => c.text)) };
    cells.forEach((c, idx) => this.cellVectors.set(c, { vectors, idx }));
    this.poolCache.set(tableId, pool);
    if (this.poolCache.size > 64) this.poolCache.delete(this.poolCache.keys().next().value!);
    return pool;
  }

  /**
   * The cells of a large table a query can be about: values sharing a word with it (build-time
   * index, best BM25 first) and the table's budgeted cells; embedded (and cached) on the way.
   */
  async largeCandidates(
    tableId: string,
    query: string,
  ): Promise<Array<{ cell: CellEntry; vectors: Float32Array; idx: number }>> {
    const schema = this.tables!.get(tableId)!;
    const found = new Map<string, CellEntry>();
    const add = (column: string, value: string, freq: number) => {
      const v = value.trim();
      if (v === "") return;
      const key = `${tableId}\u0000${column}\u0000${v}`;
      if (found.has(key)) return;
      let cell = this.largeCells.get(key);
      if (!cell) {
        cell = { tableId, column, value: v, freq, text: cellText({ title: schema.title }, column, v) };
        this.largeCells.set(key, cell);
        if (this.largeCells.size > 50_000) this.largeCells.delete(this.largeCells.keys().next().value!);
      }
      found.set(key, cell);
    };
    const words = valueWords(query);
    const addRows = (rows: Array<{ col: number; raw: string; freq: number }>) => {
      for (const r of rows) {
        const column = schema.columns[r.col]?.name;
        if (column !== undefined) add(column, r.raw, r.freq);
      }
    };
    // values that are one number the query names (not in the FTS index: found by their normalised text), then
    // the values sharing a word with it
    const numbers = numberWords(words);
    if (numbers.length > 0)
      addRows(
        this.db!.prepare(
          "SELECT col, raw, freq FROM _values WHERE table_id = ? AND norm IN (SELECT value FROM json_each(?)) ORDER BY rowid LIMIT ?",
        ).all(tableId, JSON.stringify(numbers), LARGE_POOL_CANDIDATES) as Array<{
          col: number;
          raw: string;
          freq: number;
        }>,
      );
    const match = ftsAnyOf(words);
    if (match && found.size < LARGE_POOL_CANDIDATES) {
      addRows(
        this.db!.prepare(
          // CROSS JOIN keeps the FTS lookup as the outer loop (never a walk over the table's values)
          "SELECT v.col AS col, v.raw AS raw, v.freq AS freq FROM _values_fts CROSS JOIN _values v ON v.rowid = _values_fts.rowid " +
            "WHERE _values_fts MATCH ? AND v.table_id = ? ORDER BY _values_fts.rank LIMIT ?",
        ).all(match, tableId, LARGE_POOL_CANDIDATES - found.size) as Array<{ col: number; raw: string; freq: number }>,
      );
    }
    for (const id of this.views.cellIds(tableId)) {
      const c = this.views.cells.get(id);
      add(c.column, c.value, c.freq);
    }
    const cells = [...found.values()];
    const missing = cells.filter((c) => !this.cellVectors.has(c));
    if (missing.length > 0) {
      const vecs = await this.embedder.embedMatrix(missing.map((c) => c.text));
      missing.forEach((c, idx) => this.cellVectors.set(c, { vectors: vecs, idx }));
    }
    return cells.map((cell) => ({ cell, ...this.cellVectors.get(cell)! }));
  }

  private distinctValues(
    tableId: string,
    schema: TableSchema | undefined,
  ): Array<{ column: string; value: string; freq: number }> | undefined {
    const range = this.views.rowRange(tableId);
    const complete = range && (!schema || range.end - range.start >= schema.rowCount);
    const counts = new Map<string, { column: string; value: string; freq: number }>();
    const add = (column: string, raw: unknown, n = 1) => {
      const value = String(raw ?? "").trim();
      if (value === "") return;
      const key = `${column}\u0000${value}`;
      const c = counts.get(key);
      if (c) c.freq += n;
      else counts.set(key, { column, value, freq: n });
    };
    const fromRows = (r: { start: number; end: number }) => {
      for (const row of this.views.rows.range(r.start, r.end))
        for (const [column, value] of Object.entries(row.values)) add(column, value);
    };
    if (complete && range) fromRows(range);
    else if (schema && this.db) {
      // View 5 holds every row; identifiers come from the schema (never from the query), values are read only
      for (const col of schema.columns) {
        const stmt = this.db.prepare(
          `SELECT ${quote(col.rawPhysical)} AS v, COUNT(*) AS n FROM ${quote(schema.physical)} GROUP BY ${quote(col.rawPhysical)}`,
        );
        for (const row of stmt.all() as Array<{ v: unknown; n: number }>) add(col.name, row.v, row.n);
      }
    } else if (!range) return undefined;
    else fromRows(range);
    return [...counts.values()];
  }
}
