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
import { contentWords } from "../text/tokenise.js";
import { normaliseForMatch } from "../text/normalise.js";
import { wordFamily } from "../text/stem.js";
import { Bm25Stats } from "./bm25.js";
import { editDistance } from "./edit-distance.js";

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
  /** `mentionKey(key)`, when the caller keeps it prepared (cell pools are scanned for every query). */
  preparedKey?: MentionKey;
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
    throw new RerankError(
      `reranker ${reranker.name} returned ${scores.length} scores for ${candidates.length} candidates`,
    );
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

/** A cell value prepared for `mentionScore`: normalised text and content words. */
export interface MentionKey {
  norm: string;
  words: readonly string[];
}

export function mentionKey(key: string): MentionKey {
  return { norm: normaliseForMatch(key).replace(/\s+/g, " ").trim(), words: contentWords(key) };
}

/** Score of a key whose every word is in the query, some with one typing error ("sapin" for "spain"). */
export const TYPO_MENTION = 0.75;

/**
 * How strongly the query names a key: 1 when the key (normalised) occurs word-bounded in the query;
 * TYPO_MENTION when each of its content words is a query word or one typing error away from one;
 * otherwise half the share of the key's content words found in the query.
 */
export function mentionScore(queryNorm: string, queryWords: Set<string>, key: string | MentionKey): number {
  const k = typeof key === "string" ? mentionKey(key) : key;
  if (k.norm === "") return 0;
  if (occursWordBounded(queryNorm, k.norm)) return 1;
  if (k.words.length === 0) return 0;
  let exact = 0;
  let near = 0;
  for (const w of k.words) {
    if (queryWords.has(w)) exact++;
    else if (nearQueryWord(w, queryWords)) near++;
  }
  if (near > 0 && exact + near === k.words.length) return TYPO_MENTION;
  return (0.5 * exact) / k.words.length;
}

/**
 * A query word one typing error from `word` (a swap of adjacent letters counts as one): alphabetic
 * words of 5+ letters, or 4 letters with a swap only; same first letter; another inflection of the
 * same word ("player"/"players"/"played") is not a typo.
 */
function nearQueryWord(word: string, queryWords: Set<string>): boolean {
  if (word.length < 4 || !/^\p{L}+$/u.test(word)) return false;
  for (const q of queryWords) {
    if (q[0] !== word[0] || Math.abs(q.length - word.length) > 1 || q.length < 4) continue;
    if (wordFamily(q) === wordFamily(word) || !/^\p{L}+$/u.test(q)) continue;
    if (word.length === 4 || q.length === 4) {
      if (
        q.length === word.length &&
        [...q].sort().join("") === [...word].sort().join("") &&
        editDistance(q, word, 1, { transpositions: true }) === 1
      )
        return true;
    } else if (editDistance(q, word, 1, { transpositions: true }) === 1) return true;
  }
  return false;
}

/** True when the normalised key occurs in the normalised query with no letter or digit on either side. */
export function occursWordBounded(queryNorm: string, keyNorm: string): boolean {
  if (keyNorm === "") return false;
  for (let at = queryNorm.indexOf(keyNorm); at >= 0; at = queryNorm.indexOf(keyNorm, at + 1)) {
    const before = at === 0 ? "" : queryNorm[at - 1]!;
    const after = queryNorm[at + keyNorm.length] ?? "";
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return true;
  }
  return false;
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
    return candidates.map(
      (c, i) =>
        dn[i]! +
        this.lexicalWeight * ln[i]! +
        (c.key ? this.mentionWeight * mentionScore(qn, qw, c.preparedKey ?? c.key) : 0),
    );
  }
}
