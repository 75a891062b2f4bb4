/**
 * The row a question names by its place next to another ("the shop with the fewest more staff than Harbor
 * Bikes", "the lake with the smallest amount of larger area than Lake Mora", "the tower just shorter than
 * 120"): not the row it names, which its words find, but the one whose value in the compared column comes
 * next above (or below) that row's value or that number. Used by the bridge (bridge.ts).
 */
import { COLUMN_WORDS } from "../../text/column-words.js";
import { MAX_COMPARATIVES, MIN_COMPARATIVES } from "../../text/lexicons.js";
import { normaliseForContainment } from "../../text/normalise.js";
import { stem } from "../../text/stem.js";
import { isStopWord } from "../../text/stop-words.js";
import { orderKey } from "./row-order.js";

const MORE = (MAX_COMPARATIVES as readonly string[]).join("|");
const LESS = (MIN_COMPARATIVES as readonly string[]).join("|");
/** "the fewest more titles than X", "the smallest amount of larger area than X", "just smaller than 15.8". */
const NEXT = new RegExp(
  `\\b(?:(?:fewest|least|smallest|lowest)\\s+(?:(?:amount|number)\\s+(?:of\\s+)?)?|just\\s+)(${MORE}|${LESS})\\b(.*?)\\bthan\\s+(.+?)\\s*(?:[?,]|$)`,
  "i",
);

export interface RowNeighbour {
  /** Column (schema order) compared. */
  column: number;
  /** The next value above the reference ("more") or below it ("less"). */
  side: "above" | "below";
  /** The reference: a number the question writes, or the row (index) it names. */
  reference: { value: number } | { row: number };
}

/**
 * The neighbour a question asks for, or undefined: the compared column is the one whose header shares a
 * word with the words between the comparative and "than" (or before the comparative), else one the
 * comparative's own column words name ("taller" → height); the reference is the number after "than", else
 * the one row with a cell holding the words after it.
 */
export function rowNeighbourOf(
  question: string,
  columns: readonly string[],
  rows: ReadonlyArray<{ values: readonly string[] }>,
): RowNeighbour | undefined {
  const m = NEXT.exec(question);
  if (!m) return undefined;
  const comparative = m[1]!.toLowerCase();
  const side = (MAX_COMPARATIVES as readonly string[]).includes(comparative) ? "above" : "below";
  const before =
    question
      .slice(0, m.index)
      .toLowerCase()
      .match(/[a-z]+/g) ?? [];
  const near = [...(m[2]!.toLowerCase().match(/[a-z]+/g) ?? []), ...before.slice(-2)]
    .filter((w) => !isStopWord(w))
    .map(stem);
  const related = (COLUMN_WORDS[comparative.replace(/er$/, "")] ?? COLUMN_WORDS[comparative] ?? []).map(stem);
  const numeric = (ci: number) =>
    rows.filter((r) => orderKey(r.values[ci] ?? "", false) !== undefined).length >= 0.7 * rows.length;
  const headerWords = (c: string) => (c.toLowerCase().match(/[a-z]+/g) ?? []).map(stem);
  // The numeric column sharing the most words with the compared phrase, else one the comparative's column words name.
  const shared = (words: readonly string[]) =>
    columns.map((c, ci) => (numeric(ci) ? headerWords(c).filter((h) => words.includes(h)).length : 0));
  const pick = (counts: number[]) => counts.indexOf(Math.max(...counts.filter((n) => n > 0)));
  let column = pick(shared(near));
  if (column < 0) column = pick(shared(related));
  if (column < 0) return undefined;
  const than = m[3]!.trim();
  const number = /^-?\d[\d,]*(?:\.\d+)?$/.exec(than.split(/\s+/)[0] ?? "");
  if (number) return { column, side, reference: { value: Number(number[0].replace(/,/g, "")) } };
  // The row named after "than": the longest run of its words (from the first) that one row's cell holds.
  const words = normaliseForContainment(than).split(" ");
  while (words.length > 0 && isStopWord(words[0]!)) words.shift();
  for (let n = words.length; n > 0; n--) {
    const named = ` ${words.slice(0, n).join(" ")} `;
    const holding = rows.flatMap((r, i) =>
      r.values.some((v) => ` ${normaliseForContainment(v)} `.includes(named)) ? [i] : [],
    );
    if (holding.length === 1) return { column, side, reference: { row: holding[0]! } };
    if (holding.length > 1) return undefined;
  }
  return undefined;
}

/** The index (into `rows`) of the row next above or below the reference; undefined on a tie or none. */
export function neighbourRow(
  neighbour: RowNeighbour,
  rows: ReadonlyArray<{ values: readonly string[] }>,
): number | undefined {
  const key = (i: number) => orderKey(rows[i]!.values[neighbour.column] ?? "", false);
  const ref = "value" in neighbour.reference ? neighbour.reference.value : key(neighbour.reference.row);
  if (ref === undefined) return undefined;
  const sign = neighbour.side === "above" ? 1 : -1;
  let best: number | undefined;
  let bestGap = Infinity;
  let tied = false;
  rows.forEach((_, i) => {
    const k = key(i);
    if (k === undefined) return;
    const gap = sign * (k - ref);
    if (gap <= 0) return;
    if (gap < bestGap) [best, bestGap, tied] = [i, gap, false];
    else if (gap === bestGap) tied = true;
  });
  return tied ? undefined : best;
}
