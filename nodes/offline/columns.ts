/**
 * Column choice: which column holds the answer (the "target"), which column a superlative or a
 * comparison orders by, and which column a numeric condition applies to. Scores header words
 * against the question's hint words (stemmed, with the related words of text/column-words.ts and, when present, the
 * word↔header associations learned from WTQ train in models/header-words.json), the value types the
 * answer type needs, and the columns already used by entity mentions.
 */
import type { QuestionAnalysis } from "./analysis.js";
import { flagRows, isFlagColumn } from "./flag-columns.js";
import type { EntityMention } from "./mentions.js";
import { ModelFile } from "./model-file.js";
import { headerWordsOf, type CatalogColumn, type TableCatalog } from "./table-catalog.js";
import {
  ORDER_HAND_TERMS,
  orderColumnModel,
  orderFeatureVector,
  orderHooks,
  type OrderHandTerms,
  type OrderRanking,
} from "./order-column-model.js";
import {
  irregularForms,
  isMeasureUnit,
  minutesPerTimeUnit,
  MONTH_PATTERN,
  PEOPLE_NOUNS,
  PERSON_HEADERS,
  superlativeDirection,
} from "../../text/lexicons.js";
import { nounOfParticiple, stem } from "../../text/stem.js";
import { editDistance } from "../../retrievers/edit-distance.js";
import { normaliseText } from "../../text/normalise.js";
import { STOP_WORDS } from "../../text/stop-words.js";
import {
  HEADER_ABBREVIATIONS,
  measureCue,
  MEASURE_CUES,
  MODIFIER_HEADER_WORDS,
  MONEY_HEADER_WORDS,
  QUANTITY_HEADERS,
  relatedHeaderWords,
} from "../../text/column-words.js";
import {
  HAND_TERMS,
  linearScore,
  targetColumnModel,
  targetFeatureVector,
  targetRecorder,
  type ColumnTerms,
} from "./target-column-model.js";

/** A record's own property (question words like "constructor" must not reach Object.prototype). */
function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

interface LearnedModel {
  /** question word → header word → association weight (0..1). */
  assoc: Record<string, Record<string, number>>;
}

/** The learned word↔header associations (models/header-words.json); absent = none. */
const learned = new ModelFile<LearnedModel>("header-words.json");

function learnedModel(): LearnedModel | null {
  return learned.get();
}

/** Sets (or clears, with null; re-reads the file with undefined) the learned model — tests and training. */
export function setLearnedModel(model: LearnedModel | null | undefined): void {
  learned.set(model);
}

/** A stop word that is also a common header: "the total amount of sales" names an Amount column. */
const STOP_HEADERS = /^(amount)$/;

/**
 * 1 when the question uses a stop word that is exactly one of the column's header words ("amount" →
 * Amount); 1.5 (a spelled header word) when it ends a noun compound with "total" ("the order total",
 * "points total" name a Total column; "the total of", "in total" are the operator).
 */
export function stopWordHeader(q: string, column: CatalogColumn): number {
  const words = new Set(q.match(/[a-z]+/g) ?? []);
  if (column.headerWords.some((h) => STOP_HEADERS.test(h) && words.has(h))) return 1;
  if (!column.headerWords.includes("total")) return 0;
  // ("which team collected the most trophies total?" asks for the team.)
  if (/^(?:which|who|whom)\b|^what [a-z]+ (?:had|has|have|won|got|did|was|were)\b/.test(q)) return 0;
  const compound = /\b([a-z]+) total\b(?! (?:of|number|amount)\b)/.exec(q);
  // ("what is the total for order 7": a Total column of the named row.)
  return (compound && !STOP_WORDS.has(compound[1]!)) || /(?:^|\bthe )total for\b/.test(q) ? 1.5 : 0;
}

/** A hyphenated word's parts that are words of their own ("check-in" → check; "x-ray" stays whole). */
function hyphenParts(w: string): string[] {
  if (!/^[a-z]{3,}(?:-[a-z]+)+$/.test(w)) return [w];
  const parts = w.split("-").filter((p) => !STOP_WORDS.has(p));
  return parts.length > 0 ? parts : [w];
}

const perWordCache = new WeakMap<CatalogColumn, string[]>();

/** The last header word after "/" or "per" of a number's header, its unit's denominator ("Price/Btl", "Cost per Night"). */
function perWords(column: CatalogColumn): string[] {
  let words = perWordCache.get(column);
  if (!words) {
    // (Only of a number's header, and a word of 3+ letters: "Country/Territory" names both, "km/h" is a unit.)
    const m = /(?:\/|\bper\b)\s*([a-z]{3,})\s*$/i.exec(column.schema.name);
    words =
      m && isNumericColumn(column) && /[a-z]/i.test(column.schema.name.slice(0, m.index)) ? headerWordsOf(m[1]!) : [];
    perWordCache.set(column, words);
  }
  return words;
}

/**
 * 1.5 when the question's "per <unit>" is the header's own denominator ("paying per night" → "Rate/Night ($)",
 * "per month" → "Rent ($/mo)", "per hour" → "Pay/hr"), else 0.
 */
export function perMatch(q: string, column: CatalogColumn): number {
  const asked = /\bper ([a-z]{3,})\b/.exec(q)?.[1];
  if (!asked) return 0;
  const end = /(?:\/|\bper\s+)([a-z]{2,})\)?\s*$/i;
  const unit = (end.exec(column.schema.name) ??
    end.exec(column.schema.name.replace(/\s*\([^)]*\)\s*$/, "")))?.[1]?.toLowerCase();
  if (!unit) return 0;
  const w = stem(asked);
  return w.startsWith(unit) || isContraction(unit, asked) ? 1.5 : 0;
}

/** How strongly a list of question words names a column (0 = not at all). */
/** The header's words that are participles ("Enrolled", "Qty Baked"), as written. */
function participles(column: CatalogColumn): string[] {
  return normaliseText(column.schema.name)
    .split(" ")
    .filter((w) => /[a-z]{3}(?:ed|en)$/.test(w));
}

/** "Unit Price" is a price: "unit" modifies the word after it; "Units Sold" is a number of units. */
export function isHeaderModifier(column: CatalogColumn, i: number): boolean {
  const h = column.headerWords[i]!;
  return (
    i < column.headerWords.length - 1 &&
    MODIFIER_HEADER_WORDS.has(h) &&
    !normaliseText(column.schema.name).split(" ").includes(`${h}s`)
  );
}

/** The stemmed spelled-out forms a header abbreviation adds after itself ("rep" → representative). */
function expansionsOf(h: string): readonly string[] {
  return Object.hasOwn(HEADER_ABBREVIATIONS, h) ? HEADER_ABBREVIATIONS[h]!.map(stem) : [];
}

export function headerMatch(typed: readonly string[], column: CatalogColumn, useLearned = true): number {
  // ("check-in" is the words of a "Check-in" header.)
  const words = typed.some((w) => w.includes("-")) ? typed.flatMap(hyphenParts) : typed;
  const header = new Set(column.headerWords);
  // "unit cost" is a cost: a modifier word before another header word names the column only weakly; so
  // does the table's own name ("Order Date" of an orders table: "ordered" does not name it).
  // So do the words after "/" or "per" ("Price/Btl" is a price: "bottles" names the Btls column beside it).
  const modifiers = new Set([
    // (Not a word only its own spelled-out form follows: "Rep" of "Sales Rep" is its head, "representative" added.)
    ...column.headerWords.filter(
      (h, i) =>
        column.headerWords.slice(i + 1).some((x) => !expansionsOf(h).includes(x)) &&
        (isHeaderModifier(column, i) || column.tableWords?.includes(h) === true),
    ),
    ...perWords(column),
  ]);
  // (An abbreviation or a shortening names the header's head, not its denominator or a modifier: "salesperson"
  // is not "Sale Date" of car_sales.csv.)
  const per = perWords(column);
  const heads = [...header].filter((h) => !per.includes(h) && !modifiers.has(h));
  let score = 0;
  let related = 0;
  // A modified header the question does not modify ("unit price" when it says "the order value") is the weaker reading.
  const unmodified = modifiers.size > 0 && !words.some((w) => modifiers.has(w) || modifiers.has(stem(w))) ? 0.85 : 1;
  words.forEach((w, i) => {
    const weight = unmodified / (1 + i * 0.3);
    const s = stem(w);
    if (modifiers.has(s) || modifiers.has(w)) {
      score += 0.5 * weight;
      return;
    }
    const rowNoun = column.tableWords?.includes(s) === true;
    // (Nor the row noun's verb: "listings" of a listings table are not its "Listed" date.)
    const verbs = rowNoun ? participles(column).map(stem) : [];
    if (verbs.includes(s) && !participles(column).includes(w)) return;
    // ("calorie" of "Calories", whose stem the light stemmer writes "calory": the plural's stem; "spent" of a
    // "Spend" header, "sell" of "Units Sold": an irregular verb's other forms.)
    if (
      header.has(s) ||
      header.has(w) ||
      (/ie$/.test(w) && header.has(stem(`${w}s`))) ||
      // ("closing" of a "Close" header, "rating" of "Rate": the -ing form of a verb ending in "e".)
      (/[a-z]{3}ing$/.test(w) && header.has(`${s}e`)) ||
      irregularForms(w).some((f) => header.has(f) || header.has(stem(f)))
    ) {
      score += 1.5 * weight;
      return;
    }
    // (Related words, else a verb's agent nouns: "supplies" names a Supplier column.)
    const syn = relatedHeaderWords(w);
    if (syn && syn.some((h) => header.has(h) || header.has(stem(h)) || (/ie$/.test(h) && header.has(stem(`${h}s`))))) {
      // (Counted once: five words related to "price" do not name a price column five times.)
      related = Math.max(related, 0.8 * weight);
      return;
    }
    // A noun of the header's verb ("enrolment" of "Enrolled", "arrival" of "Arrived"); not the table's own row noun
    // ("shipments" of shipments.csv name no "Shipped" date).
    if (!rowNoun && participles(column).some((p) => nounOfParticiple(w, p))) {
      score += 1.5 * weight;
      return;
    }
    // Prefix match for abbreviations ("pts" ~ "points" is in COLUMN_WORDS; "pop" ~ "population"); the table's
    // own name only on a header's head word ("shipment" of a shipments table is not "Ship Date"; "payroll" is "Gross Pay").
    const last = column.headerWords[column.headerWords.length - 1];
    if (
      s.length >= 4 &&
      heads.some(
        (h) =>
          h.length >= 3 &&
          (!rowNoun || h === last) &&
          (h.startsWith(s) || s.startsWith(h)) &&
          // (Not the agent noun: "rides" are not the "Rider" column.)
          h !== `${s}r` &&
          h !== `${s}er`,
      )
    ) {
      score += 0.6 * weight;
      return;
    }
    // A header typed without its vowels ("Btls" for bottles, "Mktg", "Ctry", "Pts"): the header word's letters
    // appear in order in the question word, from its first letter.
    // (Not the table's own row noun: "appointment" of an appointments table is not its "Appt #".)
    if (w.length >= 4 && !rowNoun && heads.some((h) => isContraction(h, w))) {
      score += 1.2 * weight;
      return;
    }
    // (Of the denominator, as a modifier: "bottle price" names "Price/Btl" before "Btls".)
    if (w.length >= 4 && !rowNoun && per.some((h) => isContraction(h, w) || h.startsWith(s))) {
      score += 0.5 * weight;
      return;
    }
    // A typing error ("hieght", "downlods"): one edit from a long header word, the first letter kept.
    if (s.length >= 5 && heads.some((h) => isTypo(s, h))) {
      score += 1.0 * weight;
      return;
    }
    if (useLearned) {
      const model = learnedModel();
      const m = model ? own(model.assoc, s) : undefined;
      if (m) {
        let best = 0;
        for (const h of header) best = Math.max(best, m[h] ?? 0);
        score += 0.7 * best * weight;
      }
    }
  });
  return score + related;
}

/** One edit (a swap of two letters counts one) between two words of 5+ letters that start alike. */
function isTypo(word: string, header: string): boolean {
  return (
    header.length >= 5 &&
    word[0] === header[0] &&
    word !== header &&
    editDistance(word, header, 1, { transpositions: true }) <= 1
  );
}

/** "btl" of "bottles", "mktg" of "marketing": consonants only after the first letter, in order inside the longer word. */
export function isContraction(h: string, w: string): boolean {
  if (h.length < 3 || h.length >= w.length || h[0] !== w[0] || !/^[a-z][b-df-hj-np-tv-z]+$/.test(h)) return false;
  let i = 1;
  for (const ch of w.slice(1)) if (ch === h[i]) i++;
  return i === h.length;
}

export function isNumericColumn(c: CatalogColumn): boolean {
  return (
    c.schema.type === "integer" ||
    c.schema.type === "real" ||
    (c.numericShare >= 0.7 && !isNumberedName(c) && !isLabelColumn(c)) ||
    c.timeShare >= 0.7
  );
}

const numberedNames = new WeakMap<CatalogColumn, boolean>();

/**
 * Text cells that start with a number and go on with two or more words ("43 Elm St", "7 Dwarfs Inn") are
 * names, though a leading number parses: "12 km" and "3 (2)" are numbers, an address is not.
 */
function isNumberedName(c: CatalogColumn): boolean {
  let known = numberedNames.get(c);
  if (known === undefined) {
    const filled = c.raw.filter((v) => v.trim() !== "");
    const named = filled.filter((v) => /^\s*\d[\d,.]*\s+[a-z]{2,}\.?\s+[a-z]{2,}/i.test(v)).length;
    known = filled.length > 0 && named >= 0.5 * filled.length;
    numberedNames.set(c, known);
  }
  return known;
}

const labelColumns = new WeakMap<CatalogColumn, boolean>();

/** Labels, not numbers: "7A", "12B" (a class, a seat, a flat), whose leading digits the index counts as numbers. */
function isLabelColumn(c: CatalogColumn): boolean {
  let known = labelColumns.get(c);
  if (known === undefined) {
    const filled = c.raw.filter((v) => v.trim() !== "");
    known = filled.length > 0 && filled.filter((v) => /^\d{1,3}[A-Z]$/.test(v.trim())).length >= 0.7 * filled.length;
    labelColumns.set(c, known);
  }
  return known;
}

export function isTimeColumn(c: CatalogColumn): boolean {
  // ("hours_to_resolve", "Wait (min)": a duration in a unit of the clock.)
  return (
    c.timeShare >= 0.5 ||
    c.headerWords.some((h) => h === "time" || h === "duration" || /^(?:hour|hr|minute|min|second|sec)s?$/.test(h))
  );
}

/** Header words that say a column holds how long something lasted. */
const LENGTH_HEADER = /^(?:length|duration|runtime)$/;

/** Times of day or clock durations in most cells ("05:30", "2:26:31"). */
function isClockColumn(c: CatalogColumn): boolean {
  return c.timeShare >= 0.5;
}

export function isRankColumn(c: CatalogColumn): boolean {
  return c.headerWords.some((h) => /^(rank|pos|position|place|placing|finish|seed|no|#|peak|chart)$/.test(h));
}

/**
 * A record identifier ("Order No", "Reading ID", "sku"): a header word that says so and a distinct value
 * on every row. Nobody sums, averages, compares or ranks by one ("orders over 500" is not about order numbers).
 */
/**
 * "Room" of rooms.csv over 101, 102, 201, "Episode" of episodes.csv over 1, 2, 3: the rows' own numbers, named by
 * what a row is (nothing to add up, average or rank by: "the longest episode" is ordered by its length).
 */
export function isOwnNumberColumn(c: CatalogColumn): boolean {
  // (The header first: the cells are read only for a column named by the table's row noun.)
  if (c.headerWords.length !== 1 || c.tableWords?.includes(c.headerWords[0]!) !== true) return false;
  // (A plural header counts things: "Reviews" of reviews.csv is how many, not which review.)
  if (/[^s]s$/i.test(c.schema.name.trim())) return false;
  const filled = c.raw.filter((v) => v.trim() !== "").length;
  if (filled <= 2 || c.distinct.size !== filled || c.num.some((n) => n !== null && !Number.isInteger(n))) return false;
  const numbers = c.num.filter((n): n is number => n !== null);
  // (Counted from 1 with none missing — a sequence, not a measure that happens to be whole: 1, 2, 3, …, n.)
  const sequence = numbers.length === filled && Math.min(...numbers) === 1 && Math.max(...numbers) === filled;
  // (Round hundreds and tens are amounts, "Budget" of budget.csv over 1200, 450, 150; rooms are 101, 102, 201.)
  const round = numbers.every((n) => n % 10 === 0);
  return (numbers.every((n) => n >= 100) && !round) || sequence;
}

/** A record identifier or the rows' own numbers: nothing to add up, average or rank by. */
export function isRecordNumberColumn(c: CatalogColumn): boolean {
  return isIdentifierColumn(c) || isOwnNumberColumn(c);
}

export function isIdentifierColumn(c: CatalogColumn): boolean {
  // (The header's last word: "No. of votes", "Number of contestants" are counts.)
  // ("Ticket #", "Appt #": a word and a number sign over record numbers, not picks or ranks counted from 1.)
  const numbered = /\w\s*#$/.test(c.schema.name) && c.num.every((n) => n === null || n >= 100);
  // ("Version" 1.0, 1.1, 2.0: numbers that name the rows, nothing to add up.)
  if (!/^(id|no|nr|code|ref|sku|version|edition)$/.test(c.headerWords[c.headerWords.length - 1] ?? "") && !numbered)
    return false;
  // (A large table's catalogue holds a sample of cells: its statistics say whether a value repeats.)
  if (c.maxFreq !== undefined) return c.maxFreq <= 1 && c.distinct.size > 2;
  const filled = c.raw.filter((v) => v.trim() !== "").length;
  return filled > 2 && c.distinct.size === filled;
}

/** Comparative → superlative ("longer" → "longest"), so comparisons share the superlative rules. */
const COMPARATIVE: Record<string, string> = {
  more: "most",
  less: "least",
  fewer: "fewest",
  higher: "highest",
  lower: "lowest",
  larger: "largest",
  bigger: "biggest",
  smaller: "smallest",
  greater: "greatest",
  longer: "longest",
  shorter: "shortest",
  taller: "tallest",
  older: "oldest",
  younger: "youngest",
  earlier: "earliest",
  later: "latest",
  faster: "fastest",
  slower: "slowest",
  better: "best",
  worse: "worst",
  heavier: "heaviest",
  lighter: "lightest",
  quicker: "fastest",
  quickest: "fastest",
  cheaper: "cheapest",
  newer: "newest",
  closer: "closest",
  nearer: "nearest",
  deeper: "deepest",
  wider: "widest",
  busier: "busiest",
  stronger: "strongest",
  weaker: "weakest",
  richer: "richest",
  hotter: "hottest",
  colder: "coldest",
};

/**
 * Ordering direction for a superlative on a given column: "fastest time" is the smallest time,
 * "best rank" the smallest rank, "oldest" the earliest date but the largest age.
 */
/** A standing up to now, "who has been a member the longest?": since a start date, where a date orders it. */
const STANDING = /\b(?:has|have) been (?:an? |the )?[a-z]+ (?:for )?(?:the )?(?:longest|shortest)\b/;

export function orderDirection(
  word: string | undefined,
  fallback: "max" | "min",
  c: CatalogColumn,
  question?: string,
): "max" | "min" {
  const w = word ? (own(COMPARATIVE, word) ?? word) : undefined;
  if (!w) return fallback;
  const age = c.headerWords.includes("age");
  // (A duration in hours or days is a time too: the fastest resolution is the fewest hours.)
  const time = isTimeColumn(c) || c.headerWords.some((h) => /^(hour|hr|minute|min|day|second|sec)$/.test(h));
  if (time && /^(fastest|best)$/.test(w)) return "min";
  if (time && /^(slowest|worst)$/.test(w)) return "max";
  if (isRankColumn(c) && /^(best|top|highest)$/.test(w)) return "min";
  if (isRankColumn(c) && /^(worst|lowest)$/.test(w)) return "max";
  if (!age && isYearColumn(c) && /^(oldest|earliest|first)$/.test(w)) return "min";
  if (!age && isYearColumn(c) && /^(newest|latest|youngest|recent)$/.test(w)) return "max";
  // (Not "who ruled longest?" of a term's start and end: a past span says nothing of which.)
  if (!age && isYearColumn(c) && question !== undefined && STANDING.test(question))
    return w === "longest" ? "min" : w === "shortest" ? "max" : fallback;
  if (age && w === "oldest") return "max";
  if (age && w === "youngest") return "min";
  // ("which plant needs watering most often?" of "Water every (days)": the shortest interval.)
  if (
    question !== undefined &&
    c.headerWords.some((h) => /^(every|interval|cycle)$/.test(h)) &&
    /\b(?:most|least|more|less) (?:often|frequently)\b/.test(question)
  )
    return w === "most" ? "min" : w === "least" ? "max" : fallback;
  return fallback;
}

/** A column of dates, or of years its header says are years (not sizes that fall between 1000 and 2100). */
function isDateOrYearNamed(c: CatalogColumn): boolean {
  return (
    c.schema.type === "date" ||
    normaliseText(c.schema.name)
      .split(" ")
      .some((w) => /^years?$/.test(w) || YEAR_HEADERS.test(w))
  );
}

/** Header words (as written, not stemmed: "Years" counts years) of a column of years, whatever their digits. */
const YEAR_HEADERS = /^(year|founded|founding|established|built|opened|completed|incorporated|born|died)$/;

export function isYearColumn(c: CatalogColumn): boolean {
  if (c.schema.type === "date") return true;
  // (Not a count whose values fall between 1000 and 2100: "Units Sold" of 1,400 and 1,690.)
  const words = normaliseText(c.schema.name).split(" ");
  // (Nor money: a "Cost" of 1,422 and 1,990.)
  if (c.yearShare >= 0.7)
    return (
      !c.headerWords.some(
        (h, i) => (QUANTITY_HEADERS.has(h) || MONEY_HEADER_WORDS.includes(h)) && !isHeaderModifier(c, i),
      ) || words.some((w) => YEAR_HEADERS.test(w))
    );
  // A year column with years of 3 or 4 digits (a city founded in 977): the header says year, the cells
  // are whole numbers no later than next century, and not small counts.
  if (c.schema.type !== "integer" || !words.some((w) => YEAR_HEADERS.test(w))) return false;
  const present = c.num.filter((n): n is number => n !== null);
  return present.length > 0 && present.every((n) => n >= 100 && n <= 2100);
}

// (Stems too: header words are stemmed, "Assigned To" is [assign, to].)
const PERSON_HEADER_SET = new Set<string>([...PERSON_HEADERS, ...PERSON_HEADERS.map(stem)]);
/** "Ada Lovelace", "Mary-Jo O'Neil": two or three capitalised words. */
const PERSON_NAME = /^[A-Z][a-z'\u2019-]+(?: [A-Z][a-z'\u2019-]+){1,2}$/;
const personColumns = new WeakMap<CatalogColumn, boolean>();

/**
 * A column of people: its header is a person noun ("Driver", "Assigned To"), or an agent noun the lexicon
 * lacks ("Donor", "Sponsor", "Reviewer") over cells that are people's names.
 */
export function isPersonColumn(c: CatalogColumn): boolean {
  // ("Member Since" holds dates.)
  if (c.schema.type === "date") return false;
  if (c.headerWords.some((h) => PERSON_HEADER_SET.has(h))) return true;
  let known = personColumns.get(c);
  if (known === undefined) {
    const filled = c.raw.map((v) => v.trim()).filter((v) => v !== "");
    known =
      c.headerWords.length === 1 &&
      /[a-z]{2}(or|er|ist|ee)$/.test(c.headerWords[0]!) &&
      filled.length >= 3 &&
      filled.filter((v) => PERSON_NAME.test(v)).length >= 0.8 * filled.length;
    personColumns.set(c, known);
  }
  return known;
}
const PLACE_HEADERS = new Set([
  "country",
  "nation",
  "city",
  "venue",
  "location",
  "place",
  "stadium",
  "site",
  "town",
  "state",
  "county",
  "province",
  "region",
  "host",
  "ground",
  "arena",
  "nationality",
  "noc",
  "room",
  "address",
  "zone",
  "building",
  "branch",
  "destination",
  "dest",
  "gallery",
  "hall",
  "wing",
]);

/** Options for target choice. */
export interface TargetOptions {
  /** Column indices the SQL may use (allowed columns C); all when undefined. */
  usable?: Set<number>;
  /** Columns to avoid (used for ordering or conditions). */
  avoid?: Set<number>;
  /** Prefer this column when nothing names another one (next/previous: the mention's own column). */
  prefer?: number;
  /** The compared literal is a percentage: columns of "…%" cells first. */
  percent?: boolean;
  /** The compared literal is a sum of money: columns whose header names a currency first. */
  money?: boolean;
  /** The compared literal is a length of time ("over an hour"): columns whose header names a unit of time first. */
  duration?: boolean;
}

/** The column's kind, as the target-column features pair it with the question. */
function columnKind(c: CatalogColumn): ColumnTerms["kind"] {
  if (c.schema.type === "date") return "date";
  if (isYearColumn(c)) return "year";
  if (isNumericColumn(c)) return "numeric";
  if (isPersonColumn(c)) return "person";
  if (c.headerWords.some((h) => PLACE_HEADERS.has(h))) return "place";
  return "text";
}

/** How well the column's value type fits the answer type (a term of the hand score). */
function typeFit(a: QuestionAnalysis, c: CatalogColumn, numeric: boolean): number {
  const header = c.headerWords;
  // "what time does X depart?": a clock time ("14:05"), not the date of the row.
  if (/\bwhat time\b/.test(a.normalized)) return c.timeShare >= 0.5 ? 2.5 : c.schema.type === "date" ? -1 : 0;
  switch (a.answerType) {
    case "year":
      return isYearColumn(c) ? 2.5 : -1;
    case "date":
      // ("when does the flight depart?": a timetable's clock time; "when did …" a date before it.)
      if (c.schema.type !== "date" && c.timeShare >= 0.5) return /\bwhen (?:does|do)\b/.test(a.normalized) ? 2.5 : 1;
      return c.schema.type === "date" ? 2.5 : isYearColumn(c) ? 1.5 : -0.5;
    case "count":
    case "number":
    case "percent":
      return numeric ? 1 : -0.5;
    case "person":
      return isPersonColumn(c) ? 2 : numeric ? -1.5 : 0.2;
    case "place":
      return header.some((h) => PLACE_HEADERS.has(h)) ? 2 : numeric ? -1.5 : 0.2;
    default:
      return numeric ? -0.3 : 0.3;
  }
}

/**
 * Scores every column as the answer column; returns columns best first. The score is the learned
 * scorer's (target-column-model.ts, trained on WTQ train) when its model file is present, else the
 * hand-written sum of the same terms (HAND_TERMS).
 */
/** A cell written as a date: a month's name beside a number ("October 28", "3 Mar"). */
const DATE_WORDS = new RegExp(`\\b(?:${MONTH_PATTERN})\\.?\\s+\\d|\\d\\s+(?:${MONTH_PATTERN})\\b`, "i");

/** Money is named by a currency in the header, or written in the cells: "$1,780,000". */
export function isMoneyColumn(c: CatalogColumn): boolean {
  return (
    /[$€£]|\b(usd|eur|gbp)\b/i.test(c.schema.name) ||
    c.raw.filter((v) => /[$€£¥]/.test(v)).length >= 0.5 * c.raw.filter((v) => v.trim() !== "").length
  );
}

/** Words that ask for a time (or a span of it). */
const TIME_ASKED =
  /\b(?:when|years?|dates?|days?|months?|weeks?|times?|seasons?|long|period|decades?|century|era|ages?|editions?|born|birth[a-z]*)\b/;

/** A cell that is only a time: a year, a date written out ("June 1920", "15 January 1931 — 1 February 1936"). */
const TIME_CELL = new RegExp(
  `^(?:1[0-9]{3}|20[0-9]{2}|${MONTH_PATTERN}|\\d{1,2}(?:st|nd|rd|th)?|ca|c|[\\s.,/–—-])+$`,
  "i",
);

/** Whether most of a column's cells are times (not names that hold a year: "Summer Games 1932"). */
function holdsTimeCells(c: CatalogColumn): boolean {
  if (c.schema.type === "date") return true;
  const filled = c.raw.filter((v) => v.trim() !== "");
  const times = filled.filter((v) => /\b(?:1[0-9]{3}|20[0-9]{2})\b/.test(v) && TIME_CELL.test(v.trim()));
  return filled.length >= 2 && times.length >= 0.8 * filled.length;
}

export function rankTargetColumns(
  a: QuestionAnalysis,
  catalog: TableCatalog,
  mentions: EntityMention[],
  options: TargetOptions = {},
): Array<{ column: CatalogColumn; score: number }> {
  const mentionCols = new Set(mentions.map((m) => m.columnIndex));
  // (Without hints, the content words name the target, but a superlative names the order column: "oldest animal".)
  // "what was the amount of order 1005?": a lookup's "amount"/"total"/"value" is a stop word to the analysis,
  // but names a numeric column of that name when the table has one.
  // (So of the row a superlative picks: "what is the amount of the most recent invoice?")
  const ofWord =
    a.operator === "lookup" || a.operator === "sort"
      ? /\bthe (amount|total|value) of\b/.exec(a.normalized)?.[1]
      : undefined;
  const spelledColumn =
    ofWord !== undefined &&
    catalog.columns.some((c) => isNumericColumn(c) && c.headerWords.includes(ofWord) && !options.avoid?.has(c.index));
  const hints: string[] = spelledColumn
    ? [ofWord, ...a.targetHints]
    : a.targetHints.length > 0
      ? a.targetHints
      : a.operator === "sort"
        ? a.contentWords.filter((w) => superlativeDirection(w) === undefined)
        : // ("animals over 500 kg": the unit of a bound names the compared column, not the answer.)
          a.contentWords.filter((w) => !isMeasureUnit(w) || !new RegExp(`\\d\\s*${w}\\b`).test(a.normalized));
  // ("how much has been spent?": the verb that spells a column names the amount before the cue's generic words.)
  if (measureCue(a.normalized) === "much") {
    // (A verb, not the noun asked about: "how much are tickets?" is their Price, not Tickets Sold; "how much did
    // they earn in total?" closes on its verb.)
    const closing = /^how much (?:did|does|do|has|have|had) .+? ([a-z]+)(?: in total| altogether| overall)?\??$/.exec(
      a.normalized,
    )?.[1];
    const verb = a.contentWords.find(
      (w) =>
        (irregularForms(w).length > 0 || /[a-z]{3}ed$/.test(w) || w === closing) &&
        catalog.columns.some((c) => isNumericColumn(c) && headerMatch([w], c, false) >= 1.5),
    );
    if (verb && !hints.includes(verb)) hints.unshift(verb);
    // ("how much money came in?": the money's direction names the column, Credit or Debit, by a related word.)
    const moved = /^how much (?:money |cash )?(?:has )?(came|come|went|gone) (?:in|out)\b/.exec(a.normalized)?.[1];
    const flow = moved === "come" ? "came" : moved === "gone" ? "went" : moved;
    // (Its related words themselves: "came" is a stop word to the matcher.)
    const toward = flow ? (relatedHeaderWords(flow) ?? []) : [];
    const named = catalog.columns.find((c) => isNumericColumn(c) && headerMatch([...toward], c, false) > 0);
    if (named) hints.unshift(...named.headerWords.filter((h) => toward.includes(h)));
  }
  // ("what did Ana score in chemistry?", "what does the blue model weigh?": the verb its subject does names the
  // measure asked for, where a numeric column's header spells it — not "what did Ouse Co order?" of order numbers.)
  const done =
    /^what (?:did|does|do) (?:[a-z0-9.'-]+ ){1,4}?([a-z]{3,})(?: (?:in|on|at|for|per|each|a|every|during|against|with|from|by|to|this|last)\b.*)?\??$/.exec(
      a.normalized,
    )?.[1];
  if (
    done !== undefined &&
    !hints.includes(done) &&
    catalog.columns.some(
      (c) =>
        isNumericColumn(c) &&
        !isIdentifierColumn(c) &&
        !options.avoid?.has(c.index) &&
        headerMatch([done], c, false) >= 1.5,
    )
  )
    hints.unshift(done);
  // ("how much did we pay for heating?" of kWh columns beside a Bill written "£212.40", "what do we pay per month
  // for X?" of a "Monthly fee" written "$9.99": money asked for is the column a header names an amount, or, where
  // none does, the one column written in a currency.)
  const moneyWords = MEASURE_CUES.much ?? [];
  const paid =
    done !== undefined && /^(?:pay|pays|paid|spend|spends|spent|charge|charges|charged|owe|owes|owed)$/.test(done);
  // (A "how much" of money says so by its verb or noun: "how much did we pay …", not "how much was the expense …",
  // whose noun names what is asked.)
  const moneySaid =
    /\b(?:pay|pays|paid|spend|spends|spent|cost|costs|charge|charges|charged|owe|owes|owed|money|cash)\b/.test(
      a.normalized,
    );
  const moneyNamed = /\b(?:money|cash)\b/.test(a.normalized);
  if (
    (measureCue(a.normalized) === "much" && (a.targetHints.includes(moneyWords[0]!) || moneyNamed) && moneySaid) ||
    paid
  ) {
    const usable = catalog.columns.filter((c) => isNumericColumn(c) && !options.avoid?.has(c.index));
    const priced = usable.filter((c) => headerMatch(moneyWords, c, false) >= 1.5);
    // ("what did I pay for X?" of Buy price and Current price: the price paid is the one the header says was paid.)
    const payVerb = paid || /^how much (?:did|do|does) (?:[a-z]+ ){1,3}?(?:pay|spend)\b/.test(a.normalized);
    const bought = payVerb
      ? usable.filter(
          (c) =>
            c.headerWords.some((h) => /^(?:buy|bought|purchase|paid)$/.test(h)) &&
            c.headerWords.some((h) => moneyWords.includes(h)),
        )
      : [];
    const amounts = bought.length === 1 ? bought : priced;
    const money = amounts.length > 0 ? (paid || bought.length === 1 ? amounts : []) : usable.filter(isMoneyColumn);
    // (Not where the question's own verb or noun already names a column: "how much did plot 2 yield?" is its Yield;
    // "how much money did she win?" still asks for money, not her Wins.)
    // (But what was paid for is no measure: "what did I pay for the shares?" asks a price, not the Shares.)
    const paidFor = payVerb && new RegExp(`\\bfor\\b.*\\b${hints[0]}\\b`).test(a.normalized);
    const named =
      hints[0] !== undefined &&
      !moneyNamed &&
      !paidFor &&
      usable.some((c) => headerMatch([hints[0]!], c, false) >= 1.5);
    if (money.length === 1 && !named) hints.splice(0, paidFor ? 1 : 0, ...money[0]!.headerWords);
  }
  // ("how much did we spend on rent?" of Budget and Actual columns: what was spent is the Actual, not the plan.)
  if (/\b(?:spend|spends|spent)\b/.test(a.normalized)) {
    const spent = catalog.columns.filter(
      (c) =>
        isNumericColumn(c) &&
        !options.avoid?.has(c.index) &&
        c.headerWords.some((h) => /^(?:actual|spent|spend|spending|expense|expenditure)$/.test(h)),
    );
    if (spent.length === 1 && catalog.columns.some((c) => c.headerWords.includes("budget")))
      hints.unshift(...spent[0]!.headerWords);
  }
  const model = targetColumnModel();
  const recorder = targetRecorder();
  const recorded: Array<{ column: CatalogColumn; x: number[] }> = [];
  const out: Array<{ column: CatalogColumn; score: number; hand: number }> = [];
  // A column whose header word the question spells ("the math score" → Math) is the hand score's: the
  // learned weights, fitted on WTQ where few questions spell the answer's header, rank only the rest.
  const spelled = new Set(a.contentWords.flatMap((w) => [w, stem(w), ...irregularForms(w)]));
  let named = false;
  for (const c of catalog.columns) {
    if (options.usable && !options.usable.has(c.index)) continue;
    const numeric = isNumericColumn(c);
    const leftKey = c.index === 0 && !numeric;
    const hand: ColumnTerms["hand"] = {
      // (A lookup's "per night" names its answer; a superlative's "most points per game" names its order.)
      hintMatch:
        headerMatch(hints, c) + (a.operator === "lookup" || a.operator === "filter" ? perMatch(a.normalized, c) : 0),
      // Other content words naming the column count a little (e.g. "what was the winner's time").
      otherMatch: headerMatch(
        a.contentWords.filter((w) => !hints.includes(w)),
        c,
      ),
      stopHeader: stopWordHeader(a.normalized, c),
      typeFit: typeFit(a, c, numeric),
      mention: mentionCols.has(c.index) && options.prefer !== c.index ? 1 : 0,
      avoid: options.avoid?.has(c.index) ? 1 : 0,
      prefer: options.prefer === c.index ? 1 : 0,
      // Leftmost text column is usually the row's key ("who/which … had the most …").
      leftKey: leftKey ? 1 : 0,
      firstText: !leftKey && !numeric && catalog.columns.slice(0, c.index).every((p) => isNumericColumn(p)) ? 1 : 0,
      index: c.index,
      // Mostly-empty columns rarely hold the answer.
      empty: c.raw.filter((v) => v.trim() === "").length / Math.max(1, c.raw.length),
    };
    const handScore = HAND_TERMS.reduce((s, [name, w]) => s + w * hand[name], 0);
    let score = handScore;
    // (So does a stop word the header is: "order 7 amount" over an Amount column.)
    if (
      model &&
      !mentionCols.has(c.index) &&
      !options.avoid?.has(c.index) &&
      (c.headerWords.some((h) => spelled.has(h)) || hand.stopHeader > 0)
    )
      named = true;
    if (model || recorder) {
      const x = targetFeatureVector(a, c, catalog.columns.length, {
        hand,
        headMatch: headerMatch(hints.slice(0, 1), c),
        kind: columnKind(c),
      });
      if (model) score = linearScore(model.weights, x);
      if (recorder) recorded.push({ column: c, x });
    }
    out.push({ column: c, score, hand: handScore });
  }
  recorder?.(recorded);
  // A yes/no column answers only a question that names it whole ("which trips were longer than 16 km?" never
  // asks for "E-bike?", nor "which concerts sold fewer than 600 tickets?" for "Sold Out?"): the others come first.
  // (Nor one whose cells the question selects: "which apartments allow pets?" asks for the apartments.)
  const flagLast = (c: CatalogColumn) =>
    (flagRows(c)?.every((rows) => rows.length > 0) ?? false) &&
    (!c.headerWords.every((h) => spelled.has(h)) || (mentionCols.has(c.index) && a.answerType !== "yesno"))
      ? 1
      : 0;
  // ("who delivered TR-885?" of a Delivered date column: a date names no one; "where does Nora work?" no place;
  // "what did Pat borrow?" of a Borrowed date asks for the thing borrowed, and so does the passive "what was
  // planted in plot 4?" of a Planted date.)
  const passive = /^what (?:was|were|is|are|has been|have been) ([a-z]{3,}) (?:in|on|at|by|from|for|to|during)\b/.exec(
    a.normalized,
  )?.[1];
  const noDate =
    a.answerType === "person" ||
    a.answerType === "place" ||
    (a.answerType === "entity" &&
      (/^what (?:did|does|do|has|have|will) (?:[a-z]+ ){1,3}[a-z]+\??$/.test(a.normalized) ||
        (passive !== undefined && (/[a-z](?:ed|en|wn)$/.test(passive) || irregularForms(passive).length > 0))));
  // ("what is in bin B1?": a header word right before the value it names says which column the value is in; that
  // column is the condition, not the answer, unless the question names it again.)
  const namesValue = (c: CatalogColumn) =>
    a.operator === "lookup" &&
    a.answerType !== "yesno" &&
    mentions.some((m) => {
      if (m.columnIndex !== c.index) return false;
      const at = a.normalized.indexOf(m.text);
      const before = at > 0 ? a.normalized.slice(0, at).trim().split(" ").at(-1)! : "";
      return (
        c.headerWords.includes(stem(before)) &&
        a.contentWords.filter((w) => headerMatch([w], c, false) > 0).length === 1
      );
    })
      ? 1
      : 0;
  // ("which bridge was built last?", "who took office after X?": a row found by its time is answered by what the
  // row is, not by that time — the cells holding years rank last unless the question asks a time.)
  // (A fragment with no question word asks for the column its words name: "Thistle Lane last inspected".)
  const noTime =
    (noDate || a.answerType === "entity") &&
    (a.position !== null || a.operator === "sort") &&
    /\b(?:which|what|who|whom)\b/.test(a.normalized) &&
    !TIME_ASKED.test(a.normalized);
  // (Unless the noun asked for names that column: "which election …" of an Election column of years.)
  const askedNoun = (/^(?:which|what) ([a-z]+)\b/.exec(a.normalized)?.slice(1) ?? []).filter((w) => !STOP_WORDS.has(w));
  const last = (c: CatalogColumn) =>
    flagLast(c) +
    ((noDate && c.schema.type === "date") || (noTime && holdsTimeCells(c) && headerMatch(askedNoun, c, false) === 0)
      ? 1
      : 0) +
    namesValue(c);
  const ranked = out
    .map((r) => ({ column: r.column, score: named ? r.hand : r.score }))
    .sort((x, y) => last(x.column) - last(y.column) || y.score - x.score);
  // "which orders were placed in May?" of orders.csv: the rows' own identifier ("Order ID") answers for them
  // when the table has no name column. (A singular row noun asks for what the row is about: "what was the last
  // game?" is its opponent.)
  const rowNoun = hints[0] === undefined || !/[^s]s$/.test(hints[0]) ? undefined : stem(hints[0]);
  const ownId =
    // ("show me orders from Japan": a request for them too.)
    rowNoun !== undefined &&
    /^(?:which|what|(?:show|give|find|get|list)(?: me)?(?: the| all)? [a-z]+s\b)/.test(a.normalized)
      ? ranked.findIndex(
          (r) =>
            r.column.headerWords[0] === rowNoun &&
            r.column.tableWords?.includes(rowNoun) === true &&
            isIdentifierColumn(r.column) &&
            !mentionCols.has(r.column.index),
        )
      : -1;
  if (ownId >= 0 && !ranked.some((r) => r.column.headerWords.includes("name"))) {
    ranked.unshift(...ranked.splice(ownId, 1));
    return ranked;
  }
  // "which animal is the heaviest": a row is answered by its name, not its record number, unless the question names that.
  const top = ranked[0]?.column;
  // ("what did Jon order in March?" of Order ID and Product: a did-question's verb spelling the record number asks
  // for what was done, the first text column after it.)
  const doneVerb =
    /^what (?:did|does|do) (?:[a-z0-9.'-]+ ){1,4}?([a-z]{3,})(?: (?:in|on|at|during|last|this)\b.*)?\??$/.exec(
      a.normalized,
    )?.[1];
  if (doneVerb !== undefined && top !== undefined && isIdentifierColumn(top) && top.headerWords[0] === stem(doneVerb)) {
    const done = ranked.findIndex(
      (r) =>
        r.column.index > top.index &&
        !isNumericColumn(r.column) &&
        !isIdentifierColumn(r.column) &&
        r.column.schema.type !== "date" &&
        !mentionCols.has(r.column.index) &&
        !isFlagColumn(r.column),
    );
    if (done > 0) ranked.unshift(...ranked.splice(done, 1));
  }
  // ("who booked the suite?" of a Booking column of codes beside a Guest column: a person is asked for, so a column
  // of people answers before the one the verb spells. Only over codes: a "who" of a team or a nation is answered by
  // the column that names it.)
  const codes = (c: CatalogColumn) => {
    const filled = c.raw.filter((v) => v.trim() !== "");
    return filled.length > 2 && filled.every((v) => /\d/.test(v)) && c.distinct.size === filled.length;
  };
  // (Nor a column of one-word kinds only the superlative's own noun names: "who rented the largest flat?" asks
  // who, not which Flat; a column of names it names may be the people asked for, "the most music" of composers.)
  const ordered = a.operator === "sort" ? wordsAfterSuperlative(a.normalized) : [];
  const kinds = (c: CatalogColumn) => {
    const filled = c.raw.filter((v) => v.trim() !== "");
    return filled.filter((v) => v.trim().includes(" ")).length < 0.5 * filled.length;
  };
  const namedByOrder = (c: CatalogColumn) =>
    kinds(c) &&
    headerMatch(ordered, c, false) > 0 &&
    headerMatch(
      a.contentWords.filter((w) => !ordered.includes(w)),
      c,
      false,
    ) === 0;
  if (a.answerType === "person" && top !== undefined && !isPersonColumn(top) && (codes(top) || namedByOrder(top))) {
    const person = ranked.findIndex(
      (r) => isPersonColumn(r.column) && !mentionCols.has(r.column.index) && !options.avoid?.has(r.column.index),
    );
    if (person > 0) ranked.unshift(...ranked.splice(person, 1));
  }
  // (Of the columns the caller may answer with: a superlative's order column is no answer, so the record number
  // after it would be, "which customer has the highest spend?" of Customer ID beside Name.)
  const answerTop = ranked.find((r) => !options.avoid?.has(r.column.index))?.column;
  const recordTop =
    answerTop !== undefined &&
    isIdentifierColumn(answerTop) &&
    !answerTop.headerWords.some((h) => spelled.has(h) && !answerTop.tableWords?.includes(h));
  // ("screenings starting after 21:00" of film_festival_screenings.csv: the table's own row noun, which no header
  // spells, asks for the rows by name, not for the first column the other words fit.)
  const askedRows =
    rowNoun !== undefined &&
    top !== undefined &&
    a.contentWords[0] === hints[0] &&
    top.tableWords?.some((t) => stem(t) === rowNoun) === true &&
    // (Whole words: "screenings" is no Screen column.)
    !catalog.columns.some((c) => normaliseText(c.schema.name).split(" ").includes(hints[0]!.replace(/s$/, ""))) &&
    headerMatch([hints[0]!], top) === 0;
  // ("the cheapest shipment" of shipments.csv: the table's row noun, which no header spells, asks for the row.)
  // (Only asked "what/which" of the noun alone: "where was the highest reading?" asks for a place, "plot b curator"
  // for the curator, "application date for X" for the date.)
  const derivedTop =
    hints[0] !== undefined &&
    a.answerType === "entity" &&
    hints.length === 1 &&
    top !== undefined &&
    top.tableWords?.at(-1) === stem(hints[0]) &&
    !top.headerWords.includes(stem(hints[0])) &&
    !mentionCols.has(top.index);
  // ("which employee earns least?" spells "employee_id" only by its row noun, not its "id", and a "full_name"
  // column names that employee: the name answers, as for "who".)
  const idWord = top?.headerWords.at(-1);
  const nounOnly =
    top !== undefined &&
    isIdentifierColumn(top) &&
    top.headerWords.length > 1 &&
    !spelled.has(idWord!) &&
    !(/\b(?:numbers?|no|#)(?:\W|$)/.test(a.normalized) && /^(no|nr)$/.test(idWord!)) &&
    catalog.columns.some(
      (c) =>
        c.headerWords.includes("name") &&
        c.headerWords.every((h) => h === "name" || h === "full" || top.headerWords.slice(0, -1).includes(h)),
    );
  // ("which listing has the highest price?" of listings.csv: the row noun names the rows, not the "ListPrice"
  // column whose first word its stem is.)
  const rowModifier =
    hints[0] !== undefined &&
    /^(?:which|what) /.test(a.normalized) &&
    a.contentWords[0] === hints[0] &&
    top !== undefined &&
    top.tableWords?.at(-1) === stem(hints[0]) &&
    top.headerWords.length > 1 &&
    top.headerWords.indexOf(stem(hints[0])) >= 0 &&
    top.headerWords.at(-1) !== stem(hints[0]) &&
    !mentionCols.has(top.index) &&
    // ("what is the customer id of X?": the header spelled whole asks for that column.)
    !` ${a.normalized} `.includes(` ${normaliseText(top.schema.name)} `);
  // ("what is the cheapest house?" of a Type column holding House: the noun is a kind of row, asked for by its name.)
  const kindOfRow =
    hints.length === 1 &&
    a.answerType === "entity" &&
    /^(?:which|what)\b/.test(a.normalized) &&
    top !== undefined &&
    headerMatch(hints, top) === 0 &&
    mentions.some((m) => m.kind === "exact" && !m.text.includes(" ") && stem(m.text) === stem(hints[0]!));
  // ("which property has the most bedrooms?" of rentals whose Tenant column holds people: a thing the question asks
  // for by a noun no header spells is its row's name, not the person of a later column.)
  const thingNotPerson =
    hints.length >= 1 &&
    (a.normalized.startsWith(`which ${hints[0]} `) || a.normalized.startsWith(`what ${hints[0]} `)) &&
    !PERSON_NOUN_SET.has(hints[0]!) &&
    top !== undefined &&
    top.index > 0 &&
    isPersonColumn(top) &&
    headerMatch(hints.slice(0, 1), top) === 0 &&
    !mentionCols.has(top.index);
  // ("lowest rated employee", "the longest serving employee" of employees.csv: a superlative's words ending on the
  // table's row noun order by the measure before it and ask for the row.)
  const closing = /\b([a-z]+) ([a-z]+)$/.exec(a.normalized.replace(/[^a-z0-9]+$/, ""));
  const rowWord = closing?.[2];
  // (The noun itself, not a verb of it, "was drafted" of drafts.csv; not a count's, "the most guests"; not when a
  // which-noun names the column, "which table has the most guests?")
  const asked = /^(?:which|what) ([a-z]+)\b/.exec(a.normalized)?.[1];
  const describedRow =
    a.operator === "sort" &&
    rowWord !== undefined &&
    !/(?:ed|ing)$/.test(rowWord) &&
    !/^(?:the|a|an|any|each|every|per|of|by|for|to|than|one|most|least|fewest|more|fewer|is|was|are|were|been|be)$/.test(
      closing![1]!,
    ) &&
    (asked === undefined || top === undefined || headerMatch([asked], top) === 0) &&
    top !== undefined &&
    top.tableWords?.at(-1) === stem(rowWord) &&
    (isNumericColumn(top) || top.schema.type === "date") &&
    headerMatch([rowWord], top) === 0 &&
    !mentionCols.has(top.index);
  // ("heaviest pet" spells the "Pet #" header only by the table's row noun.)
  if (
    top &&
    (askedRows || derivedTop || describedRow || kindOfRow || thingNotPerson || rowModifier || nounOnly || recordTop)
  ) {
    // (Nor a yes/no column: "E-bike?" of bike_share_trips.csv names no trip.)
    const text = (c: CatalogColumn) =>
      !isNumericColumn(c) && !isIdentifierColumn(c) && !mentionCols.has(c.index) && !isFlagColumn(c);
    // The leftmost text column that names each row once (dates, typed or written "October 28", name no row).
    const rowName = () =>
      catalog.columns.find((c) => {
        const filled = c.raw.filter((v) => v.trim() !== "");
        return (
          (!options.usable || options.usable.has(c.index)) &&
          text(c) &&
          c.schema.type !== "date" &&
          !filled.some((v) => DATE_WORDS.test(v)) &&
          filled.length > 2 &&
          c.distinct.size === filled.length
        );
      });
    // A "name" column, else the column the table's own name calls its rows ("product" of products.csv beside "sku").
    // (The row's own name: "Name", "full_name", "Ticket Name", not "customer_name" of a ticket.)
    const rowWords = new Set([...(top.tableWords ?? []), ...top.headerWords, ...hints.slice(0, 1).map(stem)]);
    let i = ranked.findIndex(
      (r) =>
        r.column.headerWords.includes("name") &&
        text(r.column) &&
        r.column.headerWords.every((h) => h === "name" || h === "full" || rowWords.has(h)),
    );
    // (Asked for the rows by the table's row noun, that column first: "Film" of screenings, not the Screen the
    // noun's stem spells, whose values repeat.)
    if (i < 0 && (askedRows || derivedTop || describedRow || rowModifier || kindOfRow))
      i = ranked.findIndex((r) => r.column === rowName());
    if (i < 0 && thingNotPerson) {
      const own = rowName();
      if (own && own.index < top.index && !isPersonColumn(own)) i = ranked.findIndex((r) => r.column === own);
    }
    // (With no such column, the rows' own record numbers: "Tracking #".)
    if (i < 0 && derivedTop) i = ranked.findIndex((r) => isIdentifierColumn(r.column));
    if (i < 0)
      i = ranked.findIndex(
        (r) => text(r.column) && r.column.headerWords.some((h) => top.tableWords?.some((t) => stem(t) === stem(h))),
      );
    // (Else, when the top column holds codes — digits in every cell: "G-102" — the row's name column: "Product"
    // beside "SKU" of outdoor_goods.csv.)
    if (i < 0 && top.raw.every((v) => v.trim() === "" || /\d/.test(v)))
      i = ranked.findIndex((r) => r.column === rowName());
    if (i > 0) ranked.unshift(...ranked.splice(i, 1));
  }
  return ranked;
}

export function chooseTargetColumn(
  a: QuestionAnalysis,
  catalog: TableCatalog,
  mentions: EntityMention[],
  options: TargetOptions = {},
): CatalogColumn | undefined {
  return rankTargetColumns(a, catalog, mentions, options)[0]?.column;
}

/** Nouns of people ("which player", "what tenant"): asked for by them, a column of people may answer. */
const PERSON_NOUN_SET: ReadonlySet<string> = new Set(PEOPLE_NOUNS.flatMap((n) => [n, `${n}s`]));

/** Words after a superlative/comparative ("most gold medals" → gold, medals). */
export function wordsAfterSuperlative(q: string): string[] {
  // "which model sold for the most?", "what's the most we sold a car for?": a trade's price.
  if (
    new RegExp(`\\b${TRADE_VERB} for (?:the )?(?:most|least|highest|lowest|more|less)\\b`).test(q) ||
    new RegExp(`\\b(?:most|least) (?:[a-z]+ ){0,4}${TRADE_VERB} (?:[a-z]+ ){0,3}for\\??$`).test(q)
  )
    return ["price"];
  const m =
    /\b(?:most|highest|largest|biggest|greatest|top|best|maximum|longest|tallest|heaviest|least|lowest|smallest|fewest|minimum|shortest|worst|more|less|fewer|higher|lower|larger|smaller|greater|bigger|longer|shorter|taller)\s+(?:number of\s+|amount of\s+|total\s+)?([a-z][a-z'-]*(?:\s+[a-z][a-z'-]*){0,2})/.exec(
      q,
    );
  // ("the cheapest groceries": the one noun after a price word is what is priced, if a column spells it; "the
  // cheapest parcel shipped" names no more.)
  const priced = /\b(?:cheapest|priciest|dearest|costliest) ([a-z][a-z'-]*)/.exec(q)?.[1];
  if (!m && priced) return [priced];
  // ("the highest temperature recorded": a closing participle names no column.)
  return m
    ? m[1]!
        .split(" ")
        .filter(
          (w) =>
            !/^(the|a|an|of|in|at|on|for|to|than|and|or|was|were|is|are|did|does|had|has|have|recorded|listed|shown|reported|measured|ever)$/.test(
              w,
            ),
        )
    : [];
}

/** Verbs of a sale or purchase whose "for" names the price. */
const TRADE_VERB = "(?:sell|sells|sold|go|goes|went|rent|rents|rented|buy|buys|bought|fetch|fetched|paid|pay)";

/** The superlative (or comparative, mapped to its superlative) word, for synonym lookup ("tallest" → height). */
export function superlativeWord(q: string): string | undefined {
  // "most recently", "most expensive": the adjective carries the meaning, not "most".
  if (/\bmost recent(ly)?\b/.test(q)) return "latest";
  const adjective = /\b(?:most|least|more|less) (expensive|valuable|costly|affordable)\b/.exec(q)?.[1];
  if (adjective) return adjective;
  // ("the top 3 shortest": the superlative after "top N" is the order.)
  const afterTop = /\btop[- ](?:\d{1,3}|[a-z]+) (\w+)/.exec(q)?.[1];
  if (afterTop && afterTop !== "top" && superlativeWord(afterTop)) return superlativeWord(afterTop);
  const m =
    /\b(cheapest|maximum|minimum|tallest|longest|shortest|farthest|furthest|oldest|youngest|earliest|latest|fastest|slowest|quickest|largest|biggest|smallest|highest|lowest|most|least|fewest|best|worst|top|recent|populated|heaviest|lightest|greatest|newest|priciest|dearest|hottest|warmest|coldest|coolest|wettest|driest|windiest|rainiest|sunniest|snowiest|longer|shorter|taller|older|younger|earlier|later|faster|slower|quicker|larger|bigger|smaller|higher|lower|greater|better|worse|heavier|lighter|cheaper|newer|more|less|fewer)\b/.exec(
      q,
    )?.[1];
  return m ? (own(COMPARATIVE, m) ?? m) : undefined;
}

/**
 * Of two columns a superlative names alike ("hottest" of High and Low temperatures), the one on its side: a
 * maximum of the High column, a minimum of the Low one (a small bonus only, for a tie).
 */
function sideMatch(sw: string, c: CatalogColumn): number {
  const side = c.headerWords.some((h) => /^(?:high|max|peak)$/.test(h))
    ? "max"
    : c.headerWords.some((h) => /^(?:low|min)$/.test(h))
      ? "min"
      : undefined;
  return side !== undefined && headerMatch([sw], c, false) > 0 && superlativeDirection(sw) === side ? 0.2 : 0;
}

/** Every number of a small table's column is the same (a large table's sample says nothing of the rest). */
function isConstant(c: CatalogColumn): boolean {
  if (c.maxFreq !== undefined) return false;
  const values = new Set(c.num.filter((n) => n !== null));
  return values.size === 1 && c.num.filter((n) => n !== null).length >= 3;
}

/** The column a superlative or comparison orders by, or undefined (then: order by frequency). */
export function chooseOrderColumn(
  a: QuestionAnalysis,
  catalog: TableCatalog,
  mentions: EntityMention[],
  options: TargetOptions = {},
): { column: CatalogColumn; score: number } | undefined {
  const q = a.normalized;
  // ("the heaviest shipment" of shipments.csv: the table's row noun after the superlative names the rows, not the
  // "Shipped" date its stem fits, nor "ListPrice" of listings.csv, where it only modifies the header's noun.)
  // (After a price word the row noun is what is priced, never a column: "the cheapest room" of a Room column.)
  const rowNoun = catalog.columns[0]?.tableWords?.at(-1);
  const priceWord = /\b(?:cheapest|priciest|dearest|costliest)\b/.test(q);
  const sw = superlativeWord(q);
  // ("cheapest room" of Room and Rate columns: where a column holds the prices, the word after names no order —
  // unless another noun names the rows asked for: "which month had the cheapest groceries?".)
  const priced =
    priceWord &&
    !/^(?:which|what) (?!(?:is|was|are|were|the|a|an)\b)[a-z]+ [a-z]+/.test(q) &&
    sw !== undefined &&
    catalog.columns.some((c) => isNumericColumn(c) && !isIdentifierColumn(c) && headerMatch([sw], c, false) >= 0.5);
  const after = wordsAfterSuperlative(q).filter(
    (w) =>
      !priced &&
      (rowNoun === undefined ||
        stem(w) !== rowNoun ||
        (!priceWord && catalog.columns.some((c) => c.headerWords.at(-1) === rowNoun))),
  );
  const mentionCols = new Set(mentions.map((m) => m.columnIndex));
  const rows: OrderRanking["rows"] = [];
  const hooks = orderHooks();
  const model = orderColumnModel();
  // (The feature vectors only when a model or a training hook reads them: this runs for every superlative.)
  const features = model !== null || hooks.recorder !== null || hooks.forced !== null;
  let firstNumeric = true;
  const countedTime =
    sw !== undefined && /^(most|least|fewest)$/.test(sw) && after.some((w) => minutesPerTimeUnit(w) !== undefined);
  // "which show grossed the least?": the noun after "which" names the rows asked for, not what orders them.
  const whNoun = /^(?:which|what) (?!(?:is|was|are|were|has|had|have|did|does|do|the|a|an)\b)([a-z]+) [a-z]+/.exec(
    q,
  )?.[1];
  // "the oldest employee" over a table with an Age column reads the age, not a date the question does not name.
  const ageOrder =
    sw !== undefined &&
    /^(oldest|youngest)$/.test(sw) &&
    catalog.columns.some(
      (c) => c.headerWords.includes("age") && isNumericColumn(c) && (!options.usable || options.usable.has(c.index)),
    );
  // ("on which day was the closing price lowest?" of Low and Close columns: a plain direction word names the Low
  // side only when the question spells no other measure.)
  const plainDirection = sw !== undefined && /^(?:highest|lowest|maximum|minimum|max|min)$/.test(sw);
  const spelledMeasure =
    plainDirection &&
    catalog.columns.some(
      (c) =>
        isNumericColumn(c) &&
        !mentionCols.has(c.index) &&
        headerMatch([sw], c, false) === 0 &&
        a.contentWords.some((w) => w !== sw && headerMatch([w], c, false) >= 1.5),
    );
  // ("the longest swim" of a log's Day and Minutes: a length is a quantity too, however "day" relates to it.)
  const sizeWord =
    sw !== undefined && /^(?:biggest|largest|smallest|heaviest|lightest|tallest|longest|shortest)$/.test(sw);
  const hasQuantity = catalog.columns.some(
    (c) =>
      (!options.usable || options.usable.has(c.index)) &&
      isNumericColumn(c) &&
      c.schema.type !== "date" &&
      !isYearColumn(c) &&
      !isIdentifierColumn(c),
  );
  // ("the earliest time anything came out of the oven" of Date and Out of Oven columns: a time of day is asked,
  // the clock column orders, not the date.)
  const clockAsked =
    sw !== undefined &&
    /^(earliest|latest)$/.test(sw) &&
    /\btime\b/.test(q) &&
    catalog.columns.some((c) => isClockColumn(c) && (!options.usable || options.usable.has(c.index)));
  // ("the longest appointment" of a Time of day and a "Length (min)": a header that says length or a unit of time
  // holds the length; the clock only says when.)
  const lengthNamed =
    sw !== undefined &&
    /^(?:longest|shortest)$/.test(sw) &&
    catalog.columns.some(
      (c) =>
        (!options.usable || options.usable.has(c.index)) &&
        isNumericColumn(c) &&
        c.headerWords.some((h) => LENGTH_HEADER.test(h) || minutesPerTimeUnit(h) !== undefined),
    );
  for (const c of catalog.columns) {
    if (options.usable && !options.usable.has(c.index)) continue;
    if (mentionCols.has(c.index) && !isNumericColumn(c)) continue;
    const numeric = isNumericColumn(c);
    if (clockAsked && !isClockColumn(c)) continue;
    if (
      lengthNamed &&
      isClockColumn(c) &&
      !c.headerWords.some((h) => LENGTH_HEADER.test(h)) &&
      headerMatch(a.contentWords, c) < 1
    )
      continue;
    const dateLike = c.schema.type === "date" || isYearColumn(c) || (clockAsked && isClockColumn(c));
    // (Nobody ranks by a record number: "the agent with the most tickets" is not the highest "Ticket #".)
    if ((!numeric && !dateLike) || (isIdentifierColumn(c) && !isRankColumn(c))) continue;
    // (The rows' own numbers order only in time: "the latest episode", not "the longest episode".)
    if (isOwnNumberColumn(c) && !(sw !== undefined && /^(?:earliest|latest|recent|newest|oldest)$/.test(sw))) continue;
    if (ageOrder && dateLike && !c.headerWords.includes("age") && headerMatch(a.contentWords, c) < 1.5) continue;
    // ("who missed the most days?": days counted, not a date to order by.)
    if (dateLike && countedTime) continue;
    // ("the biggest task" of a Due date and an Estimate: a size is a quantity, never a date.)
    if (dateLike && sizeWord && hasQuantity && isDateOrYearNamed(c)) continue;
    // (A column of one value orders nothing: "P", games played, is 18 on every row of a league table.)
    if (numeric && !dateLike && isConstant(c) && headerMatch(a.contentWords, c) < 1.5) continue;
    const rank = isRankColumn(c);
    const best = sw !== undefined && /^(best|worst|top)$/.test(sw);
    const hand: OrderHandTerms = {
      afterMatch: headerMatch(after, c),
      otherMatch: headerMatch(
        a.contentWords.filter((w) => !after.includes(w) && w !== whNoun),
        c,
      ),
      // ("earliest" is related to "year", but a count of years, "Yrs Exp", is no time to be early in.)
      superlativeMatch:
        sw &&
        !(/^(earliest|latest|recent|newest)$/.test(sw) && !dateLike) &&
        !(spelledMeasure && !a.contentWords.some((w) => w !== sw && headerMatch([w], c, false) >= 1.5))
          ? headerMatch([sw], c, false) + sideMatch(sw, c)
          : 0,
      stopHeader: stopWordHeader(q, c),
      dateSuperlative: sw && /^(oldest|youngest|earliest|latest|recent|newest)$/.test(sw) && dateLike ? 1 : 0,
      timeSuperlative: sw && /^(fastest|slowest)$/.test(sw) && isTimeColumn(c) ? 1 : 0,
      rankBest: best && rank ? 1 : 0,
      avoid: options.avoid?.has(c.index) ? 1 : 0,
      // Rank/position columns order rows but are rarely what "most/highest" means.
      rankPenalty: rank && !best ? 1 : 0,
    };
    const handScore = ORDER_HAND_TERMS.reduce((s, [name, w]) => s + w * hand[name], 0);
    const x = features
      ? orderFeatureVector(c, catalog.columns.length, numeric && firstNumeric, hand, sw, rank, isYearColumn(c))
      : [];
    if (numeric) firstNumeric = false;
    rows.push({ column: c, x, hand: handScore });
  }
  if (rows.length === 0) return undefined;
  // The hand score says how strongly some column is named (the generators' thresholds read it); the
  // learned model, when shipped, re-picks which column among the same candidates.
  const strongest = rows.reduce((b, r) => (r.hand > b.hand ? r : b), rows[0]!);
  hooks.recorder?.({ rows });
  const forcedIndex = hooks.forced?.({ rows });
  const chosen =
    forcedIndex !== undefined
      ? rows[forcedIndex]!
      : model
        ? rows.reduce((b, r) => (linearScore(model.weights, r.x) > linearScore(model.weights, b.x) ? r : b), rows[0]!)
        : strongest;
  return { column: chosen.column, score: strongest.hand };
}

/** The column a numeric condition ("born after 1977", "more than 40 gold medals") applies to. */
/** Whether `year` lies within a century of the years a date or year column holds (its first 500 cells read). */
function yearsNear(c: CatalogColumn, year: number, within = 100): boolean {
  const years = c.raw
    .slice(0, 500)
    .flatMap((v) => [...(/\b(1[0-9]\d\d|20\d\d)\b/.exec(v)?.slice(1, 2) ?? [])])
    .map(Number);
  if (years.length === 0) return true;
  return year >= Math.min(...years) - within && year <= Math.max(...years) + within;
}

export function chooseConditionColumn(
  hint: string[],
  value: number,
  catalog: TableCatalog,
  options: TargetOptions = {},
): CatalogColumn | undefined {
  let best: { column: CatalogColumn; score: number } | undefined;
  const yearLike = Number.isInteger(value) && value >= 1000 && value <= 2100;
  // ("jobs with parts under $169": the question's own word names Parts ($) before the money words name Total ($).)
  const own = options.money ? hint.filter((w) => !MONEY_HEADER_WORDS.includes(w)) : [];
  for (const c of catalog.columns) {
    if (options.usable && !options.usable.has(c.index)) continue;
    const numeric = isNumericColumn(c);
    // (Sums of money are no years, though "$1,500" falls between 1000 and 2100.)
    const dateLike =
      c.schema.type === "date" || (isYearColumn(c) && !c.raw.slice(0, 500).some((v) => /[$€£¥,]/.test(v)));
    if (!numeric && !dateLike) continue;
    // A column of full dates compares with years only ("over 500" is not about the year 500); an identifier with nothing.
    // (Nor with a number centuries from its own years: "under 1675 a month" of 2024 listings is a rent.)
    const nearYears = yearLike && dateLike && yearsNear(c, value);
    if ((c.schema.type === "date" && !nearYears) || isIdentifierColumn(c)) continue;
    // (Nor the rows' own numbers: "rooms under 100 a night" compares a rate, not room 101.)
    if (isOwnNumberColumn(c) && !hint.some((w) => /^(?:number|numbered|no)$/.test(w))) continue;
    let score = 2 * headerMatch(hint, c) + (own.length > 0 ? headerMatch(own, c) : 0);
    // (A column of full dates spanning the year surely holds it; four-digit numbers may be ratings: "after 2020"
    // of "Member Since" beside "Rating".)
    if (nearYears) score += c.schema.type === "date" && yearsNear(c, value, 1) ? 2.5 : 1.5;
    if (!yearLike && dateLike && !numeric) score -= 1;
    if (yearLike && !dateLike) score -= 0.5;
    // Unnamed quantity ("jumped more than 115 meters"): a column whose values span the number,
    // and not a rank (ranks order rows, they are rarely the compared quantity).
    const values = c.num.filter((n): n is number => n !== null);
    if (values.length > 0 && value >= Math.min(...values) && value <= Math.max(...values)) score += 0.5;
    if (isRankColumn(c)) score -= 0.6;
    if (options.percent && c.raw.filter((v) => v.trim().endsWith("%")).length >= 0.5 * c.raw.length) score += 3;
    // (Money is named by a currency in the header, or written in the cells: "$1,780,000".)
    if (options.money && isMoneyColumn(c)) score += 2;
    // (A duration in units, "Runtime (min)", or written "2:58:33".)
    if (options.duration && (c.headerWords.some((h) => minutesPerTimeUnit(h) !== undefined) || c.timeShare >= 0.5))
      score += 2;
    if (!best || score > best.score) best = { column: c, score };
  }
  return best?.column;
}
