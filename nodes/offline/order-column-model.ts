/**
 * The learned order column of superlatives: a linear score over features of one (question, column)
 * pair, fitted listwise on WTQ train with execution labels (scripts/train-order-columns.ts: the
 * superlative plan is rebuilt ordering by each numeric or date column in turn, and a column is
 * positive when that answer is right under the official WTQ match). The first features are the
 * hand score's own terms (columns.ts `chooseOrderColumn`), so the hand weights are the model's
 * starting point and prior. The model only re-picks the column among the hand score's candidates;
 * the hand score still says whether any column is named strongly enough to order by. Without
 * models/order-columns.json the hand score picks.
 */
import { ModelFile, ModelFileError } from "./model-file.js";
import type { CatalogColumn } from "./table-catalog.js";

/** The hand-written score's terms, in order, with the weights columns.ts gives them. */
export const ORDER_HAND_TERMS = [
  ["afterMatch", 2],
  ["otherMatch", 0.6],
  ["superlativeMatch", 1],
  ["stopHeader", 1],
  ["dateSuperlative", 0.8],
  ["timeSuperlative", 1],
  ["rankBest", 0.6],
  ["avoid", -3],
  ["rankPenalty", -0.5],
] as const;

export type OrderHandTerms = Record<(typeof ORDER_HAND_TERMS)[number][0], number>;

/** Superlative words grouped by what they usually order (the class × column-kind indicators). */
const SUPERLATIVE_CLASSES = ["amount", "time", "size", "rank", "none"] as const;
const ORDER_KINDS = ["count", "measure", "year", "date", "rank"] as const;

export const ORDER_FEATURES: readonly string[] = [
  ...ORDER_HAND_TERMS.map(([name]) => name),
  "noAfterMatch",
  "relativeIndex",
  "firstNumeric",
  "distinctShare",
  "numericShare",
  "totalHeader",
  ...SUPERLATIVE_CLASSES.flatMap((s) => ORDER_KINDS.map((k) => `sw:${s}×${k}`)),
];

export function superlativeClass(sw: string | undefined): (typeof SUPERLATIVE_CLASSES)[number] {
  if (!sw) return "none";
  if (/^(most|least|fewest|maximum|minimum|greatest)$/.test(sw)) return "amount";
  if (/^(oldest|youngest|earliest|latest|recent|newest|longest|shortest|fastest|slowest|quickest)$/.test(sw))
    return "time";
  if (/^(best|worst|top)$/.test(sw)) return "rank";
  return "size";
}

function orderKind(c: CatalogColumn, isRank: boolean, isYear: boolean): (typeof ORDER_KINDS)[number] {
  if (isRank) return "rank";
  if (c.schema.type === "date") return "date";
  if (isYear) return "year";
  const ints = c.num.filter((v): v is number => v !== null);
  return ints.length > 0 && ints.every((v) => Number.isInteger(v) && v >= 0 && v < 1000) ? "count" : "measure";
}

/** The feature vector of one candidate order column (ORDER_FEATURES order). */
export function orderFeatureVector(
  c: CatalogColumn,
  columnCount: number,
  firstNumeric: boolean,
  hand: OrderHandTerms,
  sw: string | undefined,
  isRank: boolean,
  isYear: boolean,
): number[] {
  const present = c.raw.filter((v) => v.trim() !== "").length;
  const x = [
    ...ORDER_HAND_TERMS.map(([name]) => hand[name]),
    hand.afterMatch === 0 ? 1 : 0,
    columnCount > 1 ? c.index / (columnCount - 1) : 0,
    firstNumeric ? 1 : 0,
    c.distinct.size / Math.max(1, present),
    c.numericShare,
    c.headerWords.includes("total") ? 1 : 0,
  ];
  const cls = superlativeClass(sw);
  const kind = orderKind(c, isRank, isYear);
  for (const s of SUPERLATIVE_CLASSES) for (const k of ORDER_KINDS) x.push(s === cls && k === kind ? 1 : 0);
  return x;
}

export interface OrderColumnModel {
  /** What it was trained on and by which command. */
  trainedOn: string;
  features: string[];
  weights: number[];
}

export function checkOrderColumnModel(value: unknown, path: string): OrderColumnModel {
  const m = value as OrderColumnModel;
  if (!m || !Array.isArray(m.features) || !Array.isArray(m.weights) || m.weights.length !== m.features.length)
    throw new ModelFileError(path, "needs features and weights of the same length");
  if (m.features.join("\u0000") !== ORDER_FEATURES.join("\u0000"))
    throw new ModelFileError(path, "its features differ from nodes/offline/order-column-model.ts ORDER_FEATURES");
  return m;
}

const file = new ModelFile<OrderColumnModel>("order-columns.json", checkOrderColumnModel);

/** The learned scorer, or null when models/order-columns.json is absent. */
export function orderColumnModel(): OrderColumnModel | null {
  return file.get();
}

/** Replaces the model (null = the hand score; undefined = read the file again) — tests and training. */
export function setOrderColumnModel(model: OrderColumnModel | null | undefined): void {
  file.set(model);
}

/** The hand weights as a model vector (the training's starting point and prior). */
export function orderHandWeights(): number[] {
  return ORDER_FEATURES.map((_, i) => (i < ORDER_HAND_TERMS.length ? ORDER_HAND_TERMS[i]![1] : 0));
}

/** Training hooks: a recorder of every ranking, and a forced choice (the index into the candidates) for execution labels. */
export interface OrderRanking {
  rows: Array<{ column: CatalogColumn; x: number[]; hand: number }>;
}
let recorder: ((r: OrderRanking) => void) | null = null;
let forced: ((r: OrderRanking) => number | undefined) | null = null;

export function recordOrderRankings(fn: typeof recorder): void {
  recorder = fn;
}
export function forceOrderColumn(fn: typeof forced): void {
  forced = fn;
}
export function orderHooks(): { recorder: typeof recorder; forced: typeof forced } {
  return { recorder, forced };
}
