/**
 * The learned verifier's model: logistic regression over the named candidate features
 * (answer-features.ts), trained on the training splits with execution labels (a candidate is
 * positive when its answer is right under its benchmark's official metric) by `atr train-verifier`
 * (training/answer-verifier.ts) into models/answer-verifier.json. Its `threshold` — the P(correct)
 * at which the verifier accepts — was chosen on the training splits for the precision the file names.
 */
import type { Features } from "./answer-features.js";
import { ModelFile } from "./model-file.js";

export interface AnswerModel {
  format: "atr-answer-verifier-v1";
  /** Feature name → weight (features absent from the map weigh 0). */
  weights: Record<string, number>;
  /** Accept (verdict 1) at P(correct) ≥ threshold. */
  threshold: number;
  /** The ranker's weights (answer-ranker.ts): which answer to give when none was accepted. */
  ranker?: Record<string, number>;
  /** What it was trained on and how it did there (README "Learned verifier"). */
  trainedOn: Record<string, unknown>;
}

const model = new ModelFile<AnswerModel>("answer-verifier.json");

/** The shipped model, or null without one. */
export function answerModel(): AnswerModel | null {
  const m = model.get();
  if (m && m.format !== "atr-answer-verifier-v1") throw new Error(`nodes/offline/models/answer-verifier.json: unknown format ${String(m.format)}; retrain with atr train-verifier`);
  return m;
}

/** Replaces the model (null = none, undefined = read the file again): tests and training. */
export function setAnswerModel(m: AnswerModel | null | undefined): void {
  model.set(m);
}

export function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

/** P(correct) of a candidate with these features under the weights. */
export function scoreFeatures(weights: Readonly<Record<string, number>>, features: Features): number {
  let z = 0;
  for (const [name, value] of Object.entries(features)) z += (weights[name] ?? 0) * value;
  return sigmoid(z);
}

/** The features that moved P the most, strongest first ("agree=2+ +1.9"), for a readable reason. */
export function strongestFeatures(weights: Readonly<Record<string, number>>, features: Features, n = 3): string[] {
  return Object.entries(features)
    .filter(([name]) => name !== "bias")
    .map(([name, value]) => [name, (weights[name] ?? 0) * value] as const)
    .filter(([, w]) => Math.abs(w) >= 0.05)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
    .slice(0, n)
    .map(([name, w]) => `${name} ${w >= 0 ? "+" : "−"}${Math.abs(w).toFixed(1)}`);
}
