/**
 * Structural row candidates for row retrieval within one table. Lexical and dense similarity find
 * the rows a question names; many questions instead point at rows by position or order:
 * "the first winner", "the last game", "what came after X", "the highest score". This module turns
 * such wording into row candidates (general rules over the question's words and the table's
 * columns — nothing question-specific), which `rows()` places right after the best similarity hits.
 */
import { contentWords } from "../text/tokenise.js";
import { normaliseForMatch } from "../text/normalise.js";
import { stemSet } from "../text/stem.js";
import { parseNumber } from "../indexing/column-types.js";
import type { RowEntry } from "../indexing/types.js";

const FIRST = /\b(first|top|earliest|initial|opening|debut|1st|leading|winner|won|champion)\b/;
const LAST = /\b(last|final|latest|bottom|most recent|how many|total number|number of|count)\b/;
const AFTER = /\b(after|next|following|followed|succeeded|later than|below|behind|then)\b/;
const BEFORE = /\b(before|previous|previously|preceding|preceded|prior|above|earlier than|ahead)\b/;
const SAME = /\b(same|equal|as many|as much|tied|also)\b/;
const MAX =
  /\b(most|highest|largest|biggest|greatest|maximum|longest|tallest|heaviest|oldest|best|more|higher|larger|top|max|peak|peaked|record)\b/;
const MIN = /\b(least|lowest|smallest|fewest|minimum|shortest|lightest|youngest|worst|less|lower|fewer|min)\b/;

/**
 * Local row positions (into `rows`, which are one table's rows in order) suggested by the
 * question's structure, best first. `anchors` are local positions of the best similarity hits.
 */
export function structuralRows(question: string, rows: readonly RowEntry[], anchors: readonly number[]): number[] {
  const q = normaliseForMatch(question);
  const out: number[] = [];
  const push = (i: number) => {
    if (i >= 0 && i < rows.length && !out.includes(i)) out.push(i);
  };
  const anchor = anchors[0];
  if (anchor !== undefined) {
    // "X came before what?" asks for the row after X: order words bring both neighbours
    const after = AFTER.test(q);
    const before = BEFORE.test(q);
    if (after || before) {
      push(anchor + (after ? 1 : -1));
      push(anchor + (after ? -1 : 1));
    }
    if (SAME.test(q)) {
      // rows sharing a value with the anchor row ("the same year as X")
      const anchorValues = Object.entries(rows[anchor]!.values).filter(([, v]) => v.trim() !== "");
      let added = 0;
      rows.forEach((r, i) => {
        if (i === anchor || added >= 2) return;
        if (anchorValues.some(([c, v]) => r.values[c] === v)) {
          push(i);
          added++;
        }
      });
    }
  }
  if (FIRST.test(q)) push(0);
  if (LAST.test(q)) push(rows.length - 1);
  const wantMax = MAX.test(q);
  const wantMin = MIN.test(q);
  if ((wantMax || wantMin) && rows.length > 0) {
    // numeric columns whose header shares a word stem with the question ("Total" is a header word, not a stop word here)
    const headerWords = { keepHeaderWords: true };
    const qStems = stemSet(contentWords(question, headerWords));
    const columns = Object.keys(rows[0]!.values);
    const scored = columns
      .map((c) => ({ c, overlap: [...stemSet(contentWords(c, headerWords))].filter((s) => qStems.has(s)).length }))
      .filter((x) => x.overlap > 0);
    const numericCols = (
      scored.length > 0 ? scored.sort((a, b) => b.overlap - a.overlap).map((x) => x.c) : columns
    ).filter((c) => {
      let n = 0;
      for (const r of rows) if (parseNumber(r.values[c] ?? "") !== null) n++;
      return n >= Math.max(2, rows.length * 0.6);
    });
    for (const c of numericCols.slice(0, scored.length > 0 ? 2 : 1)) {
      let best = -1;
      let bestMin = -1;
      rows.forEach((r, i) => {
        const v = parseNumber(r.values[c] ?? "");
        if (v === null) return;
        if (best < 0 || v > parseNumber(rows[best]!.values[c]!)!) best = i;
        if (bestMin < 0 || v < parseNumber(rows[bestMin]!.values[c]!)!) bestMin = i;
      });
      if (wantMax) push(best);
      if (wantMin) push(bestMin);
    }
  }
  // a first row that is really a header (years or labels above numbers, as in TAT-QA) is context for any question
  if (rows.length > 2 && looksLikeHeaderRow(rows)) push(0);
  return out;
}

const YEAR = /^(19|20)\d\d$/;

/** Row 0 holds years/labels in columns whose other cells are mostly numbers. */
export function looksLikeHeaderRow(rows: readonly RowEntry[]): boolean {
  const columns = Object.keys(rows[0]!.values);
  let numericBelow = 0;
  let labelAbove = 0;
  for (const c of columns) {
    const first = (rows[0]!.values[c] ?? "").trim();
    if (first === "") continue;
    const rest = rows
      .slice(1)
      .map((r) => (r.values[c] ?? "").trim())
      .filter((v) => v !== "");
    if (rest.length === 0) continue;
    const numeric = rest.filter((v) => parseNumber(v) !== null).length / rest.length;
    if (numeric < 0.6) continue;
    numericBelow++;
    if (parseNumber(first) === null || YEAR.test(first)) labelAbove++;
  }
  return numericBelow >= 1 && labelAbove === numericBelow;
}
