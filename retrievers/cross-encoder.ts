/**
 * A local cross-encoder reranker (reference §4.1: bge-reranker-v2-m3) through transformers.js:
 * a sequence-classification model folder scores [query, passage] pairs; the score is the first logit
 * (single-logit rerankers) or the last class's logit. Remote loading is disabled.
 */
import { checkModelFolder, localTransformers, onnxModelOptions } from "../indexing/embeddings/transformers.js";
import type { RerankCandidate, Reranker } from "./rerank.js";

export interface CrossEncoderOptions {
  /** Pairs per forward pass (default 32, `ATR_RERANK_BATCH` in the reference). */
  batchSize?: number;
  /** Max tokens per pair (default 512). */
  maxLength?: number;
}

type Tf = Awaited<ReturnType<typeof localTransformers>>;
type Tokenizer = Awaited<ReturnType<Tf["AutoTokenizer"]["from_pretrained"]>>;
type Model = Awaited<ReturnType<Tf["AutoModelForSequenceClassification"]["from_pretrained"]>>;

export class CrossEncoderReranker implements Reranker {
  readonly name: string;
  private constructor(
    private readonly tokenizer: Tokenizer,
    private readonly model: Model,
    dir: string,
    private readonly batchSize: number,
    private readonly maxLength: number,
  ) {
    this.name = `cross-encoder:${dir}`;
  }

  static async load(path: string, options: CrossEncoderOptions = {}): Promise<CrossEncoderReranker> {
    const { dir, dtype } = checkModelFolder(path);
    const tf = await localTransformers();
    const tokenizer = await tf.AutoTokenizer.from_pretrained(dir);
    const model = await tf.AutoModelForSequenceClassification.from_pretrained(dir, onnxModelOptions(dtype));
    return new CrossEncoderReranker(tokenizer, model, dir, options.batchSize ?? 32, options.maxLength ?? 512);
  }

  async score(query: string, candidates: RerankCandidate[]): Promise<number[]> {
    const scores: number[] = [];
    for (let i = 0; i < candidates.length; i += this.batchSize) {
      const batch = candidates.slice(i, i + this.batchSize);
      const inputs = this.tokenizer(
        batch.map(() => query),
        { text_pair: batch.map((c) => c.text), padding: true, truncation: true, max_length: this.maxLength },
      );
      const out = (await this.model(inputs)) as { logits: { data: Float32Array; dims: number[] } };
      const [b, c] = out.logits.dims as [number, number];
      for (let j = 0; j < b; j++) scores.push(out.logits.data[j * c + (c - 1)]!);
    }
    return scores;
  }
}
