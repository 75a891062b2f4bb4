/**
 * A local transformers.js model folder as the index embedder (`--embedding_model PATH`).
 *
 * The folder holds config.json, tokenizer.json (+ tokenizer_config.json) and onnx/model.onnx (or
 * onnx/model_quantized.onnx). Remote loading is disabled: nothing is ever downloaded. Pooling:
 * the sentence-transformers `1_Pooling/config.json` when present; otherwise CLS for BGE models
 * (BGE-M3 as in the reference) and mean pooling over the attention mask for the rest. Vectors are
 * L2-normalised (the reference used raw CLS vectors: §15.8). Chunk sizes use the model's tokenizer.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { isMainThread } from "node:worker_threads";
import { Embeddings } from "@langchain/core/embeddings";
import type { ChunkTokenizer, IndexEmbedder, TokenSpan } from "./types.js";

export class ModelFolderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ModelFolderError";
  }
}

export type Pooling = "cls" | "mean";

export interface TransformersEmbeddingsOptions {
  /** Override the pooling rule. */
  pooling?: Pooling;
  /** Texts per forward pass (default 16). */
  batchSize?: number;
  /** Max tokens per text (default 512). */
  maxLength?: number;
}

/** What is set of onnxruntime-web here: its WebAssembly settings. */
interface OrtWeb {
  env: { wasm: { numThreads?: number; wasmPaths?: string | Record<string, string> } };
}

/** transformers.js reads a runtime set on globalThis under this symbol instead of onnxruntime-node. */
const ORT_SYMBOL = Symbol.for("onnxruntime");

/**
 * Loads @huggingface/transformers with remote loading switched off, on this thread's ONNX runtime:
 * onnxruntime-node on a process's main thread, onnxruntime-web's WebAssembly build on a worker thread
 * (with {@link onnxModelOptions}). onnxruntime-node 1.21.0 (the version @huggingface/transformers
 * 3.8.1 pins) keeps the Tensor constructor of the last thread that opened a session in one
 * process-wide reference: once two worker threads have opened sessions, one builds its outputs with
 * the other's V8 isolate and the process aborts (`FATAL ERROR: … HandleScope …`, exit 134: `atr run
 * --max_workers 2 --worker_mode thread` with a DistilBERT router, a cross-encoder or a model
 * embedder did). onnxruntime-web keeps its state per thread; its .wasm is read from its own package
 * folder (nothing is downloaded). It costs more CPU than onnxruntime-node (docs/ROUTER.md "Decision latency").
 */
export async function localTransformers() {
  let ortWeb: OrtWeb | undefined;
  if (!isMainThread) {
    // Before transformers.js is first imported on this thread: it picks its runtime when it loads.
    // The onnxruntime-web transformers.js depends on and imports itself (package.json pins the same version).
    // (Its package.json "exports" give no types for Node: the one field used is typed by OrtWeb.)
    ortWeb = (await import("onnxruntime-web" as string)) as OrtWeb;
    ortWeb.env.wasm.numThreads = 1; // the thread is already one of the --max_workers lanes
    // Its own dist folder (the .mjs loader and the .wasm); unset, transformers.js would name its CDN.
    ortWeb.env.wasm.wasmPaths ??= `${pathToFileURL(dirname(createRequire(import.meta.url).resolve("onnxruntime-web"))).href}/`;
    (globalThis as Record<symbol, unknown>)[ORT_SYMBOL] = ortWeb;
  }
  const tf = await import("@huggingface/transformers");
  if (ortWeb && tf.env.backends.onnx !== ortWeb.env) {
    throw new Error(
      "@huggingface/transformers was loaded on this worker thread before localTransformers() chose onnxruntime-web: it would run onnxruntime-node, which aborts the process under several worker threads (load it through indexing/embeddings/transformers.ts)",
    );
  }
  tf.env.allowRemoteModels = false;
  tf.env.allowLocalModels = true;
  return tf;
}

/**
 * The options of every `from_pretrained` of an ONNX model: the weights' dtype and, on a worker thread,
 * the WebAssembly execution provider (transformers.js lists no devices for a runtime it did not pick
 * itself, so only "auto" passes its check; the provider is named in the session options).
 */
export function onnxModelOptions(dtype: "fp32" | "q8") {
  return isMainThread
    ? { dtype }
    : { dtype, device: "auto" as const, session_options: { executionProviders: ["wasm"] } };
}

/** Resolves a model folder and checks the files transformers.js will need. */
export function checkModelFolder(path: string): { dir: string; dtype: "fp32" | "q8"; config: Record<string, unknown> } {
  const dir = resolve(path);
  const missing = ["config.json", "tokenizer.json"].filter((f) => !existsSync(join(dir, f)));
  const dtype: "fp32" | "q8" | undefined = existsSync(join(dir, "onnx", "model.onnx"))
    ? "fp32"
    : existsSync(join(dir, "onnx", "model_quantized.onnx"))
      ? "q8"
      : undefined;
  if (!dtype) missing.push("onnx/model.onnx (or onnx/model_quantized.onnx)");
  if (missing.length > 0) {
    throw new ModelFolderError(
      `model folder ${dir} lacks ${missing.join(", ")} — export the model to ONNX for transformers.js (no download happens at run time)`,
    );
  }
  const config = JSON.parse(readFileSync(join(dir, "config.json"), "utf8")) as Record<string, unknown>;
  return { dir, dtype: dtype!, config };
}

/** Pooling rule: 1_Pooling/config.json, else CLS for BGE models, else mean. */
export function poolingFor(dir: string, config: Record<string, unknown>): Pooling {
  const st = join(dir, "1_Pooling", "config.json");
  if (existsSync(st)) {
    const p = JSON.parse(readFileSync(st, "utf8")) as Record<string, unknown>;
    if (p.pooling_mode_cls_token) return "cls";
    if (p.pooling_mode_mean_tokens) return "mean";
  }
  const name = `${basename(dir)} ${String(config._name_or_path ?? "")}`;
  return /bge/i.test(name) ? "cls" : "mean";
}

type Tf = Awaited<ReturnType<typeof localTransformers>>;
type Tokenizer = Awaited<ReturnType<Tf["AutoTokenizer"]["from_pretrained"]>>;
type Model = Awaited<ReturnType<Tf["AutoModel"]["from_pretrained"]>>;

/** Token spans with the model's tokenizer: each whitespace word split into as many tokens as it encodes to. */
class ModelTokenizer implements ChunkTokenizer {
  readonly unit = "tokens";
  private readonly cache = new Map<string, number>();
  constructor(private readonly tokenizer: Tokenizer) {}
  private count(word: string): number {
    let n = this.cache.get(word);
    if (n === undefined) {
      n = this.tokenizer.encode(word, { add_special_tokens: false }).length;
      if (this.cache.size < 200_000) this.cache.set(word, n);
    }
    return n;
  }
  async spans(text: string): Promise<TokenSpan[]> {
    const spans: TokenSpan[] = [];
    for (const m of text.matchAll(/\S+/g)) {
      const start = m.index!;
      const len = m[0].length;
      const n = Math.max(1, Math.min(len, this.count(m[0])));
      for (let i = 0; i < n; i++)
        spans.push([start + Math.floor((i * len) / n), start + Math.floor(((i + 1) * len) / n)]);
    }
    return spans;
  }
}

export class TransformersEmbeddings extends Embeddings implements IndexEmbedder {
  readonly modelId: string;
  readonly tokenizer: ChunkTokenizer;
  private readonly batchSize: number;
  private readonly maxLength: number;

  private constructor(
    private readonly tok: Tokenizer,
    private readonly model: Model,
    readonly dimension: number,
    readonly pooling: Pooling,
    readonly dir: string,
    options: TransformersEmbeddingsOptions,
  ) {
    super({});
    this.modelId = basename(dir);
    this.tokenizer = new ModelTokenizer(tok);
    this.batchSize = options.batchSize ?? 16;
    this.maxLength = options.maxLength ?? 512;
  }

  static async load(path: string, options: TransformersEmbeddingsOptions = {}): Promise<TransformersEmbeddings> {
    const { dir, dtype, config } = checkModelFolder(path);
    const tf = await localTransformers();
    const tok = await tf.AutoTokenizer.from_pretrained(dir);
    const model = await tf.AutoModel.from_pretrained(dir, onnxModelOptions(dtype));
    const dimension = Number(config.hidden_size ?? config.d_model ?? 0);
    if (!Number.isInteger(dimension) || dimension <= 0)
      throw new ModelFolderError(`${join(dir, "config.json")}: hidden_size is missing`);
    return new TransformersEmbeddings(tok, model, dimension, options.pooling ?? poolingFor(dir, config), dir, options);
  }

  private async embedBatch(texts: string[], out: Float32Array, offset: number): Promise<void> {
    const inputs = this.tok(texts, { padding: true, truncation: true, max_length: this.maxLength });
    const output = (await this.model(inputs)) as Record<string, { data: Float32Array; dims: number[] }>;
    const hidden = output.last_hidden_state ?? Object.values(output)[0]!;
    const [b, t, h] = hidden.dims as [number, number, number];
    if (h !== this.dimension)
      throw new ModelFolderError(`${this.dir}: model output width ${h} ≠ config hidden_size ${this.dimension}`);
    const mask = (inputs.attention_mask as { data: ArrayLike<bigint | number> }).data;
    const data = hidden.data;
    for (let i = 0; i < b; i++) {
      const v = out.subarray((offset + i) * h, (offset + i + 1) * h);
      if (this.pooling === "cls") {
        v.set(data.subarray(i * t * h, i * t * h + h));
      } else {
        let n = 0;
        for (let j = 0; j < t; j++) {
          if (Number(mask[i * t + j]) === 0) continue;
          n++;
          const off = (i * t + j) * h;
          for (let d = 0; d < h; d++) v[d]! += data[off + d]!;
        }
        if (n > 0) for (let d = 0; d < h; d++) v[d]! /= n;
      }
      let norm = 0;
      for (let d = 0; d < h; d++) norm += v[d]! * v[d]!;
      if (norm > 0) {
        const inv = 1 / Math.sqrt(norm);
        for (let d = 0; d < h; d++) v[d]! *= inv;
      }
    }
  }

  async embedMatrix(texts: string[], onProgress?: (done: number, total: number) => void): Promise<Float32Array> {
    const out = new Float32Array(texts.length * this.dimension);
    for (let i = 0; i < texts.length; i += this.batchSize) {
      const batch = texts.slice(i, i + this.batchSize).map((t) => (t.trim() === "" ? " " : t));
      await this.embedBatch(batch, out, i);
      onProgress?.(Math.min(i + this.batchSize, texts.length), texts.length);
    }
    return out;
  }

  async embedDocuments(documents: string[]): Promise<number[][]> {
    const m = await this.embedMatrix(documents);
    return documents.map((_, i) => Array.from(m.subarray(i * this.dimension, (i + 1) * this.dimension)));
  }

  async embedQuery(document: string): Promise<number[]> {
    return Array.from(await this.embedMatrix([document]));
  }
}
