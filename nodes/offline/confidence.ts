/**
 * How likely an offline SQL plan answers its question: a table of precisions per plan shape
 * (template × how its entities were grounded × whether the question names the answer column),
 * learned on the WTQ training split (training/offline-confidence.ts → models/sql-confidence.json)
 * with add-k smoothing toward the overall precision. Without the model: a fixed prior per template.
 */
import type { QuestionAnalysis } from "./analysis.js";
import { headerMatch } from "./columns.js";
import type { EntityMention } from "./mentions.js";
import { ModelFile } from "./model-file.js";
import type { TableCatalog } from "./table-catalog.js";

export interface PlanFeatures {
  template: string;
  /** Weakest grounding among the mentions: none | exact | partial | fuzzy. */
  grounding: "none" | "exact" | "partial" | "fuzzy";
  /** Mentions used: "0" | "1" | "2+". */
  mentions: "0" | "1" | "2+";
  /** Does the question name the answer column: named (header word) | weak | unnamed | computed. */
  target: "named" | "weak" | "unnamed" | "computed";
  /**
   * A next/previous plan whose anchor value names several rows ("the artist after bernadette", who sang
   * twice): which occurrence is meant is a guess. Absent otherwise.
   */
  anchor?: "repeated";
  /** After execution: how many rows the SQL returned ("0", "1", "2-5", "6+"), or a zero/empty scalar ("zero"). */
  rows?: "0" | "1" | "2-5" | "6+" | "zero";
}

/** The rows feature of an executed plan, from the result rows (arrays or objects). */
export function rowsFeature(rows: readonly unknown[]): NonNullable<PlanFeatures["rows"]> {
  if (rows.length === 0) return "0";
  if (rows.length === 1) {
    const first = rows[0];
    const values = Array.isArray(first) ? first : first && typeof first === "object" ? Object.values(first) : [first];
    if (values.length === 1 && (values[0] === 0 || values[0] === null || values[0] === "")) return "zero";
    return "1";
  }
  return rows.length <= 5 ? "2-5" : "6+";
}

export interface ConfidenceModel {
  /** Overall precision of answered plans on the training split. */
  prior: number;
  /** featureKey → [correct, total]. */
  table: Record<string, [number, number]>;
  /** Smoothing pseudo-count. */
  k: number;
}

/** The plan's features (targetColumn "" = a computed answer such as a count). */
export function planFeatures(
  a: QuestionAnalysis,
  mentions: EntityMention[],
  plan: { template: string; targetColumn: string },
  catalog: TableCatalog,
): PlanFeatures {
  const kinds = mentions.map((m) => m.kind);
  const grounding = kinds.includes("fuzzy")
    ? "fuzzy"
    : kinds.includes("partial")
      ? "partial"
      : kinds.length
        ? "exact"
        : "none";
  const column = catalog.columns.find((c) => c.schema.name === plan.targetColumn);
  let target: PlanFeatures["target"] = "computed";
  if (column && /^(lookup|first|last|next|previous|argmax|argmin|group-count|count-column)$/.test(plan.template)) {
    const s = headerMatch(a.targetHints.length ? a.targetHints : a.contentWords, column);
    target = s >= 1.5 ? "named" : s > 0 ? "weak" : "unnamed";
  }
  const repeated = (plan.template === "next" || plan.template === "previous") && (mentions[0]?.rows.length ?? 0) > 1;
  return {
    template: plan.template,
    grounding,
    mentions: mentions.length === 0 ? "0" : mentions.length === 1 ? "1" : "2+",
    target,
    ...(repeated ? { anchor: "repeated" as const } : {}),
  };
}

/** Keys from specific to general, so sparse shapes back off to their template. */
export function featureKeys(f: PlanFeatures): string[] {
  const keys = [
    `${f.template}|${f.grounding}|${f.mentions}|${f.target}`,
    `${f.template}|${f.grounding}|${f.target}`,
    `${f.template}|${f.target}`,
    f.template,
  ];
  const withRows = f.rows ? [`${keys[0]}|rows=${f.rows}`, `${f.template}|${f.target}|rows=${f.rows}`, ...keys] : keys;
  // A repeated anchor is the most telling shape of a next/previous plan: its own cells are the most specific.
  return f.anchor
    ? [`${f.template}|${f.target}|anchor=${f.anchor}`, `${f.template}|anchor=${f.anchor}`, ...withRows]
    : withRows;
}

const model = new ModelFile<ConfidenceModel>("sql-confidence.json");

function loadModel(): ConfidenceModel | null {
  return model.get();
}

/** Sets (or clears with null, or re-reads the file with undefined) the model — tests and the training script. */
export function setConfidenceModel(m: ConfidenceModel | null | undefined): void {
  model.set(m);
}

/**
 * Confidence of an executed offline SQL answer: the plan shape the decomposer recorded
 * (analysis.grounding) plus the number of rows the SQL returned. Undefined when the plan carries
 * no offline grounding (e.g. a prompted decomposer).
 */
export function answerConfidence(a: QuestionAnalysis | undefined, sqlResult: string): number | undefined {
  const g = a?.grounding;
  if (!g?.features) return undefined;
  let rows: unknown[] = [];
  try {
    const parsed = JSON.parse(sqlResult) as unknown;
    rows = Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    rows = [];
  }
  return planConfidence({ ...g.features, rows: rowsFeature(rows) });
}

/** Estimated probability that the plan's answer is right (0..1). */
export function planConfidence(f: PlanFeatures): number {
  const m = loadModel();
  if (!m) return f.template === "choice" || f.template === "moreless" || f.template === "difference" ? 0.7 : 0.4;
  // Back off: each level is smoothed toward the next more general one.
  let estimate = m.prior;
  for (const key of featureKeys(f).reverse()) {
    const cell = Object.hasOwn(m.table, key) ? m.table[key] : undefined;
    if (cell) estimate = (cell[0] + m.k * estimate) / (cell[1] + m.k);
  }
  return Math.round(estimate * 1000) / 1000;
}
