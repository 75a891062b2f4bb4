/**
 * The learned router (reference §5.3), in either of two model-folder formats, told apart by their files:
 * - `router.json` + `model.onnx`: the hashed-feature logistic-regression student that
 *   `atr train-router train` writes (./router-config.ts, ./hashed-features.ts);
 * - `config.json` + `tokenizer.json` + `onnx/model.onnx`: a BERT/DistilBERT sequence classifier in the
 *   transformers.js layout, as the paper's released router (./sequence-classifier.ts).
 * Each is validated before its ONNX session opens (once per path: nodes/routers/index.ts caches the
 * policy). `rank` featurises the v1/v2 input text exactly as training did and returns the classes by
 * descending score; masking of failed routes is applied by the caller (selectRoute).
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import * as ort from "onnxruntime-node";
import type { Route } from "../types.js";
import { learnedInputText } from "./features.js";
import { featurise } from "./hashed-features.js";
import type { LearnedRouterPolicy, RouterInput } from "./index.js";
import { failedSet } from "./failed-set.js";
import { heuristicRoute } from "./heuristic.js";
import { planTokens } from "./plan-features.js";
import {
  deferToHeuristic,
  LABELS,
  rankScores,
  readRouterConfig,
  RouterConfigError,
  ROUTER_CONFIG_FILE,
} from "./router-config.js";
import { createSequenceClassifierRouter } from "./sequence-classifier.js";

/** Settings that override the model folder's (the replay's margin sweep: training/route-replay.ts). */
export interface StudentOverrides {
  heuristicMargin?: number;
}

/** Opens a model folder of either format. */
export async function createLearnedRouter(
  modelPath: string,
  overrides: StudentOverrides = {},
): Promise<LearnedRouterPolicy> {
  if (!existsSync(join(modelPath, ROUTER_CONFIG_FILE)) && existsSync(join(modelPath, "config.json"))) {
    return createSequenceClassifierRouter(modelPath);
  }
  if (!existsSync(join(modelPath, ROUTER_CONFIG_FILE))) {
    throw new RouterConfigError(
      join(resolve(modelPath), ROUTER_CONFIG_FILE),
      "(file)",
      "is missing, and so is config.json: the folder is neither a trained student (router.json + model.onnx) nor a transformers.js sequence classifier (config.json + tokenizer.json + onnx/model.onnx)",
    );
  }
  return createHashedStudentRouter(modelPath, overrides);
}

/**
 * The hashed logistic-regression student: featurise → one Gemm → 4 scores; with `heuristic_margin`
 * the heuristic router's route stays first unless the student is surer of another by the margin.
 */
export async function createHashedStudentRouter(
  modelPath: string,
  overrides: StudentOverrides = {},
): Promise<LearnedRouterPolicy> {
  const config = readRouterConfig(modelPath);
  const margin = overrides.heuristicMargin ?? config.heuristic_margin;
  const configFile = join(modelPath, ROUTER_CONFIG_FILE);
  const session = await ort.InferenceSession.create(join(modelPath, config.onnx.file));
  if (!session.inputNames.includes(config.onnx.input)) {
    throw new RouterConfigError(
      configFile,
      "onnx.input",
      `names "${config.onnx.input}", but the ONNX graph's inputs are ${session.inputNames.join(", ")}`,
    );
  }
  if (!session.outputNames.includes(config.onnx.output)) {
    throw new RouterConfigError(
      configFile,
      "onnx.output",
      `names "${config.onnx.output}", but the ONNX graph's outputs are ${session.outputNames.join(", ")}`,
    );
  }
  return {
    async rank(input: RouterInput): Promise<Route[]> {
      const extra = config.features.planTokens ? planTokens(input.plan) : [];
      const x = featurise(learnedInputText(input, config.router_input_version), config.features, extra);
      const out = await session.run({ [config.onnx.input]: new ort.Tensor("float32", x, [1, config.input_dim]) });
      const scores = out[config.onnx.output]!.data as Float32Array;
      if (scores.length !== LABELS.length) {
        throw new RouterConfigError(
          configFile,
          "onnx.output",
          `gives ${scores.length} scores per input; 4 classes are expected`,
        );
      }
      if (margin === undefined) return rankScores(scores);
      const failed = failedSet(input.history, input.plan.subQuery, input.failureScope);
      return deferToHeuristic(scores, heuristicRoute(input.plan, input.schema !== null, failed), failed, margin);
    },
  };
}
