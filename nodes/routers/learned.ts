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
import { readFileSync } from "node:fs";
import onnxProto from "onnx-proto";
import type { Route } from "../types.js";
import { learnedInputText } from "./features.js";
import { featurise } from "./hashed-features.js";
import type { LearnedRouterPolicy, RouterInput } from "./index.js";
import { failedSet } from "./failed-set.js";
import { heuristicRoute } from "./heuristic.js";
import { planTokens } from "./plan-features.js";
import {
  type RouterConfig,
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
  const { weights, bias } = readStudentGemm(join(modelPath, config.onnx.file), configFile, config);
  return {
    async rank(input: RouterInput): Promise<Route[]> {
      const extra = config.features.planTokens ? planTokens(input.plan) : [];
      const x = featurise(learnedInputText(input, config.router_input_version), config.features, extra);
      const scores = Float32Array.from(bias);
      for (let i = 0; i < x.length; i++) {
        const v = x[i]!;
        if (v !== 0) for (let c = 0; c < scores.length; c++) scores[c]! += v * weights[c * x.length + i]!;
      }
      if (margin === undefined) return rankScores(scores);
      const failed = failedSet(input.history, input.plan.subQuery, input.failureScope);
      return deferToHeuristic(scores, heuristicRoute(input.plan, input.schema !== null, failed), failed, margin);
    },
  };
}

/**
 * The student's ONNX graph (training/export-model.ts) is one Gemm, scores = x · Wᵀ + b: it is read
 * from the file and evaluated here rather than in an onnxruntime session, whose native binding aborts
 * the process when `atr run --max_workers N` calls it from worker threads. The file is checked as a
 * session would: the named input and output, the one Gemm, W of shape [4, input_dim].
 */
function readStudentGemm(
  file: string,
  configFile: string,
  config: RouterConfig,
): { weights: Float32Array; bias: Float32Array } {
  const fail = (field: string, problem: string): never => {
    throw new RouterConfigError(configFile, field, problem);
  };
  let graph;
  try {
    graph = onnxProto.onnx.ModelProto.decode(readFileSync(file)).graph;
  } catch (error) {
    return fail("onnx.file", `names ${file}, which is not an ONNX model (${(error as Error).message})`);
  }
  if (!graph) return fail("onnx.file", `names ${file}, which has no graph`);
  const inputs = (graph.input ?? []).map((i) => i.name ?? "");
  const outputs = (graph.output ?? []).map((o) => o.name ?? "");
  if (!inputs.includes(config.onnx.input))
    fail("onnx.input", `names "${config.onnx.input}", but the ONNX graph's inputs are ${inputs.join(", ")}`);
  if (!outputs.includes(config.onnx.output))
    fail("onnx.output", `names "${config.onnx.output}", but the ONNX graph's outputs are ${outputs.join(", ")}`);
  const nodes = graph.node ?? [];
  const gemm = nodes[0];
  const transB = gemm?.attribute?.find((a) => a.name === "transB");
  if (nodes.length !== 1 || gemm?.opType !== "Gemm" || Number(transB?.i ?? 0) !== 1 || (gemm.input ?? []).length !== 3)
    fail(
      "onnx.file",
      `names ${file}, which is not the student's graph (one Gemm with transB=1, as \`atr train-router train\` writes)`,
    );
  const tensor = (name: string) => {
    const t = (graph.initializer ?? []).find((i) => i.name === name);
    if (!t) return fail("onnx.file", `names ${file}, whose Gemm input ${name} is not an initializer`);
    const raw = t.rawData && t.rawData.length ? t.rawData : undefined;
    const values = raw
      ? new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength))
      : Float32Array.from(t.floatData ?? []);
    return { dims: (t.dims ?? []).map(Number), values };
  };
  const w = tensor(gemm!.input![1]!);
  const b = tensor(gemm!.input![2]!);
  if (w.dims[0] !== LABELS.length || b.values.length !== LABELS.length)
    fail("onnx.output", `gives ${w.dims[0]} scores per input; 4 classes are expected`);
  if (w.dims[1] !== config.input_dim || w.values.length !== LABELS.length * config.input_dim)
    fail("input_dim", `is ${config.input_dim}, but the ONNX weights are [${w.dims.join(", ")}]`);
  return { weights: w.values, bias: b.values };
}
