/**
 * The router student: a multinomial logistic regression over the hashed features of the v2 input
 * text (nodes/routers/hashed-features.ts), trained in plain TypeScript — mini-batch SGD, class-weighted
 * cross-entropy (weight_c = max_count / count_c, reference §11), L2, a seeded shuffle (deterministic:
 * same labels + seed ⇒ same weights). Validation is grouped by question (§15.5: the labels of one
 * question never straddle train/validation) and scored with the online decision rule (failed routes
 * masked); the best epoch by validation agreement is kept.
 */
import { failedSet } from "../nodes/routers/failed-set.js";
import type { Route } from "../nodes/types.js";
import { DEFAULT_FEATURE_SETTINGS, featurise, type HashedFeatureSettings } from "../nodes/routers/hashed-features.js";
import { planTokens } from "../nodes/routers/plan-features.js";
import { labelPlan, labelText, type RouterLabel } from "./labels.js";
import { LABELS, maskedChoice, rankScores } from "../nodes/routers/router-config.js";

export interface TrainOptions {
  /** Passes over the training labels (default 30). */
  epochs?: number;
  /** SGD step size (default 5; features are L2-normalised, so steps must be large to fit rare rules). */
  lr?: number;
  /** L2 penalty per step (default 1e-5). */
  l2?: number;
  /** Mini-batch size (default 16). */
  batchSize?: number;
  /** Shuffle and split seed (default 42). */
  seed?: number;
  /** Share of questions held out for model selection (default 0.1; 0 = none, keep the last epoch). */
  validationShare?: number;
  features?: HashedFeatureSettings;
  inputVersion?: 1 | 2;
  /**
   * What each label teaches (default "label"): "label" = one-hot on the label's route (reference §11);
   * "right_routes" = a uniform target over every route the execution oracle found right
   * (`routes_right`; labels without it stay one-hot), so the scores rank routes by how often they
   * are right rather than by which happened to be cheapest. With "right_routes" the epoch is picked
   * by route accuracy (the chosen route is among the right ones), else by agreement.
   */
  targets?: "label" | "right_routes";
  /** "balanced" (default, reference §11: weight_c = max_count / count_c of the labels) or "none". */
  classWeighting?: "balanced" | "none";
}

/** Weights of the linear model: scores = W·x + b, W row-major [4][D]. */
export interface StudentWeights {
  dimension: number;
  weights: Float32Array;
  bias: Float32Array;
}

export interface TrainStats {
  labels: number;
  questions: number;
  trainLabels: number;
  validationLabels: number;
  validationQuestions: number;
  labelCounts: Record<string, number>;
  classWeights: Record<string, number>;
  epochs: number;
  bestEpoch: number;
  trainAgreement: number;
  /** Masked agreement on the held-out questions (null without a validation split). */
  validationAgreement: number | null;
  /** Share of held-out labels with `routes_right` whose chosen route is right (null when none). */
  validationRouteAccuracy: number | null;
  targets: "label" | "right_routes";
  classWeighting: "balanced" | "none";
  seed: number;
  lr: number;
  l2: number;
  batchSize: number;
}

/** mulberry32: a small seeded PRNG so shuffles are reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** A question's grouping key: its id, else its text, else the sub-query. */
export const groupKey = (l: RouterLabel) => l.question_id || l.question || l.sub_query;

/** Splits labels by question: `share` of the questions (seeded) go to validation. */
export function groupedSplit(
  labels: readonly RouterLabel[],
  share: number,
  seed: number,
): { train: RouterLabel[]; validation: RouterLabel[] } {
  const groups = [...new Set(labels.map(groupKey))].sort();
  const nVal = share > 0 && groups.length > 1 ? Math.max(1, Math.round(groups.length * share)) : 0;
  const held = new Set(shuffle(groups, seededRandom(seed)).slice(0, nVal));
  return {
    train: labels.filter((l) => !held.has(groupKey(l))),
    validation: labels.filter((l) => held.has(groupKey(l))),
  };
}

interface Example {
  indices: Int32Array;
  values: Float32Array;
  y: number;
  /** Target distribution over LABELS. */
  target: number[];
  /** Routes the oracle found right (undefined when the label does not say). */
  right?: ReadonlySet<Route>;
  failed: Set<Route>;
}

function toExample(
  label: RouterLabel,
  features: HashedFeatureSettings,
  version: 1 | 2,
  targets: "label" | "right_routes",
): Example {
  const extra = features.planTokens ? planTokens(labelPlan(label)) : [];
  const dense = featurise(labelText(label, version), features, extra);
  const indices: number[] = [];
  const values: number[] = [];
  dense.forEach((v, i) => {
    if (v !== 0) {
      indices.push(i);
      values.push(v);
    }
  });
  const y = LABELS.indexOf(label.route);
  const right = label.routes_right?.length ? new Set(label.routes_right) : undefined;
  const target =
    targets === "right_routes" && right
      ? LABELS.map((l) => (right.has(l) ? 1 / right.size : 0))
      : LABELS.map((_, c) => (c === y ? 1 : 0));
  return {
    indices: Int32Array.from(indices),
    values: Float32Array.from(values),
    y,
    target,
    ...(right ? { right } : {}),
    failed: failedSet(label.history_H, label.sub_query, "question"),
  };
}

function scoresOf(model: StudentWeights, ex: Example): number[] {
  return LABELS.map((_, c) => {
    let s = model.bias[c]!;
    const row = c * model.dimension;
    for (let k = 0; k < ex.indices.length; k++) s += model.weights[row + ex.indices[k]!]! * ex.values[k]!;
    return s;
  });
}

function agreement(model: StudentWeights, examples: readonly Example[]): number {
  if (examples.length === 0) return 0;
  let ok = 0;
  for (const ex of examples) if (maskedChoice(rankScores(scoresOf(model, ex)), ex.failed) === LABELS[ex.y]) ok++;
  return ok / examples.length;
}

/** Share of the examples that know their right routes whose chosen route is one of them (null: none do). */
function routeAccuracy(model: StudentWeights, examples: readonly Example[]): number | null {
  const known = examples.filter((ex) => ex.right);
  if (known.length === 0) return null;
  let ok = 0;
  for (const ex of known) if (ex.right!.has(maskedChoice(rankScores(scoresOf(model, ex)), ex.failed))) ok++;
  return ok / known.length;
}

/** Trains the student; deterministic for given labels and options. */
export function trainStudent(
  labels: readonly RouterLabel[],
  options: TrainOptions = {},
): { model: StudentWeights; stats: TrainStats } {
  const epochs = options.epochs ?? 30;
  const lr = options.lr ?? 5;
  const l2 = options.l2 ?? 1e-5;
  const batchSize = options.batchSize ?? 16;
  const seed = options.seed ?? 42;
  const features = options.features ?? DEFAULT_FEATURE_SETTINGS;
  const version = options.inputVersion ?? 2;
  if (labels.length === 0) throw new Error("training/student: no labels to train on");
  const { train, validation } = groupedSplit(labels, options.validationShare ?? 0.1, seed);
  const targets = options.targets ?? "label";
  const classWeighting = options.classWeighting ?? "balanced";
  const trainEx = train.map((l) => toExample(l, features, version, targets));
  const valEx = validation.map((l) => toExample(l, features, version, targets));
  const select = (m: StudentWeights, ex: readonly Example[]) =>
    targets === "right_routes" ? (routeAccuracy(m, ex) ?? agreement(m, ex)) : agreement(m, ex);

  const counts = LABELS.map((_, c) => trainEx.filter((e) => e.y === c).length);
  const maxCount = Math.max(...counts);
  const classWeight = counts.map((n) => (classWeighting === "none" ? 1 : n > 0 ? maxCount / n : 0));

  const D = features.dimension;
  const model: StudentWeights = {
    dimension: D,
    weights: new Float32Array(LABELS.length * D),
    bias: new Float32Array(LABELS.length),
  };
  let best: StudentWeights = { dimension: D, weights: model.weights.slice(), bias: model.bias.slice() };
  let bestEpoch = 0;
  let bestVal = -1;
  const random = seededRandom(seed);
  const order = trainEx.map((_, i) => i);
  for (let epoch = 1; epoch <= epochs; epoch++) {
    shuffle(order, random);
    const step = lr / Math.sqrt(epoch); // decaying step: stable late epochs
    for (let start = 0; start < order.length; start += batchSize) {
      const batch = order.slice(start, start + batchSize);
      const decay = 1 - step * l2;
      if (decay !== 1) for (let i = 0; i < model.weights.length; i++) model.weights[i]! *= decay;
      for (const idx of batch) {
        const ex = trainEx[idx]!;
        const s = scoresOf(model, ex);
        const m = Math.max(...s);
        const e = s.map((v) => Math.exp(v - m));
        const z = e.reduce((a, b) => a + b, 0);
        const w = (classWeight[ex.y]! * step) / batch.length;
        for (let c = 0; c < LABELS.length; c++) {
          const g = (e[c]! / z - ex.target[c]!) * w;
          if (g === 0) continue;
          model.bias[c]! -= g;
          const row = c * D;
          for (let k = 0; k < ex.indices.length; k++) model.weights[row + ex.indices[k]!]! -= g * ex.values[k]!;
        }
      }
    }
    const val = valEx.length ? select(model, valEx) : epoch;
    if (val >= bestVal) {
      bestVal = val;
      bestEpoch = epoch;
      best = { dimension: D, weights: model.weights.slice(), bias: model.bias.slice() };
    }
  }
  const labelCounts = Object.fromEntries(LABELS.map((l) => [l, labels.filter((x) => x.route === l).length]));
  return {
    model: best,
    stats: {
      labels: labels.length,
      questions: new Set(labels.map(groupKey)).size,
      trainLabels: trainEx.length,
      validationLabels: valEx.length,
      validationQuestions: new Set(validation.map(groupKey)).size,
      labelCounts,
      classWeights: Object.fromEntries(LABELS.map((l, c) => [l, Number(classWeight[c]!.toFixed(4))])),
      epochs,
      bestEpoch,
      trainAgreement: Number(agreement(best, trainEx).toFixed(4)),
      validationAgreement: valEx.length ? Number(agreement(best, valEx).toFixed(4)) : null,
      validationRouteAccuracy: ((a) => (a === null ? null : Number(a.toFixed(4))))(routeAccuracy(best, valEx)),
      targets,
      classWeighting,
      seed,
      lr,
      l2,
      batchSize,
    },
  };
}
