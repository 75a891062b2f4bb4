/**
 * The `IndexSearch` of an opened index (Views 1–4): dense recall of top_k × multiplier candidates,
 * then the reranker (reference §4.2, §4.5, §4.7, §4.8, with DESIGN.md's fixes):
 * - schema search can be scoped to table ids (the hint or the retrieved tables), and lifts the
 *   columns whose values the query names;
 * - row search runs only over the rows of one table (retrievers/row-search.ts);
 * - cell search scoped to tables sees every distinct value of those tables (retrievers/value-pool.ts),
 *   and a value the query names — verbatim, or with one typing error — joins the dense candidates
 *   whatever its dense rank.
 * Entries and vectors are read lazily from the opened views; the lexical statistics of the whole
 * views were counted at build time.
 */
import type Database from "better-sqlite3";
import type { CellEntry, DocChunk, Hit, RowEntry, SchemaEntry, TableSchema } from "../indexing/types.js";
import type {
  CellSearchOptions,
  DocumentSearchOptions,
  IndexSearch,
  SchemaCellResult,
  SearchOptions,
} from "./types.js";
import type { LoadedViews } from "../indexing/views.js";
import { createEmbedder } from "../indexing/embeddings/index.js";
import type { IndexEmbedder } from "../indexing/embeddings/types.js";
import { dot } from "../indexing/vector-index.js";
import { contentWords } from "../text/tokenise.js";
import { normaliseForMatch } from "../text/normalise.js";
import { Bm25Stats } from "./bm25.js";
import { DenseView, recallRerank, SearchContext } from "./dense-recall.js";
import { recallSize, DEFAULT_RECALL_MULTIPLIER } from "./recall.js";
import {
  denseOnly,
  LexicalReranker,
  mentionKey,
  mentionScore,
  rerank,
  TYPO_MENTION,
  type MentionKey,
  type Reranker,
} from "./rerank.js";
import { RowSearch } from "./row-search.js";
import { ValuePool } from "./value-pool.js";

export interface ViewSearchOptions {
  /** Scoped schema search lifts columns whose values the query names (default true). */
  schemaValueLinking?: boolean;
  /** Add structural row candidates (first/last/after/before/extremes; default true). */
  rowStructure?: boolean;
  /** View 5 connection: the full value pool of a table whose rows were capped, large tables' indexes. */
  db?: Database.Database;
  tables?: Map<string, TableSchema>;
  /** Overrides the model folder recorded at build time. */
  embeddingModelPath?: string;
  vectorBackend?: "exact" | "faiss";
  /** Candidates = top_k × multiplier (default 6). */
  recallMultiplier?: number;
  /** "lexical" (default), "none", or a local cross-encoder folder. */
  reranker?: string | Reranker;
  /**
   * Scoped cell search also sees the table's values outside the budgeted cell index (default true;
   * false = the cell index only, the reference's behaviour).
   */
  fullValuePool?: boolean;
  /** A ready embedder (tests); otherwise created from views.json. */
  embedder?: IndexEmbedder;
}

/** The reranker named by `--reranker_path` / `--no_reranker`. */
async function rerankerFor(r: string | Reranker): Promise<Reranker> {
  if (typeof r !== "string") return r;
  if (r === "lexical") return new LexicalReranker();
  if (r === "none") return denseOnly;
  const { CrossEncoderReranker } = await import("./cross-encoder.js");
  return CrossEncoderReranker.load(r);
}

export class ViewSearch implements IndexSearch {
  private readonly docs: DenseView<DocChunk>;
  private readonly schemaView: DenseView<SchemaEntry>;
  private readonly cellView: DenseView<CellEntry>;
  private readonly rowSearch: RowSearch;
  private readonly pool: ValuePool;
  private readonly keyCache = new WeakMap<CellEntry, MentionKey>();
  private readonly viewStatsCache = new Map<string, Bm25Stats>();
  private readonly schemaSearches = new Map<string, Promise<Array<Hit<SchemaEntry>>>>();
  private readonly ctx: SearchContext;

  private constructor(
    private readonly views: LoadedViews,
    readonly embedder: IndexEmbedder,
    readonly reranker: Reranker,
    private readonly options: ViewSearchOptions,
  ) {
    const backend = options.vectorBackend;
    this.ctx = new SearchContext(embedder, reranker, options.recallMultiplier ?? DEFAULT_RECALL_MULTIPLIER, backend);
    this.docs = new DenseView(views.docs, views.vectors.docs, backend);
    this.schemaView = new DenseView(views.schema, views.vectors.schema, backend);
    this.cellView = new DenseView(views.cells, views.vectors.cells, backend);
    const rowView = new DenseView(views.rows, views.vectors.rows, backend);
    this.rowSearch = new RowSearch(
      this.ctx,
      rowView,
      views,
      options.db,
      options.tables,
      options.rowStructure !== false,
    );
    this.pool = new ValuePool(views, embedder, options.db, options.tables, options.fullValuePool !== false);
  }

  static async open(views: LoadedViews, options: ViewSearchOptions = {}): Promise<ViewSearch> {
    const embedder =
      options.embedder ??
      (await createEmbedder(options.embeddingModelPath ?? views.info.embeddingModelPath, views.info.embeddingDim));
    if (embedder.dimension !== views.info.embeddingDim) {
      throw new Error(
        `embedder ${embedder.modelId} has dimension ${embedder.dimension}, the index was built with ${views.info.embeddingDim} — use the same --embedding_model`,
      );
    }
    return new ViewSearch(views, embedder, await rerankerFor(options.reranker ?? "lexical"), options);
  }

  get multiplier(): number {
    return this.ctx.multiplier;
  }

  /** Vector backend in use ("faiss" | "exact"; "lazy" before the first whole-view search). */
  get vectorBackend(): string {
    return this.docs.backendName;
  }

  /** Entry counts (for `atr doctor` / search CLI). */
  get sizes() {
    return {
      docs: this.docs.size,
      schema: this.schemaView.size,
      cells: this.cellView.size,
      rows: this.views.rows.size,
    };
  }

  embedQuery(query: string): Promise<Float32Array> {
    return this.ctx.embedQuery(query);
  }

  /** BM25 statistics of a whole view (counted at build time). */
  private viewStats(view: "docs" | "schema" | "cells"): () => Bm25Stats {
    return () => {
      let s = this.viewStatsCache.get(view);
      if (!s) this.viewStatsCache.set(view, (s = new Bm25Stats(this.views.termStats(view))));
      return s;
    };
  }

  /**
   * Views 1–2. `tableIds` keeps the chunks of those tables and of their passages (a passage file
   * named after a table, as in HybridQA/TAT-QA); `type` keeps one kind of chunk.
   */
  async documents(query: string, k: number, options: DocumentSearchOptions = {}): Promise<Array<Hit<DocChunk>>> {
    const scoped = options.tableIds && options.tableIds.length > 0;
    const ids =
      scoped || options.type
        ? this.views.docIds({ type: options.type, scope: scoped ? options.tableIds : undefined })
        : undefined;
    return recallRerank(
      this.ctx,
      this.docs,
      query,
      k,
      ids ? { ids } : undefined,
      ids ? ids.length : this.docs.size,
      this.viewStats("docs"),
    );
  }

  /**
   * View 3 search. Remembered for the last few (query, k, tables): the SQL, HYBRID and RETRIEVE
   * attempts of a sub-query ask for the columns of the same sub-query; each caller gets its own copy.
   */
  async schema(query: string, k: number, options: SearchOptions = {}): Promise<Array<Hit<SchemaEntry>>> {
    const key = `${k}\u0000${(options.tableIds ?? []).join("\u0001")}\u0000${query}`;
    let hits = this.schemaSearches.get(key);
    if (!hits) {
      hits = this.searchSchema(query, k, options);
      if (this.schemaSearches.size >= 16) this.schemaSearches.delete(this.schemaSearches.keys().next().value!);
      this.schemaSearches.set(key, hits);
      hits.catch(() => this.schemaSearches.delete(key));
    }
    return (await hits).map((h) => ({ ...h }));
  }

  private async searchSchema(query: string, k: number, options: SearchOptions): Promise<Array<Hit<SchemaEntry>>> {
    if (options.tableIds && options.tableIds.length > 0) {
      const ids = options.tableIds.flatMap((t) => this.views.schemaIds(t));
      const all = await recallRerank(
        this.ctx,
        this.schemaView,
        query,
        recallSize(k, ids.length, this.multiplier),
        { ids },
        ids.length,
        this.viewStats("schema"),
      );
      if (this.options.schemaValueLinking === false) return all.slice(0, k);
      // entity-based schema linking: a column whose value the query names verbatim moves up
      const named = await this.columnsNamedByValue(query, options.tableIds);
      return all
        .map((h, i) => ({ h, i, s: h.score + (named.has(`${h.entry.tableId}\u0000${h.entry.column}`) ? 1 : 0) }))
        .sort((a, b) => b.s - a.s || a.i - b.i)
        .slice(0, k)
        .map(({ h, s }) => ({ entry: h.entry, score: s }));
    }
    return recallRerank(this.ctx, this.schemaView, query, k, undefined, this.schemaView.size, this.viewStats("schema"));
  }

  rows(query: string, k: number, options: { tableId: string }): Promise<Array<Hit<RowEntry>>> {
    return this.rowSearch.rows(query, k, options.tableId);
  }

  /** (table, column) pairs of these tables with a value (3+ characters) occurring word-bounded in the query. */
  private async columnsNamedByValue(query: string, tableIds: string[]): Promise<Set<string>> {
    const qn = normaliseForMatch(query).replace(/\s+/g, " ");
    const qw = new Set(contentWords(query));
    const named = new Set<string>();
    for (const tableId of tableIds) {
      const cells = this.pool.isLarge(tableId)
        ? (await this.pool.largeCandidates(tableId, query)).map((c) => c.cell)
        : (this.pool.tableCells(tableId) ?? []);
      for (const c of cells) {
        const key = `${c.tableId}\u0000${c.column}`;
        if (named.has(key) || normaliseForMatch(c.value).trim().length < 3) continue;
        // The cell's prepared key is cached per entry: a pool is scanned again for every query.
        if (mentionScore(qn, qw, this.keyOf(c)) === 1) named.add(key);
      }
    }
    return named;
  }

  /** A cell's value prepared for mention matching, cached per entry (pools are scanned per query). */
  private keyOf(cell: CellEntry): MentionKey {
    let k = this.keyCache.get(cell);
    if (k === undefined) this.keyCache.set(cell, (k = mentionKey(cell.value)));
    return k;
  }

  /** Every distinct (column, value) of a small table as cell entries (no embedding), cached. */
  tableCells(tableId: string): CellEntry[] | undefined {
    return this.pool.tableCells(tableId);
  }

  async cells(query: string, k: number, options: CellSearchOptions = {}): Promise<Array<Hit<CellEntry>>> {
    return this.cellSearch(query, query, k, options);
  }

  /**
   * Cell search: dense recall for `recallQuery` over the population, rerank against `rankQuery`.
   * Scoped (tableIds / columns): the value pools of those tables. Unscoped: the cell index.
   */
  private async cellSearch(
    recallQuery: string,
    rankQuery: string,
    k: number,
    options: CellSearchOptions,
  ): Promise<Array<Hit<CellEntry>>> {
    const tableIds = options.columns ? [...new Set(options.columns.map((c) => c.tableId))] : options.tableIds;
    if (!tableIds || tableIds.length === 0) {
      return recallRerank(
        this.ctx,
        this.cellView,
        recallQuery,
        k,
        undefined,
        this.cellView.size,
        this.viewStats("cells"),
        rankQuery,
      );
    }
    const allowed = options.columns ? new Set(options.columns.map((c) => `${c.tableId}\u0000${c.column}`)) : undefined;
    const candidates: Array<{ entry: CellEntry; vector: Float32Array; idx: number }> = [];
    const statTexts: string[] = [];
    const take = (entry: CellEntry, vector: Float32Array, idx: number) => {
      if (allowed && !allowed.has(`${entry.tableId}\u0000${entry.column}`)) return;
      candidates.push({ entry, vector, idx });
      statTexts.push(entry.text);
    };
    for (const tableId of tableIds) {
      if (this.pool.isLarge(tableId)) {
        for (const c of await this.pool.largeCandidates(tableId, rankQuery)) take(c.cell, c.vectors, c.idx);
        continue;
      }
      const pool = await this.pool.tablePool(tableId);
      if (!pool) continue;
      pool.cells.forEach((c, i) => take(c, pool.vectors, i));
    }
    const n = recallSize(k, candidates.length, this.multiplier);
    if (n === 0) return [];
    const q = await this.embedQuery(recallQuery);
    const dim = this.embedder.dimension;
    const scored = candidates.map((c, i) => ({ i, score: dot(c.vector, c.idx, dim, q) }));
    scored.sort((a, b) => b.score - a.score || a.i - b.i);
    // A value the query names (verbatim, or with one typing error) is recalled whatever its dense
    // rank: in a pool of look-alike values (call signs, years, populations) it can fall outside the top n.
    const qn = normaliseForMatch(rankQuery).replace(/\s+/g, " ");
    const qw = new Set(contentWords(rankQuery));
    const named = scored.slice(n).filter(({ i }) => {
      const key = this.keyOf(candidates[i]!.entry);
      return key.norm.length >= 2 && mentionScore(qn, qw, key) >= TYPO_MENTION;
    });
    const recalled = [...scored.slice(0, n), ...named].map(({ i, score }) => ({
      entry: candidates[i]!.entry,
      text: candidates[i]!.entry.text,
      key: candidates[i]!.entry.value,
      preparedKey: this.keyOf(candidates[i]!.entry),
      dense: score,
    }));
    let stats: Bm25Stats | undefined;
    return rerank(this.reranker, rankQuery, recalled, k, () => (stats ??= new Bm25Stats(statTexts)));
  }

  async schemaCells(
    query: string,
    entities: string[],
    options: { schemaTopK: number; cellTopK: number; tableIds?: string[] },
  ): Promise<SchemaCellResult> {
    if (!Number.isInteger(options.cellTopK) || options.cellTopK < 0)
      throw new RangeError(`cell_top_k must be a non-negative integer, got ${options.cellTopK}`);
    const columns = (await this.schema(query, options.schemaTopK, { tableIds: options.tableIds })).map((h) => h.entry);
    const candidates: Record<string, CellEntry[]> = {};
    for (const entity of entities)
      candidates[entity] = (await this.entityCells(entity, columns, options.cellTopK)).map((h) => h.entry);
    return { columns, candidates };
  }

  /**
   * §4.7's cell step for one entity: single-column recall per distinct column name of C,
   * restricted to C's (table, column) pairs, the merged pool ranked against the bare entity.
   */
  async entityCells(entity: string, columns: readonly SchemaEntry[], k: number): Promise<Array<Hit<CellEntry>>> {
    if (k === 0 || columns.length === 0) return [];
    const pairs = columns.map((c) => ({ tableId: c.tableId, column: c.column }));
    const pool = new Map<string, CellEntry>();
    for (const name of [...new Set(columns.map((c) => c.column))]) {
      const scoped = pairs.filter((p) => p.column === name);
      const hits = await this.cellSearch(`column: ${name} | ${entity}`, `column: ${name} | ${entity}`, k, {
        columns: scoped,
      });
      for (const h of hits) pool.set(`${h.entry.tableId}\u0000${h.entry.column}\u0000${h.entry.value}`, h.entry);
    }
    const merged = [...pool.values()].sort(
      (a, b) => cmp(a.column, b.column) || cmp(a.value, b.value) || cmp(a.tableId, b.tableId),
    );
    if (merged.length === 0) return [];
    const q = await this.embedQuery(entity);
    const dim = this.embedder.dimension;
    const cellVectors = this.pool.cellVectors;
    const missing = merged.filter((c) => !cellVectors.has(c));
    if (missing.length > 0) {
      const vecs = await this.embedder.embedMatrix(missing.map((c) => c.text));
      missing.forEach((c, idx) => cellVectors.set(c, { vectors: vecs, idx }));
    }
    const dense = (c: CellEntry) => {
      const at = cellVectors.get(c)!;
      return dot(at.vectors, at.idx, dim, q);
    };
    return rerank(
      this.reranker,
      entity,
      merged.map((c) => ({ entry: c, text: c.text, key: c.value, preparedKey: this.keyOf(c), dense: dense(c) })),
      k,
    );
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
