import { describe, expect, it } from "vitest";
import { OfflineHashEmbeddings } from "../../indexing/embeddings/offline.js";
import { createEmbedder } from "../../indexing/embeddings/index.js";
import { ModelFolderError, TransformersEmbeddings } from "../../indexing/embeddings/transformers.js";
import { buildTinyEmbeddingModel } from "../fixtures/tiny-models.js";
import { buildTinyIndex, CLUBS } from "../fixtures/tiny-index.js";

function cos(a: number[], b: number[]): number {
  return a.reduce((s, x, i) => s + x * b[i]!, 0);
}
const norm = (a: number[]) => Math.sqrt(cos(a, a));

describe("offline embedder", () => {
  const e = new OfflineHashEmbeddings();

  it("is deterministic, 512-d and L2-normalised", async () => {
    const [a, b] = await e.embedDocuments(["Saint-Étienne 1971", "Saint-Étienne 1971"]);
    expect(a).toHaveLength(512);
    expect(a).toEqual(b);
    expect(norm(a!)).toBeCloseTo(1, 5);
    expect(await e.embedQuery("Saint-Étienne 1971")).toEqual(a);
  });

  it("matches surface forms of names and numbers", async () => {
    const q = await e.embedQuery("saint etienne");
    const [same, other] = await e.embedDocuments(["Saint-Étienne", "Lyon"]);
    expect(cos(q, same!)).toBeGreaterThan(0.9);
    expect(cos(q, same!)).toBeGreaterThan(cos(q, other!) + 0.5);
    const [n1, n2, n3] = await e.embedDocuments(["population 12,467", "population 12467", "population 12468"]);
    expect(cos(n1!, n2!)).toBeCloseTo(1, 5);
    expect(cos(n1!, n3!)).toBeLessThan(0.9);
    // character n-grams: a misspelling stays close
    const [m1, m2, m3] = await e.embedDocuments(["Kristoffersson", "Kristofferson", "Andersson"]);
    expect(cos(m1!, m2!)).toBeGreaterThan(0.4);
    expect(cos(m1!, m2!)).toBeGreaterThan(cos(m1!, m3!) + 0.2);
  });

  it("embeds many texts into one matrix, row by row", async () => {
    const m = await e.embedMatrix(["alpha", "beta"]);
    expect(m.length).toBe(1024);
    expect(Array.from(m.subarray(512))).toEqual(await e.embedQuery("beta"));
  });
});

describe("transformers.js model folder (tiny BERT built by the test)", () => {
  it("mean-pools by default, L2-normalises, and ranks shared words higher", async () => {
    const emb = await TransformersEmbeddings.load(buildTinyEmbeddingModel("tiny-bert"));
    expect(emb.pooling).toBe("mean");
    expect(emb.dimension).toBe(32);
    const [a, b, c] = await emb.embedDocuments(["alpha club paris", "alpha club", "river mountain"]);
    expect(norm(a!)).toBeCloseTo(1, 5);
    expect(cos(a!, b!)).toBeGreaterThan(cos(a!, c!) + 0.3);
  });

  it("uses CLS pooling for BGE folders (every vector is the [CLS] embedding here)", async () => {
    const emb = await TransformersEmbeddings.load(buildTinyEmbeddingModel("bge-m3-tiny"));
    expect(emb.pooling).toBe("cls");
    const [a, c] = await emb.embedDocuments(["alpha club", "river mountain"]);
    expect(cos(a!, c!)).toBeCloseTo(1, 5);
  });

  it("counts chunk tokens with the model's tokenizer", async () => {
    const emb = await TransformersEmbeddings.load(buildTinyEmbeddingModel());
    expect(emb.tokenizer.unit).toBe("tokens");
    // "clubs" → club ##s (2 tokens), "alpha" 1, "zzz" [UNK] 1
    expect(await emb.tokenizer.spans("alpha clubs zzz")).toHaveLength(4);
  });

  it("refuses a folder without model files, naming what is missing (no download)", async () => {
    await expect(createEmbedder("/nonexistent/model")).rejects.toThrow(ModelFolderError);
    await expect(createEmbedder("/nonexistent/model")).rejects.toThrow(/onnx\/model\.onnx/);
  });

  it("builds and searches an index with the model folder", async () => {
    const folder = buildTinyEmbeddingModel();
    const index = await buildTinyIndex([CLUBS], [], { embeddingModel: folder });
    expect(index.manifest.settings).toMatchObject({
      embeddingModel: "tiny-bert",
      embeddingDim: 32,
      chunkUnit: "tokens",
    });
    const search = await index.open();
    const hits = await search.rows("paris", 1, { tableId: "clubs" });
    expect(hits[0]!.entry.values.City).toBe("Paris");
  });
});
