/**
 * `atr run --max_workers 2 --worker_mode thread` with every transformers.js model at once — a
 * DistilBERT-format router, a cross-encoder reranker and an index built with a model embedder, all
 * tiny ones the test builds (tests/fixtures/tiny-models.ts; nothing is downloaded) — writes the
 * records one thread writes. Before indexing/embeddings/transformers.ts ran these models on
 * onnxruntime-web off the main thread, the second worker thread's session aborted the whole process
 * (onnxruntime-node 1.21.0: `FATAL ERROR: … HandleScope …`, exit 134). The models' folders and the
 * index live in the test run's temporary folder (tests/setup/temp-dir.ts).
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, spawnAtr } from "../fixtures/spawn-atr.js";
import { readRecords, timeless } from "../fixtures/run-records.js";
import { buildTinyCrossEncoder, buildTinyEmbeddingModel, buildTinySequenceRouter } from "../fixtures/tiny-models.js";

let dir: string;
let index: string;
let router: string;
let reranker: string;
let questions: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "atr-onnx-workers-"));
  // Four questions of the example corpus: two a thread, so both threads run the models.
  questions = join(dir, "questions.jsonl");
  writeFileSync(
    questions,
    readFileSync(join(ROOT, "examples/questions.jsonl"), "utf8").trim().split("\n").slice(0, 4).join("\n") + "\n",
  );
  // [CLS] puts RETRIEVE first on every input (the records show the model routed); the words order the rest.
  router = buildTinySequenceRouter({
    modelType: "distilbert",
    inputVersion: 2,
    wordLogits: {
      "[CLS]": [0, 0, 5000, 0],
      count: [0, 30, 0, 10],
      lookup: [0, 5, 10, 30],
      passage: [30, 0, 5, 0],
      text: [20, 10, 0, 0],
    },
  });
  reranker = buildTinyCrossEncoder(["club", "city", "founded"]);
  const embedder = buildTinyEmbeddingModel();
  index = join(dir, "index");
  const built = await spawnAtr([
    "build-index",
    "--excel_dir",
    "examples/tables",
    "--doc_dir",
    "examples/docs",
    "--save_path",
    index,
    "--embedding_model",
    embedder,
    "--quiet",
  ]);
  expect(built.code, built.stderr).toBe(0);
}, 120_000);

describe("atr run on worker threads with transformers.js models", () => {
  it("the DistilBERT router, the cross-encoder and the model embedder give the records of --max_workers 1", async () => {
    const run = (name: string, ...more: string[]) =>
      spawnAtr(
        [
          "run",
          "--data_file_path",
          questions,
          "--index_path",
          index,
          "--save_file_path",
          join(dir, `${name}.jsonl`),
          "--no_progress",
          "--emit_trace",
          "--router_type",
          "learned",
          "--router_model_path",
          router,
          "--reranker_path",
          reranker,
          ...more,
        ],
        {},
        120_000,
      );
    const [one, threads] = await Promise.all([
      run("one", "--max_workers", "1"),
      run("threads", "--max_workers", "2", "--worker_mode", "thread"),
    ]);
    expect(one.code, one.stderr).toBe(0);
    expect(threads.code, threads.stderr).toBe(0);
    expect(threads.stderr).toContain("answering on 2 worker threads");
    // Both threads answered, so both opened the models' sessions.
    expect(threads.stderr).toMatch(/2 answer thread\(s\): #1 [1-9]\d* q, heap ≤ \d+ MB; #2 [1-9]\d* q/);
    const a = readRecords(threads.stdout.trim());
    const b = readRecords(one.stdout.trim());
    expect(b).toHaveLength(4);
    for (const r of b) expect(r.error, JSON.stringify(r.error)).toBeUndefined();
    expect(b.map((r) => r.atr_stats.first_requested_route)).toEqual(Array(4).fill("RETRIEVE"));
    expect(a.map(timeless)).toEqual(b.map(timeless));
  }, 120_000);
});
