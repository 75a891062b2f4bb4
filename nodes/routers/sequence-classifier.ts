/**
 * The paper's router format (reference §5.3): a BERT/DistilBERT sequence classifier with 4 classes,
 * exported to ONNX in the transformers.js layout (config.json, tokenizer.json, onnx/model.onnx or
 * onnx/model_quantized.onnx), loaded with remote loading off. The checkpoint is validated as the
 * reference does before any weight is read: `router_input_version` 1 or 2 (missing ⇒ 1, the released
 * checkpoint), model type bert or distilbert, exactly TEXT=0 SQL=1 RETRIEVE=2 HYBRID=3, and
 * `router_max_length` (default 256) a positive integer ≤ `max_position_embeddings` (512). The input
 * text is the v1/v2 router text (./features.ts), truncated at `router_max_length` tokens; `rank`
 * returns the classes by descending logit and selectRoute masks the failed ones.
 */
import { join } from "node:path";
import { checkModelFolder, localTransformers, onnxModelOptions } from "../../indexing/embeddings/transformers.js";
import type { Route } from "../types.js";
import type { LearnedRouterPolicy, RouterInput } from "./index.js";
import { learnedInputText } from "./features.js";
import { LABELS, rankScores, RouterConfigError } from "./router-config.js";

export interface SequenceRouterSettings {
  modelType: "bert" | "distilbert";
  inputVersion: 1 | 2;
  maxLength: number;
}

const MODEL_TYPES = ["bert", "distilbert"] as const;
const CONVERT_HINT = "Export the router checkpoint for transformers.js as docs/ROUTER.md says";

/** Checks a checkpoint's config.json (parsed); `file` names it in errors. */
export function validateSequenceRouterConfig(config: Record<string, unknown>, file: string): SequenceRouterSettings {
  const fail = (field: string, problem: string): never => {
    throw new RouterConfigError(file, field, problem, CONVERT_HINT);
  };
  const modelType = config.model_type;
  if (!(MODEL_TYPES as readonly unknown[]).includes(modelType))
    fail("model_type", `must be "bert" or "distilbert" (got ${JSON.stringify(modelType)})`);
  const version = config.router_input_version ?? 1;
  if (version !== 1 && version !== 2) fail("router_input_version", `must be 1 or 2 (got ${JSON.stringify(version)})`);
  const id2label = config.id2label as Record<string, unknown> | undefined;
  const keys = id2label && typeof id2label === "object" ? Object.keys(id2label) : [];
  if (keys.length !== LABELS.length || LABELS.some((l, i) => String(id2label![String(i)] ?? "").toUpperCase() !== l)) {
    fail(
      "id2label",
      `must map exactly ${LABELS.map((l, i) => `${i}=${l}`).join(", ")} (got ${JSON.stringify(id2label)})`,
    );
  }
  const maxPositions = typeof config.max_position_embeddings === "number" ? config.max_position_embeddings : 512;
  const maxLength = config.router_max_length ?? 256;
  if (typeof maxLength !== "number" || !Number.isInteger(maxLength) || maxLength <= 0 || maxLength > maxPositions) {
    fail(
      "router_max_length",
      `must be a positive integer ≤ max_position_embeddings ${maxPositions} (got ${JSON.stringify(maxLength)})`,
    );
  }
  return {
    modelType: modelType as SequenceRouterSettings["modelType"],
    inputVersion: version as 1 | 2,
    maxLength: maxLength as number,
  };
}

/** Opens a sequence-classifier router folder once; `rank` runs one forward pass per decision. */
export async function createSequenceClassifierRouter(
  modelPath: string,
): Promise<LearnedRouterPolicy & { settings: SequenceRouterSettings }> {
  const { dir, dtype, config } = checkModelFolder(modelPath);
  const configFile = join(dir, "config.json");
  const settings = validateSequenceRouterConfig(config, configFile);
  const tf = await localTransformers();
  const tokenizer = await tf.AutoTokenizer.from_pretrained(dir);
  const model = await tf.AutoModelForSequenceClassification.from_pretrained(dir, onnxModelOptions(dtype));
  return {
    settings,
    async rank(input: RouterInput): Promise<Route[]> {
      const inputs = tokenizer(learnedInputText(input, settings.inputVersion), {
        truncation: true,
        max_length: settings.maxLength,
      });
      const out = (await model(inputs)) as { logits?: { data: Float32Array; dims: number[] } };
      if (!out.logits || out.logits.data.length !== LABELS.length) {
        throw new RouterConfigError(
          configFile,
          "id2label",
          `says 4 classes, but the ONNX model gives ${out.logits ? out.logits.data.length : "no"} logits`,
          CONVERT_HINT,
        );
      }
      return rankScores(out.logits.data);
    },
  };
}
