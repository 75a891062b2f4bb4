/**
 * The learned choice between the two readings of a value question over a report: the cells of the
 * report table the question's words locate (table-cells.ts) and the best span of the passages
 * (reader.ts `readPassageSpans`). The rule was "the cells win whenever they locate a row"; but a
 * report often states in a paragraph an amount its table does not hold ("opened 38 new stores",
 * "maintenance expense was $4.2 million"), and the table's best row then matches only part of the
 * question while one sentence holds all of it. A logistic score over a few features of the pair —
 * how well each reading matched the question, whether the cells computed something, the span's
 * shape — says when the passage span wins. Trained on tatqa/train with execution labels (the
 * questions where exactly one of the two readings is right under the official metric), folds
 * grouped by report: `npx tsx scripts/train-reading-choice.ts` (docs/OFFLINE-BACKBONE.md, "Reading
 * choice"). Without models/reading-choice.json the cells win, as before.
 */
import type { CellAnswer } from "./table-cells.js";
import { ModelFile, ModelFileError } from "./model-file.js";
import { numericValue } from "./answer-kind.js";

/** Features of a (cells, passage span) pair, in the order of the model's weights. */
export const READING_CHOICE_FEATURES = [
  "bias",
  // share of the question's row words the located row holds (0.5..1)
  "cells-confidence",
  // the cells computed the answer (a change, an average, a ratio …), not read one cell or a list
  "cells-computed",
  // idf share of the question's words the span's sentence holds (0..1)
  "span-coverage",
  // the sentence holds every question word
  "span-full-coverage",
  // how well the span's shape fits the asked kind (capped at 1)
  "span-fit",
  // question words near the span, idf-weighted and discounted by distance (0..1)
  "span-proximity",
  // the span is an amount written in digits (not a number word such as "one")
  "span-digits",
  // the span states the cells' amount rounded to its scale word ("$16.9 million" for 16,901 thousand)
  "span-rounds-cells",
] as const;

/** The passage span as the choice reads it (reader.ts `ScoredSpan`). */
export interface SpanReading {
  answer: string;
  coverage: number;
  fit: number;
  proximity: number;
}

export interface ReadingChoiceModel {
  trainedOn: string;
  features: string[];
  weights: number[];
}

/** The pair's feature vector (READING_CHOICE_FEATURES order). */
export function readingChoiceFeatures(
  cells: Pick<CellAnswer, "answer" | "confidence" | "operation">,
  span: SpanReading,
): number[] {
  const computed = cells.operation !== "lookup" && cells.operation !== "list";
  const number = /\d/.test(span.answer) && amountOf(span.answer) !== null;
  return [
    1,
    Math.min(1, cells.confidence),
    computed ? 1 : 0,
    Math.min(1, span.coverage),
    span.coverage >= 0.999 ? 1 : 0,
    Math.min(1, span.fit),
    Math.min(1, span.proximity),
    number ? 1 : 0,
    roundsAmount(cells.answer, span.answer) ? 1 : 0,
  ];
}

/** The number an answer states, without currency, scale word or percent sign; null for other text. */
function amountOf(answer: string): number | null {
  return numericValue(answer.replace(/^[$€£]\s*|\s*%$|\s+(thousand|million|billion)$/gi, "").trim());
}

/**
 * Whether the two readings state the same number ("$93,662" in a sentence, "93,662 thousand" from the
 * cells): then they agree, and the cells' reading, which carries the table's scale, stands.
 */
export function sameAmount(cells: string, span: string): boolean {
  const a = amountOf(cells);
  const b = amountOf(span);
  return a !== null && b !== null && Math.abs(Math.abs(a) - Math.abs(b)) < 1e-9;
}

const SCALE_WORDS: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9 };

/** An answer's amount in units, with the scale word it ends with; null for text or a percentage. */
function scaledAmount(answer: string): { value: number; scale: number; decimals: number } | null {
  const word = /\s+(thousand|million|billion)$/i.exec(answer.trim())?.[1]?.toLowerCase();
  const value = amountOf(answer);
  if (value === null || /%\s*$/.test(answer)) return null;
  const digits = answer.replace(/\s+(thousand|million|billion)$/i, "").replace(/[^\d.]/g, "");
  return { value, scale: word ? SCALE_WORDS[word]! : 1, decimals: digits.split(".")[1]?.length ?? 0 };
}

/**
 * Whether the span states the cells' amount rounded to the span's last digit and scale word: a
 * paragraph writing "$16.9 million" for the table's 16,901 (in thousands). Sizes are compared (a
 * paragraph writes a decrease without its sign); never for an amount the span states exactly.
 */
export function roundsAmount(cells: string, span: string): boolean {
  const c = scaledAmount(cells);
  const s = scaledAmount(span);
  if (!c || !s || s.scale === 1 || s.value === 0 || sameAmount(cells, span)) return false;
  const unit = s.scale * 10 ** -s.decimals;
  return Math.abs(Math.abs(c.value * c.scale) - Math.abs(s.value * s.scale)) <= unit / 2 + 1e-9 * unit;
}

/** Weights that reproduce the old rule (the cells always win): the fit's starting point and prior. */
export const READING_CHOICE_PRIOR: readonly number[] = [-4, 0, 0, 0, 0, 0, 0, 0, 0];

export function checkReadingChoiceModel(value: unknown, path: string): ReadingChoiceModel {
  const m = value as Partial<ReadingChoiceModel>;
  if (!Array.isArray(m.features) || !Array.isArray(m.weights) || m.features.length !== m.weights.length)
    throw new ModelFileError(path, "needs features and weights of the same length");
  if (m.features.join(",") !== READING_CHOICE_FEATURES.join(","))
    throw new ModelFileError(path, "its features differ from nodes/offline/reading-choice.ts READING_CHOICE_FEATURES");
  return m as ReadingChoiceModel;
}

const file = new ModelFile<ReadingChoiceModel>("reading-choice.json", checkReadingChoiceModel);

/** The shipped model, or null without the file. */
export function readingChoiceModel(): ReadingChoiceModel | null {
  return file.get();
}

/** Replaces the model (null = none; undefined = read the file again): tests and the training script. */
export function setReadingChoiceModel(model: ReadingChoiceModel | null | undefined): void {
  file.set(model);
}

/** The log-odds that the passage span, not the cells, answers (negative: the cells). */
export function passageScore(weights: readonly number[], x: readonly number[]): number {
  let s = 0;
  for (let d = 0; d < x.length; d++) s += weights[d]! * x[d]!;
  return s;
}

/** Whether the passage span answers instead of the cells' reading (never without a model). */
export function passageWins(
  cells: Pick<CellAnswer, "answer" | "confidence" | "operation">,
  span: SpanReading,
): boolean {
  const model = readingChoiceModel();
  if (!model || sameAmount(cells.answer, span.answer)) return false;
  return passageScore(model.weights, readingChoiceFeatures(cells, span)) > 0;
}
