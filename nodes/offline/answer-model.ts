/**
 * The learned verifier's model: P(correct) of a candidate from its named features
 * (answer-features.ts), trained on the training splits with execution labels (a candidate is
 * positive when its answer is right under its benchmark's official metric) by `atr train-verifier`
 * (training/answer-verifier.ts) into models/answer-verifier.json. The scorer is either a small
 * gradient-boosted tree ensemble (depth ≤ 3: it can express interactions such as route × rule
 * outcome × agreement) or a logistic regression; its raw log-odds are mapped to P by an isotonic
 * calibration fitted on cross-validated scores. Its `threshold` — the P(correct) at which the
 * verifier accepts — was chosen on the training splits for the precision the file names.
 *
 * Features are sparse: a feature absent from a candidate is 0, and a feature the model never saw
 * is ignored, so candidates carrying features added after training are scored as before.
 */
import type { Features } from "./answer-features.js";
import { ModelFile, ModelFileError } from "./model-file.js";

/** One regression tree, as parallel arrays over its nodes (node 0 is the root). */
export interface Tree {
  /** Index into the model's `features` of the node's split, or -1 for a leaf. */
  f: number[];
  /** Split threshold: value ≤ t goes to `l`, else to `r`. */
  t: number[];
  l: number[];
  r: number[];
  /** Log-odds contribution of a leaf; for an inner node the value it would have as a leaf (for the reason's attributions). */
  v: number[];
}

export type Scorer =
  | { kind: "logistic"; /** Feature name → weight (absent features weigh 0). */ weights: Record<string, number> }
  | { kind: "trees"; features: string[]; base: number; trees: Tree[] };

/** Raw log-odds → P: piecewise linear through (x, y), x increasing, y non-decreasing; flat beyond the ends. */
export interface Calibration {
  x: number[];
  y: number[];
}

export interface AnswerModel {
  format: "atr-answer-verifier-v2";
  scorer: Scorer;
  /** Absent: P = sigmoid(raw). */
  calibration?: Calibration;
  /**
   * Candidates carrying `feature` (e.g. "tables-only": an index without passages; "period-table":
   * a report table) are calibrated by that map instead (the first that applies): one threshold
   * then means the same precision on each kind of evidence. (A file may hold one as an object.)
   */
  calibrationBy?: Array<{ feature: string; calibration: Calibration }>;
  /** Accept (verdict 1) at P(correct) ≥ threshold — an attempt's P, or the ranker's P of the question's best answer. */
  threshold: number;
  /**
   * Candidates carrying `feature` (e.g. "tables-only": an index without passages) are accepted at
   * this threshold instead: one threshold per kind of index, each chosen on the training benchmarks
   * of that kind (docs/VERIFIER.md). The kind is what the user's index is, not a benchmark label.
   */
  thresholdBy?: { feature: string; threshold: number };
  /** The ranker (answer-ranker.ts): which answer to give when no attempt was accepted, and its P. */
  ranker?: { scorer: Scorer; calibration?: Calibration; acceptor?: Acceptor };
  /** What it was trained on and how it did there (docs/VERIFIER.md). */
  trainedOn: Record<string, unknown>;
}

/**
 * The question-level verifier (answer-ranker.ts `acceptorFeatures`): when every route was tried
 * and no attempt was accepted, P(correct) of the answer the ranker gives, from the evidence of all
 * the question's attempts (which routes found it, rule outcomes, plan match, the best attempt's
 * features; not the per-attempt P). One calibration and threshold per kind of evidence: the first
 * of `kinds` whose feature the question's attempts carry ("tables-only", "period-table"), else
 * `rest` — each threshold chosen on the training questions of that kind alone (docs/VERIFIER.md).
 * A kind may carry a scorer of its own, fitted on its kind's questions alone (`atr train-verifier
 * --acceptor_scorer_by kind`); the others use the shared `scorer`.
 */
export interface Acceptor {
  scorer: Scorer;
  kinds: Array<AcceptorKind & { feature: string }>;
  rest: AcceptorKind;
}

/** One kind of evidence of the acceptor: its calibration, its threshold, and optionally its own scorer. */
export interface AcceptorKind {
  calibration: Calibration;
  threshold: number;
  scorer?: Scorer;
}

/** Where a model being checked came from, for the error (set by checkAnswerModel). */
let source = "nodes/offline/models/answer-verifier.json";

function fail(field: string, what: string): never {
  throw new ModelFileError(source, `${field}: ${what}`);
}

function numbers(v: unknown, field: string): number[] {
  if (!Array.isArray(v) || !v.every((x) => typeof x === "number" && Number.isFinite(x)))
    fail(field, "expected an array of finite numbers");
  return v as number[];
}

function checkWeights(w: unknown, field: string): Record<string, number> {
  if (!w || typeof w !== "object" || !Object.values(w).every((x) => typeof x === "number" && Number.isFinite(x)))
    fail(field, "expected feature → finite number");
  return w as Record<string, number>;
}

function checkCalibration(c: unknown, field: string): Calibration | undefined {
  if (c === undefined) return undefined;
  const { x, y } = (c ?? {}) as Partial<Calibration>;
  const xs = numbers(x, `${field}.x`);
  const ys = numbers(y, `${field}.y`);
  if (xs.length === 0 || xs.length !== ys.length) fail(field, "x and y must be non-empty and of the same length");
  for (let i = 1; i < xs.length; i++) {
    if (!(xs[i]! > xs[i - 1]!)) fail(`${field}.x`, "must be strictly increasing");
    if (ys[i]! < ys[i - 1]!) fail(`${field}.y`, "must be non-decreasing (a calibration is monotone)");
  }
  if (ys.some((p) => p < 0 || p > 1)) fail(`${field}.y`, "must lie in 0..1");
  return { x: xs, y: ys };
}

function checkTree(tree: unknown, nFeatures: number, field: string): Tree {
  const t = (tree ?? {}) as Partial<Tree>;
  const f = numbers(t.f, `${field}.f`);
  const out: Tree = {
    f,
    t: numbers(t.t, `${field}.t`),
    l: numbers(t.l, `${field}.l`),
    r: numbers(t.r, `${field}.r`),
    v: numbers(t.v, `${field}.v`),
  };
  if (f.length === 0 || [out.t, out.l, out.r, out.v].some((a) => a.length !== f.length))
    fail(field, "f, t, l, r, v must be non-empty and of the same length");
  for (let i = 0; i < f.length; i++) {
    if (f[i] === -1) continue;
    if (!Number.isInteger(f[i]) || f[i]! < 0 || f[i]! >= nFeatures)
      fail(`${field}.f[${i}]`, `feature index out of range 0..${nFeatures - 1}`);
    // children after their parent: every walk ends at a leaf
    for (const c of [out.l[i]!, out.r[i]!])
      if (!Number.isInteger(c) || c <= i || c >= f.length)
        fail(`${field} node ${i}`, `child ${c} must be a later node`);
  }
  return out;
}

function checkThreshold(t: unknown, field: string): number {
  if (typeof t !== "number" || !(t >= 0 && t <= 1)) fail(field, "expected a number in 0..1");
  return t;
}

function checkAcceptor(raw: unknown, field: string): Acceptor {
  const a = (raw ?? {}) as Record<string, unknown>;
  const kind = (k: unknown, f: string): AcceptorKind => {
    const o = (k ?? {}) as Record<string, unknown>;
    return {
      calibration: checkCalibration(o.calibration, `${f}.calibration`) ?? fail(`${f}.calibration`, "missing"),
      threshold: checkThreshold(o.threshold, `${f}.threshold`),
      ...(o.scorer === undefined ? {} : { scorer: checkScorer(o.scorer, `${f}.scorer`) }),
    };
  };
  if (!Array.isArray(a.kinds)) fail(`${field}.kinds`, "expected an array of {feature, calibration, threshold}");
  return {
    scorer: checkScorer(a.scorer, `${field}.scorer`),
    kinds: (a.kinds as unknown[]).map((k, i) => {
      const feature = (k as Record<string, unknown> | null)?.feature;
      if (typeof feature !== "string") fail(`${field}.kinds[${i}].feature`, "expected a feature name");
      return { feature, ...kind(k, `${field}.kinds[${i}]`) };
    }),
    rest: kind(a.rest, `${field}.rest`),
  };
}

function checkScorer(raw: unknown, field: string): Scorer {
  const s = (raw ?? {}) as Record<string, unknown>;
  if (s.kind === "logistic") return { kind: "logistic", weights: checkWeights(s.weights, `${field}.weights`) };
  if (s.kind !== "trees") fail(`${field}.kind`, `expected "trees" or "logistic", got ${String(s.kind)}`);
  const features = s.features;
  if (!Array.isArray(features) || !features.every((x) => typeof x === "string"))
    fail(`${field}.features`, "expected an array of feature names");
  if (typeof s.base !== "number" || !Number.isFinite(s.base)) fail(`${field}.base`, "expected a finite number");
  if (!Array.isArray(s.trees)) fail(`${field}.trees`, "expected an array of trees");
  return {
    kind: "trees",
    features: features as string[],
    base: s.base,
    trees: (s.trees as unknown[]).map((t, i) => checkTree(t, (features as string[]).length, `${field}.trees[${i}]`)),
  };
}

/**
 * The model file's content, checked: a ModelFileError naming the file and the field otherwise
 * (retrain with `atr train-verifier`). Version 1 files (logistic weights) still load.
 */
export function checkAnswerModel(raw: unknown, path = "nodes/offline/models/answer-verifier.json"): AnswerModel {
  source = path;
  const m = (raw ?? {}) as Record<string, unknown>;
  const threshold = m.threshold;
  if (typeof threshold !== "number" || !(threshold >= 0 && threshold <= 1))
    fail("threshold", "expected a number in 0..1");
  const trainedOn = (m.trainedOn ?? {}) as Record<string, unknown>;
  if (m.format === "atr-answer-verifier-v1") {
    const ranker =
      m.ranker === undefined
        ? undefined
        : { scorer: { kind: "logistic" as const, weights: checkWeights(m.ranker, "ranker") } };
    return {
      format: "atr-answer-verifier-v2",
      scorer: { kind: "logistic", weights: checkWeights(m.weights, "weights") },
      threshold,
      ...(ranker ? { ranker } : {}),
      trainedOn,
    };
  }
  if (m.format !== "atr-answer-verifier-v2") fail("format", `unknown format ${String(m.format)}`);
  const scorer = checkScorer(m.scorer, "scorer");
  const calibration = checkCalibration(m.calibration, "calibration");
  let calibrationBy: AnswerModel["calibrationBy"];
  if (m.calibrationBy !== undefined) {
    const list = (Array.isArray(m.calibrationBy) ? m.calibrationBy : [m.calibrationBy]) as unknown[];
    calibrationBy = list.map((raw, i) => {
      const c = (raw ?? {}) as Record<string, unknown>;
      const field = Array.isArray(m.calibrationBy) ? `calibrationBy[${i}]` : "calibrationBy";
      if (typeof c.feature !== "string") fail(`${field}.feature`, "expected a feature name");
      return {
        feature: c.feature,
        calibration: checkCalibration(c.calibration, `${field}.calibration`) ?? fail(`${field}.calibration`, "missing"),
      };
    });
  }
  let thresholdBy: AnswerModel["thresholdBy"];
  if (m.thresholdBy !== undefined) {
    const t = m.thresholdBy as Record<string, unknown>;
    if (typeof t.feature !== "string") fail("thresholdBy.feature", "expected a feature name");
    if (typeof t.threshold !== "number" || !(t.threshold >= 0 && t.threshold <= 1))
      fail("thresholdBy.threshold", "expected a number in 0..1");
    thresholdBy = { feature: t.feature, threshold: t.threshold };
  }
  let ranker: AnswerModel["ranker"];
  if (m.ranker !== undefined) {
    const r = m.ranker as Record<string, unknown>;
    const rc = checkCalibration(r.calibration, "ranker.calibration");
    const acceptor = r.acceptor === undefined ? undefined : checkAcceptor(r.acceptor, "ranker.acceptor");
    ranker = {
      scorer: checkScorer(r.scorer, "ranker.scorer"),
      ...(rc ? { calibration: rc } : {}),
      ...(acceptor ? { acceptor } : {}),
    };
  }
  return {
    format: "atr-answer-verifier-v2",
    scorer,
    ...(calibration ? { calibration } : {}),
    ...(calibrationBy ? { calibrationBy } : {}),
    threshold,
    ...(thresholdBy ? { thresholdBy } : {}),
    ...(ranker ? { ranker } : {}),
    trainedOn,
  };
}

const model = new ModelFile<AnswerModel>("answer-verifier.json", checkAnswerModel);

/** The shipped model, or null without one. */
export function answerModel(): AnswerModel | null {
  return model.get();
}

/** Replaces the model (null = none, undefined = read the file again): tests and training. */
export function setAnswerModel(m: AnswerModel | null | undefined): void {
  model.set(m === null || m === undefined ? m : checkAnswerModel(m, "the model given to setAnswerModel"));
}

export function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

/** Σ weight × value over the features (absent features and unknown weights count 0). */
export function linearScore(weights: Readonly<Record<string, number>>, features: Features): number {
  let z = 0;
  for (const name in features) {
    const w = weights[name];
    if (w !== undefined) z += w * features[name]!;
  }
  return z;
}

function leafOf(tree: Tree, names: readonly string[], features: Features): number {
  let i = 0;
  while (tree.f[i] !== -1) i = (features[names[tree.f[i]!]!] ?? 0) <= tree.t[i]! ? tree.l[i]! : tree.r[i]!;
  return i;
}

/** The scorer's raw log-odds for a candidate. */
export function rawScore(scorer: Scorer, features: Features): number {
  if (scorer.kind === "logistic") return linearScore(scorer.weights, features);
  let z = scorer.base;
  for (const tree of scorer.trees) z += tree.v[leafOf(tree, scorer.features, features)]!;
  return z;
}

/** Raw log-odds → P through the calibration (sigmoid without one). */
export function calibrated(calibration: Calibration | undefined, raw: number): number {
  if (!calibration) return sigmoid(raw);
  const { x, y } = calibration;
  if (raw <= x[0]!) return y[0]!;
  const n = x.length - 1;
  if (raw >= x[n]!) return y[n]!;
  let lo = 0;
  let hi = n;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (x[mid]! <= raw) lo = mid;
    else hi = mid;
  }
  return y[lo]! + ((y[hi]! - y[lo]!) * (raw - x[lo]!)) / (x[hi]! - x[lo]!);
}

/** The calibration a candidate with these features gets: the first `calibrationBy` whose feature it carries, else the model's. */
export function calibrationFor(
  m: Pick<AnswerModel, "calibration" | "calibrationBy">,
  features: Features,
): Calibration | undefined {
  return m.calibrationBy?.find((c) => (features[c.feature] ?? 0) !== 0)?.calibration ?? m.calibration;
}

/** P(correct) of a candidate with these features under the model. */
export function scoreFeatures(
  m: Pick<AnswerModel, "scorer" | "calibration" | "calibrationBy">,
  features: Features,
): number {
  return calibrated(calibrationFor(m, features), rawScore(m.scorer, features));
}

/** The acceptance threshold for a candidate with these features (`thresholdBy` when it carries its feature). */
export function thresholdFor(m: Pick<AnswerModel, "threshold" | "thresholdBy">, features: Features): number {
  return m.thresholdBy && (features[m.thresholdBy.feature] ?? 0) !== 0 ? m.thresholdBy.threshold : m.threshold;
}

/**
 * The features that moved the raw log-odds the most, strongest first ("agree=2+ +1.9"), for a
 * readable reason: weight × value for the logistic scorer; for trees the change of the node value
 * at each split the candidate passed, summed per feature (a feature may count by being absent).
 */
export function strongestFeatures(scorer: Scorer, features: Features, n = 3): string[] {
  const by = new Map<string, number>();
  if (scorer.kind === "logistic") {
    for (const name in features) if (name !== "bias") by.set(name, (scorer.weights[name] ?? 0) * features[name]!);
  } else {
    for (const tree of scorer.trees) {
      let i = 0;
      while (tree.f[i] !== -1) {
        const name = scorer.features[tree.f[i]!]!;
        const value = features[name] ?? 0;
        const next = value <= tree.t[i]! ? tree.l[i]! : tree.r[i]!;
        const label = value === 0 && tree.t[i]! >= 0 ? `no ${name}` : name;
        by.set(label, (by.get(label) ?? 0) + tree.v[next]! - tree.v[i]!);
        i = next;
      }
    }
  }
  return [...by]
    .filter(([, w]) => Math.abs(w) >= 0.05)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
    .slice(0, n)
    .map(([name, w]) => `${name} ${w >= 0 ? "+" : "−"}${Math.abs(w).toFixed(1)}`);
}
