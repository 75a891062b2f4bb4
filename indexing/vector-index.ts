/**
 * Vector indices for Views 1–4: exact inner product over L2-normalised float32 vectors.
 *
 * On disk every view stores its vectors in ONE backend-neutral file, `<view>.f32`: float32,
 * little-endian, row-major (n × dim), with `dim` recorded in manifest settings (embeddingDim) — so an
 * index built on a machine with FAISS opens on one without it and vice versa. The backend is chosen
 * when the index is opened: faiss-node's `IndexFlatIP` where the native module loads, else an exact
 * in-process inner-product scan with the same results (same scores up to float rounding; ties broken
 * by the lower entry id in both).
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";

export class VectorFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "VectorFileError";
  }
}

export interface VectorHit {
  id: number;
  score: number;
}

/** A search over a contiguous id range [start, end) restricts the scan to those vectors (per-table rows). */
export interface IdRange {
  start: number;
  end: number;
}

export interface VectorIndex {
  readonly size: number;
  readonly dim: number;
  /** Backend that answers `search` ("faiss" | "exact"). */
  readonly backend: string;
  /** Top-k by inner product, descending; ties by ascending id. Restricted to `ids` or `range` when given. */
  search(query: Float32Array, k: number, restrict?: { range?: IdRange; ids?: readonly number[] }): VectorHit[];
  /** Inner product of the query with vector `id` (for re-scoring a candidate pool). */
  score(query: Float32Array, id: number): number;
}

export async function writeVectors(path: string, vectors: Float32Array): Promise<void> {
  const buf = Buffer.from(vectors.buffer, vectors.byteOffset, vectors.byteLength);
  await writeFile(path, buf);
}

export async function readVectors(path: string, dim: number, expectedCount: number): Promise<Float32Array> {
  const buf = await readFile(path);
  if (buf.byteLength !== expectedCount * dim * 4) {
    throw new VectorFileError(
      `${path}: holds ${buf.byteLength / 4 / Math.max(dim, 1)} vectors of dim ${dim}, but the view has ${expectedCount} entries — rebuild the index`,
    );
  }
  // copy into an aligned buffer (Buffer slices may be unaligned for Float32Array)
  const out = new Float32Array(expectedCount * dim);
  new Uint8Array(out.buffer).set(buf);
  return out;
}

/**
 * A `<view>.f32` file held open from the moment the index opens (so a rebuild that replaces the
 * directory does not change what this process reads) and read lazily: `range` reads only the
 * vectors asked for (one table's rows), `all` reads the file once and keeps it.
 */
export class VectorFile {
  private fd: number | undefined;
  private whole?: Float32Array;
  readonly count: number;
  constructor(
    readonly path: string,
    readonly dim: number,
    expectedCount: number,
  ) {
    this.fd = openSync(path, "r");
    const bytes = fstatSync(this.fd).size;
    if (bytes !== expectedCount * dim * 4) {
      closeSync(this.fd);
      throw new VectorFileError(
        `${path}: holds ${bytes / 4 / Math.max(dim, 1)} vectors of dim ${dim}, but the view has ${expectedCount} entries — rebuild the index`,
      );
    }
    this.count = expectedCount;
  }
  /** Vectors [start, end) as one row-major array. */
  range(start: number, end: number): Float32Array {
    if (this.whole) return this.whole.subarray(start * this.dim, end * this.dim);
    if (this.fd === undefined) throw new VectorFileError(`${this.path}: read after the index was closed`);
    const out = new Float32Array(Math.max(0, end - start) * this.dim);
    const bytes = new Uint8Array(out.buffer);
    let done = 0;
    while (done < bytes.length) {
      const n = readSync(this.fd, bytes, done, bytes.length - done, start * this.dim * 4 + done);
      if (n <= 0) throw new VectorFileError(`${this.path}: ended early — rebuild the index`);
      done += n;
    }
    return out;
  }
  all(): Float32Array {
    return (this.whole ??= this.range(0, this.count));
  }
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Keeps the best k (score desc, id asc) in a small sorted array: O(n log k) without sorting n. */
class TopK {
  readonly ids: number[] = [];
  readonly scores: number[] = [];
  constructor(private readonly k: number) {}
  push(id: number, score: number): void {
    const n = this.ids.length;
    if (n === this.k) {
      const lastScore = this.scores[n - 1]!;
      if (score < lastScore || (score === lastScore && id > this.ids[n - 1]!)) return;
    }
    let pos = n;
    while (pos > 0) {
      const s = this.scores[pos - 1]!;
      if (s > score || (s === score && this.ids[pos - 1]! < id)) break;
      pos--;
    }
    this.ids.splice(pos, 0, id);
    this.scores.splice(pos, 0, score);
    if (this.ids.length > this.k) {
      this.ids.pop();
      this.scores.pop();
    }
  }
  hits(): VectorHit[] {
    return this.ids.map((id, i) => ({ id, score: this.scores[i]! }));
  }
}

export function dot(vectors: Float32Array, id: number, dim: number, query: Float32Array): number {
  let s = 0;
  const off = id * dim;
  for (let j = 0; j < dim; j++) s += vectors[off + j]! * query[j]!;
  return s;
}

/**
 * The inner product with `query` by vector id. The offline embedder's vectors are sparse (a text's
 * hashed words and n-grams fill a few dozen of 512 dimensions): when at most a quarter of the query's
 * dimensions are non-zero, only those are multiplied — in the same order, so every score is the same
 * number `dot` gives (the skipped terms are zeros, and adding a zero to a sum leaves it unchanged).
 */
export function scorer(vectors: Float32Array, dim: number, query: Float32Array): (id: number) => number {
  let nnz = 0;
  for (let j = 0; j < dim; j++) if (query[j] !== 0) nnz++;
  if (nnz * 4 > dim) return (id) => dot(vectors, id, dim, query);
  const at = new Int32Array(nnz);
  const w = new Float64Array(nnz);
  for (let j = 0, i = 0; j < dim; j++) {
    if (query[j] !== 0) {
      at[i] = j;
      w[i++] = query[j]!;
    }
  }
  return (id) => {
    let s = 0;
    const off = id * dim;
    for (let i = 0; i < nnz; i++) s += vectors[off + at[i]!]! * w[i]!;
    return s;
  };
}

/** The dimensions `scorer` multiplies, in order: the non-zero ones when at most a quarter are, else every one. */
function queryDims(query: Float32Array, dim: number): number[] {
  const nonZero: number[] = [];
  for (let j = 0; j < dim; j++) if (query[j] !== 0) nonZero.push(j);
  return nonZero.length * 4 > dim ? Array.from({ length: dim }, (_, j) => j) : nonZero;
}

/**
 * Exact inner-product scan (the in-process backend). Layout "rows" scans the vectors as stored;
 * "columns" (a whole view, searched on every question) keeps a transposed copy instead — one array
 * per dimension — so a query of a few dozen non-zero dimensions reads those arrays front to back
 * rather than a few floats of every 2 KB vector (about 4× faster over 43,000 chunks). Each score is
 * the same sum, added in the same order of dimensions, as `scorer`'s.
 */
export class ExactIndex implements VectorIndex {
  readonly backend: string = "exact";
  readonly size: number;
  private readonly rows?: Float32Array;
  /** columns[j * size + id] = vector id's dimension j. */
  private readonly columns?: Float32Array;
  /** `vectors` row-major; with layout "columns" they are copied (a VectorFile is read a block at a time, not held). */
  constructor(
    vectors: Float32Array | VectorFile,
    readonly dim: number,
    layout: "rows" | "columns" = "rows",
  ) {
    const rows = vectors instanceof VectorFile ? undefined : vectors;
    this.size = rows ? (dim > 0 ? rows.length / dim : 0) : (vectors as VectorFile).count;
    if (layout === "rows") {
      this.rows = rows ?? (vectors as VectorFile).all();
      return;
    }
    const n = this.size;
    const columns = new Float32Array(n * dim);
    const BLOCK = 4096;
    for (let start = 0; start < n; start += BLOCK) {
      const end = Math.min(n, start + BLOCK);
      const block = rows ? rows.subarray(start * dim, end * dim) : (vectors as VectorFile).range(start, end);
      for (let id = start; id < end; id++) {
        const off = (id - start) * dim;
        for (let j = 0; j < dim; j++) columns[j * n + id] = block[off + j]!;
      }
    }
    this.columns = columns;
  }
  score(query: Float32Array, id: number): number {
    if (this.rows) return dot(this.rows, id, this.dim, query);
    let s = 0;
    for (let j = 0; j < this.dim; j++) s += this.columns![j * this.size + id]! * query[j]!;
    return s;
  }
  search(query: Float32Array, k: number, restrict?: { range?: IdRange; ids?: readonly number[] }): VectorHit[] {
    if (k <= 0 || this.size === 0) return [];
    const top = new TopK(k);
    const start = restrict?.range?.start ?? 0;
    const end = Math.min(restrict?.range?.end ?? this.size, this.size);
    if (this.columns) {
      const n = this.size;
      const ids = restrict?.ids;
      const sums = new Float64Array(ids ? ids.length : Math.max(0, end - start));
      for (const j of queryDims(query, this.dim)) {
        const w = query[j]!;
        const base = j * n;
        if (ids) for (let i = 0; i < ids.length; i++) sums[i]! += this.columns[base + ids[i]!]! * w;
        else for (let i = 0; i < sums.length; i++) sums[i]! += this.columns[base + start + i]! * w;
      }
      if (ids) ids.forEach((id, i) => top.push(id, sums[i]!));
      else for (let i = 0; i < sums.length; i++) top.push(start + i, sums[i]!);
      return top.hits();
    }
    const score = scorer(this.rows!, this.dim, query);
    if (restrict?.ids) {
      for (const id of restrict.ids) top.push(id, score(id));
    } else {
      for (let id = start; id < end; id++) top.push(id, score(id));
    }
    return top.hits();
  }
}

// ---------------------------------------------------------------- FAISS backend (optional)

interface FaissIndexFlatIP {
  add(x: number[]): void;
  search(x: number[], k: number): { distances: number[]; labels: number[] };
  ntotal(): number;
}
interface FaissModule {
  IndexFlatIP: new (d: number) => FaissIndexFlatIP;
}

let faissModule: FaissModule | null | undefined;

/** Loads faiss-node once; null when it is not installed or its native module does not load. */
export function loadFaiss(): FaissModule | null {
  if (faissModule !== undefined) return faissModule;
  try {
    const require = createRequire(import.meta.url);
    const mod = require("faiss-node") as FaissModule & { default?: FaissModule };
    const m = mod.IndexFlatIP ? mod : mod.default!;
    // a smoke test: the JS wrapper can exist while the .node binary is missing
    const probe = new m.IndexFlatIP(2);
    probe.add([1, 0]);
    probe.search([1, 0], 1);
    faissModule = m;
  } catch {
    faissModule = null;
  }
  return faissModule;
}

/** "faiss (faiss-node IndexFlatIP)" or "exact (in-process inner product)" — for `atr doctor`. */
export function vectorBackendName(): string {
  return loadFaiss() ? "faiss (faiss-node IndexFlatIP)" : "exact (in-process inner product)";
}

/**
 * IndexFlatIP over the same vectors, built on the first unrestricted search (faiss-node copies every
 * float through N-API, about 0.5 s per million floats, so opening an index stays instant). Restricted
 * searches (one table's rows, a scope of tables) scan exactly — as the reference's per-table exact
 * sub-index did — with the same results.
 */
export class FaissIndex implements VectorIndex {
  readonly backend = "faiss";
  readonly size: number;
  private full?: FaissIndexFlatIP;
  private readonly exact: ExactIndex;
  constructor(
    private readonly faiss: FaissModule,
    readonly vectors: Float32Array,
    readonly dim: number,
  ) {
    this.size = dim > 0 ? vectors.length / dim : 0;
    this.exact = new ExactIndex(vectors, dim);
  }
  score(query: Float32Array, id: number): number {
    return dot(this.vectors, id, this.dim, query);
  }
  search(query: Float32Array, k: number, restrict?: { range?: IdRange; ids?: readonly number[] }): VectorHit[] {
    if (restrict) return this.exact.search(query, k, restrict);
    const kk = Math.min(k, this.size);
    if (kk <= 0) return [];
    if (!this.full) {
      this.full = new this.faiss.IndexFlatIP(this.dim);
      this.full.add(Array.from(this.vectors));
    }
    const r = this.full.search(Array.from(query), kk);
    const hits: VectorHit[] = [];
    for (let i = 0; i < r.labels.length; i++)
      if (r.labels[i]! >= 0) hits.push({ id: r.labels[i]!, score: r.distances[i]! });
    // same tie order as the exact backend
    hits.sort((a, b) => b.score - a.score || a.id - b.id);
    return hits;
  }
}

/**
 * Opens the best available backend over these vectors (row-major, or a file read whole for FAISS and
 * a block at a time for the exact backend's column-major copy). `backend` forces one ("exact" | "faiss").
 */
export function openVectorIndex(
  vectors: Float32Array | VectorFile,
  dim: number,
  backend?: "exact" | "faiss",
): VectorIndex {
  if (backend !== "exact") {
    const faiss = loadFaiss();
    if (faiss) return new FaissIndex(faiss, vectors instanceof VectorFile ? vectors.all() : vectors, dim);
    if (backend === "faiss")
      throw new VectorFileError("faiss-node is not loadable here (see scripts/build-faiss-node.sh)");
  }
  return new ExactIndex(vectors, dim, "columns");
}
