/**
 * The row a superlative names ("the club with the most titles", "the second earliest winner",
 * "the third largest arena"): a question's words cannot pick it — every row matches "club" or
 * "winner" alike — but the order of one column can. Used by the bridge (bridge.ts) among the rows
 * the question's other words leave tied.
 */
import { MAX_SUPERLATIVES, MIN_SUPERLATIVES, monthNumber, ordinalValue } from "../../text/lexicons.js";
import { stem } from "../../text/stem.js";
import { isStopWord } from "../../text/stop-words.js";

export interface RowOrder {
  /** Index of the column (schema order) whose value orders the rows. */
  column: number;
  direction: "max" | "min";
  /** 1 for the top row, 2 for "second …", and so on. */
  rank: number;
}

/** The direction of a superlative (not a comparative: "more wins than …" names no rank). */
function superlative(word: string): "max" | "min" | undefined {
  if ((MAX_SUPERLATIVES as readonly string[]).includes(word)) return "max";
  return (MIN_SUPERLATIVES as readonly string[]).includes(word) ? "min" : undefined;
}

/** Superlatives that order by time whatever column they meet. */
// (A Map: a plain object would answer "constructor" with Object.prototype.constructor, a time order.)
const TEMPORAL: ReadonlyMap<string, "max" | "min"> = new Map([
  ["earliest", "min"],
  ["latest", "max"],
  ["newest", "max"],
]);
/** Nouns of a count or share whose "of" names what is counted ("number of votes", "share of the vote"). */
const QUANTITY_NOUN = /^(?:number|amount|total|count|share|percentage|proportion)$/;
const SHARE_NOUN = /^(?:share|percentage|proportion)$/;
/** Headers of columns that hold a time. */
const TIME_HEADER = /\b(year|years|date|season|seasons|founded|established|opened|held|born|birth|since|from|debut)\b/i;

/** A header's words; a "%" header is the share or percentage a question asks of ("the lowest share of the vote"). */
function headerTerms(header: string): string[] {
  const words = header.toLowerCase().match(/[a-z]+/g) ?? [];
  return header.includes("%") ? [...words, "percentage", "percent", "share"] : words;
}

/** The number a cell starts with ("1,234 ( est . )" → 1234), or undefined. */
function leadingNumber(value: string): number | undefined {
  const m = /-?\d[\d,]*(?:\.\d+)?/.exec(value);
  return m ? Number(m[0].replace(/,/g, "")) : undefined;
}

/** A sortable time of a cell: year, then month and day when written ("May 4 , 1921" → 19210504, "1921-05-04"). */
function timeKey(value: string): number | undefined {
  // ("2026-12-09": an ISO date spells its month in digits.)
  const iso = /\b(1[0-9]{3}|20[0-9]{2})-(0?[1-9]|1[0-2])-([0-3]?\d)\b/.exec(value);
  if (iso) return Number(iso[1]) * 10000 + Number(iso[2]) * 100 + Number(iso[3]);
  const year = /\b(1[0-9]{3}|20[0-9]{2})\b/.exec(value);
  if (!year) return undefined;
  let month = 0;
  for (const w of value.toLowerCase().match(/[a-z]+/g) ?? []) month ||= monthNumber(w) ?? 0;
  const day = /\b([0-3]?\d)\b/.exec(value.replace(year[0], ""));
  return Number(year[1]) * 10000 + month * 100 + (month && day ? Number(day[1]) : 0);
}

/** The key a cell sorts by in this order (undefined: the cell says nothing comparable). */
export function orderKey(value: string, temporal: boolean): number | undefined {
  return temporal ? timeKey(value) : leadingNumber(value);
}

/** Whether most non-empty cells of a column give a key. */
function orderable(values: readonly string[], temporal: boolean): boolean {
  const filled = values.filter((v) => v.trim() !== "");
  return filled.length >= 2 && filled.filter((v) => orderKey(v, temporal) !== undefined).length >= 0.7 * filled.length;
}

export interface RowOrderFound extends RowOrder {
  temporal: boolean;
  /** Stems of the superlative's phrase ("highest grossing film"): what is ordered, not a condition on the rows. */
  phrase: Set<string>;
  /** Each row's key read elsewhere than its cell (a person's birth date on their page: age-order.ts), by row index. */
  keys?: ReadonlyArray<number | undefined>;
}

/**
 * The order a question's superlative asks of a table, or undefined when it names none clearly: the
 * column is the orderable one whose header shares a word with the two content words beside the
 * superlative ("most [total goals]", "[largest] capacity"), or for a time superlative ("earliest",
 * "most recent") the first column holding times.
 */
export function rowOrderOf(
  question: string,
  columns: readonly string[],
  columnValues: (column: number) => readonly string[],
): RowOrderFound | undefined {
  const words = question.toLowerCase().match(/[a-z0-9]+(?:-[a-z]+)?/g) ?? [];
  const headerWords = new Set(columns.flatMap((c) => c.toLowerCase().match(/[a-z]+/g) ?? []));
  for (let i = 0; i < words.length; i++) {
    const { word, rank } = rankedWord(words, i);
    const recent = word === "most" && (words[i + 1] === "recent" || words[i + 1] === "recently");
    const temporalDirection = recent ? "max" : TEMPORAL.get(word);
    const direction = temporalDirection ?? superlative(word);
    if (!direction) continue;
    if (temporalDirection) {
      // Of several time columns, the one the words after the superlative name, by its own header or the
      // header of the column it dates ("the latest league title": "League title | Year ( s )").
      const after = new Set(
        words
          .slice(i + (recent ? 2 : 1), i + 5)
          .filter((w) => !isStopWord(w))
          .map(stem),
      );
      const names = (ci: number) =>
        [columns[ci] ?? "", columns[ci - 1] ?? ""].some((c) => headerTerms(c).some((h) => after.has(stem(h))));
      const times = columns.flatMap((c, ci) => (TIME_HEADER.test(c) && orderable(columnValues(ci), true) ? [ci] : []));
      const column = times.find(names) ?? times[0] ?? -1;
      if (column >= 0)
        return { column, direction, rank, temporal: true, phrase: new Set(words.slice(i, i + 3).map(stem)) };
      continue;
    }
    // The content words beside the superlative name the ordered column: the word before it
    // ("[largest] capacity" reads "capacity" after) and the noun phrase after it, whose last word
    // (its head: "most career rushing [yards]") counts most.
    const after: string[] = [];
    let j = i + 1;
    // "the smallest number of votes", "the lowest share of the vote": what the count or share is of is the
    // ordered measure (a count's noun is a stop word, so it is taken here, before the run below).
    const quantity = QUANTITY_NOUN.test(words[j] ?? "") && words[j + 1] === "of" ? words[j++]! : undefined;
    if (!quantity) for (; j < words.length && after.length < 8 && !isStopWord(words[j]!); j++) after.push(words[j]!);
    // "the largest city by population": what follows "by" is the ordered measure; so is a unit a header
    // writes ("the most power in MW"; not "the worst score in tango", where the word after "in" is a
    // condition on the rows).
    const unitIn = words[j] === "in" && after.length > 0 && j + 1 < words.length && headerWords.has(words[j + 1]!);
    if (words[j] === "by" || quantity || unitIn) {
      const limit = after.length + (unitIn ? 1 : 3);
      for (j++; j < words.length && words[j] === "the"; j++);
      for (; j < words.length && after.length < limit && !isStopWord(words[j]!); j++) after.push(words[j]!);
    }
    // A share is read from a "%" column, whatever it is a share of (headerTerms).
    if (quantity && SHARE_NOUN.test(quantity)) after.push(quantity);
    const near = [...(i > 0 && !isStopWord(words[i - 1]!) && rank === 1 ? [words[i - 1]!] : []), ...after].map(stem);
    let column = -1;
    let strongest = -1;
    columns.forEach((c, ci) => {
      const at = Math.max(...headerTerms(c).map((h) => near.lastIndexOf(stem(h))));
      if (at > strongest && orderable(columnValues(ci), false)) [column, strongest] = [ci, at];
    });
    if (column >= 0) return { column, direction, rank, temporal: false, phrase: new Set(near) };
  }
  return undefined;
}

/** The index (into `rows`) of the row at the order's rank, among `candidates`; undefined if not decidable. */
export function rowAtOrder(
  order: RowOrder & { temporal: boolean; keys?: ReadonlyArray<number | undefined> },
  rows: ReadonlyArray<{ values: readonly string[] }>,
  candidates: readonly number[],
): number | undefined {
  const keyed = candidates
    .map((i) => ({
      i,
      key: order.keys ? order.keys[i] : orderKey(rows[i]!.values[order.column] ?? "", order.temporal),
    }))
    .filter((r): r is { i: number; key: number } => r.key !== undefined);
  if (keyed.length < order.rank + 1) return undefined;
  keyed.sort((a, b) => (order.direction === "max" ? b.key - a.key : a.key - b.key) || a.i - b.i);
  const at = keyed[order.rank - 1]!;
  // A tie at the asked rank cannot be told apart by this column.
  const neighbours = [keyed[order.rank - 2], keyed[order.rank]].filter((r) => r !== undefined);
  return neighbours.some((r) => r.key === at.key) ? undefined : at.i;
}

/** Headers of columns that hold a row's rank or place ("Rank", "Pos.", "Place", "No.", "#", "Pick"). */
const RANK_HEADER = /^\s*(rank|rk|pos\.?|position|place|placing|finish|no\.?|number|#|pick|seed|rnd)\b/i;

/**
 * The rank a question names for its row — "the team in 7th place", "came in first place", "the
 * athlete ranked 20", "the number 4 pick" — or undefined.
 */
export function namedRank(question: string): number | undefined {
  const q = question.toLowerCase();
  const ordinal =
    /\b(\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)\s+(?:place|position|pick|seed)\b/.exec(
      q,
    );
  if (ordinal) return ordinalValue(ordinal[1]!);
  const number = /\b(?:ranked|rank|number|no\.?|pick|seeded)\s+#?(\d+)\b/.exec(q);
  return number ? Number(number[1]) : undefined;
}

/** Whether a cell of a rank-like column holds the rank ("7", "7th", "T-7", "=7"). */
export function holdsRank(header: string, value: string, rank: number): boolean {
  if (!RANK_HEADER.test(header)) return false;
  const m = /^\s*(?:t-?|=)?(\d+)(?:st|nd|rd|th|\.)?\s*$/i.exec(value);
  return m !== null && Number(m[1]) === rank;
}

/** The word at `i` with the ordinal before it or hyphened to it: "third-most", "second largest" (rank 1 alone). */
export function rankedWord(words: readonly string[], i: number): { word: string; rank: number } {
  const hyphen = /^([a-z0-9]+)-([a-z]+)$/.exec(words[i]!);
  if (hyphen && ordinalValue(hyphen[1]!) !== undefined) return { word: hyphen[2]!, rank: ordinalValue(hyphen[1]!)! };
  const before = i > 0 ? ordinalValue(words[i - 1]!) : undefined;
  return { word: words[i]!, rank: before ?? 1 };
}
