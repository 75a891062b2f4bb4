import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { ExactIndex, VectorFile, writeVectors } from "../../indexing/vector-index.js";
import { DenseView } from "../../retrievers/dense-recall.js";

const root = mkdtempSync(join(tmpdir(), "atr-search-caches-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function view(name: string, vectors: number[][]): Promise<DenseView<{ text: string }>> {
  const path = join(root, `${name}.f32`);
  await writeVectors(path, new Float32Array(vectors.flat()));
  return new DenseView({} as never, new VectorFile(path, 2, vectors.length), "exact");
}

describe("a view's recent searches", () => {
  it("are kept per view (two indexes in one process do not share them) and per size and restriction", async () => {
    const a = await view("a", [
      [1, 0],
      [0, 1],
      [0.5, 0.5],
    ]);
    const b = await view("b", [
      [0, 1],
      [1, 0],
      [0.5, 0.5],
    ]);
    const q = new Float32Array([1, 0]);
    const scans = vi.spyOn(ExactIndex.prototype, "search");
    expect(a.search(q, 1)).toEqual([{ id: 0, score: 1 }]);
    expect(a.search(q, 1)).toEqual([{ id: 0, score: 1 }]);
    expect(scans).toHaveBeenCalledTimes(1); // the second search was remembered
    expect(b.search(q, 1)).toEqual([{ id: 1, score: 1 }]); // the other index: its own vectors
    expect(a.search(q, 2).map((h) => h.id)).toEqual([0, 2]);
    expect(a.search(q, 1, { range: { start: 1, end: 3 } })).toEqual([{ id: 2, score: 0.5 }]);
    expect(a.search(q, 1, { ids: [1] })).toEqual([{ id: 1, score: 0 }]);
    expect(scans).toHaveBeenCalledTimes(5);
    // a caller changing its hits does not change what the next caller gets
    a.search(q, 1)[0]!.id = 99;
    expect(a.search(q, 1)).toEqual([{ id: 0, score: 1 }]);
    scans.mockRestore();
  });
});
