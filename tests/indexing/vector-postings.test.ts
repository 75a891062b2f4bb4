import { describe, expect, it } from "vitest";
import { ExactIndex, scorer } from "../../indexing/vector-index.js";
import {
  MIN_POSTINGS_VECTORS,
  nonZeroCount,
  SCANS_BEFORE_POSTINGS,
  VectorPostings,
} from "../../indexing/vector-postings.js";

/** Sparse unit vectors like the offline embedder's: `fill` of the dimensions non-zero, some negative. */
function sparseVectors(n: number, d: number, fill: number, seed = 11): Float32Array {
  const v = new Float32Array(n * d);
  let s = seed;
  const next = () => (s = (s * 16807) % 2147483647) / 2147483647;
  for (let i = 0; i < n; i++) {
    let norm = 0;
    for (let j = 0; j < d; j++) if (next() < fill) norm += (v[i * d + j] = next() - 0.5) ** 2;
    for (let j = 0; j < d; j++) if (norm > 0) v[i * d + j]! /= Math.sqrt(norm);
  }
  return v;
}

describe("vector postings (whole-view scans by dimension)", () => {
  const d = 64;
  const n = MIN_POSTINGS_VECTORS + 200;
  const vectors = sparseVectors(n, d, 0.3);

  it("gives every vector the very score of the row scan, for sparse and dense queries", () => {
    const postings = new VectorPostings(vectors, d);
    for (const [fill, seed] of [
      [0.1, 3],
      [0.9, 5],
    ] as const) {
      const q = sparseVectors(1, d, fill, seed);
      const rowScore = scorer(vectors, d, q);
      const sums = postings.scoreAll(q);
      const differing = [...Array(n).keys()].filter((id) => !Object.is(sums[id], rowScore(id)));
      expect(differing).toEqual([]);
    }
  });

  it("holds only the non-zero entries", () => {
    const postings = new VectorPostings(vectors, d);
    const nnz = nonZeroCount(vectors);
    expect(nnz).toBeLessThan(vectors.length * 0.4);
    expect(postings.bytes).toBe(nnz * 8 + n * 8 + (d + 1) * 4);
  });

  it("an exact index answers whole-view searches with the same hits before and after it builds them", () => {
    const index = new ExactIndex(vectors, d);
    const rowScan = new ExactIndex(vectors, d); // a range search always scans row by row
    for (let i = 0; i < SCANS_BEFORE_POSTINGS + 8; i++) {
      const q = sparseVectors(1, d, i % 2 ? 0.15 : 0.8, 100 + i);
      expect(index.search(q, 9)).toEqual(rowScan.search(q, 9, { range: { start: 0, end: n } }));
    }
    expect((index as unknown as { postings?: unknown }).postings).toBeInstanceOf(VectorPostings);
  });

  it("keeps scanning row by row when the vectors are dense (postings would cost more than they save)", () => {
    const dense = sparseVectors(n, d, 1);
    const index = new ExactIndex(dense, d);
    for (let i = 0; i <= SCANS_BEFORE_POSTINGS; i++) index.search(sparseVectors(1, d, 0.5, 7 + i), 3);
    expect((index as unknown as { postings?: unknown }).postings).toBeNull();
  });
});
