/**
 * A small BM25 (Okapi, k1 1.2, b 0.75) over the words of `contentWords` — the lexical half of the
 * default reranker, and the plain baseline of `npm run bench:retrieval`. Statistics come from a
 * population of texts (a view, or one table's rows), so a word in every row of a table weighs little.
 */
import { boundedMemo } from "../indexing/bounded-memo.js";
import { contentWords } from "../text/tokenise.js";

/** A text's term frequencies and length in content words. */
interface TermCounts {
  tf: ReadonlyMap<string, number>;
  length: number;
}

/**
 * The term counts of the texts scored lately: the reranker scores the same view entries and table
 * rows for every attempt of a question and for the questions over the same table.
 */
export const termCounts = boundedMemo<TermCounts>(8192, (text) => {
  const words = contentWords(text);
  const tf = new Map<string, number>();
  for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
  return { tf, length: words.length };
});

export interface Bm25Options {
  /** Term saturation (default 1.2). */
  k1?: number;
  /** Length normalisation (default 0.75). */
  b?: number;
}

/** Population statistics computed beforehand (a view's, stored at build time in views.sqlite). */
export interface PopulationCounts {
  n: number;
  /** Content words over the population. */
  words: number;
  df(word: string): number;
}

export class Bm25Stats {
  readonly n: number;
  readonly avgdl: number;
  private readonly dfOf: (word: string) => number;
  readonly k1: number;
  readonly b: number;

  /** Statistics of `texts`, or of a population counted beforehand (same numbers, no pass over it). */
  constructor(texts: Iterable<string> | PopulationCounts, options: Bm25Options = {}) {
    this.k1 = options.k1 ?? 1.2;
    this.b = options.b ?? 0.75;
    if ("df" in texts && typeof texts.df === "function") {
      this.n = texts.n;
      this.avgdl = texts.n > 0 ? texts.words / texts.n : 1;
      this.dfOf = (w) => texts.df(w);
      return;
    }
    const df = new Map<string, number>();
    let n = 0;
    let total = 0;
    for (const t of texts as Iterable<string>) {
      const { tf, length } = termCounts(t);
      total += length;
      n++;
      for (const w of tf.keys()) df.set(w, (df.get(w) ?? 0) + 1);
    }
    this.n = n;
    this.avgdl = n > 0 ? total / n : 1;
    this.dfOf = (w) => df.get(w) ?? 0;
  }

  idf(word: string): number {
    const df = this.dfOf(word);
    return Math.log(1 + (this.n - df + 0.5) / (df + 0.5));
  }

  /** BM25 of `text` for the query words (pass `contentWords(query)`). */
  score(queryWords: readonly string[], text: string): number {
    if (queryWords.length === 0) return 0;
    const { tf, length } = termCounts(text);
    const norm = this.k1 * (1 - this.b + (this.b * length) / (this.avgdl || 1));
    let s = 0;
    for (const q of new Set(queryWords)) {
      const f = tf.get(q);
      if (!f) continue;
      s += (this.idf(q) * f * (this.k1 + 1)) / (f + norm);
    }
    return s;
  }
}

/** Plain BM25 top-k over a list of texts (ids = positions); ties by position. */
export function bm25TopK(
  stats: Bm25Stats,
  query: string,
  texts: readonly string[],
  k: number,
  ids?: readonly number[],
): Array<{ id: number; score: number }> {
  const q = contentWords(query);
  const pool = ids ?? texts.map((_, i) => i);
  const scored = pool.map((id) => ({ id, score: stats.score(q, texts[id]!) }));
  scored.sort((a, b) => b.score - a.score || a.id - b.id);
  return scored.slice(0, k);
}
