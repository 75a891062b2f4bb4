/**
 * Offline question analysis: what a question asks for, read from its wording alone (no table).
 * The result travels with the sub-query in `SubQueryPlan.analysis` so that every later offline step
 * (column choice, SQL templates, the reader, the verifier, synthesis) reads the same decisions.
 *
 * The rules are word patterns only: nothing here may depend on a benchmark question or table.
 */
import type { Modality, Operator, SubQueryPlan } from "../types.js";
import type { EntityMention } from "./mentions.js";
import { STOP_WORDS } from "../../text/stop-words.js";
import { questionWords } from "../../text/tokenise.js";
import { agentNouns, MEASURE_CUES, MONEY_HEADER_WORDS, measureCue } from "../../text/column-words.js";
import { quarterAsTyped, undoTypedSlips } from "../../text/typed-words.js";
import { withoutRequest } from "../../text/requests.js";
import {
  MAX_COMPARATIVES,
  MAX_SUPERLATIVES,
  MIN_COMPARATIVES,
  isMeasureUnit,
  MIN_SUPERLATIVES,
  minutesPerTimeUnit,
  MONTH_PATTERN,
  NUMBER_WORD_PATTERN,
  NUMBER_WORDS,
  nounPattern,
  ORDINAL_PATTERN,
  ordinalValue,
  PEOPLE_NOUNS,
  PERSON_NOUNS,
  PLACE_NOUNS,
  WEEKDAYS,
  SUPERLATIVE_PATTERN,
} from "../../text/lexicons.js";

/** The kind of answer the question expects (drives readers, answer formatting and the verifier). */
export type AnswerType =
  | "count" // how many → a whole number
  | "number" // amount/score/total/average/difference → a number
  | "percent" // percentage (change) → a number in percent
  | "year" // what/which year
  | "date" // when / what date
  | "person" // who / whom / which player…
  | "place" // where / which country, city…
  | "yesno" // is/was/did … ? → "yes" | "no"
  | "choice" // one of the options named in the question ("A or B")
  | "moreless" // "did A earn more or less … than B" → "more" | "less"
  | "entity"; // any other value of a table cell / span

/** Superlative or ordering direction: "most/highest/largest" → max, "least/lowest" → min. */
export type SortDirection = "max" | "min";

/** Row position relative to the table order (`_row`) or to a grounded row. */
export type RowPosition = "first" | "last" | "next" | "previous";

/** Numeric comparison with a literal: "born after 1977", "more than 10 goals", "at least 3". */
export interface NumericCondition {
  op: ">" | "<" | ">=" | "<=" | "=";
  value: number;
  /** Words just before/after the number that name the compared column ("goals", "born"). */
  hint: string[];
  /** The literal was a clock time ("under 3:45"): `value` is in seconds and applies to a time column. */
  clock?: boolean;
  /** "in the top 10": the rank (or, without a rank column, the table position) is at most `value` (op "<="); "not in
   * the top 10": beyond it (op ">"). */
  top?: boolean;
  /** "the top 3 earners", "top 5 products by rating": the words that may name the ranked quantity. */
  topBy?: string[];
  /** "finished above 5th place": `value` is a place, compared on the rank/position column. */
  place?: boolean;
  /** "at least 75% of the votes": the literal is a percentage (a column of percentages is compared). */
  percent?: boolean;
  /** "over $500", "above 3 euros": the literal is a sum of money (a column whose header names a currency first). */
  money?: boolean;
  /** The hint must name the compared column ("out of stock": a Stock column), else the condition does not apply. */
  named?: boolean;
  /** "over 2 million", "under 40k": the literal's scale word, as a factor; the compared column's size decides whether it applies. */
  scale?: number;
  /** "over an hour", "under 90 minutes": the literal's unit of time, in minutes (a column in other units converts it). */
  minutesPerUnit?: number;
}

/** The plan of a comparison between entities named in the question. */
export interface Comparison {
  /**
   * choice: "who scored higher, A or B?" → one of `options`;
   * moreless: "did A earn more or less points than B?" → "more" | "less";
   * difference: "how many more points did A score than B?" → a number;
   * greater: "which X has more Y than A?" → the entity (filter by the value of A).
   */
  kind: "choice" | "moreless" | "difference" | "greater";
  /** The entity strings as written in the question (two for choice/moreless/difference). */
  options: string[];
  direction: SortDirection | null;
  /**
   * moreless asked in other words, answered with them: "is A listed above or below B?" → ["above", "below"],
   * "did A sail before or after B?" → ["before", "after"], "higher or lower" → ["higher", "lower"]
   * (the first word when A comes first in the table's order or, for higher, is larger).
   */
  words?: [string, string];
  /**
   * "Is the ferry's speed above or below 20 knots?", "did Ana score more or less than 12 points?": the number the
   * value is compared with, and the question that asks for the value ("how many knots is the ferry's speed").
   */
  literal?: { value: number; ordinal: boolean; question: string };
}

/** Everything the offline backbone reads from a question. Plain JSON (it lives in plan.analysis). */
export interface QuestionAnalysis {
  /** Schema version of this object. */
  version: 1;
  /** The analysed text, lower-cased with collapsed whitespace. */
  normalized: string;
  operator: Operator;
  /** For operator "aggregate"/"arithmetic": the aggregate to compute. */
  aggregate: "sum" | "avg" | null;
  /** For operator "sort" (superlatives): the direction; also set for "greater" comparisons. */
  sortDirection: SortDirection | null;
  /** "first/last/next/previous" row questions. */
  position: RowPosition | null;
  /** "who came third?": the finishing place (2 or more) whose row answers; "first" is `position`. */
  finishingPlace?: number;
  /** Comparisons between named entities, or null. */
  comparison: Comparison | null;
  /** TAT-QA-like arithmetic: change / percentage change / ratio between two values. */
  arithmetic: "difference" | "percent_change" | "ratio" | "sum" | "average" | null;
  /** Numeric conditions stated in the question. */
  conditions: NumericCondition[];
  /** Every number literal in the question, in order (years included). */
  numbers: number[];
  answerType: AnswerType;
  /** The named detectors behind `operator` and `answerType` (OPERATOR_DETECTORS, ANSWER_KIND_DETECTORS) and the refinements that applied. */
  detectors?: { operator: string; refinements: string[]; answerKind: string };
  /** True when several items are expected ("list …", "which … were", "what are …"). */
  listAnswer: boolean;
  /** Where the answer lives: table, passages, or both (reference §3.2 required_modalities). */
  modality: Modality;
  /** The question needs a scan of many rows (count, sum, superlatives, position). */
  needGlobalView: boolean;
  /** Residual uncertainty of a single-step plan (reference §3.2); 0 = this step answers it. */
  uncertainty: number;
  /**
   * Content words that should name the column whose value is the answer ("year" in "what year…",
   * "points" in "how many points…"), strongest first.
   */
  targetHints: string[];
  /** Content words of the question after removing question words and stop words. */
  contentWords: string[];
  /** For "how many X": the counted noun phrase words (to decide count rows vs read a count column). */
  countNoun: string[];
  /**
   * Set by the offline decomposer: the table the question was grounded in and the entity mentions
   * found in it (verbatim cell values), so later steps reuse them instead of searching again.
   */
  grounding?: {
    tableId: string;
    mentions: EntityMention[];
    /** The table came from the question's table hint. */
    hinted?: boolean;
    /** The SQL template the decomposer expects to answer with (over every column), and the columns it reads. */
    template?: string;
    /** The plan generator that built it (nodes/offline/plans/registry.ts). */
    generator?: string;
    /**
     * Set when the learned plan choice (plan-choice.ts) took another candidate than the registry's first
     * plan: its generator and target-column rank, so the SQL writer builds the same plan over C.
     */
    planChoice?: { generator: string; targetRank: number };
    columns?: string[];
    /**
     * Estimated probability (0..1) that the planned SQL answers the question, from the plan's shape
     * (nodes/offline/confidence.ts; precisions counted on WTQ train). A verifier may demand more
     * support from low-confidence SQL answers.
     */
    confidence?: number;
    /** The plan-shape features behind `confidence` (see confidence.ts `answerConfidence`). */
    features?: {
      template: string;
      grounding: "none" | "exact" | "partial" | "fuzzy";
      mentions: "0" | "1" | "2+";
      target: "named" | "weak" | "unnamed" | "computed";
    };
    /** How sure the condition-link choice of `mentions` was (condition-links.ts `linkChoice`). */
    linkMargin?: { margin: number; samePlan: boolean; changed: boolean };
  };
}

/** Reads the QuestionAnalysis stored in a plan, if the offline backbone wrote one. */
export function analysisOf(plan: SubQueryPlan | undefined): QuestionAnalysis | undefined {
  const a = plan?.analysis as Partial<QuestionAnalysis> | undefined;
  return a && a.version === 1 && typeof a.normalized === "string" ? (a as QuestionAnalysis) : undefined;
}

const MAX_WORDS: readonly string[] = [...MAX_SUPERLATIVES, "max", "highest-ranked", ...MAX_COMPARATIVES];
const MIN_WORDS: readonly string[] = [...MIN_SUPERLATIVES, "min", ...MIN_COMPARATIVES];
/** Superlatives whose natural column is a time/age: oldest = min(year) of a date but max(age). */
// ("max temp", "min order total" as typed; "min" after a number is minutes.)
const SUPERLATIVE_WORDS = `${SUPERLATIVE_PATTERN}|max|(?<!\\d )min`;
const SUPERLATIVE = new RegExp(`\\b(${SUPERLATIVE_WORDS})\\b`);
/** Without the typed "max"/"min": "the total max depth of A and B" is a sum. */
const SUPERLATIVE_WORD = new RegExp(`\\b(${SUPERLATIVE_PATTERN})\\b`);

const PERSON_NOUN_RE = new RegExp(`\\b(${nounPattern(PERSON_NOUNS)})\\b`);
const PLACE_NOUN_RE = new RegExp(`\\b(${nounPattern(PLACE_NOUNS)})\\b`);
/** Plural nouns of people ("members", "patients", "employees"): the rows a condition on an age is about. */
const PEOPLE_RE = new RegExp(`^(?:${nounPattern(PEOPLE_NOUNS)})$`);
const PERSON_OF_RE = new RegExp(`^(?:the )?(?:${nounPattern(PERSON_NOUNS)}) (?:of|for)\\b`);
const PERSON_LAST_RE = new RegExp(`^(?:the )?(?:[a-z]+ ){0,2}(?:${PERSON_NOUNS.join("|")})$`);

/** A finishing place named with an ordinal: "ranked 1st", "came in first", "1st place". */
export const PLACE_ORDINAL =
  /\b(?:rank(?:ed|s)?|plac(?:e|ed|es)|finish(?:ed|es)?|came(?: in)?|come(?: in)?)\s+(?:the\s+)?(?:first|1st)\b(?:\s+place\b)?|\b(?:first|1st)\s+place\b/g;

/** The superlatives that order rows by a value, not by their position. */
/** Words of the first (last) row position. */
export const FIRST_POSITION_WORD = /\b(?:first|opening|initial|1st)\b/;
export const LAST_POSITION_WORD = /\b(?:last|final|most recent|bottom|closing)\b/;
const EXTREME_WORD = /\b(most|least|highest|lowest|largest|smallest|fewest|greatest|biggest|longest|shortest)\b/;

/** "who came in third?", "which team finished 2nd?": a whole question asking who holds a finishing place. */
const FINISHING_PLACE_ASKED = new RegExp(
  `^(?:who|which [a-z]+(?: [a-z]+)?) (?:came|come|comes|finished|finishes|placed|ended up|ended|was|were|is|ranked)(?: in)?(?: the)? (\\d{1,3}(?:st|nd|rd|th)|${ORDINAL_PATTERN})(?: place| position)?(?: overall)?\\??$`,
);

/** The finishing place a question asks who holds, 2 or more (a first place is a row position). */
function finishingPlaceOf(q: string): number | undefined {
  const m = FINISHING_PLACE_ASKED.exec(q);
  const place = m ? ordinalValue(m[1]!) : undefined;
  return place !== undefined && place >= 2 ? place : undefined;
}

/** "the top 10", "a top-ten finish", "top 3 runners" (a number after "top"). */
const TOP_N =
  /\btop[- ](\d{1,3}|two|three|four|five|six|seven|eight|nine|ten|twenty)\b|\bthe (\d|two|three|four|five|six|seven|eight|nine|ten) (?=(?:most|least|best|worst|[a-z]{3,}est)\b)/g;

/**
 * "the top of the list", "the top row", "the top town listed", "which is on top?": the table's first row, a place in
 * its layout, not a superlative ("on top in points", "at the top with the most votes" still order by a value).
 */
const TOP_OF_LIST = new RegExp(
  [
    "\\btop(?:-| )(?:row|line|entry|listed)\\b",
    // (Not "the top grossing film on the list", "the top scorer in the table": a measure's superlative.)
    "\\btop (?![a-z]+(?:ing|ed|ers?)\\b)(?:[a-z]+ ){0,3}(?:listed |shown |named )?(?:on|in|of|at) (?:the|this) (?:list|table|chart|page)\\b",
    "\\b(?:at|on) (?:the )?top(?= ?(?:[?.!]|$| of (?:the|this) (?:list|table|chart|page)\\b))",
  ].join("|"),
);

/** "what place did Ana finish", "which position is Ana in": a finishing place (a rank), not a location. */
const FINISHING_PLACE = /^(?:what|which) (?:place|position)\b(?! (?:is|was) (?:the|a)\b)/;

/**
 * "where did Ana come?", "where did the Lynx finish in the race?", "where are Albion in the table?": a finishing
 * place or a standing as well, not a location.
 */
export const WHERE_FINISHED =
  /^where (?:(?:did|does|do|will) .+ (?:come|finish|place|end up|rank)(?: in .+)?|(?:is|are) .+ in the (?:table|league|standings|rankings?))\??$/;

/** "who won the race?", "which team won?", "the winner": the first finisher, with no superlative or number to say otherwise. */
const WHO_WON =
  /^(?:who|which \w+) won\b(?!['’]t)(?!.*\b(?:most|least|more|fewer|by|against|over|in|at|on)\b)|^(?:the )?winner\??$|^who (?:is|was) the winner(?: of the \w+)?\??$|^what (?:is|was) the winning (?:time|score|total)\??$/;

/**
 * "shipments over 50 lb", "tickets opened in march", "animals heavier than 20 kg": a search-box fragment — a
 * plural noun and a filter, no question word or verb of its own — asks how many rows there are.
 */
const FRAGMENT_COUNT =
  /^(?!(?:what|which|who|whom|whose|where|when|why|how|is|are|was|were|do|does|did|list|show|give|names?|find|get|tell|sum|total|average|mean)\b)(?!.*\b(?:who|which|that|is|are|was|were|has|have|had|did|does|do)\b)(?:the |all )?(?!(?:species|series|news)\b)([a-z]{3,}(?<![siu])s) (?:over|under|above|below|with|without|to|from|in|on|at|after|before|since|between|of|more|less|fewer|heavier|lighter|longer|shorter|older|younger|cheaper|costing|weighing|[a-z]{2,}er than|[a-z]{3,}ing (?:more|less|fewer|over|under|above|below|at least|at most)|[a-z]{3,}ed\b|made|sold|held|won|built|written|given|taken|seen|sent|paid|bought|kept|run)\b|^(?!(?:what|which|who|whom|whose|where|when|why|how|list|show|give|names?|find|get|tell|sum|total|average|mean|max|min)\b)(?:[a-z]+ ){1,2}(?!(?:species|series|means|news)$)([a-z]{3,}(?<![siu])s)$/;

/**
 * "owner of pickles", "voices from the nile curator": a fragment that asks for one person, not a count of its
 * plural ("premium members" still counts).
 */
const PERSON_FRAGMENT = new RegExp(
  `^(?:the )?(?:${PERSON_NOUNS.join("|")}) (?:of|for)\\b|\\b(?:${PERSON_NOUNS.join("|")})$`,
);

/**
 * "phones under $300", "routes with over 2000 riders", "animals over 500 kg": a fragment that bounds a number
 * lists the rows it selects, as a search box does (four blind everyday suites agree: 33 lists to 3 counts).
 */
const BOUND_FRAGMENT =
  /\b(?:over|under|above|below|(?:more|less|fewer|greater|higher|lower) than|at (?:least|most))\s+[$£€]?\d|\b(?:after|before|since) (?:1[89]|20)\d\d\b|\d[\d,.]*\s*(?:[a-z%]+\s+)?or (?:more|less|fewer|higher|lower|above|below)\b/;

/** "january 10", "10th january": a day of a month ("admitted before january 10" bounds dates; it is no row above). */
const DAY_OF_MONTH = `(?:${MONTH_PATTERN}) \\d{1,2}\\b|\\d{1,2}(?:st|nd|rd|th)? (?:${MONTH_PATTERN})\\b`;

/** "before January 10", "after 2026-03-01", "since 2019": a bound on dates (who … before it: everyone). */
const DATE_BOUND = new RegExp(
  `\\b(?:before|after|since|until|prior to) (?:(?:${MONTH_PATTERN})\\b|\\d{1,2}(?:st|nd|rd|th)? (?:${MONTH_PATTERN})\\b|(?:1[89]|20)\\d\\d\\b)`,
);

/** "which dish has fewer calories?", "who scored more goals?": a comparative closing on the measure it compares. */
const COMPARATIVE_ASK = new RegExp(
  `^(?:which|who)\\b.* (?:has|have|had|is|was|scored|got|made|earned|won|costs?) (?:the )?(${[...MAX_COMPARATIVES, ...MIN_COMPARATIVES].join("|")}) [a-z]+\\??$`,
);

/** "who worked on May 16?", "who works on Saturdays?": everyone of that day's rows. */
const ON_DAY = new RegExp(`\\bon (?:${DAY_OF_MONTH}|(?:a )?(?:${WEEKDAYS.join("|")})s?\\b)`);

/** A search fragment that counts its plural noun ("tickets opened in march", "goals scored by X"). */
function fragmentCount(q: string): boolean {
  return FRAGMENT_COUNT.test(q) && !PERSON_FRAGMENT.test(q) && !BOUND_FRAGMENT.test(q);
}

/** A number standing alone ("2200?", "$1,500 and"), not the start of a cell's text ("2010-11", "6 texan"). */
const BARE_NUMBER = String.raw`[$£€]?\d[\d,]*(?:\.\d+)?(?=\s*(?:[?,.!]|$|(?:and|or|but|in|on|for|with|a|an|per|of)\b))`;

/** A time of day ("21:00", "9 pm", "9.30am"). */
const CLOCK_TIME = String.raw`\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d\d\b`;

/** A verb of a row's place in the table's order ("comes after", "was listed before"). */
const SEQUENCE_VERB =
  /\b(?:comes?|came|follows?|followed|listed|placed|ranked|finished|appears?|appeared)\s+(?:right |directly |immediately |just )?(?:after|before|above|below)\b/;

/** Words that say the answer is a year or a date. */
const YEAR_Q = /\b(what|which|in what|in which)\s+(year|season)\b|\byear did\b|\bwhat year\b/;

export interface AnalyzeOptions {
  /** Passages exist for the question's table (HybridQA/TAT-QA corpora): modality may be text/both. Default false. */
  hasPassages?: boolean;
  /** The table has an "Average" column: "the highest average" names it rather than asking for AVG(). Default false. */
  averageIsColumn?: boolean;
}

/** "what's", "who's": the question word and "is", so wh-patterns see them (mentions.ts tokenises the same way). */
const WH_IS = /\b(what|who|where|which|how|when)['\u2019]s\b|\b(what|who|where)s\b/gi;

export function expandContractions(text: string): string {
  return text.replace(WH_IS, (_all, a: string | undefined, b: string | undefined) => `${a ?? b} is`);
}

function normalize(text: string): string {
  const typed =
    // ("hieghest", "totl", "more then", "feb", "q1": what a hurried user types, undone first.)
    undoTypedSlips(text)
      .toLowerCase()
      .replace(/[\u2018\u2019`]/g, "'")
      .replace(/[\u201c\u201d]/g, '"')
      .replace(/\s+/g, " ")
      .replace(WH_IS, (_all, a: string | undefined, b: string | undefined) => `${a ?? b} is`)
      // "below freezing": under 0 degrees.
      .replace(/\b(below|under|above|over) (?:the )?freezing(?: point)?\b/g, "$1 0 degrees")
      // "3+ bedrooms": at least that many, as "3 or more bedrooms".
      .replace(/(\d)\+(?=\s|\?|$)/g, "$1 or more")
      // "avg price", "avg. score": the abbreviation people type is "average".
      .replace(/\bavg\b\.?/g, "average")
      // "what did I spend on food?" asks how much, as "how much did I spend on food?" does.
      .replace(/^what did (i|we|you|they) (spend|pay) (on|for)\b/, "how much did $1 $2 $3")
      // "by how much did revenue grow from January to June?": the difference between the two rows.
      .replace(
        /^(?:by )?how much did (?:the )?([a-z][a-z ]*?) (?:increase|grow|rise|go up|fall|drop|decrease|decline|go down|change) from ([^?]+?) to ([^?]+?)(\?)?$/,
        "what is the difference in $1 between $2 and $3$4",
      )
      // "earn $25 an hour", "paid the most per hour": a rate per hour, named by an hourly (rate) column, not by Hours.
      .replace(
        /\b(earns?|earning|earned|makes?|making|made|paid|pays?|gets?|charges?|charged|costs?)\b(.{0,24}?)\b(?:an|a|per) hour\b/g,
        "$1$2 hourly",
      )
      // "after the end of March", "before the start of May": a bound on the month itself, as "after March" is.
      .replace(
        /\b(after|since|before) the (?:(?<=after the )end|(?<!after the )(?:start|beginning)) of (?=[a-z])/g,
        "$1 ",
      );
  // "i need the highest salary", "can you tell me who earns most": the request's own words ask nothing.
  return (
    withoutRequest(typed)
      // "what is the salary range?", "the range of prices": the highest less the lowest.
      .replace(
        /^(?:what is |what's )?(?:the )?(?:([a-z]+(?: [a-z]+)?) range|range of (?:the |our )?([a-z]+(?: [a-z]+)?))(\?)?$/,
        (_all, a?: string, b?: string, mark?: string) =>
          `what is the difference between the highest and lowest ${a ?? b}${mark ?? ""}`,
      )
      // "how big is the gap between the highest and the lowest salary?": their difference.
      .replace(/^(?:how (?:big|large|wide) is|what is) the (?:gap|spread) between\b/, "what is the difference between")
      // "how many pages does the longest book have?": the count column of the superlative's row.
      .replace(
        new RegExp(
          `^how many ([a-z]+) (?:does|did|do) the ((?:${SUPERLATIVE_PATTERN}) [a-z]+(?: [a-z]+)?) have(\\?)?$`,
        ),
        "what is the $1 of the $2$3",
      )
      // "the youngest rider's age": the age of that row, not the row's name.
      .replace(
        new RegExp(
          `^(?:(?:what|how) (?:is|was) )?(?:the )?((?:${SUPERLATIVE_PATTERN}) [a-z]+(?: [a-z]+)?)'s ([a-z]+(?: [a-z]+)?)(\\?)?$`,
        ),
        "what is the $2 of the $1$3",
      )
      // "who has been here the longest?": the one who started first.
      .replace(
        /\b(?:has|have) (?:been|worked) (?:here|with us|with the (?:company|firm|team)|at the (?:company|firm)|employed) (?:for )?(?:the )?longest\b/,
        "started the earliest",
      )
      // "the longest serving employee": the one who started first.
      .replace(/\blongest[- ](?:serving|tenured|standing)\b/g, "earliest started")
      // "highest-paid", "best-selling": the superlative is its own word.
      .replace(new RegExp(`\\b(${SUPERLATIVE_WORDS})-(?=[a-z])`, "g"), "$1 ")
      .trim()
  );
}

/** Word tokens of normalised text (keeps internal apostrophes, hyphens and decimal points). */
export const words = questionWords;

function numbersIn(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(
    /(?<![a-z0-9])[-+]?\$?\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![a-z0-9.])[-+]?\$?\d+(?:\.\d+)?/gi,
  )) {
    const v = Number(m[0].replace(/[$,]/g, ""));
    if (Number.isFinite(v)) out.push(v);
  }
  return out;
}

const CONDITION_PATTERNS: Array<[RegExp, NumericCondition["op"]]> = [
  [
    /\b(more|greater|higher|larger|bigger|longer|taller|older|newer|heavier|later|farther|further|faster|over|above|exceed(?:ed|ing|s)?|after|beyond)\s+(?:than\s+)?(?:[a-z]+\s+){0,1}?([$£€]?\d[\d,]*(?:\.\d+)?)(?![\d:]|-\d\d?-\d|(?:st|nd|rd|th)\b)/g,
    ">",
  ],
  [
    /\b(less|fewer|lower|smaller|shorter|younger|lighter|earlier|slower|under|below|before)\s+(?:than\s+)?(?:[a-z]+\s+){0,1}?([$£€]?\d[\d,]*(?:\.\d+)?)(?![\d:]|-\d\d?-\d|(?:st|nd|rd|th)\b)/g,
    "<",
  ],
  [
    // "enrolled since 2022": from that year on (a year only, checked below).
    /\b(since)\s+(\d{4})(?![\d:]|-\d\d?-\d|(?:st|nd|rd|th)\b)/g,
    ">=",
  ],
  [
    // ("how many days did I reach 10,000 steps?", "hit 50 goals": at least that many.)
    /\b(at least|no less than|minimum of|a minimum of|reach(?:ed|es|ing)?|hit(?:s|ting)?)\s+(?:[a-z]+\s+){0,1}?([$£€]?\d[\d,]*(?:\.\d+)?)(?![\d:]|-\d\d?-\d|(?:st|nd|rd|th)\b)/g,
    ">=",
  ],
  [
    /\b(at most|no more than|maximum of|a maximum of|up to)\s+(?:[a-z]+\s+){0,1}?([$£€]?\d[\d,]*(?:\.\d+)?)(?![\d:]|-\d\d?-\d|(?:st|nd|rd|th)\b)/g,
    "<=",
  ],
];

/**
 * "no more than 5", "did not score over 30", "never dropped below 20%", "does not have a population above 9,000": a
 * negation just before the bound, or up to three words of its own clause before it, turns the bound round.
 */
const NEGATED_BOUND =
  /\b(?:no|not|never|(?:did|does|do|was|were|is|are|has|have|had)n'?t) $|\b(?:not|never|(?:did|does|do|was|were|is|are|has|have|had)n'?t)(?: (?!(?:and|but|or|nor|with|who|which|that|than)\b)[a-z]+){1,3} $/;

/** The bound a negation turns round ("not over 30" is at most 30). */
const NEGATED_OP: Record<NumericCondition["op"], NumericCondition["op"]> = {
  ">": "<=",
  "<": ">=",
  ">=": "<",
  "<=": ">",
  "=": "=",
};

/** Scale words after a number ("2 million", "40k"). */
const SCALE_WORDS: Record<string, number> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  mn: 1e6,
  million: 1e6,
  bn: 1e9,
  billion: 1e9,
};

/** Comparative words that name a quantity ("taller than" → height). */
const COMPARATIVE_HINT: Record<string, string> = {
  taller: "tall",
  longer: "long",
  shorter: "long",
  older: "age",
  younger: "age",
  heavier: "weight",
  lighter: "weight",
  later: "year",
  newer: "year",
  earlier: "year",
  after: "year",
  before: "year",
  since: "year",
  faster: "time",
  slower: "time",
};

/** "more than two silver medals", "at least three hundred": number words as digits, for conditions. */
function digitsForNumberWords(q: string): string {
  return q.replace(
    new RegExp(`\\b(${NUMBER_WORD_PATTERN})(?: (hundred|thousand))?\\b`, "g"),
    (all, w: string, scale: string | undefined, offset: number) => {
      // "one" is a number only after a comparison ("more than one") or joined to its noun ("one-bedroom flats");
      // elsewhere it is a pronoun.
      if (
        w === "one" &&
        !scale &&
        !/\b(than|least|most|exactly)\s+$/.test(q.slice(0, offset)) &&
        !/^-[a-z]{3,} [a-z]{3,}s\b/.test(q.slice(offset + w.length))
      )
        return all;
      return String(NUMBER_WORDS[w]! * (scale === "hundred" ? 100 : scale === "thousand" ? 1000 : 1));
    },
  );
}

/**
 * "which products are out of stock?": none left, a Stock of 0; "how many products are in stock?": some
 * left, more than 0 (unless the question bounds the stock itself, "fewer than 100 in stock", or adds it up).
 */
function stockAsNumber(q: string): string {
  const out = q.replace(/\bout of stock\b/g, "with 0 stock");
  // (Units in stock are added up, not bounded: "how many units are in stock in total?")
  return /\d|\b(?:units?|pieces?|copies|quantity|total|altogether|how much)\b/.test(q)
    ? out
    : out
        .replace(/\b(?:are|is|were|was|currently|still) in stock\b/g, "more than 0 in stock")
        // ("is the smart watch in stock?", "do we have any whiteboards in stock?": whether its row has some.)
        .replace(
          /^((?:is|are) (?:the |a |an |any )?|(?:do|does) (?:we|you|they|the \w+) (?:have|stock|carry) (?:any )?)([a-z0-9' -]{2,40}?) in stock\b/,
          "$1$2 with more than 0 in stock",
        );
}

function conditionsIn(text: string): NumericCondition[] {
  // "after the year 2000", "before the 1950 season" bound the year as "after 2000" does.
  const q = stockAsNumber(digitsForNumberWords(text))
    // "more than an hour", "under half an hour": one unit of time, as a number.
    // ("shorter than an hour and a half", "over one and a half hours": 1.5 of the unit.)
    .replace(
      /\b(than|over|under|above|below|least|most|exceed(?:ed|ing|s)?) (?:an?|one) (hour|day|week|minute) and a half\b|\b(than|over|under|above|below|least|most|exceed(?:ed|ing|s)?) (?:one|1) and a half (hour|day|week|minute)s?\b/g,
      (_all, w1?: string, u1?: string, w2?: string, u2?: string) => `${w1 ?? w2} 1.5 ${u1 ?? u2}s`,
    )
    .replace(
      /\b(than|over|under|above|below|least|most|exceed(?:ed|ing|s)?) (?:(half) )?(?:an?|one) (hour|day|week|minute)\b/g,
      (_all, w: string, half: string | undefined, unit: string) => `${w} ${half ? 0.5 : 1} ${unit}`,
    )
    .replace(
      /\b(before|after) the (?:year (\d{4})|(\d{4}) season)\b/g,
      (_all, w: string, y1?: string, y2?: string) => `${w} ${y1 ?? y2} year`,
    )
    // "earn between 60000 and 80000", "cost between $10 and $25": both ends, as "at least … and at most …"
    // (a range of years is read below).
    .replace(
      /\bbetween ([$£€]?\d[\d,]*(?:\.\d+)?) and ([$£€]?\d[\d,]*(?:\.\d+)?)(?![\d,.]*\s*[-–])/g,
      (all, lo: string, hi: string) =>
        /^(?:1[89]|20)\d\d$/.test(lo) && /^(?:1[89]|20)\d\d$/.test(hi) ? all : `at least ${lo} and at most ${hi}`,
    );
  const out: NumericCondition[] = [];
  // "from 2001 to 2013", "between 1990 and 2004": a range of years, both ends included.
  for (const m of q.matchAll(
    /\b(?:from|between)\s+((?:1[89]|20)\d\d)\s+(?:to|through|until|and)\s+((?:1[89]|20)\d\d)\b(?!\s*[-–])/g,
  )) {
    const [lo, hi] = [Number(m[1]), Number(m[2])].sort((x, y) => x - y);
    if (lo === hi) continue;
    out.push({ op: ">=", value: lo!, hint: ["year"] }, { op: "<=", value: hi!, hint: ["year"] });
  }
  // "in the 1990s", "during the 1980's": the decade's years.
  for (const m of q.matchAll(/\b(?:in|during|from|of) (?:the )?((?:1[89]|20)\d0)'?s\b/g)) {
    if (/\b(which|what) decade\b/.test(q)) break;
    out.push({ op: ">=", value: Number(m[1]), hint: ["year"] }, { op: "<=", value: Number(m[1]) + 9, hint: ["year"] });
  }
  for (const [re, op] of CONDITION_PATTERNS) {
    for (const m of q.matchAll(re)) {
      const value = Number(m[2]!.replace(/[$£€,]/g, ""));
      if (!Number.isFinite(value)) continue;
      // "before 1900" / "after 1977" compare years; "before 3" is rarely a condition.
      if ((m[1] === "after" || m[1] === "before" || m[1] === "since") && !(value >= 1000 && value <= 2100)) continue;
      if (out.some((c) => c.value === value)) continue;
      // Hint words: the 2 words after the number, the words between, and up to 3 content words before.
      // ("q4 sales above 20000": the quarter's months written after "q4" are no words of the column.)
      const before = words(quarterAsTyped(q.slice(0, m.index))).slice(-3);
      const between = words(m[0].slice(m[1]!.length)).filter((w) => !/^\$?\d/.test(w) && w !== "than");
      // ("fewer than 100 units in stock": the third word after the number can still name the column.)
      const after = words(q.slice(m.index! + m[0].length)).slice(0, 3);
      // ("faster than 37 kmh": with a speed unit, the speed, not the time.)
      const speed = /^\s*(?:kmh|kph|mph|km\/h|knots?)\b/.test(q.slice(m.index! + m[0].length));
      const comparative = speed ? "speed" : COMPARATIVE_HINT[m[1]!];
      // "at least 75% of the votes": a percentage names a percent column before any word does.
      const percent = q.slice(m.index! + m[0].length).startsWith("%");
      const scaleWord = /^\s*(k|thousand|m|mn|million|bn|billion)\b/.exec(q.slice(m.index! + m[0].length))?.[1];
      const scale = scaleWord ? SCALE_WORDS[scaleWord] : undefined;
      const timeUnit = /^\s*([a-z]+)/.exec(q.slice(m.index! + m[0].length))?.[1];
      const minutesPerUnit = timeUnit !== undefined ? minutesPerTimeUnit(timeUnit) : undefined;
      // "over $500", "above 3 euros": a sum of money names the money columns before any other word does.
      const money =
        /^[$£€]/.test(m[2]!) ||
        /^\s*(?:dollars?|usd|euros?|eur|pounds?|gbp)\b/.test(q.slice(m.index! + m[0].length)) ||
        /[$€£]\s*$/.test(q.slice(0, m.index! + m[0].length - m[2]!.length));
      // "members over 60", "patients under 18": of people, with no other word naming the quantity, an age.
      const age =
        /^(over|under|above|below)$/.test(m[1]!) &&
        PEOPLE_RE.test(before.filter((w) => !STOP_WORDS.has(w)).at(-1) ?? "") &&
        after.every((w) => STOP_WORDS.has(w)) &&
        !money &&
        !percent;
      const hint = [
        ...(age ? ["age"] : []),
        // (Stop words included: "amount" and "total" are two.)
        ...(money ? MONEY_HEADER_WORDS : []),
        ...[
          ...(percent ? ["percent"] : []),
          ...after,
          ...between,
          ...(comparative ? [comparative] : []),
          ...before.reverse(),
        ].filter((w) => !STOP_WORDS.has(w) && !/^\d/.test(w)),
      ];
      // ("wines older than 2010" are from before it; "newer/younger than 2015", after.)
      const yearValue = Number.isInteger(value) && value >= 1000 && value <= 2100;
      const stated = yearValue && m[1] === "older" ? "<" : yearValue && m[1] === "younger" ? ">" : op;
      // ("machines not serviced since 2025": last serviced before it; "no more than 5 goals": at most 5.)
      const negated = NEGATED_BOUND.test(q.slice(0, m.index));
      out.push({
        op: negated ? NEGATED_OP[stated] : stated,
        value,
        hint: scaleWord ? hint.filter((w) => w !== scaleWord) : hint,
        ...(percent ? { percent } : {}),
        ...(money ? { money } : {}),
        ...(scale ? { scale } : {}),
        ...(minutesPerUnit ? { minutesPerUnit } : {}),
      });
    }
  }
  // "the only team to have 9 wins", "who completed 7 laps", "won 2 silver medals": an equality on the named quantity.
  // ("to win three gold medals", "earned only one silver medal": the verb's other forms, and "one" before its noun.)
  for (const m of q.matchAll(
    /\b(?:only|exactly|had|has|have|having|with|scored|scores?|completed|complete|won|wins?|earned|earns?|received|receives?|got|gets?|made|recorded)\s+(\d[\d,]*(?:\.\d+)?|one)\s+([a-z][a-z'-]*(?:\s+[a-z][a-z'-]*)?)/g,
  )) {
    const value = m[1] === "one" ? 1 : Number(m[1]!.replace(/,/g, ""));
    if (!Number.isFinite(value) || (value >= 1000 && value <= 2100) || out.some((c) => c.value === value)) continue;
    const hint = words(m[2]!).filter(
      (w) => !STOP_WORDS.has(w) && !/^(times?|each|total|in|at|or|more|less|fewer)$/.test(w),
    );
    if (
      hint.length === 0 ||
      /\bor (more|less|fewer|higher|lower|greater|larger|smaller|better|worse|above|below|over|under)\b/.test(
        q.slice(m.index!, m.index! + m[0].length + 12),
      ) ||
      // ("did not complete 95 laps": the value's rows are set aside, not selected.)
      NEGATED_BOUND.test(q.slice(0, m.index)) ||
      // ("the only one built as …", "the only one written by …": a participle after "one", no noun.)
      (m[1] === "one" && /^(?:[a-z]+ed|built|written|known|made|held|won|given|taken|shown|sold|led)$/.test(hint[0]!))
    )
      continue;
    // ("only one song", "the only one built as …": "one" is a number only before a noun naming its column.)
    out.push({ op: "=", value, hint, ...(m[1] === "one" ? { named: true } : {}) });
  }
  // ("how many two-bedroom flats?", "3-star hotels": a number joined to its noun describes the rows, an equality on
  // the column that noun names, when one does.)
  for (const m of q.matchAll(/\b(\d+)-([a-z]{3,}) [a-z]{3,}s\b/g)) {
    const value = Number(m[1]);
    if (!out.some((c) => c.value === value)) out.push({ op: "=", value, hint: [m[2]!], named: true });
  }
  // "finished in less than 3:45": a clock time (m:ss) compares seconds of a time column.
  for (const m of q.matchAll(
    /\b(more|greater|longer|slower|over|above|less|fewer|shorter|faster|under|below|within)\s+(?:than\s+)?(\d{1,3}):(\d\d(?:\.\d+)?)(?![\d:])/g,
  )) {
    const value = Number(m[2]) * 60 + Number(m[3]);
    const op = /^(more|greater|longer|slower|over|above)$/.test(m[1]!) ? ">" : m[1] === "within" ? "<=" : "<";
    out.push({ op, value, hint: ["time"], clock: true });
  }
  // "starts after 7 pm", "leaves before 09:30": a time of day, compared with a column of hh:mm times (read as
  // hours * 60 + minutes, the scale numExpr gives such a cell).
  // ("after noon", "before midnight": 12:00 and 24:00.)
  const clockWords = q.replace(
    /\b(after|later than|before|earlier than|by) (noon|midday|midnight)\b/g,
    (_, w: string, t: string) => `${w} ${t === "midnight" ? "23:59" : "12:00"}`,
  );
  for (const m of clockWords.matchAll(
    /\b(after|later than|before|earlier than|by)\s+(\d{1,2})(?::(\d\d))?\s*(?:(am|pm|a\.m\.|p\.m\.)(?![a-z])|(?<=:\d\d)(?![\d:.]))/g,
  )) {
    const hour = Number(m[2]) % 12 === 0 && m[4] ? 0 : Number(m[2]);
    const value = (m[4]?.startsWith("p") ? hour + 12 : hour) * 60 + Number(m[3] ?? 0);
    if (value >= 24 * 60) continue;
    const op = /^(after|later than)$/.test(m[1]!) ? ">" : m[1] === "by" ? "<=" : "<";
    out.push({ op, value, hint: ["time"], clock: true });
  }
  // "finished above 5th place", "third or better", "no higher than 18th": a place (rank) comparison; a
  // better place is a smaller number.
  const ord = `(\\d{1,3})(?:st|nd|rd|th)|(${ORDINAL_PATTERN})`;
  const placeValue = (m: RegExpMatchArray, i: number) => (m[i] ? Number(m[i]) : ordinalValue(m[i + 1]!)!);
  for (const m of q.matchAll(
    new RegExp(
      `\\b(no higher than|no better than|no lower than|no worse than|at least|above|higher than|better than|below|lower than|worse than|outside(?: of)?(?: the)?)\\s+(?:the\\s+)?(?:${ord})\\b`,
      "g",
    ),
  )) {
    const w = m[1]!;
    const op =
      w === "no higher than" || w === "no better than"
        ? ">="
        : // ("at least 4th": that place or a better one.)
          w === "no lower than" || w === "no worse than" || w === "at least"
          ? "<="
          : /^(above|higher|better)/.test(w)
            ? "<"
            : ">";
    // ("did not finish higher than 8th": 8th or worse.)
    const negated = !w.startsWith("no ") && NEGATED_BOUND.test(q.slice(0, m.index));
    out.push({
      op: negated ? NEGATED_OP[op] : op,
      value: placeValue(m, 2),
      hint: ["rank", "position", "place"],
      place: true,
    });
  }
  for (const m of q.matchAll(
    new RegExp(`\\b(?:${ord})(?: place| position)? or (better|higher|above|worse|lower|below)\\b`, "g"),
  )) {
    const op = /^(better|higher|above)$/.test(m[3]!) ? "<=" : ">=";
    const value = placeValue(m, 1);
    // ("at least 4th or better": one bound, said twice.)
    if (out.some((c) => c.place && c.op === op && c.value === value)) continue;
    out.push({ op, value, hint: ["rank", "position", "place"], place: true });
  }
  for (const m of q.matchAll(TOP_N)) {
    // ("the 3 longest films": the first three a superlative orders.)
    const word = m[1] ?? m[2]!;
    const n = /^\d+$/.test(word) ? Number(word) : NUMBER_WORDS[word]!;
    const after = q.slice(m.index! + m[0].length);
    const by = /^\s+[a-z]+(?: [a-z]+)?\s+by\s+([a-z]+(?: [a-z]+)?)/.exec(after)?.[1];
    const topBy = by ? words(by) : words(after).slice(0, 1);
    // ("did not place in the top 8", "in the top 6 but not the top 2": a place below the top N.)
    const op = NEGATED_BOUND.test(q.slice(0, m.index)) ? ">" : "<=";
    if (!out.some((c) => c.value === n))
      out.push({ op, value: n, hint: ["rank", "position", "place"], top: true, topBy });
  }
  // "N or more" phrasing: the number precedes ("50 or older": a comparative names the quantity, as "older than 50" does).
  for (const m of q.matchAll(
    /([$£€]?[\d,.]+)\s+(?:[a-z]+\s+)?or\s+(more|greater|higher|larger|bigger|longer|taller|older|heavier|later|newer|above|over|less|fewer|lower|smaller|shorter|younger|lighter|earlier|below|under)\b/g,
  )) {
    const value = Number(m[1]!.replace(/[$£€,]/g, ""));
    if (!Number.isFinite(value)) continue;
    // ("2020 or newer", "1990 or earlier": a year bound; "2018 or older" of a year is an earlier one.)
    const year = Number.isInteger(value) && value >= 1000 && value <= 2100;
    const op = (
      year && /^(older|earlier)$/.test(m[2]!)
        ? false
        : /more|greater|higher|larger|bigger|longer|taller|older|heavier|later|newer|above|over/.test(m[2]!)
    )
      ? ">="
      : "<=";
    const quantity = year ? "year" : COMPARATIVE_HINT[m[2]!];
    // ("cost 150 pounds or more", "$20 or less": a sum of money names the money columns first.)
    const money =
      /^[$£€]/.test(m[1]!) || /^\s*(?:dollars?|usd|euros?|eur|pounds?|gbp)\b/.test(m[0].slice(m[1]!.length));
    const after = words(q.slice(m.index! + m[0].length))
      .slice(0, 2)
      .filter((w) => !STOP_WORDS.has(w));
    const between = words(m[0]).filter((w) => !/^\d/.test(w) && !STOP_WORDS.has(w));
    // ("rated 4.5 or higher": the word just before the number names the quantity when none after does.)
    const before = words(q.slice(0, m.index))
      .slice(-2)
      .filter((w) => !STOP_WORDS.has(w) && !/^\d/.test(w));
    if (!out.some((c) => c.value === value))
      out.push({
        op,
        value,
        hint: [
          ...(money ? MONEY_HEADER_WORDS : []),
          ...between,
          ...after,
          ...(quantity && (year || !/^year/.test(quantity)) ? [quantity] : []),
          ...before.reverse(),
        ],
        ...(money ? { money } : {}),
      });
  }
  // (The upper end of "between 60000 and 80000" has no words of its own: the lower end's name the column.)
  // ("out of stock" bounds a Stock column only: of a yes/no "In Stock" column it is the flag's "No".)
  const stock = q !== text && /\b(?:out of|in) stock\b/.test(text);
  return out.map((c, i) => {
    const hinted =
      c.hint.length === 0 && c.op === "<=" && out[i - 1]?.op === ">=" ? { ...c, hint: out[i - 1]!.hint } : c;
    return stock && c.value === 0 && c.hint.includes("stock") ? { ...hinted, named: true } : hinted;
  });
}

/** Splits "A or B" options at the end of a question ("…, smith or miller?") or "between A and B". */
function choiceOptions(q: string): string[] | null {
  const body = q.replace(/[?.!]+$/, "").trim();
  // "…, A or B" / "…: A or B"
  let m = /[,:;?]\s*(?:the\s+)?([^,:;?]+?)\s+or\s+(?:the\s+)?([^,:;?]+)$/.exec(body);
  if (m && !/^(more|less)$/.test(m[1]!.trim())) return [m[1]!.trim(), m[2]!.trim()];
  // "which is higher: A or B" handled above; "who is taller A or B" / "which came first A or B"
  m =
    /^(?:which|who|what)\b.*?\b(?:first|higher|lower|larger|smaller|more|less|longer|shorter|taller|older|younger|better|worse|earlier|later|bigger|greater|most|least|highest|lowest|longest|shortest|fewer|faster|slower)\b[,:]?\s+(?:the\s+)?(.+?)\s+or\s+(?:the\s+)?(.+)$/.exec(
      body,
    );
  if (m && words(m[1]!).length <= 6 && words(m[2]!).length <= 6) return [m[1]!.trim(), m[2]!.trim()];
  // "did A or B win more races?", "was A or B released first?": the options right after the verb
  m =
    /^(?:did|does|do|was|were|is|are|has|have|had)\s+(?:the\s+)?([^,:;?]+?)\s+or\s+(?:the\s+)?([^,:;?]+?)\s+(?:have|has|had|get|got|win|won|score|scored|finish|finished|place|placed|come|came|receive|received|earn|earned|play|played|sell|sold|rank|ranked|release|released|make|made|take|took|lose|lost|record|recorded|appear|appeared)\b/.exec(
      body,
    );
  if (m && words(m[1]!).length <= 4 && words(m[2]!).length <= 4) return [m[1]!.trim(), m[2]!.trim()];
  // "between A and B, which …"
  m = /\bbetween\s+(?:the\s+)?(.+?)\s+and\s+(?:the\s+)?(.+?)(?:,|\s+(?:which|who)\b)/.exec(body);
  // (Not a range of numbers: "between 20,000 and 30,000".)
  if (m && words(m[1]!).length <= 5 && words(m[2]!).length <= 5 && !/^[$£€]?\d/.test(m[1]!))
    return [m[1]!.trim(), m[2]!.trim()];
  // "A or B, which …"
  m = /^(?:the\s+)?([^,]+?)\s+or\s+(?:the\s+)?([^,]+?),\s*(?:which|who|what)\b/.exec(body);
  if (m && words(m[1]!).length <= 5 && words(m[2]!).length <= 5) return [m[1]!.trim(), m[2]!.trim()];
  return null;
}

function directionOf(q: string): SortDirection | null {
  const m = SUPERLATIVE.exec(q);
  if (m) return MIN_WORDS.includes(m[1]!) ? "min" : "max";
  const t = words(q);
  for (const w of t) {
    if (MAX_WORDS.includes(w)) return "max";
    if (MIN_WORDS.includes(w)) return "min";
  }
  return null;
}

/**
 * A named detector: it reads the question and proposes a decision with a score (1 = its pattern
 * matched outright), or null. Lists of detectors replace chains of `else if`: the decision is the
 * first proposal in list order (the list is the precedence), and its detector's name is recorded in
 * `QuestionAnalysis.detectors`.
 */
export interface Detector<C, P> {
  name: string;
  detect(q: string, context: C): (P & { score: number }) | null;
}

/** The first proposal of a list of detectors, with the detector's name. */
export function firstProposal<C, P>(
  detectors: ReadonlyArray<Detector<C, P>>,
  q: string,
  context: C,
): { name: string; proposal: P & { score: number } } | null {
  for (const d of detectors) {
    const proposal = d.detect(q, context);
    if (proposal) return { name: d.name, proposal };
  }
  return null;
}

/** What the answer-kind detectors see beyond the question: the decided operator and comparison. */
interface KindContext {
  operator: Operator;
  comparison: Comparison | null;
}

const kind = (answerType: AnswerType) => ({ answerType, score: 1 });

/** Answer-kind detectors, in precedence order (a comparison's kind first; "entity" when none proposes). */
export const ANSWER_KIND_DETECTORS: ReadonlyArray<Detector<KindContext, { answerType: AnswerType }>> = [
  { name: "comparison-choice", detect: (_q, c) => (c.comparison?.kind === "choice" ? kind("choice") : null) },
  { name: "comparison-moreless", detect: (_q, c) => (c.comparison?.kind === "moreless" ? kind("moreless") : null) },
  { name: "comparison-difference", detect: (_q, c) => (c.comparison?.kind === "difference" ? kind("number") : null) },
  {
    name: "yes-no",
    detect: (q) =>
      /^(is|was|are|were|does|did|do|has|have|had|can|could|will)\b/.test(q) && !/\bor\b/.test(q)
        ? kind("yesno")
        : null,
  },
  {
    name: "more-or-less",
    detect: (q) =>
      /\bmore or less\b|\bmore or fewer\b|\bmore\/less\b|\bless or more\b|\bhigher or lower\b/.test(q)
        ? kind("moreless")
        : null,
  },
  {
    // "how many tonnes of oats in total?", "how many hours has Ada put in?": an amount measured, any number.
    // (Days and weeks are counted whole.)
    name: "how-many-measure",
    detect: (q, c) => {
      const unit = /\bhow many ([a-z]+)\b/.exec(q)?.[1];
      return c.operator === "count" && unit !== undefined && isMeasureUnit(unit) && !/^(days?|weeks?)$/.test(unit)
        ? kind("number")
        : null;
    },
  },
  {
    name: "count",
    detect: (q, c) =>
      (/\bhow many\b|\bnumber of\b|\bcount\b/.test(q) || fragmentCount(q)) && c.operator === "count"
        ? kind("count")
        : null,
  },
  {
    name: "percent-change",
    // ("which countries have growth above 2%?" asks for countries: the percent is a bound.)
    detect: (q) =>
      /\bpercent(age)?\b|%/.test(q) &&
      /\b(change|increase|decrease|growth|decline)\b/.test(q) &&
      !/^(?:which|who)\b.*\b(?:above|below|over|under|more than|less than|at least|at most)\s+-?\d[\d.]*\s*(?:%|percent)/.test(
        q,
      )
        ? kind("percent")
        : null,
  },
  { name: "year", detect: (q) => (YEAR_Q.test(q) ? kind("year") : null) },
  {
    name: "date",
    detect: (q) =>
      /^when\b|\bwhat date\b|\bwhich date\b|\bon what day\b/.test(q) || DATE_OF.test(q) ? kind("date") : null,
  },
  {
    name: "who",
    detect: (q) => (/^(who|whom|whose)\b|\bwho\b/.test(q) && !/^(what|which|how)\b/.test(q) ? kind("person") : null),
  },
  {
    name: "where",
    detect: (q) =>
      (/^where\b/.test(q) && !WHERE_FINISHED.test(q)) || /\bin what (country|city|place|state)\b/.test(q)
        ? kind("place")
        : null,
  },
  {
    // "how long is the flight?", "how old is Ana?": a measure, a number (text/column-words.ts MEASURE_CUES).
    name: "how-measure",
    detect: (q) => {
      const cue = measureCue(q);
      return cue && cue !== "much" && !/^(which|who|whom|where)\b/.test(q) ? kind("number") : null;
    },
  },
  {
    name: "amount-question",
    detect: (q) =>
      // ("what was the revenue in April?": money taken or spent is an amount too.)
      /^(how many|how much|what is the (total|sum|average|difference|number|amount)|what was the (total|average|difference|number|amount)|what (?:is|was|were) (?:the|our|my) (?:revenue|income|takings|turnover|earnings|spending|profit))\b/.test(
        q,
      )
        ? kind("number")
        : null,
  },
  {
    // "clerk with the most total sales", "stall with the highest average takings": the row the fragment starts with.
    name: "row-with-extreme",
    detect: (q) =>
      /^(?:the )?[a-z]+(?: [a-z]+)? with the (?:most|highest|lowest|least|fewest|largest|smallest|biggest|greatest|best|worst|top)\b/.test(
        q,
      )
        ? kind("entity")
        : null,
  },
  {
    name: "amount-word",
    detect: (q) => (/\b(average|mean|total|sum|difference|how much)\b/.test(q) ? kind("number") : null),
  },
  {
    name: "person-noun",
    detect: (q) =>
      /^(which|what)\s+(\w+\s+)?(player|person|driver|athlete|coach|actor|singer|artist|candidate|rider|winner)\b/.test(
        q,
      ) ||
      (/^(which|what)\b/.test(q) && PERSON_NOUN_RE.test(q.split(" ").slice(0, 3).join(" ")))
        ? kind("person")
        : null,
  },
  {
    // "driver of WC-532-L", "the teacher for history": a person noun asks for a person.
    name: "person-of",
    detect: (q) => (PERSON_OF_RE.test(q) ? kind("person") : null),
  },
  {
    // "earliest applicant", "the youngest member": a fragment that ends on one person.
    name: "person-fragment",
    detect: (q) => (PERSON_LAST_RE.test(q) && !/^(what|which|who|how|when|where)\b/.test(q) ? kind("person") : null),
  },
  {
    name: "place-noun",
    detect: (q) =>
      /^(which|what)\s+(\w+\s+)?(country|nation|city|town|state|venue|location|stadium|arena|county|province)\b/.test(
        q,
      ) ||
      (/^(which|what)\b/.test(q) &&
        PLACE_NOUN_RE.test(q.split(" ").slice(0, 3).join(" ")) &&
        // ("what place did Ana finish?" asks for a finishing place, a rank.)
        !FINISHING_PLACE.test(q))
        ? kind("place")
        : null,
  },
];

function answerKindOf(q: string, context: KindContext): { answerType: AnswerType; detector: string } {
  const found = firstProposal(ANSWER_KIND_DETECTORS, q, context);
  return found
    ? { answerType: found.proposal.answerType, detector: found.name }
    : { answerType: "entity", detector: "default-entity" };
}

/** An operator proposal: the operator and what comes with it. */
interface OperatorProposal {
  operator: Operator;
  aggregate?: QuestionAnalysis["aggregate"];
  arithmetic?: QuestionAnalysis["arithmetic"];
  comparison?: Comparison;
}

const MORELESS =
  /\bmore or less\b|\bmore or fewer\b|\bmore\/less\b|\bless or more\b|\bhigher or lower\b|\blower or higher\b/;
/** "Is A above or below 20 knots", "did A score more or less than 12 points": the value's words, the number, its unit. */
const VALUE_OR_LITERAL =
  /^(is|was|are|were|did|does|do|has|have|had) (.+?) (above or below|below or above|more or less than|less or more than) (?:number )?([$£€]?\d[\d,]*(?:\.\d+)?)(st|nd|rd|th)?(?: (.+))?$/;
/** "Is A (listed) above or below B": the two rows and the pair of order words between them. */
const ORDER_WORDS = new RegExp(
  String.raw`^(is|was|are|were|did|does|do|has|had)\s+(?:the\s+)?(.+?)\s+(above or below|below or above|before or after|after or before|earlier or later|later or earlier)\s+(?!\d|(?:the )?year\b|(?:${MONTH_PATTERN})\b)(.+)$`,
);
const HOW_MANY_MORE =
  /\bhow (many|much) (more|less|fewer|higher|lower|longer|shorter|older|younger|greater|bigger|larger|smaller)\b|\bwhat is the difference\b|\bwhat was the difference\b|\bdifference (in|between|of)\b|\bhow far apart\b|\bhow much (higher|lower|more|less)\b/;

/** The question's operator detectors, in precedence order; "lookup" when none proposes (refined below). */
export const OPERATOR_DETECTORS: ReadonlyArray<Detector<AnalyzeOptions, OperatorProposal>> = [
  {
    name: "percent-change",
    detect: (q) =>
      /\bpercent(age)? (change|increase|decrease|growth|decline)\b|\b(change|increase|decrease|growth|decline) in percent(age)?\b/.test(
        q,
      )
        ? { operator: "arithmetic", arithmetic: "percent_change", score: 1 }
        : null,
  },
  {
    name: "value-or-literal",
    detect: (q) => {
      const m = VALUE_OR_LITERAL.exec(q.replace(/[?.!]+$/, ""));
      const value = m ? Number(m[4]!.replace(/[$£€,]/g, "")) : NaN;
      // ("was the 2011 total above or below 2016?": a year names a row, not an amount.)
      if (!m || !Number.isFinite(value) || (/^\d{4}$/.test(m[4]!) && value >= 1800 && value <= 2100)) return null;
      const [, aux, subject, phrase, , ordinal, unit] = m;
      // ("did Ana score more or less than 12 points?" counts or reads points, "is Ana on the list more or less than
      // 3 times?" counts rows; "is the speed above or below 20 knots?" reads the speed, in knots.)
      const question =
        subject === "there" || (unit && (!/^(is|was|are|were)$/.test(aux!) || /^times\b/.test(unit)))
          ? `how many ${unit ?? ""} ${aux} ${subject}`.replace(/\s+/g, " ")
          : `what ${aux} ${subject}${unit ? ` in ${unit}` : ""}`;
      const words: [string, string] = /^(above|below)/.test(phrase!) ? ["above", "below"] : ["more", "less"];
      return {
        operator: "compare",
        comparison: {
          kind: "moreless",
          options: [],
          direction: null,
          words,
          literal: { value, ordinal: ordinal !== undefined, question },
        },
        score: 1,
      };
    },
  },
  {
    name: "more-or-less",
    detect: (q) => {
      if (!MORELESS.test(q)) return null;
      const m =
        /^(?:did|does|do|was|were|is|are|has|have|had)\s+(?:the\s+)?(.+?)\s+(?:(?:have|has|had|get|got|earn|earned|score|scored|win|won|receive|received|make|made|play|played|take|took|spend|spent|sell|sold|attract|gain|gained|collect|collected|hold|held)\s+)?(?:\w+\s+)?(?:more or less|more or fewer|more\/less|less or more|higher or lower|lower or higher)\b.*?\bthan\s+(.+?)$/.exec(
          q.replace(/[?.!]+$/, ""),
        );
      return {
        operator: "compare",
        comparison: {
          kind: "moreless",
          options: m ? [m[1]!.trim(), m[2]!.trim()] : [],
          direction: null,
          // ("higher or lower" is answered "higher", not "more".)
          ...(/\b(?:higher or lower|lower or higher)\b/.test(q)
            ? { words: ["higher", "lower"] as [string, string] }
            : {}),
        },
        score: 1,
      };
    },
  },
  {
    // "is the night ferry listed above or below the harbour ferry?", "did the red ferry sail before or after
    // the blue one?": two rows' order, answered with the question's own words (no neighbouring row is asked).
    name: "above-or-below",
    detect: (q) => {
      const m = ORDER_WORDS.exec(q.replace(/[?.!]+$/, ""));
      if (!m) return null;
      const [w1, w2] = m[3]!.split(" or ") as [string, string];
      const pair: [string, string] = /^(above|before|earlier)$/.test(w1) ? [w1, w2] : [w2, w1];
      const a = m[2]!.trim();
      const b = m[4]!
        .trim()
        .replace(/^the /, "")
        .replace(/\s+(?:in|on|at|for|of|by) .*$/, "");
      return {
        operator: "compare",
        comparison: { kind: "moreless", options: [a, b], direction: null, words: pair },
        score: 1,
      };
    },
  },
  {
    name: "how-many-more",
    detect: (q) => {
      if (!HOW_MANY_MORE.test(q)) return null;
      const body = q.replace(/[?.!]+$/, "");
      let opts: string[] = [];
      let m = /\bbetween\s+(?:the\s+)?(.+?)\s+and\s+(?:the\s+)?(.+?)(?:\s+(?:in|for|on|at)\s+.*)?$/.exec(body);
      if (m) opts = [m[1]!, m[2]!];
      else {
        m =
          /\b(?:did|does|do|was|were|is|are|has|have|had)\s+(?:the\s+)?(.+?)\s+(?:\w+\s+){0,3}?than\s+(?:the\s+)?(.+)$/.exec(
            body,
          );
        if (m) opts = [m[1]!, m[2]!];
      }
      return {
        operator: "compare",
        arithmetic: "difference",
        comparison: { kind: "difference", options: opts.map((s) => s.trim()), direction: null },
        score: 1,
      };
    },
  },
  {
    name: "choice",
    detect: (q) => {
      const options = choiceOptions(q);
      if (
        !options ||
        !(/\bor\b/.test(q) || /\bbetween\b/.test(q)) ||
        !/^(which|who|what|between|is|was|did|does|are|were)\b|,\s*(which|who)\b/.test(q)
      )
        return null;
      const comparison: Comparison = { kind: "choice", options, direction: directionOf(q) };
      if (/\bfirst\b|\bearlier\b|\bbefore\b|\bsooner\b/.test(q)) comparison.direction = "min";
      else if (/\blast\b|\blater\b|\bafter\b|\brecent\b/.test(q)) comparison.direction = "max";
      return { operator: "compare", comparison, score: 1 };
    },
  },
  {
    name: "average",
    // ("how many players average at least 15 points?": the verb of a bound, not the operator.)
    detect: (q, o) =>
      /\b(average|mean)\b/.test(q) &&
      !o.averageIsColumn &&
      // ("riders who averaged faster than 38 km/h": so is a comparative after it.)
      !/\baverag(?:es?|ed|ing) (?:at least|at most|more than|less than|fewer than|over|under|above|below|[a-z]{2,}er than|\d)/.test(
        q,
      )
        ? { operator: "aggregate", aggregate: "avg", arithmetic: "average", score: 1 }
        : null,
  },
  {
    name: "count",
    detect: (q) => {
      const counting =
        // ("warehouse headcount": the rows of the warehouse.)
        /\bhow many\b|\bhow often\b|\bhead ?count\b/.test(q) ||
        (fragmentCount(q) && !SUPERLATIVE.test(q.replace(/\bat (?:least|most)\b/g, " "))) ||
        (/\bnumber of\b|\bcount\b/.test(q) &&
          !/^(which|who|whom|whose|where|when)\b/.test(q) &&
          // ("the highest number of X", "smallest number of backers", "highest calorie count": the value of a superlative.)
          !/\b(most|least|highest|lowest|largest|smallest|greatest|fewest|biggest|minimum|maximum|max|min) (?:[a-z]+ ){0,2}?(number|count)\b/.test(
            q,
          ));
      if (!counting) return null;
      // Counting rows or reading a count column is decided later, with the table (sql-writer).
      // ("how many hinges do we have?", "… are in stock": the stock of an item, a quantity column's sum when the
      // counted noun is a value of the table; rows are still counted when it is not.)
      // ("how many webcams are left?": the stock of a Webcam item; count.sum keeps it to a noun the table holds.)
      const sum =
        /\b(total|combined|altogether|in all|sum)\b/.test(q) ||
        /\b(?:do|did) (?:we|you|i|they) (?:have|hold|stock|keep)\b|\b(?:in stock|on hand)\b/.test(q) ||
        LEFT_OVER.test(q);
      return { operator: "count", ...(sum ? { aggregate: "sum" as const } : {}), score: 1 };
    },
  },
  {
    name: "how-much-total",
    detect: (q) =>
      (/\bhow much\b/.test(q) && /\b(total|combined|altogether|in all)\b/.test(q)) ||
      // "how much have we taken in fees?", "how much was spent on parts?": what a whole group took in.
      // ("how much rent do we collect each month?": the noun of the amount may come first.)
      /\bhow much (?:(?:[a-z]+ )?(?:have|has|did|do) (?:we|you|they|i) (?:\w+ )?(?:take|taken|took|make|made|earn|earned|spend|spent|collect|collected|raise|raised|receive|received|bring|brought|bill|billed)|(?:was|were|has been|have been) (?:taken|made|earned|spent|collected|raised|received|brought|billed|charged|paid in|paid out))\b/.test(
        q,
      ) ||
      // ("how much money came in?", "how much went out?" of a statement: all of it.)
      /^how much (?:money |cash )?(?:came|has come|comes|went|has gone|goes) (?:in|out)\??$/.test(q)
        ? { operator: "aggregate", aggregate: "sum", score: 1 }
        : null,
  },
  {
    name: "total",
    detect: (q) =>
      // ("what do all the invoices add up to?", "what does the shopping come to?": a sum asked by its verb.)
      (/\b(total|sum|combined|altogether|in all|cumulative)\b/.test(q) ||
        /^what (?:do|does|did|would|will) .+ (?:add up|come|amount) to\??$/.test(q)) &&
      !/^(which|who|whom)\b/.test(q) &&
      !SUPERLATIVE_WORD.test(q) &&
      !/^(?:max|min)\b/.test(q)
        ? { operator: "aggregate", aggregate: "sum", score: 1 }
        : null,
  },
];

/** "who earns more than Marco?": a comparison with a named row, not with a number ("more than three years"). */
const BEYOND_NAMED_ROW = new RegExp(
  `^(?:who|which [a-z]+) (?!.*\\bor\\b).*\\b(?:more|less|fewer|[a-z]{3,}er) than (?!(?:[\\d$£€]|(?:${NUMBER_WORD_PATTERN})\\b))[a-z]`,
);

/** "how many … are left?": what remains of a thing the table holds. */
/** "date of the earliest order", "what was the date of the coldest reading?": a date is asked. */
const DATE_OF = /^(?:(?:what|which) (?:is|was) )?(?:the )?date of (?!birth\b|death\b)/;

export const LEFT_OVER = /\b(?:are|is) (?:still )?(?:left|remaining)\b/;

/** Words after "what/which" that name the asked-about column: "what year", "which team". */
function targetHintsOf(q: string): string[] {
  const hints: string[] = [];
  const push = (w: string | undefined) => {
    if (!w) return;
    // (A superlative is the operator, not the column: "the highest salary" names Salary.)
    // ("the most recent shipment": "recent" orders the rows, it names no answer column.)
    for (const t of words(w))
      if (!STOP_WORDS.has(t) && !SUPERLATIVE.test(t) && !/^(\d|recent)/.test(t) && !hints.includes(t)) hints.push(t);
  };
  // "what is Ana's score in math?", "what is employee 1007's salary?": the noun a possessive names is asked for,
  // before the name's words.
  const possessed = /^what (?:is|was) (?:[a-z0-9-]+ ){0,3}[a-z0-9]+'s ([a-z][a-z-]*)\b(?! of\b)/.exec(q)?.[1];
  if (possessed && !STOP_WORDS.has(possessed) && !/^(first|last|next|previous|second|third)$/.test(possessed))
    push(possessed);
  // "give me the employee with the highest pay", "the car that has the most km": the noun before the superlative is asked for.
  let m =
    /^(?:(?:give|show|tell) me|find|get|name|list)?\s*(?:(?:the|a)\s+)?([a-z][a-z'-]+)\s+(?:with|that has|that had|who has|who had|which has)\s+the\s+([a-z]+)\b/.exec(
      q,
    );
  if (m && SUPERLATIVE.test(m[2]!)) push(m[1]);
  // ("show me orders from Japan", "list the invoices over 500": the plural requested names the rows.)
  else
    push(
      /^(?:show|give|find|get|list)(?: me)?(?: the| all)? ([a-z]{3,}[^s'\s]s) (?:from|in|at|with|over|under|above|below|on|for|by)\b/.exec(
        q,
      )?.[1],
    );
  m =
    /\b(?:what|which)\s+(?:was|is|were|are)?\s*(?:(?:the|my|our)\s+)?(?:(?:first|last|next|previous|total|only|other|current)\s+)?([a-z][a-z'-]*(?:\s+[a-z][a-z'-]*)?)/.exec(
      q,
    );
  if (m) {
    const phrase = m[1]!.split(" ");
    // "what year did", "which team had": only the noun(s) before the verb.
    const verbs =
      /^(did|does|do|was|were|is|are|had|has|have|won|came|finished|got|scored|played|in|of|for|at|on|to|with|by)$/;
    const kept: string[] = [];
    for (const w of phrase) {
      if (verbs.test(w)) break;
      kept.push(w);
    }
    // ("what table is Ana at?", "which table has the most guests?": a seating plan's "Table" column, though
    // "table" is a stop word elsewhere: "in the table".)
    // (So is "what number does Tiago wear?": a squad's Number column.)
    // (Before a verb only: "what is the number of X" asks for a count, not a Number column.)
    if (
      /^(?:table|number)$/.test(kept.join(" ")) &&
      /^(?:did|does|do|was|were|is|are|had|has|have)$/.test(phrase[1] ?? "")
    )
      hints.push(kept[0]!);
    else push(kept.join(" "));
  }
  // "how much horsepower does it have?": the noun after "how much" names the quantity.
  m = /^how much ([a-z][a-z'-]+) (?:does|do|did|is|was|are|were|has|have|had)\b/.exec(q);
  if (m) push(m[1]);
  const muchNoun = m !== null && !STOP_WORDS.has(m[1]!);
  m = /\bhow many\s+([a-z][a-z'-]*(?:\s+[a-z][a-z'-]*)?)/.exec(q);
  if (m)
    push(
      m[1]!
        .split(" ")
        .filter((w) => !/^(did|does|do|was|were|is|are|had|has|have)$/.test(w))
        .slice(0, 2)
        .join(" "),
    );
  m =
    /\b(?:the\s+)?(total|average|sum|number|amount|difference|combined)\s+(?:of\s+)?(?:the\s+)?([a-z][a-z'-]*(?:\s+[a-z][a-z'-]*)?)/.exec(
      q,
    );
  if (m) push(m[2]);
  m =
    /\b(?:most|highest|largest|least|lowest|fewest|greatest|biggest|smallest|longest|shortest|best|worst|top|cheapest|priciest|dearest|busiest|quietest|fastest|slowest|heaviest|lightest|tallest)\s+([a-z][a-z'-]*(?:\s+[a-z][a-z'-]*)?)/.exec(
      q,
    );
  // ("how much does the lightest phone weigh?": the "how" asks the measure; the noun after the superlative is the row.)
  // ("who owns the biggest deal?": after a verb of "who", that noun is its object; "who had the fastest lap?" still
  // names the Fastest Lap column.)
  const whoVerb = /^who (?!(?:is|was|are|were|has|had|have)\b)([a-z]{3,})\b/.exec(q)?.[1];
  if (
    m &&
    whoVerb === undefined &&
    !(
      /^how\b/.test(q) &&
      !/^(?:most|highest|largest|least|lowest|fewest|greatest|biggest|smallest|longest|shortest|best|worst|top)\b/.test(
        m[0],
      )
    )
  )
    // ("the coldest night" of a weather log: a day's row.)
    push(m[1]!.replace(/^night\b/, "day"));
  // ("what did Ouse Co order?", "what has she bought?": the things bought, a Product or Item column, not the order's
  // number.)
  if (/^what (?:did|does|do|has|have) .+ (?:order|ordered|buy|bought|purchase|purchased)\??$/.test(q))
    push("product item");
  // "what does the blue kettle cost?", "how much did it weigh?": the closing verb names the quantity.
  m = /^(?:what|how much|how many)\s+(?:\w+\s+)?(?:does|do|did)\s+.+?\s+([a-z]{3,})\s*\??$/.exec(q);
  if (m && !/^(have|has|had|get|got|do|be|make|win|play|take|go|come|appear)$/.test(m[1]!)) {
    // "what time does the flight leave?": the verb names the clock column, before "time" (a duration's word too).
    if (hints[0] === "time" && /^what time\b/.test(q)) hints.unshift(m[1]!);
    // ("what place did Ana finish?": the verb repeats the rank the noun names.)
    else if (!/^(place|position|rank)$/.test(hints[0] ?? "")) push(m[1]);
  }
  // "how long is flight X?", "how old is Ana?", "how much is invoice X?": the measure's header words, weakest
  // (stop words included: "amount" is one).
  const cue = measureCue(q);
  // ("how much does Rex weigh?": a verb of its own measure says which; "much" adds no money words.)
  // ("how much electricity did X use?": the noun after "much" says which, as a verb of its own measure does.)
  const ownMeasure = cue === "much" && (muchNoun || /\b(weigh|weighs|weighed|measure|measures|measured)\??$/.test(q));
  if (cue && !ownMeasure) for (const w of MEASURE_CUES[cue]!) if (!hints.includes(w)) hints.push(w);
  // "what did the blue van sell for?": a trade's "for" closing the question asks for its price.
  // (First: "what's the most we sold a car for?" asks for the price whatever else it names.)
  if (
    /\b(?:sell|sells|sold|go|goes|went|rent|rents|rented|buy|buys|bought|fetch|fetched)(?: [a-z]+){0,3} for\??$/.test(q)
  )
    hints.unshift(...["price", ...MEASURE_CUES.much!].filter((w) => !hints.includes(w)));
  // "when was X born?", "when did X arrive?": the closing verb names which date column, before the word "date".
  m =
    /^when (?:was|were|is|are|did|does|do) .+ ([a-z]{3,}(?:ed|en)|born|built|sown|grown|held|made|arrive|leave|start|open|close|ship|due)\??$/.exec(
      q,
    );
  if (m) push(m[1]);
  if (/^when\b|\bwhat date\b/.test(q) || DATE_OF.test(q)) push("date");
  if (/\bwhat year\b|\bwhich year\b|\bin what year\b/.test(q)) push("year");
  // ("who owns the biggest deal?": the verb's agent noun names the person column, Owner.)
  if (whoVerb && /[a-z]{2}s$/.test(whoVerb) && !/^(?:does)$/.test(whoVerb))
    for (const w of agentNouns(whoVerb)) push(w);
  if (/^who\b/.test(q)) push("name");
  // ("where is X based?": the participle names the column, an Office or Location, before "location".)
  const placed = /^where (?:is|are|was|were) .+ (based|located|headquartered|situated)\b/.exec(q)?.[1];
  if (placed) push(placed);
  // ("where is the film playing?": a screen or a venue.)
  if (/^where (?:is|are|was|were) .+ (?:playing|showing|screening|on)\??$/.test(q)) push("screen venue");
  // ("where did ride R12 start?" of From and To columns: the end of a trip the verb names; "where does the 9:15
  // go?", "where is the bus headed?" its destination.)
  const tripEnd =
    /^where (?:did|does|do|will) .+ (start|begin|depart|leave|end|arrive|stop|go|head|travel)\??$/.exec(q)?.[1] ??
    (/^where (?:is|are|was|were) .+ (?:going|headed|heading|bound)(?: to)?\??$/.test(q) ? "go" : undefined);
  if (tripEnd)
    hints.unshift(
      ...(/^(?:start|begin|depart|leave)$/.test(tripEnd) ? ["from", "origin"] : ["to", "destination"]).filter(
        (w) => !hints.includes(w),
      ),
    );
  if (WHERE_FINISHED.test(q)) push("position place");
  else if (/^where\b/.test(q)) push("location");
  // ("how was the gift paid?", "how did she pay?": the manner, a Method column.)
  if (/^how (?:was|were|is|are|did|does|do) .+ (?:paid|pay|sent|shipped|delivered|booked|made)\??$/.test(q))
    hints.unshift(...["method", "payment", "mode"].filter((w) => !hints.includes(w)));
  // ("how long is the trail in km?": the unit closing the question names the column in it.)
  const unit =
    /\bin (km|kilometres|kilometers|miles|metres|meters|kg|kilograms|pounds|lbs|hours|minutes|days|litres|liters)\??$/.exec(
      q,
    )?.[1];
  if (unit) hints.unshift(unit);
  return hints;
}

/** How many-noun: "how many gold medals did …" → ["gold", "medals"]. */
function countNounOf(q: string): string[] {
  // ("the calorie count of X", "word count TR-52": the noun before "count" is what is counted.)
  const named = /\b([a-z]{3,}) count\b/.exec(q)?.[1];
  if (named && !STOP_WORDS.has(named) && !/^(?:head|total|body|many)$/.test(named) && !/\bhow many\b/.test(q))
    return [named];
  const m =
    /\b(?:how many|number of|count of|total number of|total of)\s+(.+?)(?:\s+(?:did|does|do|was|were|is|are|had|has|have|can|could|will|in|on|at|for|from|with|by|that|who|which|than|were|between|after|before|during|since|per|of)\b|[?,.]|$)/.exec(
      q,
    );
  // ("goals scored by X": a fragment's plural noun is what is counted, or the count column it names.)
  if (!m) {
    const f = FRAGMENT_COUNT.exec(q);
    return f ? [f[1] ?? f[2]!] : [];
  }
  // ("how many people attended the X game?", "how many fans came to …": the noun ends at its verb.)
  // ("how many employees earn more than X?": the noun ends before the verb of a comparison too.)
  const noun = m[1]!
    .replace(/ (?:[a-z]{3,}ed|came|went|saw|watched) (?:the|a|an|to|at)\b.*$/, "")
    .replace(/ [a-z]{3,} (?:more|less|fewer)$/, "");
  return words(noun).filter((w) => !STOP_WORDS.has(w));
}

/** Analyses one question (or sub-query). Pure and fast (≈ tens of µs). */
export function analyzeQuestion(question: string, options: AnalyzeOptions = {}): QuestionAnalysis {
  const q = normalize(question);
  const numbers = [...numbersIn(q)];
  for (const w of words(q)) if (Object.hasOwn(NUMBER_WORDS, w) && w !== "one") numbers.push(NUMBER_WORDS[w]!);
  const conditions = conditionsIn(q);
  const contentWords = words(q).filter((w) => !STOP_WORDS.has(w));
  const countNoun = countNounOf(q);

  const found = firstProposal(OPERATOR_DETECTORS, q, options);
  let operator: Operator = found?.proposal.operator ?? "lookup";
  const aggregate: QuestionAnalysis["aggregate"] = found?.proposal.aggregate ?? null;
  let sortDirection: SortDirection | null = null;
  let position: RowPosition | null = null;
  // ("who was admitted before january 10?" bounds dates; "the match day right after may 4" asks for a row.)
  const dayBound = /\b(?:date|dates|when|day|next|previous)\b/.test(q) ? "(?!)" : DAY_OF_MONTH;
  const comparison: Comparison | null = found?.proposal.comparison ?? null;
  const arithmetic: QuestionAnalysis["arithmetic"] = found?.proposal.arithmetic ?? null;
  // Refinements of the detected operator by the wording's superlatives, positions and conditions, each named when it applies.
  const refinements: string[] = [];

  // "finished in the top 10", "the top 3 runners": a rank condition, not a superlative; nor is "best before" (a date).
  const sq = q.replace(TOP_N, " ").replace(/\bbest before\b/g, " ");
  if (operator === "lookup" || operator === "count") {
    // Superlatives beat lookups; "how many … the most" stays a superlative with a count answer.
    if (SUPERLATIVE.test(sq) && !/\bat (least|most)\b/.test(q.replace(SUPERLATIVE, (w) => w))) {
      if (operator === "lookup") {
        operator = "sort";
        sortDirection = directionOf(sq);
        refinements.push("superlative");
      } else if (/\b(the|a) (most|least|highest|lowest|largest|fewest)\b/.test(q)) {
        sortDirection = directionOf(sq);
        refinements.push("count-superlative");
      }
    }
    // ("which thai dish has fewer calories?": a comparative with no two options and nothing to be "than" picks the
    // one row its measure orders first among those the conditions select.)
    const comparative = COMPARATIVE_ASK.exec(sq)?.[1];
    if (operator === "lookup" && comparison === null && comparative !== undefined && !/\b(?:than|or)\b/.test(q)) {
      operator = "sort";
      sortDirection = MIN_WORDS.includes(comparative) ? "min" : "max";
      refinements.push("comparative-without-options");
    }
    if (/\bat least\b|\bat most\b/.test(q) && operator === "sort") {
      operator = "lookup";
      sortDirection = null;
      refinements.push("at-least-is-a-bound");
    }
  }
  if (operator === "lookup" || operator === "sort") {
    // "when did the club last finish 1st?": a finishing place is a row condition, not a row position.
    // ("the closing price" of a share is its Close column, not the last row's.)
    // ("the lowest final score", "who scored highest on the final?": a score or an exam called final, not the last
    // row; the extreme orders the rows.)
    let pq = q
      .replace(PLACE_ORDINAL, " ")
      .replace(/\b(?:opening|closing) (?:prices?|rates?|values?|levels?)\b/g, " ")
      .replace(/\bfinal(?= (?:scores?|points?|exams?|marks?|grades?|results?|tests?|tally|standings?)\b)/g, " ");
    if (EXTREME_WORD.test(q)) pq = pq.replace(/\bfinal\b/g, " ");
    if (FIRST_POSITION_WORD.test(pq) && !/\bfirst (round|division|prize|class|half|leg)\b/.test(q)) position = "first";
    // ("the closing balance": the last row's; "my balance at the end of April": April's last row's.)
    else if (
      (LAST_POSITION_WORD.test(pq) && !/\blast (round)\b/.test(pq)) ||
      /^(?:what|how much) (?:is|was|were) .+ (?:at|by) the end of [a-z0-9 ]+\??$/.test(q)
    )
      position = "last";
    // ("what is my current balance?", "who is the current holder?": the latest row's, not a "Current …" column's.)
    else if (/^(?:what|who|which) (?:is|are) (?:my|our|the) current [a-z]+\??$/.test(q)) position = "last";
    // "which competitor came in first?" alone: the table's order is its finishing order.
    else if (pq !== q && /\b(first|1st)\b/.test(q)) position = "first";
    // ("which is the top town listed?": no other superlative, so the layout's first row.)
    else if (TOP_OF_LIST.test(sq) && !SUPERLATIVE.test(sq.replace(TOP_OF_LIST, " ").replace(/\btop\b/g, " ")))
      position = "first";
    // "who won the race?", "winner": over a results table, the first row (a Winner column still answers it by name).
    else if (WHO_WON.test(q) && !/\d/.test(q) && !SUPERLATIVE.test(sq)) position = "first";
    if (
      // ("who looks after X?" cares for X.)
      // ("after noon" is a time of day.)
      /\b(next|following|after|succeeding|subsequent|directly below|right below|below|immediately after)\b/.test(
        q.replace(/\blook(?:s|ed|ing)? after\b|\bafter (?:noon|midday|midnight)\b/g, " "),
      ) &&
      // ("after 2020", "below 50": a bound, not the next row; "after 2010-11" names a cell, and so does the
      // number a row comes after: "which title came after 1998?".)
      // ("after 21:00", "after 9 pm": a time of day bounds the rows too.)
      (SEQUENCE_VERB.test(q) ||
        !new RegExp(`\\b(?:after|below) (?:${BARE_NUMBER}|the year\\b|${CLOCK_TIME}|${dayBound})`).test(q))
    )
      position = "next";
    else if (
      /\b(previous|preceding|prior to|before|right above|directly above|above|immediately before|preceded)\b/.test(
        // ("best before" is a date on food, not the row above.)
        q.replace(/\bbefore (?:noon|midday|midnight)\b|\bbest before\b/g, " "),
      ) &&
      (SEQUENCE_VERB.test(q) || !new RegExp(`\\b(?:before|above) (?:${BARE_NUMBER}|${CLOCK_TIME}|${dayBound})`).test(q))
    )
      position = "previous";
    if (position !== null) refinements.push(`position-${position}`);
    if (position === "first" || position === "last") {
      // "who was the first/last …" with no other superlative: a row-order question.
      if (operator === "sort" && !EXTREME_WORD.test(q)) {
        operator = "lookup";
        sortDirection = null;
        refinements.push("row-order-not-superlative");
      }
    }
    if (position !== null && operator === "lookup") operator = "sort";
  }
  if (operator === "lookup" && conditions.length > 0) {
    operator = "filter";
    refinements.push("conditions-filter");
  }

  if (comparison?.kind === "choice" && comparison.direction === null) comparison.direction = directionOf(q);
  if (operator === "sort" && sortDirection === null && position === null) sortDirection = directionOf(q);

  const { answerType, detector: kindDetector } = answerKindOf(q, { operator, comparison });

  const listAnswer =
    /\b(?:which|what|name|list|the|who were the|are the)\s+(?:other\s+)?(?:top\s+)?(?:two|three|four|five|2|3|4|5)\s+(?!times?\b|years? (?:ago|later|after|before)\b)[a-z]/.test(
      q,
    ) ||
    /^(list|name)\b|\bwhat are\b|\bwhich .* (were|are)\b.*\b(all|both)\b|\b(all|both) (the )?\w+ (that|who|which)\b|\bwhat were (the|all)\b|^(which|what) (\w+ )?(teams|players|countries|years|people|cities|songs|films|movies|nations|athletes|drivers|schools|albums|games|seasons|episodes|players|titles)\b/.test(
      q,
    ) ||
    // ("which flights go to Oslo?": a plural noun asked for with a plural verb, every row that does.)
    /^(?:which|what) (?!(?:series|species|news|means|bus|gas|class|status|campus|address|business|process|access)\b)[a-z]{2,}[^su'\s]s (?:go|are|were|have|had|do|did|leave|arrive|cost|run|use|need|belong|come|play|stop)\b/.test(
      q,
    ) ||
    // ("who earns more than Marco?", "which plans cost less than the average?": every row beyond the named one.)
    BEYOND_NAMED_ROW.test(q) ||
    // "who is not in Sales?", "who doesn't work in Leeds?": everyone a negation leaves.
    /^who (?:is|are|was|were) not\b|^who (?:isn't|aren't|doesn't|don't|didn't|does not|do not|did not|hasn't|haven't|has not|have not)\b/.test(
      q,
    ) ||
    // ("who is sitting at table 2?", "who is working on the roof?": everyone doing it there.)
    /^who (?:is|are) [a-z]{2,}ing (?:at|in|on|with|for|from)\b/.test(q) ||
    // "top 3 products by rating", "films by Ken Ito": a search for several rows.
    /^top[- ](?:[2-9]|\d\d|two|three|four|five|six|seven|eight|nine|ten|twenty)\b/.test(q) ||
    (/^(?:the |all )?[a-z]{3,}[^s'\s]s (?:by|from|with|starring) [a-z]/.test(q) && operator === "lookup") ||
    // "show me all orders from acme", "everything sown in april": every row that matches.
    /^(?:show|give|find|get|list)(?: me)? (?:all|every|everything|everyone|everybody)\b|\beverything\b/.test(q) ||
    // ("show me the red cars", "list unpaid invoices": a plural closing the request.)
    /^(?:show|give|find|get|list)(?: me)? (?:the |all |all the )?(?:[a-z]+ )?[a-z]{2,}[^s'\s]s\??$/.test(q) ||
    // ("show me customers from France", "find the orders over 50": a plural asked for.)
    // ("give me the opponents we beat at home": a relative clause without its "that".)
    /^(?:show|give|find|get)(?: me)? (?:the )?[a-z]{3,}[^s'\s]s (?:from|in|at|with|over|under|above|below|on|who|that|which|we|i|you|they)\b/.test(
      q,
    ) ||
    // "who works in Oslo?", "who lives in Lisbon?": everyone a present-tense verb and a place select.
    // ("who owes nothing?": everyone at zero.)
    // ("who reports to X?", "who works for X?", "who works remotely?": everyone the verb's object or manner selects.)
    /^who (?!(?:is|was|has|does)\b)[a-z]{3,}s (?:(?:in|at|from|on|to|for|under) [a-z]|nothing\b|[a-z]{3,}ly\??$)/.test(
      q,
    ) ||
    // "who did we lose to?", "who did they play against?": everyone the verb's rows name.
    /^who did (?:we|you|they|i) [a-z]{2,}(?: (?:to|with|against|at|for|from))?\??$/.test(q) ||
    // "who is on the night shift?", "who's in the design team?": the members of a group.
    /^who(?: is| are|s|'s) (?:on|in) (?:the |our )?(?:[a-z]+ ){0,2}(?:team|group|committee|board|crew|shift|squad|department|panel|unit|rota)\??$/.test(
      q,
    ) ||
    // ("besides Ana, which other players scored?", "what other colours were sold?": everyone the exception leaves.)
    /\b(?:which|what) other (?:[a-z]+ )?(?:[a-z]{2,}[^s'\s]s|people)\b|\b(?:which|what) other [a-z]+ (?:were|are)\b/.test(
      q,
    ) ||
    // "employees who started before 2018", "staff that work in Oslo": the rows a search phrase describes.
    /^(?:all )?(?:[a-z]{3,}[^s'\s]s|staff|people) (?:who|that) [a-z]/.test(q) ||
    // "in which months did we use more than 350 kWh?": a plural after a preposition's "which".
    /^(?:in|on|at|during|for|from) (?:which|what) [a-z]{2,}[^s'\s]s\b/.test(q) ||
    // "which books has Lena Ortiz written?", "what films did she direct?", "which talks does she give?": a plural
    // object before its verb's subject.
    /^(?:which|what) [a-z]{2,}[^s'\s]s (?:has|have|did|do|does) [a-z]/.test(q) ||
    // ("which courses is Ana enrolled in?", "what projects is Sam working on?": the singular verb is the subject's.)
    /^(?:which|what) [a-z]{2,}[^s'\s]s (?:is|was) (?!(?:the|a|an) )[a-z]+ .*\b(?:in|on|for|with|to|of|taking|doing|teaching)\??$/.test(
      q,
    ) ||
    // "which patients' treatment costs over £200?": the rows a plural possessive names.
    /^(?:which|what) [a-z]{3,}s' [a-z]/.test(q) ||
    // "which cars were serviced in may", "what events are on in june": a plural noun with a plural verb.
    // ("which high priority tasks aren't done?": two words before the noun, a negated verb.)
    /^(which|what) (?:\w+ ){0,2}[a-z]{2,}[^s'\s]s (?:were|are|have|had|become|became|weren't|aren't|haven't|werent|arent|havent)\b/.test(
      q,
    ) ||
    // "which claims exceed $1,500", "which wines cost over £150": a plural noun with a verb in its plural form.
    /^which [a-z]{2,}[^s'\s]s (?!(?:is|was|has|does|did|do)\b)[a-z]{3,}(?<!s)\b(?! (?:the )?(?:most|least|highest|lowest|fewest)\b)(?! (?:is|was|has|does)\b)/.test(
      q,
    ) ||
    // "who paid more than £120?": everyone past the bound (not "who was the first to …", one person).
    (/^who\b/.test(q) &&
      operator !== "count" &&
      position === null &&
      sortDirection === null &&
      !/^who (?:was|is) (?:the|a|an)\b/.test(q) &&
      (conditions.some((c) => c.op !== "=" && !c.top && !c.place) || DATE_BOUND.test(q) || ON_DAY.test(q))) ||
    // "phones under $300": every row past the bound.
    (FRAGMENT_COUNT.test(q) && BOUND_FRAGMENT.test(q) && operator !== "count" && sortDirection === null) ||
    // "courses starting in february 2025", "orders shipped to leeds": the rows a participle selects.
    (/^(?:the |all )?[a-z]{3,}[^s'\s]s [a-z]{3,}(?:ing|ed)\b/.test(q) &&
      (operator === "lookup" || operator === "filter") &&
      sortDirection === null &&
      position === null);

  const needGlobalView =
    operator === "count" ||
    operator === "aggregate" ||
    operator === "sort" ||
    (operator === "compare" && comparison?.kind !== "choice");
  let modality: Modality = "table";
  if (options.hasPassages) modality = "both";

  const plannedSteps = comparison && comparison.options.length >= 2 ? 2 : 1;
  const place = finishingPlaceOf(q);
  return {
    version: 1,
    normalized: q,
    operator,
    aggregate,
    sortDirection,
    position,
    ...(place !== undefined ? { finishingPlace: place } : {}),
    comparison,
    arithmetic,
    conditions,
    numbers,
    answerType,
    detectors: { operator: found?.name ?? "default-lookup", refinements, answerKind: kindDetector },
    listAnswer,
    modality,
    needGlobalView,
    uncertainty: plannedSteps > 1 ? 0.5 : 0,
    targetHints: targetHintsOf(q),
    contentWords,
    countNoun,
  };
}
