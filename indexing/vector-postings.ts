/**
 * The non-zero entries of a view's vectors by dimension (compressed sparse columns), for whole-view
 * scans of the exact backend. The offline embedder's vectors are sparse — a text's hashed words and
 * n-grams fill a quarter to two thirds of 512 dimensions — so a scan that visits, for each dimension
 * the query uses, only the vectors that have it does a fraction of a row-by-row scan's work.
 *
 * The scores are the very numbers the row scan computes (vector-index.ts `dot` and `scorer`): each
 * vector's terms are added in ascending dimension order into a float64 sum that starts at +0, and a
 * skipped term is a product with a zero factor, which adds nothing to such a sum (it never becomes -0:
 * round-to-nearest gives +0 for an exact cancellation). The vectors are finite (L2-normalised), so no
 * skipped term can be a NaN.
 */
export class VectorPostings {
  /** Entries of dimension j are at [starts[j], starts[j + 1]). */
  private readonly starts: Int32Array;
  private readonly ids: Int32Array;
  private readonly values: Float32Array;
  private readonly sums: Float64Array;

  constructor(
    vectors: Float32Array,
    readonly dim: number,
  ) {
    const n = dim > 0 ? vectors.length / dim : 0;
    const counts = new Int32Array(dim + 1);
    for (let off = 0; off < vectors.length; off += dim)
      for (let j = 0; j < dim; j++) if (vectors[off + j] !== 0) counts[j + 1]!++;
    for (let j = 0; j < dim; j++) counts[j + 1]! += counts[j]!;
    this.starts = counts;
    const fill = counts.slice(0, dim);
    this.ids = new Int32Array(counts[dim]!);
    this.values = new Float32Array(counts[dim]!);
    for (let id = 0, off = 0; id < n; id++, off += dim) {
      for (let j = 0; j < dim; j++) {
        const v = vectors[off + j]!;
        if (v === 0) continue;
        const at = fill[j]!++;
        this.ids[at] = id;
        this.values[at] = v;
      }
    }
    this.sums = new Float64Array(n);
  }

  /** Bytes held (ids, values and the score buffer), for callers that bound memory. */
  get bytes(): number {
    return this.ids.byteLength + this.values.byteLength + this.sums.byteLength + this.starts.byteLength;
  }

  /**
   * The inner product of `query` with every vector, in a buffer reused by the next call (read it
   * before scoring again).
   */
  scoreAll(query: Float32Array): Float64Array {
    const sums = this.sums;
    sums.fill(0);
    const { starts, ids, values } = this;
    for (let j = 0; j < this.dim; j++) {
      const w = query[j]!;
      if (w === 0) continue;
      for (let p = starts[j]!, end = starts[j + 1]!; p < end; p++) sums[ids[p]!]! += values[p]! * w;
    }
    return sums;
  }
}

/** Postings cost more memory than they save time beyond this many non-zero entries (~64 MB). */
export const MAX_POSTINGS = 8_000_000;

/** The non-zero entries of `vectors`, counted without building anything. */
export function nonZeroCount(vectors: Float32Array): number {
  let nnz = 0;
  for (let i = 0; i < vectors.length; i++) if (vectors[i] !== 0) nnz++;
  return nnz;
}

/** Below this many vectors a row scan is as quick and the postings are not worth their memory. */
export const MIN_POSTINGS_VECTORS = 1000;

/** Whole-view scans made row by row before the postings are built: building them costs about as much as 30 scans save. */
export const SCANS_BEFORE_POSTINGS = 32;
