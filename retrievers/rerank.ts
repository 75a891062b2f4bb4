/**
 * Rerankers (reference §4.2): score the recalled candidates for a query; the result is sorted by
 * descending score, stable (equal scores keep the dense order), truncated to top_k.
 *
 * - `LexicalReranker` (default): BM25 over the candidates, with statistics of the population they
 *   were recalled from, fused with the dense scores (weighted sum of min–max-normalised scores, or
 *   reciprocal-rank fusion).
 * - `CrossEncoderReranker`: a local transformers.js sequence-classification model (retrievers/
 *   cross-encoder.ts) scoring [query, passage] pairs.
 * - `DenseOnly`: keeps the dense order (the paper's `--no_reranker`).
 */
import type { Hit } from "../indexing/types.js";
import { contentWords } from "../indexing/embeddings/offline.js";
import { Bm25Stats } from "./bm25.js";

export class RerankError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RerankError";
  }
}

export interface RerankCandidate {
  /** Text the reranker reads (the entry's embedded text). */
  text: string;
  /** Dense inner product from recall. */
  dense: number;
}

export interface Reranker {
  readonly name: string;
  /**
   * One score per candidate, in candidate order. `population` gives the texts the candidates were
   * recalled from (for lexical statistics); rerankers may ignore it.
   */
  score(query: string, candidates: RerankCandidate[], population?: () => Bm25Stats): Promise<number[]>;
}

/** Sorts candidates by the reranker's scores (stable), checks the count, keeps top k. */
export async function rerank<T>(
  reranker: Reranker,
  query: string,
  candidates: Array<RerankCandidate & { entry: T }>,
  k: number,
  population?: () => Bm25Stats,
): Promise<Array<Hit<T>>> {
  if (candidates.length === 0 || k <= 0) return [];
  const scores = await reranker.score(query, candidates, population);
  if (scores.length !== candidates.length) {
    throw new RerankError(`reranker ${reranker.name} returned ${scores.length} scores for ${candidates.length} candidates`);
  }
  const order = candidates.map((_, i) => i);
  order.sort((a, b) => scores[b]! - scores[a]! || a - b);
  return order.slice(0, k).map((i) => ({ entry: candidates[i]!.entry, score: scores[i]! }));
}

export const denseOnly: Reranker = {
  name: "dense",
  async score(_q, candidates) {
    return candidates.map((c) => c.dense);
  },
};

export interface LexicalRerankerOptions {
  /** "weighted" (default): dense_norm + lexicalWeight × bm25_norm; "rrf": Σ 1/(60 + rank). */
  fusion?: "weighted" | "rrf";
  /** Weight of the lexical score in weighted fusion (default 0.5). */
  lexicalWeight?: number;
  /** RRF constant (default 60). */
  rrfK?: number;
}

function minMax(xs: number[]): number[] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const x of xs) {
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  const span = hi - lo;
  return xs.map((x) => (span > 1e-12 ? (x - lo) / span : 0));
}

function ranks(xs: number[]): number[] {
  const order = xs.map((_, i) => i).sort((a, b) => xs[b]! - xs[a]! || a - b);
  const r = new Array<number>(xs.length);
  order.forEach((i, pos) => (r[i] = pos + 1));
  return r;
}

export class LexicalReranker implements Reranker {
  readonly name: string;
  private readonly fusion: "weighted" | "rrf";
  private readonly lexicalWeight: number;
  private readonly rrfK: number;
  constructor(options: LexicalRerankerOptions = {}) {
    this.fusion = options.fusion ?? "weighted";
    this.lexicalWeight = options.lexicalWeight ?? 0.5;
    this.rrfK = options.rrfK ?? 60;
    this.name = `lexical-${this.fusion}`;
  }
  async score(query: string, candidates: RerankCandidate[], population?: () => Bm25Stats): Promise<number[]> {
    const stats = population ? population() : new Bm25Stats(candidates.map((c) => c.text));
    const q = contentWords(query);
    const lexical = candidates.map((c) => stats.score(q, c.text));
    const dense = candidates.map((c) => c.dense);
    if (this.fusion === "rrf") {
      const rd = ranks(dense);
      const rl = ranks(lexical);
      return candidates.map((_, i) => 1 / (this.rrfK + rd[i]!) + 1 / (this.rrfK + rl[i]!));
    }
    const dn = minMax(dense);
    const ln = minMax(lexical);
    return candidates.map((_, i) => dn[i]! + this.lexicalWeight * ln[i]!);
  }
}
