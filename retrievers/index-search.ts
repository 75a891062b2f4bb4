/**
 * The `IndexSearch` of an opened index (Views 1–4): dense recall of top_k × multiplier candidates,
 * then the reranker (reference §4.2, §4.5, §4.7, §4.8, with DESIGN.md's fixes):
 * - schema search can be scoped to table ids (the hint or the retrieved tables);
 * - row search runs only over the rows of one table (a contiguous id range: no sub-index to build);
 * - cell search scoped to tables sees every distinct value of those tables — the budgeted cell
 *   index plus the table's remaining values (from the row entries, or View 5 when rows were capped),
 *   embedded on first use and cached per table — so the budget bounds the global cell index but
 *   never hides a value of a table the question is scoped to.
 */
import type Database from "better-sqlite3";
import type { CellEntry, DocChunk, Hit, RowEntry, SchemaEntry, TableSchema } from "../indexing/types.js";
import type { CellSearchOptions, DocumentSearchOptions, IndexSearch, SchemaCellResult, SearchOptions } from "./types.js";
import type { LoadedViews } from "../indexing/views.js";
import { createEmbedder } from "../indexing/embeddings/index.js";
import type { IndexEmbedder } from "../indexing/embeddings/types.js";
import { cellText, searchText } from "../indexing/cell-selection.js";
import { quoteIdent as quote } from "../indexing/sql-store.js";
import { dot, openVectorIndex, type IdRange, type VectorIndex } from "../indexing/vector-index.js";
import { Bm25Stats } from "./bm25.js";
import { structuralRows } from "./row-structure.js";
import { recallSize, DEFAULT_RECALL_MULTIPLIER } from "./recall.js";
import { denseOnly, LexicalReranker, mentionKey, mentionScore, rerank, TYPO_MENTION, type MentionKey, type Reranker } from "./rerank.js";
import { contentWords, normaliseForMatch } from "../indexing/embeddings/offline.js";

/** Structural row candidates are placed after this many similarity hits. */
const STRUCTURE_AFTER = 3;

export interface ViewSearchOptions {
  /** Scoped schema search lifts columns whose values the query names (default true). */
  schemaValueLinking?: boolean;
  /** Add structural row candidates (first/last/after/before/extremes; default true). */
  rowStructure?: boolean;
  /** View 5 connection, used for the full value pool of a table whose rows were capped. */
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

interface View<T extends { text: string }> {
  entries: T[];
  index: VectorIndex;
  stats?: Bm25Stats;
}

function groupRanges<T>(entries: T[], key: (e: T) => string): Map<string, IdRange> {
  const ranges = new Map<string, IdRange>();
  entries.forEach((e, i) => {
    const k = key(e);
    const r = ranges.get(k);
    if (r && r.end === i) r.end = i + 1;
    else if (!r) ranges.set(k, { start: i, end: i + 1 });
    else throw new Error(`entries of table ${k} are not contiguous — rebuild the index`);
  });
  return ranges;
}

/** The full value pool of one table: every distinct (column, value), with embeddings. */
interface TablePool {
  cells: CellEntry[];
  vectors: Float32Array;
  stats: Bm25Stats;
}

export class ViewSearch implements IndexSearch {
  private readonly docs: View<DocChunk>;
  private readonly schemaView: View<SchemaEntry>;
  private readonly cellView: View<CellEntry>;
  private readonly rowView: View<RowEntry>;
  private readonly rowRanges: Map<string, IdRange>;
  private readonly schemaByTable = new Map<string, number[]>();
  private readonly docIdsByType: Record<"text" | "table", number[]> = { text: [], table: [] };
  private readonly queryCache = new Map<string, Float32Array>();
  private readonly poolCache = new Map<string, TablePool>();
  private readonly valueCache = new Map<string, CellEntry[]>();
  private readonly keyCache = new WeakMap<CellEntry, MentionKey>();
  /** Where each pooled cell's vector is, so ranking against an entity needs no re-embedding. */
  private readonly cellVectors = new WeakMap<CellEntry, { vectors: Float32Array; idx: number }>();
  private readonly rowStatsCache = new Map<string, Bm25Stats>();
  readonly multiplier: number;

  private constructor(
    private readonly loaded: LoadedViews,
    readonly embedder: IndexEmbedder,
    readonly reranker: Reranker,
    private readonly options: ViewSearchOptions,
  ) {
    const dim = loaded.info.embeddingDim;
    const backend = options.vectorBackend;
    this.docs = { entries: loaded.docs, index: openVectorIndex(loaded.vectors.docs, dim, backend) };
    this.schemaView = { entries: loaded.schema, index: openVectorIndex(loaded.vectors.schema, dim, backend) };
    this.cellView = { entries: loaded.cells, index: openVectorIndex(loaded.vectors.cells, dim, backend) };
    this.rowView = { entries: loaded.rows, index: openVectorIndex(loaded.vectors.rows, dim, backend) };
    this.rowRanges = groupRanges(loaded.rows, (r) => r.tableId);
    loaded.schema.forEach((s, i) => {
      const list = this.schemaByTable.get(s.tableId) ?? [];
      list.push(i);
      this.schemaByTable.set(s.tableId, list);
    });
    loaded.docs.forEach((d, i) => this.docIdsByType[d.type].push(i));
    this.multiplier = options.recallMultiplier ?? DEFAULT_RECALL_MULTIPLIER;
  }

  static async open(loaded: LoadedViews, options: ViewSearchOptions = {}): Promise<ViewSearch> {
    const embedder = options.embedder ?? (await createEmbedder(options.embeddingModelPath ?? loaded.info.embeddingModelPath, loaded.info.embeddingDim));
    if (embedder.dimension !== loaded.info.embeddingDim) {
      throw new Error(`embedder ${embedder.modelId} has dimension ${embedder.dimension}, the index was built with ${loaded.info.embeddingDim} — use the same --embedding_model`);
    }
    let reranker: Reranker;
    const r = options.reranker ?? "lexical";
    if (typeof r !== "string") reranker = r;
    else if (r === "lexical") reranker = new LexicalReranker();
    else if (r === "none") reranker = denseOnly;
    else {
      const { CrossEncoderReranker } = await import("./cross-encoder.js");
      reranker = await CrossEncoderReranker.load(r);
    }
    return new ViewSearch(loaded, embedder, reranker, options);
  }

  /** Vector backend in use ("faiss" | "exact"). */
  get vectorBackend(): string {
    return this.rowView.index.backend;
  }

  /** Entry counts (for `atr doctor` / search CLI). */
  get sizes() {
    return { docs: this.docs.entries.length, schema: this.schemaView.entries.length, cells: this.cellView.entries.length, rows: this.rowView.entries.length };
  }

  async embedQuery(query: string): Promise<Float32Array> {
    let v = this.queryCache.get(query);
    if (!v) {
      v = await this.embedder.embedMatrix([query]);
      this.queryCache.set(query, v);
      if (this.queryCache.size > 256) this.queryCache.delete(this.queryCache.keys().next().value!);
    }
    return v;
  }

  private viewStats<T extends { text: string }>(view: View<T>): () => Bm25Stats {
    return () => (view.stats ??= new Bm25Stats(view.entries.map((e) => e.text)));
  }

  /** Dense recall over `restrict` (or the whole view), then rerank against `rerankQuery`. */
  private async recallRerank<T extends { text: string }>(
    view: View<T>,
    query: string,
    k: number,
    restrict: { range?: IdRange; ids?: readonly number[] } | undefined,
    population: number,
    stats: () => Bm25Stats,
    rerankQuery = query,
  ): Promise<Array<Hit<T>>> {
    const n = recallSize(k, population, this.multiplier);
    if (n === 0) return [];
    const q = await this.embedQuery(query);
    const hits = view.index.search(q, n, restrict);
    const candidates = hits.map((h) => ({ entry: view.entries[h.id]!, text: searchText(view.entries[h.id]!), dense: h.score }));
    return rerank(this.reranker, rerankQuery, candidates, k, stats);
  }

  /**
   * Views 1–2. `tableIds` keeps the chunks of those tables and of their passages (a passage file
   * named after a table, as in HybridQA/TAT-QA); `type` keeps one kind of chunk.
   */
  async documents(query: string, k: number, options: DocumentSearchOptions = {}): Promise<Array<Hit<DocChunk>>> {
    let ids: number[] | undefined = options.type ? this.docIdsByType[options.type] : undefined;
    if (options.tableIds && options.tableIds.length > 0) {
      const scope = new Set(options.tableIds);
      const inScope = (d: DocChunk) => (d.tableId !== undefined ? scope.has(d.tableId) : scope.has(d.source.replace(/\.[^.]*$/, "")));
      ids = (ids ?? this.docs.entries.map((_, i) => i)).filter((i) => inScope(this.docs.entries[i]!));
    }
    return this.recallRerank(this.docs, query, k, ids ? { ids } : undefined, ids ? ids.length : this.docs.entries.length, this.viewStats(this.docs));
  }

  async schema(query: string, k: number, options: SearchOptions = {}): Promise<Array<Hit<SchemaEntry>>> {
    if (options.tableIds && options.tableIds.length > 0) {
      const ids = options.tableIds.flatMap((t) => this.schemaByTable.get(t) ?? []);
      const all = await this.recallRerank(this.schemaView, query, recallSize(k, ids.length, this.multiplier), { ids }, ids.length, this.viewStats(this.schemaView));
      if (this.options.schemaValueLinking === false) return all.slice(0, k);
      // entity-based schema linking: a column whose value the query names verbatim moves up
      const named = this.columnsNamedByValue(query, options.tableIds);
      return all
        .map((h, i) => ({ h, i, s: h.score + (named.has(`${h.entry.tableId}\u0000${h.entry.column}`) ? 1 : 0) }))
        .sort((a, b) => b.s - a.s || a.i - b.i)
        .slice(0, k)
        .map(({ h, s }) => ({ entry: h.entry, score: s }));
    }
    return this.recallRerank(this.schemaView, query, k, undefined, this.schemaView.entries.length, this.viewStats(this.schemaView));
  }

  async rows(query: string, k: number, options: { tableId: string }): Promise<Array<Hit<RowEntry>>> {
    const range = this.rowRanges.get(options.tableId);
    if (!range) return [];
    const stats = () => {
      let s = this.rowStatsCache.get(options.tableId);
      if (!s) {
        s = new Bm25Stats(this.rowView.entries.slice(range.start, range.end).map(searchText));
        this.rowStatsCache.set(options.tableId, s);
        if (this.rowStatsCache.size > 64) this.rowStatsCache.delete(this.rowStatsCache.keys().next().value!);
      }
      return s;
    };
    const hits = await this.recallRerank(this.rowView, query, k, { range }, range.end - range.start, stats);
    if (this.options.rowStructure === false || hits.length === 0) return hits;
    // structural candidates (first/last/after/before/extremes) go right after the best hits
    const tableRows = this.rowView.entries.slice(range.start, range.end);
    const local = new Map(tableRows.map((r, i) => [r, i]));
    const extra = structuralRows(query, tableRows, hits.slice(0, 1).map((h) => local.get(h.entry)!))
      .map((i) => tableRows[i]!)
      .filter((r) => !hits.slice(0, STRUCTURE_AFTER).some((h) => h.entry === r));
    if (extra.length === 0) return hits;
    const head = hits.slice(0, STRUCTURE_AFTER);
    const floor = head[head.length - 1]!.score;
    const inserted = extra.map((entry) => ({ entry, score: floor }));
    const tail = hits.slice(STRUCTURE_AFTER).filter((h) => !extra.includes(h.entry));
    return [...head, ...inserted, ...tail].slice(0, k);
  }

  /** (table, column) pairs of these tables with a value (3+ characters) occurring word-bounded in the query. */
  private columnsNamedByValue(query: string, tableIds: string[]): Set<string> {
    const qn = normaliseForMatch(query).replace(/\s+/g, " ");
    const qw = new Set(contentWords(query));
    const named = new Set<string>();
    for (const tableId of tableIds) {
      for (const c of this.tableCells(tableId) ?? []) {
        const key = `${c.tableId}\u0000${c.column}`;
        if (named.has(key) || normaliseForMatch(c.value).trim().length < 3) continue;
        if (mentionScore(qn, qw, c.value) === 1) named.add(key);
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

  /** Every distinct (column, value) of a table as cell entries (no embedding), cached. */
  tableCells(tableId: string): CellEntry[] | undefined {
    const cached = this.valueCache.get(tableId);
    if (cached) return cached;
    const schema = this.options.tables?.get(tableId);
    const values =
      this.options.fullValuePool === false
        ? this.cellView.entries.filter((c) => c.tableId === tableId)
        : this.distinctValues(tableId, schema);
    if (!values) return undefined;
    const title = schema?.title;
    const cells: CellEntry[] = values.map(({ column, value, freq }) => ({ tableId, column, value, freq, text: cellText({ title }, column, value) }));
    this.valueCache.set(tableId, cells);
    if (this.valueCache.size > 64) this.valueCache.delete(this.valueCache.keys().next().value!);
    return cells;
  }

  /** A table's value pool with embeddings, embedded once and cached. */
  async tablePool(tableId: string): Promise<TablePool | undefined> {
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


  private distinctValues(tableId: string, schema: TableSchema | undefined): Array<{ column: string; value: string; freq: number }> | undefined {
    const range = this.rowRanges.get(tableId);
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
    if (complete && range) {
      for (let i = range.start; i < range.end; i++) {
        for (const [column, value] of Object.entries(this.rowView.entries[i]!.values)) add(column, value);
      }
    } else if (schema && this.options.db) {
      // View 5 holds every row; identifiers come from the schema (never from the query), values are read only
      for (const col of schema.columns) {
        const stmt = this.options.db.prepare(`SELECT ${quote(col.rawPhysical)} AS v, COUNT(*) AS n FROM ${quote(schema.physical)} GROUP BY ${quote(col.rawPhysical)}`);
        for (const row of stmt.all() as Array<{ v: unknown; n: number }>) add(col.name, row.v, row.n);
      }
    } else if (!range) {
      return undefined;
    } else {
      for (let i = range.start; i < range.end; i++) {
        for (const [column, value] of Object.entries(this.rowView.entries[i]!.values)) add(column, value);
      }
    }
    return [...counts.values()];
  }

  async cells(query: string, k: number, options: CellSearchOptions = {}): Promise<Array<Hit<CellEntry>>> {
    return this.cellSearch(query, query, k, options);
  }

  /**
   * Cell search: dense recall for `recallQuery` over the population, rerank against `rankQuery`.
   * Scoped (tableIds / columns): the full value pools of those tables. Unscoped: the cell index.
   */
  private async cellSearch(recallQuery: string, rankQuery: string, k: number, options: CellSearchOptions): Promise<Array<Hit<CellEntry>>> {
    const tableIds = options.columns ? [...new Set(options.columns.map((c) => c.tableId))] : options.tableIds;
    if (!tableIds || tableIds.length === 0) {
      return this.recallRerank(this.cellView, recallQuery, k, undefined, this.cellView.entries.length, this.viewStats(this.cellView), rankQuery);
    }
    const allowed = options.columns ? new Set(options.columns.map((c) => `${c.tableId}\u0000${c.column}`)) : undefined;
    const candidates: Array<{ entry: CellEntry; vector: Float32Array; idx: number }> = [];
    const statTexts: string[] = [];
    for (const tableId of tableIds) {
      const pool = await this.tablePool(tableId);
      if (!pool) continue;
      pool.cells.forEach((c, i) => {
        if (allowed && !allowed.has(`${c.tableId}\u0000${c.column}`)) return;
        candidates.push({ entry: c, vector: pool.vectors, idx: i });
        statTexts.push(c.text);
      });
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
      dense: score,
    }));
    let stats: Bm25Stats | undefined;
    return rerank(this.reranker, rankQuery, recalled, k, () => (stats ??= new Bm25Stats(statTexts)));
  }

  async schemaCells(query: string, entities: string[], options: { schemaTopK: number; cellTopK: number; tableIds?: string[] }): Promise<SchemaCellResult> {
    if (!Number.isInteger(options.cellTopK) || options.cellTopK < 0) throw new RangeError(`cell_top_k must be a non-negative integer, got ${options.cellTopK}`);
    const columns = (await this.schema(query, options.schemaTopK, { tableIds: options.tableIds })).map((h) => h.entry);
    const candidates: Record<string, CellEntry[]> = {};
    for (const entity of entities) {
      if (options.cellTopK === 0 || columns.length === 0) {
        candidates[entity] = [];
        continue;
      }
      const pairs = columns.map((c) => ({ tableId: c.tableId, column: c.column }));
      // single-column recall per distinct column name, restricted to C's (table, column) pairs
      const pool = new Map<string, CellEntry>();
      for (const name of [...new Set(columns.map((c) => c.column))]) {
        const scoped = pairs.filter((p) => p.column === name);
        const hits = await this.cellSearch(`column: ${name} | ${entity}`, `column: ${name} | ${entity}`, options.cellTopK, { columns: scoped });
        for (const h of hits) pool.set(`${h.entry.tableId}\u0000${h.entry.column}\u0000${h.entry.value}`, h.entry);
      }
      const merged = [...pool.values()].sort(
        (a, b) => cmp(a.column, b.column) || cmp(a.value, b.value) || cmp(a.tableId, b.tableId),
      );
      if (merged.length === 0) {
        candidates[entity] = [];
        continue;
      }
      // rank the merged pool against the bare entity
      const q = await this.embedQuery(entity);
      const dim = this.embedder.dimension;
      const missing = merged.filter((c) => !this.cellVectors.has(c));
      if (missing.length > 0) {
        const vecs = await this.embedder.embedMatrix(missing.map((c) => c.text));
        missing.forEach((c, idx) => this.cellVectors.set(c, { vectors: vecs, idx }));
      }
      const dense = (c: CellEntry) => {
        const at = this.cellVectors.get(c)!;
        return dot(at.vectors, at.idx, dim, q);
      };
      const ranked = await rerank(
        this.reranker,
        entity,
        merged.map((c) => ({ entry: c, text: c.text, key: c.value, dense: dense(c) })),
        options.cellTopK,
      );
      candidates[entity] = ranked.map((h) => h.entry);
    }
    return { columns, candidates };
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
