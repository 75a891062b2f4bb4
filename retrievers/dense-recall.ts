/**
 * Dense recall of one view followed by the reranker (reference §4.2): top_k × multiplier candidates
 * by inner product, reranked against the query. `SearchContext` holds what every search shares —
 * the embedder (with a small query cache), the reranker and the multiplier — and `DenseView` one
 * view's lazily read entries and vectors.
 */
import { searchText } from "../indexing/cell-selection.js";
import type { IndexEmbedder } from "../indexing/embeddings/types.js";
import type { Hit } from "../indexing/types.js";
import {
  ExactIndex,
  openVectorIndex,
  type IdRange,
  type VectorFile,
  type VectorIndex,
} from "../indexing/vector-index.js";
import type { ViewEntries } from "../indexing/views.js";
import type { Bm25Stats } from "./bm25.js";
import { recallSize } from "./recall.js";
import { rerank, type Reranker } from "./rerank.js";

export class SearchContext {
  private readonly queryCache = new Map<string, Float32Array>();
  constructor(
    readonly embedder: IndexEmbedder,
    readonly reranker: Reranker,
    readonly multiplier: number,
    readonly vectorBackend?: "exact" | "faiss",
  ) {}

  async embedQuery(query: string): Promise<Float32Array> {
    let v = this.queryCache.get(query);
    if (!v) {
      v = await this.embedder.embedMatrix([query]);
      this.queryCache.set(query, v);
      if (this.queryCache.size > 256) this.queryCache.delete(this.queryCache.keys().next().value!);
    }
    return v;
  }
}

/** One view: entries by id, its vector file, the whole-view index (built on first unrestricted use). */
export class DenseView<T extends { text: string }> {
  private index?: VectorIndex;
  /**
   * The last searches by query vector (SearchContext hands out one vector per query text): the
   * attempts of a sub-query search the same view with the same query, and each search of a whole
   * view scans every vector of it.
   */
  private readonly recent = new WeakMap<Float32Array, Map<string, ReadonlyArray<{ id: number; score: number }>>>();
  constructor(
    readonly entries: ViewEntries<T>,
    private readonly file: VectorFile,
    private readonly backend?: "exact" | "faiss",
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get backendName(): string {
    return this.index?.backend ?? "lazy";
  }

  /** Top n ids by inner product: over a contiguous range (read alone), a list of ids, or the whole view. */
  search(
    q: Float32Array,
    n: number,
    restrict?: { range?: IdRange; ids?: readonly number[] },
  ): Array<{ id: number; score: number }> {
    const key = restrict?.range
      ? `${n} range ${restrict.range.start}-${restrict.range.end}`
      : restrict?.ids
        ? `${n} ids ${restrict.ids.join(",")}`
        : `${n}`;
    let byQuery = this.recent.get(q);
    if (!byQuery) this.recent.set(q, (byQuery = new Map()));
    let hits = byQuery.get(key);
    if (!hits) {
      hits = this.scan(q, n, restrict);
      if (byQuery.size >= 8) byQuery.delete(byQuery.keys().next().value!);
      byQuery.set(key, hits);
    }
    return hits.map((h) => ({ id: h.id, score: h.score }));
  }

  private scan(
    q: Float32Array,
    n: number,
    restrict?: { range?: IdRange; ids?: readonly number[] },
  ): Array<{ id: number; score: number }> {
    if (restrict?.range) {
      const { start, end } = restrict.range;
      const slice = new ExactIndex(this.file.range(start, end), this.file.dim);
      return slice.search(q, n).map((h) => ({ id: h.id + start, score: h.score }));
    }
    // (the exact backend reads the file a block at a time into its column-major copy: not held twice)
    this.index ??= openVectorIndex(this.file, this.file.dim, this.backend);
    return this.index.search(q, n, restrict);
  }
}

/** Dense recall over `restrict` (or the whole view), then rerank against `rerankQuery`. */
export async function recallRerank<T extends { text: string }>(
  ctx: SearchContext,
  view: DenseView<T>,
  query: string,
  k: number,
  restrict: { range?: IdRange; ids?: readonly number[] } | undefined,
  population: number,
  stats: () => Bm25Stats,
  rerankQuery = query,
): Promise<Array<Hit<T>>> {
  const n = recallSize(k, population, ctx.multiplier);
  if (n === 0) return [];
  const q = await ctx.embedQuery(query);
  const hits = view.search(q, n, restrict);
  const candidates = hits.map((h) => {
    const entry = view.entries.get(h.id);
    return { entry, text: searchText(entry), dense: h.score };
  });
  return rerank(ctx.reranker, rerankQuery, candidates, k, stats);
}
