import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ExactIndex,
  FaissIndex,
  loadFaiss,
  openVectorIndex,
  readVectors,
  VectorFile,
  VectorFileError,
  vectorBackendName,
  writeVectors,
} from "../../indexing/vector-index.js";

function randomUnitVectors(n: number, d: number, seed = 7): Float32Array {
  const v = new Float32Array(n * d);
  let s = seed;
  for (let i = 0; i < v.length; i++) {
    s = (s * 16807) % 2147483647;
    v[i] = s / 2147483647 - 0.5;
  }
  for (let i = 0; i < n; i++) {
    let norm = 0;
    for (let j = 0; j < d; j++) norm += v[i * d + j]! ** 2;
    for (let j = 0; j < d; j++) v[i * d + j]! /= Math.sqrt(norm);
  }
  return v;
}

function bruteForce(v: Float32Array, d: number, q: Float32Array, k: number, ids: number[]) {
  return ids
    .map((id) => ({ id, score: Array.from(q).reduce((s, x, j) => s + x * v[id * d + j]!, 0) }))
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .slice(0, k)
    .map((h) => h.id);
}

describe("exact inner-product index", () => {
  const d = 24;
  const v = randomUnitVectors(300, d);
  const index = new ExactIndex(v, d);
  const q = randomUnitVectors(1, d, 99);

  it("returns the true top-k in descending score order", () => {
    const hits = index.search(q, 7);
    expect(hits.map((h) => h.id)).toEqual(bruteForce(v, d, q, 7, [...Array(300).keys()]));
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
  });

  it("searches only inside a range or an id list", () => {
    const inRange = index.search(q, 5, { range: { start: 100, end: 140 } });
    expect(inRange.map((h) => h.id)).toEqual(
      bruteForce(
        v,
        d,
        q,
        5,
        [...Array(40).keys()].map((i) => i + 100),
      ),
    );
    expect(
      index
        .search(q, 10, { ids: [3, 9] })
        .map((h) => h.id)
        .sort(),
    ).toEqual([3, 9]);
  });

  it("breaks ties by the lower id", () => {
    const same = new Float32Array([1, 0, 1, 0, 1, 0]);
    expect(new ExactIndex(same, 2).search(new Float32Array([1, 0]), 3).map((h) => h.id)).toEqual([0, 1, 2]);
  });
});

describe("vector files", () => {
  it("round-trips float32 row-major vectors and refuses a count mismatch", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atr-vec-"));
    const v = randomUnitVectors(5, 8);
    await writeVectors(join(dir, "x.f32"), v);
    expect(Array.from(await readVectors(join(dir, "x.f32"), 8, 5))).toEqual(Array.from(v));
    await expect(readVectors(join(dir, "x.f32"), 8, 6)).rejects.toThrow(VectorFileError);
    await expect(readVectors(join(dir, "x.f32"), 8, 6)).rejects.toThrow(/rebuild the index/);
  });
});

describe("FAISS backend", () => {
  const faiss = loadFaiss();
  it("names the backend in use", () => {
    expect(vectorBackendName()).toMatch(faiss ? /^faiss/ : /^exact/);
    expect(openVectorIndex(randomUnitVectors(3, 4), 4, "exact").backend).toBe("exact");
  });

  it.skipIf(!faiss)(
    "gives the same top-k as the exact index (skipped: faiss-node is not loadable here — run scripts/build-faiss-node.sh as root)",
    () => {
      const d = 32;
      const v = randomUnitVectors(2000, d, 3);
      const exact = new ExactIndex(v, d);
      const f = new FaissIndex(faiss!, v, d);
      for (let t = 0; t < 5; t++) {
        const q = randomUnitVectors(1, d, 1000 + t);
        expect(f.search(q, 10).map((h) => h.id)).toEqual(exact.search(q, 10).map((h) => h.id));
        const range = { start: 500, end: 620 };
        expect(f.search(q, 10, { range }).map((h) => h.id)).toEqual(exact.search(q, 10, { range }).map((h) => h.id));
        const fs = f.search(q, 3);
        const es = exact.search(q, 3);
        fs.forEach((h, i) => expect(h.score).toBeCloseTo(es[i]!.score, 4));
      }
    },
  );
});

describe("sparse query scoring", () => {
  it("scores a sparse query (the offline embedder's) with the same numbers as the full inner product", async () => {
    const { OfflineHashEmbeddings } = await import("../../indexing/embeddings/offline.js");
    const { dot, scorer } = await import("../../indexing/vector-index.js");
    const d = 512;
    const texts = ["Kareville has 1,000 people", "Tenoville, 2021-09-06", "score of Boki Volemi", "highest score", ""];
    const emb = new OfflineHashEmbeddings({ dimension: d });
    const docs = new Float32Array((await emb.embedDocuments(texts)).flat());
    const sparse = (
      await emb.embedDocuments(["What is the score of Boki Volemi?", "how many people are from kareville"])
    ).map((q) => Float32Array.from(q));
    const dense = randomUnitVectors(1, d);
    for (const q of sparse) expect(q.filter((x) => x !== 0).length * 4).toBeLessThanOrEqual(d); // the sparse path
    expect(dense.filter((x) => x !== 0).length * 4).toBeGreaterThan(d); // the full one
    for (const query of [...sparse, dense]) {
      const score = scorer(docs, d, query);
      for (let id = 0; id < texts.length; id++) expect(score(id)).toBe(dot(docs, id, d, query));
    }
    const index = new ExactIndex(docs, d);
    expect(index.search(sparse[0]!, 1)[0]!.id).toBe(2);
  });
});

describe("the column-major exact index (a whole view)", () => {
  const d = 32;
  const v = randomUnitVectors(400, d, 3);
  const rows = new ExactIndex(v, d);
  const columns = new ExactIndex(v, d, "columns");
  // a sparse query (few non-zero dimensions, as the offline embedder's) and a dense one
  const sparse = new Float32Array(d);
  [2, 7, 19, 30].forEach((j, i) => (sparse[j] = (i % 2 ? -1 : 1) * (0.3 + i / 10)));
  const dense = randomUnitVectors(1, d, 11);

  it("gives every hit and score of the row-major scan, bit for bit", () => {
    for (const q of [sparse, dense]) {
      expect(columns.search(q, 25)).toEqual(rows.search(q, 25));
      expect(columns.search(q, 6, { range: { start: 50, end: 120 } })).toEqual(
        rows.search(q, 6, { range: { start: 50, end: 120 } }),
      );
      const ids = [399, 4, 77, 78, 200, 5];
      expect(columns.search(q, 4, { ids })).toEqual(rows.search(q, 4, { ids }));
      for (const id of [0, 123, 399]) expect(columns.score(q, id)).toBe(rows.score(q, id));
    }
  });

  it("is what openVectorIndex gives for the exact backend, from vectors or from a file read a block at a time", async () => {
    const index = openVectorIndex(v, d, "exact");
    expect(index.backend).toBe("exact");
    expect(index.search(sparse, 10)).toEqual(rows.search(sparse, 10));
    // 5,000 vectors: more than one block of the copy
    const many = randomUnitVectors(5000, d, 5);
    const path = join(mkdtempSync(join(tmpdir(), "atr-vec-")), "m.f32");
    await writeVectors(path, many);
    const file = new VectorFile(path, d, 5000);
    const fromFile = openVectorIndex(file, d, "exact");
    const whole = new ExactIndex(many, d);
    for (const q of [sparse, dense]) expect(fromFile.search(q, 30)).toEqual(whole.search(q, 30));
    file.close();
  });
});
