/**
 * The learned choice among the rows a question's words leave close (bridge.ts). The word score
 * (idf of the question words a row's cells and linked passages hold) often ties or nearly ties
 * rows — every player's page says "born", every film's row holds a year — and the first row won.
 * Among the rows within ROW_CHOICE_BAND of the best score, each gets a few features of *how* it
 * matched; a linear score over them picks the row. Weights were fit listwise on hybridqa/train
 * (`npx tsx scripts/reader-rows.ts --fit`, folds grouped by table); docs/OFFLINE-BACKBONE.md has
 * the figures.
 */

/** Rows whose word score is at least this share of the best take part in the choice. */
export const ROW_CHOICE_BAND = 0.75;
/** At most this many rows (best word scores first) take part. */
export const ROW_CHOICE_MAX = 5;

/** Feature names, in the order of `RowChoiceFeatures` vectors and of ROW_CHOICE_WEIGHTS. */
export const ROW_CHOICE_FEATURES = [
  // word score / best word score (1 for the best rows)
  "relative-score",
  // the earliest row among the candidates (the old tie rule)
  "first",
  // share of the question's words that belong to cells the question names whole
  "cells-named",
  // best single sentence of the row's passages: idf share of question words it holds beyond the row's cells
  "sentence",
  // share of the question's rare numbers (3+ digits, held by few rows) the row's cells or passages hold
  "numbers",
  // share of the question's adjacent word pairs written side by side in the row's passages
  "phrases",
] as const;

/** Hand weights that reproduce the word score with first-row ties (the prior of the fit). */
export const ROW_CHOICE_PRIOR: readonly number[] = [10, 0.0001, 0, 0, 0, 0];

/** Weights fit on hybridqa/train (see the module comment). */
export const ROW_CHOICE_WEIGHTS: readonly number[] = [7.788, 0.462, 4.666, 1.784, 2.404, 1.504];

/** Index (into `candidates`) of the row the weights prefer; ties go to the earlier candidate. */
export function chooseRow(candidates: ReadonlyArray<readonly number[]>, weights = ROW_CHOICE_WEIGHTS): number {
  let best = 0;
  let bestScore = -Infinity;
  candidates.forEach((x, i) => {
    let s = 0;
    for (let d = 0; d < x.length; d++) s += weights[d]! * x[d]!;
    if (s > bestScore + 1e-9) {
      bestScore = s;
      best = i;
    }
  });
  return best;
}

/** How far the row `chooseRow` prefers is ahead of the next candidate in the same linear score (Infinity alone). */
export function rowChoiceMargin(candidates: ReadonlyArray<readonly number[]>, weights = ROW_CHOICE_WEIGHTS): number {
  const scores = candidates.map((x) => x.reduce((s, v, d) => s + weights[d]! * v, 0)).sort((a, b) => b - a);
  return scores.length < 2 ? Infinity : scores[0]! - scores[1]!;
}
