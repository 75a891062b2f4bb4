/**
 * The project's one non-cryptographic string hash: FNV-1a 32-bit, optionally followed by the
 * murmur3 finaliser (feature hashing and the offline embedder need well-mixed low bits). The
 * variants differ only in how much of the finaliser they apply; each is pinned by something
 * persisted, so none may change: the offline embedder's vectors (every built index), the learned
 * router's feature slots (the student models under training/models/) and the verifier's training
 * folds.
 */

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Plain FNV-1a 32-bit of the UTF-16 code units (the verifier's cross-validation folds). */
export function fnv1a32(text: string, seed = FNV_OFFSET): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME);
  }
  return h >>> 0;
}

/** FNV-1a with the full murmur3 finaliser (the offline embedder's token and n-gram slots). */
export function mixedHash32(text: string, seed = FNV_OFFSET): number {
  let h = fnv1a32(text, seed);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * FNV-1a with the first three steps of the finaliser: the learned router's feature slots, as the
 * committed student models were trained (changing it would scramble their inputs).
 */
export function routerFeatureHash32(text: string): number {
  let h = fnv1a32(text);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}
