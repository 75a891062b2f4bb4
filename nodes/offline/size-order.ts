/**
 * "The second largest arena", "the biggest town", "the most populous city": a size superlative whose
 * measure no header names (row-order.ts `rowOrderOf` finds none: "arena" is no header's word). What
 * "large" means follows from the noun it is said of: a venue is as large as it seats (a "Capacity"
 * column), a settlement or a region as its population ("Population ( 2011 )"). The
 * rows the question's other words leave tied are then ordered by that column (bridge.ts).
 */
import { stem } from "../../text/stem.js";
import { orderKey, rankedWord, type RowOrderFound } from "./row-order.js";

const SIZE_SUPERLATIVE: ReadonlyMap<string, "max" | "min"> = new Map([
  ["largest", "max"],
  ["biggest", "max"],
  ["smallest", "min"],
]);
/** Nouns whose size is what they seat. */
const VENUE = /^(?:arena|arenas|stadium|stadiums|venue|venues|ground|grounds|ballpark|ballparks|hall|halls)$/;
/** Nouns whose size is how many live there. */
const SETTLEMENT =
  /^(?:city|cities|town|towns|village|villages|municipality|municipalities|settlement|country|countries|state|states|province|provinces|county|counties|district|districts|nation|nations|region|regions)$/;

/** Of the columns, the first whose header matches and whose cells mostly hold numbers. */
function column(
  columns: readonly string[],
  values: (c: number) => readonly string[],
  header: RegExp,
): number | undefined {
  const at = columns.findIndex((c, ci) => {
    if (!header.test(c)) return false;
    const filled = values(ci).filter((v) => v.trim() !== "");
    return filled.length >= 2 && filled.filter((v) => orderKey(v, false) !== undefined).length >= 0.7 * filled.length;
  });
  return at >= 0 ? at : undefined;
}

/** The order a size superlative asks of the table through its noun, or undefined. */
export function rowSizeOrder(
  question: string,
  columns: readonly string[],
  values: (column: number) => readonly string[],
): RowOrderFound | undefined {
  const words = question.toLowerCase().match(/[a-z0-9]+(?:-[a-z]+)?/g) ?? [];
  for (let i = 0; i < words.length; i++) {
    const { word, rank } = rankedWord(words, i);
    // "the most populous city", "the least populous town".
    const populous = (word === "most" || word === "least") && words[i + 1] === "populous";
    const direction = populous ? (word === "most" ? "max" : "min") : SIZE_SUPERLATIVE.get(word);
    if (!direction) continue;
    const noun = words[i + (populous ? 2 : 1)] ?? "";
    const header =
      populous || SETTLEMENT.test(noun) ? /\bpopulation\b/i : VENUE.test(noun) ? /\bcapacity\b/i : undefined;
    const at = header ? column(columns, values, header) : undefined;
    if (at === undefined) continue;
    return { column: at, direction, rank, temporal: false, phrase: new Set(words.slice(i, i + 3).map(stem)) };
  }
  return undefined;
}
