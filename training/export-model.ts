/**
 * Writes a trained student as a learned-router model folder: `model.onnx` (one Gemm node,
 * scores[1,4] = features[1,D] · Wᵀ + b, float32) and `router.json` (nodes/routers/router-config.ts).
 * The weights go in as raw little-endian float32, so a 4096-dim model is ≈ 64 KB.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import onnxProto from "onnx-proto";
import type { HashedFeatureSettings } from "../nodes/routers/hashed-features.js";
import {
  LABELS,
  ROUTER_CONFIG_FILE,
  ROUTER_FORMAT,
  ROUTER_MODEL_FILE,
  type RouterConfig,
} from "../nodes/routers/router-config.js";
import type { StudentWeights } from "./student.js";

const { onnx } = onnxProto;
const FLOAT = onnx.TensorProto.DataType.FLOAT;
export const ONNX_INPUT = "features";
export const ONNX_OUTPUT = "scores";

function rawFloats(values: Float32Array): Uint8Array {
  const buffer = new ArrayBuffer(values.length * 4);
  const view = new DataView(buffer);
  values.forEach((v, i) => view.setFloat32(i * 4, v, true));
  return new Uint8Array(buffer);
}

/** The ONNX bytes of a linear student. */
export function studentOnnx(model: StudentWeights): Uint8Array {
  const classes = LABELS.length;
  const valueInfo = (name: string, dims: number[]) => ({
    name,
    type: { tensorType: { elemType: FLOAT, shape: { dim: dims.map((d) => ({ dimValue: d })) } } },
  });
  const graph = {
    name: "atr_router_student",
    node: [
      {
        opType: "Gemm",
        input: [ONNX_INPUT, "W", "b"],
        output: [ONNX_OUTPUT],
        name: "linear",
        attribute: [{ name: "transB", i: 1, type: onnx.AttributeProto.AttributeType.INT }],
      },
    ],
    initializer: [
      { name: "W", dataType: FLOAT, dims: [classes, model.dimension], rawData: rawFloats(model.weights) },
      { name: "b", dataType: FLOAT, dims: [classes], rawData: rawFloats(model.bias) },
    ],
    input: [valueInfo(ONNX_INPUT, [1, model.dimension])],
    output: [valueInfo(ONNX_OUTPUT, [1, classes])],
  };
  const proto = onnx.ModelProto.create({
    irVersion: 7,
    producerName: "atr-ts train-router",
    opsetImport: [{ domain: "", version: 13 }],
    graph: graph as never,
  });
  return onnx.ModelProto.encode(proto).finish();
}

/** Writes `<dir>/model.onnx` and `<dir>/router.json`; returns the config written. */
export function writeRouterModel(
  dir: string,
  model: StudentWeights,
  features: HashedFeatureSettings,
  inputVersion: 1 | 2,
  training: Record<string, unknown>,
  heuristicMargin?: number,
): RouterConfig {
  mkdirSync(dir, { recursive: true });
  const config: RouterConfig = {
    format: ROUTER_FORMAT,
    router_input_version: inputVersion,
    model_type: "hashed-logreg",
    id2label: Object.fromEntries(LABELS.map((l, i) => [String(i), l])),
    input_dim: model.dimension,
    features,
    onnx: { file: ROUTER_MODEL_FILE, input: ONNX_INPUT, output: ONNX_OUTPUT },
    ...(heuristicMargin !== undefined ? { heuristic_margin: heuristicMargin } : {}),
    training,
  };
  writeFileSync(join(dir, ROUTER_MODEL_FILE), studentOnnx(model));
  writeFileSync(join(dir, ROUTER_CONFIG_FILE), `${JSON.stringify(config, null, 2)}\n`);
  return config;
}
