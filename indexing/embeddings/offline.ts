/**
 * The offline default embedder ("offline-hash-v1"): no download, deterministic, fast.
 *
 * A text becomes a bag of hashed features — words, word bigrams and character 3/4-grams of each word
 * (so "Saint-Étienne", "saint etienne" and "St Etienne" share most of their mass) — folded into a
 * signed-hashing vector of `dimension` floats and L2-normalised. Numbers keep their digits as words
 * ("1,234" → "1234"), so surface forms of names, codes, years and amounts match exactly. Stop words
 * carry no weight. It is a lexical-semantic hybrid, not a neural model: strong on names and numbers,
 * blind to paraphrase.
 */
import { Embeddings } from "@langchain/core/embeddings";
import { contentWords } from "../../text/tokenise.js";
import { mixedHash32 } from "../hash.js";
import type { ChunkTokenizer, IndexEmbedder, TokenSpan } from "./types.js";

export const OFFLINE_MODEL_ID = "offline-hash-v1";

export interface OfflineEmbeddingsOptions {
  /** Vector dimension (default 512). */
  dimension?: number;
}

const WORD_WEIGHT = 1.0;
const BIGRAM_WEIGHT = 0.5;
const GRAM_MASS = 0.9; // L2 weight of one word's character n-grams (vs 1 for the word itself)

/** Adds one text's features into `out` (length = dimension), then L2-normalises it. */
export function embedInto(text: string, out: Float32Array): void {
  const dim = out.length;
  const counts = new Map<string, number>();
  const add = (key: string, w: number) => counts.set(key, (counts.get(key) ?? 0) + w);
  // Words like "name", "total", "amount" are stop words in questions but also column names: keep them.
  const words = contentWords(text, { keepHeaderWords: true });
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    add(`w ${w}`, WORD_WEIGHT);
    if (i > 0) add(`b ${words[i - 1]} ${w}`, BIGRAM_WEIGHT);
    if (w.length > 3 && !/^\d+$/.test(w)) {
      const padded = `<${w}>`;
      const n3 = padded.length - 2;
      const n4 = padded.length - 3;
      const each = GRAM_MASS / Math.sqrt(n3 + n4); // L2 mass of the n-grams ≈ GRAM_MASS
      for (let j = 0; j + 3 <= padded.length; j++) add(`g ${padded.slice(j, j + 3)}`, each);
      for (let j = 0; j + 4 <= padded.length; j++) add(`g ${padded.slice(j, j + 4)}`, each);
    }
  }
  for (const [key, c] of counts) {
    const h = mixedHash32(key);
    // sublinear term frequency; the sign bit de-biases collisions
    const weight = c <= 1 ? c : 1 + Math.log(c);
    out[h % dim] += h & 0x80000000 ? -weight : weight;
  }
  let norm = 0;
  for (let i = 0; i < dim; i++) norm += out[i]! * out[i]!;
  if (norm > 0) {
    const inv = 1 / Math.sqrt(norm);
    for (let i = 0; i < dim; i++) out[i]! *= inv;
  }
}

/**
 * Documented token approximation for chunk sizes ("approx-tokens"): every run of letters/digits
 * counts one token per started 6 characters (≈ word-piece splitting of long words), every other
 * non-space character is one token. English prose comes out at ≈1.2–1.3 tokens per word, close to
 * BGE-M3's tokenizer.
 */
export const approximateTokenizer: ChunkTokenizer = {
  unit: "approx-tokens",
  async spans(text: string): Promise<TokenSpan[]> {
    return approximateTokenSpans(text);
  },
};

export function approximateTokenSpans(text: string): TokenSpan[] {
  const spans: TokenSpan[] = [];
  const re = /[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu;
  for (const m of text.matchAll(re)) {
    const start = m.index!;
    const len = m[0].length;
    if (len <= 6) {
      spans.push([start, start + len]);
    } else {
      for (let p = 0; p < len; p += 6) spans.push([start + p, start + Math.min(len, p + 6)]);
    }
  }
  return spans;
}

export class OfflineHashEmbeddings extends Embeddings implements IndexEmbedder {
  readonly modelId = OFFLINE_MODEL_ID;
  readonly dimension: number;
  readonly tokenizer = approximateTokenizer;

  constructor(options: OfflineEmbeddingsOptions = {}) {
    super({});
    this.dimension = options.dimension ?? 512;
  }

  embedOne(text: string): Float32Array {
    const v = new Float32Array(this.dimension);
    embedInto(text, v);
    return v;
  }

  async embedMatrix(texts: string[], onProgress?: (done: number, total: number) => void): Promise<Float32Array> {
    const d = this.dimension;
    const out = new Float32Array(texts.length * d);
    for (let i = 0; i < texts.length; i++) {
      embedInto(texts[i]!, out.subarray(i * d, (i + 1) * d));
      if (onProgress && (i % 2000 === 1999 || i === texts.length - 1)) onProgress(i + 1, texts.length);
    }
    return out;
  }

  async embedDocuments(documents: string[]): Promise<number[][]> {
    return documents.map((t) => Array.from(this.embedOne(t)));
  }

  async embedQuery(document: string): Promise<number[]> {
    return Array.from(this.embedOne(document));
  }
}
