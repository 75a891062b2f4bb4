/**
 * The learned router (reference §5.3): a student trained by `atr train-router train` (training/),
 * served with onnxruntime-node. The model folder is validated first (router.json: format, input
 * version, the 4 labels TEXT=0 SQL=1 RETRIEVE=2 HYBRID=3, dims — ./router-config.ts), then
 * the ONNX session is opened once per path (nodes/routers/index.ts caches the policy). `rank`
 * featurises the v1/v2 input text exactly as training did and returns the classes by descending
 * score; masking of failed routes is applied by the caller (selectRoute).
 */
import { join } from "node:path";
import * as ort from "onnxruntime-node";
import { featurise } from "./hashed-features.js";
import { LABELS, rankScores, readRouterConfig, RouterConfigError, ROUTER_CONFIG_FILE } from "./router-config.js";
import type { Route } from "../types.js";
import { routerInputV1, routerInputV2 } from "./features.js";
import { scopedHistory } from "./failed-set.js";
import type { LearnedRouterPolicy, RouterInput } from "./index.js";

/** The classifier text of a router input, for the model's input version. */
export function learnedInputText(input: RouterInput, version: 1 | 2): string {
  if (version === 1) return routerInputV1(input.plan, input.schema);
  return routerInputV2(input.plan, input.schema, scopedHistory(input.history, input.plan.subQuery, input.failureScope));
}

export async function createLearnedRouter(modelPath: string): Promise<LearnedRouterPolicy> {
  const config = readRouterConfig(modelPath);
  const configFile = join(modelPath, ROUTER_CONFIG_FILE);
  const session = await ort.InferenceSession.create(join(modelPath, config.onnx.file));
  if (!session.inputNames.includes(config.onnx.input)) {
    throw new RouterConfigError(configFile, "onnx.input", `names "${config.onnx.input}", but the ONNX graph's inputs are ${session.inputNames.join(", ")}`);
  }
  if (!session.outputNames.includes(config.onnx.output)) {
    throw new RouterConfigError(configFile, "onnx.output", `names "${config.onnx.output}", but the ONNX graph's outputs are ${session.outputNames.join(", ")}`);
  }
  return {
    async rank(input: RouterInput): Promise<Route[]> {
      const x = featurise(learnedInputText(input, config.router_input_version), config.features);
      const out = await session.run({ [config.onnx.input]: new ort.Tensor("float32", x, [1, config.input_dim]) });
      const scores = out[config.onnx.output]!.data as Float32Array;
      if (scores.length !== LABELS.length) {
        throw new RouterConfigError(configFile, "onnx.output", `gives ${scores.length} scores per input; 4 classes are expected`);
      }
      return rankScores(scores);
    },
  };
}
