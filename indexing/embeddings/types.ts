/**
 * What the index build needs from an embedder beyond LangChain's `Embeddings`: a name and dimension
 * for the manifest, and the tokenizer that measures chunk sizes.
 */
import type { Embeddings } from "@langchain/core/embeddings";

/** Character span [start, end) of one token in the text it was counted on. */
export type TokenSpan = [number, number];

export interface ChunkTokenizer {
  /** Recorded as BuildSettings.chunkUnit: "tokens" (real tokenizer) or "approx-tokens". */
  unit: string;
  /** Token spans of `text` in order, without special tokens. */
  spans(text: string): Promise<TokenSpan[]>;
}

/** An embedder usable for the index: L2-normalised vectors of a fixed dimension. */
export interface IndexEmbedder extends Embeddings {
  /** Recorded as BuildSettings.embeddingModel. */
  readonly modelId: string;
  readonly dimension: number;
  readonly tokenizer: ChunkTokenizer;
  /** Embeds many texts into one row-major Float32Array (n × dimension), batching internally. */
  embedMatrix(texts: string[], onProgress?: (done: number, total: number) => void): Promise<Float32Array>;
}
