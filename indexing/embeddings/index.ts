/**
 * Chooses the embedder: the offline hashed embedder by default, or a local transformers.js model
 * folder (BGE-M3 or any feature-extraction model) when a path is given.
 */
import { OFFLINE_MODEL_ID, OfflineHashEmbeddings } from "./offline.js";
import type { IndexEmbedder } from "./types.js";

export { OFFLINE_MODEL_ID, OfflineHashEmbeddings } from "./offline.js";
export type { ChunkTokenizer, IndexEmbedder, TokenSpan } from "./types.js";

/**
 * `modelPath` undefined (or "offline-hash-v1") → the offline embedder of `dimension` (default 512);
 * otherwise a local model folder loaded with transformers.js, remote loading disabled.
 */
export async function createEmbedder(modelPath?: string, dimension?: number): Promise<IndexEmbedder> {
  if (modelPath === undefined || modelPath === "" || modelPath === OFFLINE_MODEL_ID) {
    return new OfflineHashEmbeddings({ dimension });
  }
  const { TransformersEmbeddings } = await import("./transformers.js");
  return TransformersEmbeddings.load(modelPath);
}
