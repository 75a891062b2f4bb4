/**
 * The learned target-column scorer: a linear score over features of one (question, column) pair,
 * trained listwise on WTQ train (scripts/train-target-columns.ts: execution labels, a column is
 * positive when the first plan answering with it is right). The first features are the hand-written score's own terms
 * (columns.ts `rankTargetColumns`), so the hand weights are the model's starting point and its
 * prior; the rest pair the question's wh-word and answer kind with the column's kind, and describe
 * the column's cells. The shipped models/target-columns.json ranks only when no column's header is
 * spelled by the question (columns.ts; docs/OFFLINE-BACKBONE.md, "Learned target column, shipped");
 * without the file the hand score ranks the columns.
 */
import type { QuestionAnalysis } from "./analysis.js";
import { ModelFile, ModelFileError } from "./model-file.js";
import type { CatalogColumn } from "./table-catalog.js";

/** The hand-written score's terms, in order, with the weights columns.ts gives them. */
export const HAND_TERMS = [
  ["hintMatch", 2],
  ["otherMatch", 0.5],
  ["stopHeader", 1],
  ["typeFit", 1],
  ["mention", -2.5],
  ["avoid", -2],
  ["prefer", 1.2],
  ["leftKey", 0.4],
  ["firstText", 0.3],
  ["index", -0.02],
  ["empty", -1],
] as const;

/** The question's wh-word class. */
const WH = ["who", "where", "when", "which", "what", "how many", "how much", "how other", "none"] as const;
/** The column's kind. */
const KINDS = ["numeric", "year", "date", "person", "place", "text"] as const;
const ANSWER_TYPES = ["count", "number", "percent", "year", "date", "person", "place", "entity", "other"] as const;

export const TARGET_FEATURES: readonly string[] = [
  ...HAND_TERMS.map(([name]) => name),
  "noHintMatch",
  "headMatch",
  "relativeIndex",
  "distinctShare",
  "cellLength",
  "numericShare",
  "yearShare",
  "timeShare",
  ...WH.flatMap((w) => KINDS.map((k) => `wh:${w}×${k}`)),
  ...ANSWER_TYPES.flatMap((t) => KINDS.map((k) => `type:${t}×${k}`)),
];

export function whClass(q: string): (typeof WH)[number] {
  const m = /\b(who|whom|whose|where|when|which|what|how (many|much)|how)\b/.exec(q);
  if (!m) return "none";
  const w = m[1]!;
  if (w === "whom" || w === "whose") return "who";
  if (w === "how") return "how other";
  return w as (typeof WH)[number];
}

/** The hand score's terms and the extra descriptions of one column (see TARGET_FEATURES). */
export interface ColumnTerms {
  hand: Record<(typeof HAND_TERMS)[number][0], number>;
  headMatch: number;
  kind: (typeof KINDS)[number];
}

/** Non-empty cells and their mean length: read once per column (every ranking of every question asks). */
const shapes = new WeakMap<CatalogColumn, { present: number; meanLength: number }>();
function cellShape(c: CatalogColumn): { present: number; meanLength: number } {
  let shape = shapes.get(c);
  if (!shape) {
    let present = 0;
    let length = 0;
    for (const v of c.raw) {
      if (v.trim() === "") continue;
      present++;
      length += v.length;
    }
    shape = { present, meanLength: length / Math.max(1, present) };
    shapes.set(c, shape);
  }
  return shape;
}

/** The feature vector of one column for one question (TARGET_FEATURES order). */
export function targetFeatureVector(
  a: QuestionAnalysis,
  c: CatalogColumn,
  columnCount: number,
  terms: ColumnTerms,
): number[] {
  const { present, meanLength } = cellShape(c);
  const wh = whClass(a.normalized);
  const type = (ANSWER_TYPES as readonly string[]).includes(a.answerType) ? a.answerType : "other";
  const x = [
    ...HAND_TERMS.map(([name]) => terms.hand[name]),
    terms.hand.hintMatch === 0 ? 1 : 0,
    terms.headMatch,
    columnCount > 1 ? c.index / (columnCount - 1) : 0,
    c.distinct.size / Math.max(1, present),
    Math.log1p(meanLength) / 3,
    c.numericShare,
    c.yearShare,
    c.timeShare,
  ];
  for (const w of WH) for (const k of KINDS) x.push(w === wh && k === terms.kind ? 1 : 0);
  for (const t of ANSWER_TYPES) for (const k of KINDS) x.push(t === type && k === terms.kind ? 1 : 0);
  return x;
}

export interface TargetColumnModel {
  /** What it was trained on and by which command. */
  trainedOn: string;
  features: string[];
  weights: number[];
}

/** Validates a parsed model file (features must be TARGET_FEATURES, one weight each). */
export function checkTargetColumnModel(value: unknown, path: string): TargetColumnModel {
  const m = value as TargetColumnModel;
  if (!m || !Array.isArray(m.features) || !Array.isArray(m.weights) || m.weights.length !== m.features.length)
    throw new ModelFileError(path, "needs features and weights of the same length");
  if (m.features.join("\u0000") !== TARGET_FEATURES.join("\u0000"))
    throw new ModelFileError(path, "its features differ from nodes/offline/target-column-model.ts TARGET_FEATURES");
  return m;
}

const file = new ModelFile<TargetColumnModel>("target-columns.json", checkTargetColumnModel);

/** The learned scorer, or null when models/target-columns.json is absent. */
export function targetColumnModel(): TargetColumnModel | null {
  return file.get();
}

/** Replaces the model (null = the hand score; undefined = read the file again) — tests and training. */
export function setTargetColumnModel(model: TargetColumnModel | null | undefined): void {
  file.set(model);
}

/** The hand weights as a model vector (the training's starting point and prior). */
export function handWeights(): number[] {
  return TARGET_FEATURES.map((_, i) => (i < HAND_TERMS.length ? HAND_TERMS[i]![1] : 0));
}

export function linearScore(weights: readonly number[], x: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += weights[i]! * x[i]!;
  return s;
}

/** Called with every ranking's feature vectors (the training script records them); null = off. */
let recorder: ((rows: Array<{ column: CatalogColumn; x: number[] }>) => void) | null = null;

export function recordTargetRankings(fn: typeof recorder): void {
  recorder = fn;
}

export function targetRecorder(): typeof recorder {
  return recorder;
}
