/** Recall × multiplier (reference §4.2). */

export class RecallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RecallError";
  }
}

/** Default candidate multiplier (`--rerank_candidate_multiplier`). */
export const DEFAULT_RECALL_MULTIPLIER = 6;

/** min(population, topK × multiplier); topK ≥ 0 and multiplier ≥ 1 integers. */
export function recallSize(topK: number, population: number, multiplier = DEFAULT_RECALL_MULTIPLIER): number {
  if (!Number.isInteger(topK) || topK < 0) throw new RecallError(`top_k must be a non-negative integer, got ${topK}`);
  if (!Number.isInteger(multiplier) || multiplier < 1)
    throw new RecallError(`rerank_candidate_multiplier must be an integer ≥ 1, got ${multiplier}`);
  return Math.max(0, Math.min(population, topK * multiplier));
}
