/**
 * Yes/no columns ("Y"/"N", "true"/"false", a tick beside blanks) and their [yes, no] rows, with the words that
 * pick a column's yes or no rows rather than a cell: negations, a yes/no header's opposites ("failed" of
 * "Passed?"), a measure above or at zero ("late", "dry"), sold out or full, and the results that are no finish.
 */
import type { CatalogColumn } from "./table-catalog.js";

/** Yes/no cells as tables write them, yes first. */
const FLAG_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ["yes", "no"],
  ["y", "n"],
  ["true", "false"],
];
/** Words that negate the words after them ("not delayed", "without a receipt", "haven't paid"). */
export const NEGATIONS = new Set([
  ...["no", "not", "without", "never", "non"],
  // (Contractions normalise without their apostrophe: "haven't" is "havent".)
  ...["isnt", "arent", "wasnt", "werent", "hasnt", "havent", "hadnt", "dont", "doesnt", "didnt", "wont", "cant"],
]);
/** Words that say a row's places are all taken ("sold out", "fully booked"). */
export const FULL_PHRASE = /^(?:sold out|sell out|sells out|sold-out|booked out|fully booked|at capacity|full)\b/;
/** Header words (stemmed) of how many places a row has, and of how many are taken. */
export const CAPACITY_WORDS = /^(?:capacity|cap|seat|place|space|max|limit)$/;
export const FILLED_WORDS = /^(?:sold|book|taken|enrol|regist|attend|occupi)/;

/** Results that are no finish: did not finish / start, disqualified, retired. */
export const NOT_FINISHED: ReadonlySet<string> = new Set(["dnf", "dns", "dsq", "dq", "ret", "dnq"]);
/** Adjectives naming a measure whose rows above zero they select ("late" flights have a delay). */
export const POSITIVE_MEASURE_WORDS: Readonly<Record<string, string | undefined>> = Object.assign(
  Object.create(null) as object,
  { late: "delay", overdue: "overdue" },
);
/** Words that select the rows where a measure is zero (the measure's header word). */
export const ZERO_MEASURE_WORDS: Readonly<Record<string, string | undefined>> = Object.assign(
  Object.create(null) as object,
  {
    dry: "rain",
    // ("on time", "punctual": no delay.)
    punctual: "delay",
  },
);
/** Stems of the headers of a yes/no column of places taken: Occupied, Booked, Reserved, Taken, Rented. */
const TAKEN_STEMS = ["occupi", "book", "reserv", "taken", "rent"] as const;
/** Words that name a yes/no column by its opposite (the stem of the header word). */
export const FLAG_OPPOSITES: Readonly<Record<string, string | readonly string[] | undefined>> = Object.assign(
  Object.create(null) as object,
  {
    failed: "pass",
    fail: "pass",
    unpaid: "paid",
    inactive: "active",
    // ("how many customers have churned?" of an "Active" column: its no rows.)
    churned: "active",
    lapsed: "active",
    unavailable: "available",
    incomplete: "complete",
    absent: "present",
    late: "time",
    // ("which tasks are still open?" of a "Done" column: its unticked rows.)
    open: "done",
    unfinished: "done",
    outstanding: "done",
    // ("how many rooms are free?" of an "Occupied" column, "vacant desks" of "Taken": its no rows.)
    free: TAKEN_STEMS,
    vacant: TAKEN_STEMS,
    available: TAKEN_STEMS,
    unoccupied: TAKEN_STEMS,
  },
);

/** The [yes, no] normalised cells of a column holding only such a pair (either may be absent), else undefined. */
function flagCells(c: CatalogColumn): readonly [string, string] | undefined {
  if (c.distinct.size === 0 || c.distinct.size > 2) return undefined;
  const pair = FLAG_PAIRS.find((p) => [...c.distinct.keys()].every((v) => p.includes(v)));
  if (pair) return pair;
  // ("Active" 1 / 0, "is_member", "HasCar": ones and zeros under a header that says a row is or has something,
  // not a count that happens to be 0 or 1: "Gold", "Wins".)
  return [...c.distinct.keys()].every((v) => v === "1" || v === "0") && FLAG_HEADER.test(c.schema.name.trim())
    ? ["1", "0"]
    : undefined;
}

/** A one-word header of a state (an adjective or participle) or one that starts "is" / "has". */
const FLAG_HEADER = /^(?:[a-z]+(?:ive|ed|able|ible|ent|ant|ful)|(?:is|has)[ _]?[a-z]+)\??$/i;

/** One tick or cross marks a row; blank is its no. */
const MARK = /^[\u2713\u2714\u2611\u2612xX*\u2022\u25cf]$/u;

/**
 * The [yes, no] rows of a yes/no column: one written as a pair of words ("Y"/"N"), or one whose cells are
 * a single mark ("✓", "x") or blank. Undefined for any other column.
 */
export function flagRows(c: CatalogColumn): readonly [number[], number[]] | undefined {
  const pair = flagCells(c);
  if (pair) return [c.distinct.get(pair[0]) ?? [], c.distinct.get(pair[1]) ?? []];
  // (A mark normalises to nothing, so its column has no distinct values; a large table's rows are not read.)
  if (c.distinct.size > 0 || c.raw.length === 0) return undefined;
  const marks = new Set<string>();
  const yes: number[] = [];
  const no: number[] = [];
  c.raw.forEach((v, r) => {
    const t = v.trim();
    if (t === "") no.push(r);
    else if (MARK.test(t)) (marks.add(t), yes.push(r));
    else marks.add("\n");
  });
  return marks.size === 1 && !marks.has("\n") && no.length > 0 ? [yes, no] : undefined;
}

/** A yes/no column (a pair of words, or a mark beside blanks). */
export function isFlagColumn(c: CatalogColumn): boolean {
  return flagRows(c) !== undefined;
}
