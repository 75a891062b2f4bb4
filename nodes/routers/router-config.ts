/**
 * The hashed-logreg student's model folder contract: `model.onnx` + `router.json`, and the class
 * order every learned router shares. The trainer writes router.json (training/export-model.ts);
 * nodes/routers/learned.ts validates it before opening the ONNX session, so a wrong or foreign folder
 * fails with an error naming the file and the field.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Route } from "../types.js";
import type { HashedFeatureSettings } from "./hashed-features.js";

/** Class ids of the student (reference §5.3): TEXT=0, SQL=1, RETRIEVE=2, HYBRID=3. */
export const LABELS: readonly Route[] = ["TEXT", "SQL", "RETRIEVE", "HYBRID"];
export const ROUTER_CONFIG_FILE = "router.json";
export const ROUTER_MODEL_FILE = "model.onnx";
export const ROUTER_FORMAT = "atr-ts-learned-router";

export interface RouterConfig {
  format: typeof ROUTER_FORMAT;
  /** Which input text the model was trained on: 1 = v1 (no H), 2 = v2 (§5.3). */
  router_input_version: 1 | 2;
  model_type: "hashed-logreg";
  /** Class id (as a string key) → route. */
  id2label: Record<string, Route>;
  /** Feature vector length: the ONNX input is float32 [1, input_dim]. */
  input_dim: number;
  features: HashedFeatureSettings;
  onnx: { file: string; input: string; output: string };
  /**
   * Defer to the heuristic router: the student's route replaces the heuristic's only when its
   * softmax probability is higher by more than this (absent: the student always decides).
   */
  heuristic_margin?: number;
  /** Free-form training statistics (label counts, epochs, validation agreement, …). */
  training: Record<string, unknown>;
}

export class RouterConfigError extends Error {
  constructor(
    file: string,
    field: string,
    problem: string,
    hint = "Train a model folder with `atr train-router train --labels L.jsonl --out DIR`",
  ) {
    super(`${file}: field "${field}" ${problem}. ${hint}.`);
    this.name = "RouterConfigError";
  }
}

const isPositiveInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v > 0;

/** Checks a parsed router.json; `file` names it in errors. Returns it typed. */
export function validateRouterConfig(raw: unknown, file: string): RouterConfig {
  const fail = (field: string, problem: string): never => {
    throw new RouterConfigError(file, field, problem);
  };
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return fail("(root)", "must be a JSON object");
  const c = raw as Record<string, unknown>;
  if (c.format !== ROUTER_FORMAT) fail("format", `must be "${ROUTER_FORMAT}" (got ${JSON.stringify(c.format)})`);
  const version = c.router_input_version ?? 1;
  if (version !== 1 && version !== 2) fail("router_input_version", `must be 1 or 2 (got ${JSON.stringify(version)})`);
  if (c.model_type !== "hashed-logreg")
    fail("model_type", `must be "hashed-logreg" (got ${JSON.stringify(c.model_type)})`);
  const id2label = c.id2label as Record<string, unknown> | undefined;
  if (!id2label || typeof id2label !== "object") return fail("id2label", "is missing");
  const keys = Object.keys(id2label);
  const expected = LABELS.map((l, i) => `${i}=${l}`).join(", ");
  if (keys.length !== LABELS.length || LABELS.some((l, i) => id2label[String(i)] !== l)) {
    fail("id2label", `must map exactly ${expected} (got ${JSON.stringify(id2label)})`);
  }
  if (!isPositiveInt(c.input_dim)) fail("input_dim", `must be a positive integer (got ${JSON.stringify(c.input_dim)})`);
  const f = c.features as Partial<HashedFeatureSettings> | undefined;
  if (!f || typeof f !== "object") return fail("features", "is missing");
  if (f.dimension !== c.input_dim)
    fail("features.dimension", `must equal input_dim ${String(c.input_dim)} (got ${JSON.stringify(f.dimension)})`);
  if (!Array.isArray(f.charNgrams) || !f.charNgrams.every(isPositiveInt))
    fail("features.charNgrams", "must be a list of positive integers");
  if (typeof f.wordBigrams !== "boolean") fail("features.wordBigrams", "must be true or false");
  if (typeof f.structuralWeight !== "number" || !(f.structuralWeight > 0))
    fail("features.structuralWeight", "must be a positive number");
  if (f.planTokens !== undefined && typeof f.planTokens !== "boolean")
    fail("features.planTokens", "must be true or false when given");
  const onnx = c.onnx as Record<string, unknown> | undefined;
  if (!onnx || typeof onnx.file !== "string" || typeof onnx.input !== "string" || typeof onnx.output !== "string") {
    fail("onnx", 'must be {"file", "input", "output"} strings');
  }
  if (/[\\/]|^\.\.?$/.test(String(onnx!.file))) fail("onnx.file", "must be a file name inside the model folder");
  const margin = c.heuristic_margin;
  if (margin !== undefined && !(typeof margin === "number" && margin >= 0 && margin <= 1))
    fail("heuristic_margin", `must be a number in 0..1 (got ${JSON.stringify(margin)})`);
  return {
    ...(c as unknown as RouterConfig),
    router_input_version: version as 1 | 2,
    training: (c.training as Record<string, unknown>) ?? {},
  };
}

/** Reads and validates `<dir>/router.json`; checks that the ONNX file it names exists. */
export function readRouterConfig(dir: string): RouterConfig {
  const file = join(dir, ROUTER_CONFIG_FILE);
  if (!existsSync(file))
    throw new RouterConfigError(file, "(file)", "is missing: the folder is not a learned-router model");
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new RouterConfigError(file, "(root)", `is not valid JSON (${(error as Error).message})`);
  }
  const config = validateRouterConfig(raw, file);
  if (!existsSync(join(dir, config.onnx.file)))
    throw new RouterConfigError(file, "onnx.file", `names ${join(dir, config.onnx.file)}, which does not exist`);
  return config;
}

/** Classes by descending score (ties: lower class id first). */
export function rankScores(scores: ArrayLike<number>): Route[] {
  return [...LABELS.keys()].sort((a, b) => scores[b]! - scores[a]! || a - b).map((i) => LABELS[i]!);
}

/** The online decision rule (§5.3): the best-scoring route not in the failed set; TEXT if all failed. */
export function maskedChoice(ranked: readonly Route[], failed: ReadonlySet<Route>): Route {
  return ranked.find((r) => !failed.has(r)) ?? "TEXT";
}

/**
 * The student's ranking, deferring to the heuristic router's route unless the student's best
 * available route (not in `failed`) beats it by more than `margin` in softmax probability.
 */
export function deferToHeuristic(
  scores: ArrayLike<number>,
  heuristic: Route,
  failed: ReadonlySet<Route>,
  margin: number,
): Route[] {
  const ranked = rankScores(scores);
  const max = Math.max(...Array.from(scores));
  const exp = Array.from(scores, (s) => Math.exp(s - max));
  const sum = exp.reduce((a, b) => a + b, 0);
  const p = (r: Route) => exp[LABELS.indexOf(r)]! / sum;
  const top = maskedChoice(ranked, failed);
  if (top === heuristic || p(top) - p(heuristic) > margin) return ranked;
  return [heuristic, ...ranked.filter((r) => r !== heuristic)];
}
