/**
 * View 4 row search within one table. A small table's rows are embedded entries: dense recall over
 * the table's contiguous range, reranked with BM25 statistics of that table, then the structural
 * candidates (first/last/after/before/extremes, retrievers/row-structure.ts) placed right after the
 * best hits. A large table's rows (indexing/table-size.ts) are not embedded: the rows sharing words
 * with the query come from the build-time row index (`_rows_fts_<n>`, indexing/table-stats.ts), best
 * BM25 first, and are embedded and reranked like recalled rows (the BM25 population is then the
 * recalled rows).
 */
import type Database from "better-sqlite3";
import { rowText, searchText } from "../indexing/cell-selection.js";
import { contentWords } from "../text/tokenise.js";
import { quoteIdent as quote } from "../indexing/sql-store.js";
import { ftsAnyOf, rowsFtsTable } from "../indexing/table-stats.js";
import { ROW_ID_COLUMN, type Hit, type RowEntry, type TableSchema } from "../indexing/types.js";
import { dot } from "../indexing/vector-index.js";
import type { LoadedViews } from "../indexing/views.js";
import { Bm25Stats } from "./bm25.js";
import { recallRerank, type DenseView, type SearchContext } from "./dense-recall.js";
import { recallSize } from "./recall.js";
import { rerank } from "./rerank.js";
import { structuralRows } from "./row-structure.js";

/** Structural row candidates are placed after this many similarity hits. */
const STRUCTURE_AFTER = 3;

export class RowSearch {
  private readonly statsCache = new Map<string, Bm25Stats>();
  /** A large table's last row searches (the attempts of a sub-query ask the same one): table, k, query → hits. */
  private readonly largeRecent = new Map<string, ReadonlyArray<Hit<RowEntry>>>();
  constructor(
    private readonly ctx: SearchContext,
    private readonly view: DenseView<RowEntry>,
    private readonly views: LoadedViews,
    private readonly db: Database.Database | undefined,
    private readonly tables: Map<string, TableSchema> | undefined,
    private readonly structure: boolean,
  ) {}

  async rows(query: string, k: number, tableId: string): Promise<Array<Hit<RowEntry>>> {
    const range = this.views.rowRange(tableId);
    if (!range) {
      const key = JSON.stringify([tableId, k, query]);
      let hits = this.largeRecent.get(key);
      if (!hits) {
        hits = await this.largeTableRows(query, k, tableId);
        if (this.largeRecent.size >= 16) this.largeRecent.delete(this.largeRecent.keys().next().value!);
        this.largeRecent.set(key, hits);
      }
      return hits.map((h) => ({ ...h }));
    }
    const stats = () => {
      let s = this.statsCache.get(tableId);
      if (!s) {
        s = new Bm25Stats(this.views.rows.range(range.start, range.end).map(searchText));
        this.statsCache.set(tableId, s);
        if (this.statsCache.size > 64) this.statsCache.delete(this.statsCache.keys().next().value!);
      }
      return s;
    };
    const hits = await recallRerank(this.ctx, this.view, query, k, { range }, range.end - range.start, stats);
    if (!this.structure || hits.length === 0) return hits;
    // structural candidates (first/last/after/before/extremes) go right after the best hits
    const tableRows = this.views.rows.range(range.start, range.end);
    const top = hits.slice(0, STRUCTURE_AFTER).map((h) => h.entry.rowIdx);
    const extra = structuralRows(
      query,
      tableRows,
      hits.slice(0, 1).map((h) => h.entry.rowIdx),
    )
      .map((i) => tableRows[i]!)
      .filter((r) => !top.includes(r.rowIdx));
    if (extra.length === 0) return hits;
    const head = hits.slice(0, STRUCTURE_AFTER);
    const floor = head[head.length - 1]!.score;
    const inserted = extra.map((entry) => ({ entry, score: floor }));
    const added = new Set(extra.map((r) => r.rowIdx));
    const tail = hits.slice(STRUCTURE_AFTER).filter((h) => !added.has(h.entry.rowIdx));
    return [...head, ...inserted, ...tail].slice(0, k);
  }

  /** Lexical recall through `_rows_fts_<n>` (large tables only; [] for a table without row entries or index). */
  private async largeTableRows(query: string, k: number, tableId: string): Promise<Array<Hit<RowEntry>>> {
    const schema = this.tables?.get(tableId);
    if (!schema || !this.db || !ftsAnyOf(contentWords(query))) return [];
    const position = this.db.prepare("SELECT position FROM _tables WHERE table_id = ?").pluck().get(tableId) as
      number | undefined;
    const indexed = this.db.prepare("SELECT 1 FROM _table_stats WHERE table_id = ?").pluck().get(tableId);
    if (position === undefined || !indexed) return [];
    const n = recallSize(k, schema.rowCount, this.ctx.multiplier);
    if (n === 0) return [];
    const ids = rowRecall(this.db, rowsFtsTable(position), contentWords(query), n);
    if (ids.length === 0) return [];
    const cols = schema.columns.map((c) => quote(c.rawPhysical));
    const read = this.db
      .prepare(
        `SELECT ${[quote(ROW_ID_COLUMN), ...cols].join(", ")} FROM ${quote(schema.physical)} WHERE ${quote(ROW_ID_COLUMN)} = ?`,
      )
      .raw();
    const header = schema.columns.map((c) => c.name);
    const entries: RowEntry[] = ids.map((id) => {
      const r = read.get(id) as unknown[];
      const cells = r.slice(1).map((v) => (v == null ? "" : String(v)));
      const values: Record<string, string> = {};
      header.forEach((h, i) => (values[h] = cells[i]!));
      return { tableId, rowIdx: Number(r[0]), text: rowText(tableId, header, cells, this.views.rowMaxChars), values };
    });
    const q = await this.ctx.embedQuery(query);
    const vectors = await this.ctx.embedder.embedMatrix(entries.map((e) => e.text));
    const dim = this.ctx.embedder.dimension;
    const candidates = entries.map((entry, i) => ({ entry, text: entry.text, dense: dot(vectors, i, dim, q) }));
    let stats: Bm25Stats | undefined;
    return rerank(this.ctx.reranker, query, candidates, k, () => (stats ??= new Bm25Stats(entries.map((e) => e.text))));
  }
}

/**
 * A word held by more rows than this is *frequent*: its rows are ranked among the first this many
 * of them (table order) instead of all of them, so that a word every fifth row of a million holds
 * costs what a word of 2,000 rows costs (FTS5 scores every row it matches before it can sort).
 */
export const FREQUENT_WORD_ROWS = 2_000;

/**
 * Up to `n` rows (`_row`) of the FTS5 row index `ftsTable` sharing a word with `words`: first the
 * rows of the words held by at most `cap` rows, best BM25 first (when no word is frequent, exactly
 * FTS5's `MATCH … ORDER BY rank`), then, while fewer than `n`, those of the frequent words, best
 * BM25 first among the first `cap` rows that hold one. Every step reads at most `cap` rows per word,
 * whatever the size of the table.
 */
export function rowRecall(
  db: Database.Database,
  ftsTable: string,
  words: readonly string[],
  n: number,
  cap = FREQUENT_WORD_ROWS,
): number[] {
  const fts = quote(ftsTable);
  const unique = [...new Set(words)].filter((w) => ftsAnyOf([w]) !== undefined);
  if (unique.length === 0 || n <= 0) return [];
  const upTo = db.prepare(`SELECT count(*) FROM (SELECT 1 FROM ${fts} WHERE ${fts} MATCH ? LIMIT ?)`).pluck();
  const frequent = new Set(unique.filter((w) => (upTo.get(ftsAnyOf([w])!, cap + 1) as number) > cap));
  const rare = unique.filter((w) => !frequent.has(w));
  const ids =
    rare.length > 0
      ? (db
          .prepare(`SELECT rowid FROM ${fts} WHERE ${fts} MATCH ? ORDER BY rank LIMIT ?`)
          .pluck()
          .all(ftsAnyOf(rare)!, n) as number[])
      : [];
  if (ids.length >= n || frequent.size === 0) return ids;
  const seen = new Set(ids);
  const more = db
    .prepare(`SELECT rowid FROM (SELECT rowid, rank FROM ${fts} WHERE ${fts} MATCH ? LIMIT ?) ORDER BY rank LIMIT ?`)
    .pluck()
    .all(ftsAnyOf([...frequent])!, cap, n + ids.length) as number[];
  for (const id of more) {
    if (ids.length >= n) break;
    if (!seen.has(id)) ids.push(id);
  }
  return ids;
}
