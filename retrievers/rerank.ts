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
import { contentWords, normaliseForMatch } from "../indexing/embeddings/offline.js";
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
  /** Short surface form (a cell value): scored for verbatim presence in the query. */
  key?: string;
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
  /**
   * "weighted" (default): dense cosine + lexicalWeight × BM25 / (best BM25 in the pool) [+ mention];
   * "rrf": Σ 1/(60 + rank) over the dense and BM25 ranks.
   */
  fusion?: "weighted" | "rrf";
  /** Weight of the lexical score in weighted fusion (default 0.5). */
  lexicalWeight?: number;
  /** RRF constant (default 60). */
  rrfK?: number;
  /** Weight of the key-in-query feature for candidates with a `key` (default 1). */
  mentionWeight?: number;
}

/**
 * 1 when the key (normalised) occurs word-bounded in the query; otherwise half the share of the
 * key's content words found in the query.
 */
export function mentionScore(queryNorm: string, queryWords: Set<string>, key: string): number {
  const k = normaliseForMatch(key).replace(/\s+/g, " ").trim();
  if (k === "") return 0;
  const at = queryNorm.indexOf(k);
  if (at >= 0) {
    const before = at === 0 ? "" : queryNorm[at - 1]!;
    const after = queryNorm[at + k.length] ?? "";
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return 1;
  }
  const words = contentWords(key);
  if (words.length === 0) return 0;
  return (0.5 * words.filter((w) => queryWords.has(w)).length) / words.length;
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
  private readonly mentionWeight: number;
  constructor(options: LexicalRerankerOptions = {}) {
    this.fusion = options.fusion ?? "weighted";
    this.lexicalWeight = options.lexicalWeight ?? 0.5;
    this.rrfK = options.rrfK ?? 60;
    this.mentionWeight = options.mentionWeight ?? 1;
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
    // dense scores are cosines (comparable across queries); lexical scores are scaled by the pool's best
    const dn = dense;
    const top = Math.max(0, ...lexical);
    const ln = lexical.map((x) => (top > 0 ? x / top : 0));
    const qn = normaliseForMatch(query).replace(/\s+/g, " ");
    const qw = new Set(q);
    return candidates.map((c, i) => dn[i]! + this.lexicalWeight * ln[i]! + (c.key ? this.mentionWeight * mentionScore(qn, qw, c.key) : 0));
  }
}
