/**
 * The offline extractive reader for the TEXT and RETRIEVE routes (reference §8.3, without an LLM).
 *
 * TEXT: every sentence of the evidence is scored by the question's content words it contains
 * (idf-weighted over the evidence, with light stemming and a few synonyms such as birth ↔ born),
 * plus the words of its passage's opening (the passage subject). Inside the best sentences the
 * reader takes the span of the expected answer kind (number, year, date, month, person, place,
 * name) closest to the matched words, never a span the question itself contains. Table chunks in
 * the evidence are read like RETRIEVE rows and compete on the same coverage score.
 *
 * RETRIEVE: the target row is the row holding the linked cell values (bindings) or, failing that,
 * the question's words; the target column is the one whose header carries the question's
 * wh-word/target words and whose value fits the expected kind; the filter entity is never returned.
 *
 * Both routes first try report tables (table-cells.ts: value at row label × period, and the fusion
 * prompt's arithmetic over such cells). With an index (`createReaders`, readers.ts), numbers read from tables
 * get the scale their passages declare, and TEXT prefers the passages linked from the table row
 * the question describes (bridge.ts).
 */
import {
  asksForDescription,
  fitsKind,
  headerSuitsKind,
  isNumericKind,
  isYear,
  type AnswerKind,
  answerKindOf,
} from "./answer-kind.js";
import { rowNamePart } from "./name-parts.js";
import { rowLifeDate } from "./life-dates.js";
import { askedClass, classNounSpans } from "./class-nouns.js";
import { questionTails, tailPhraseSpans } from "./verb-tail.js";
import { NOT_FOUND, cleanAnswer, formatForQuestion, joinList } from "./answer-format.js";
import {
  type EvidenceRow,
  aboutTitles,
  questionPart,
  withoutColumnNote,
  keyStems,
  parseBlocks,
  parseMarkdownRows,
  parseRows,
  sentences,
} from "./evidence.js";
import { normaliseForContainment } from "../../text/normalise.js";
import { stem } from "../../text/stem.js";
import { contentWords } from "../../text/tokenise.js";
import { answerFromCells, cellOperation, type CellAnswer } from "./table-cells.js";
import { passageWins } from "./reading-choice.js";
import { doubtfulLast } from "./span-doubts.js";
import { askedEntityPages, pageSaysItIs } from "./asked-entity-page.js";
import { relativeClauseOf, restatedLast } from "./restated-clause.js";
import { besideSuperlative } from "./superlative-words.js";
import { makerNotNamed } from "./creator-verbs.js";
import { asksWhichItIs, nameCellOf } from "./this-row.js";
import { SPAN_ORDER_WEIGHTS, SPAN_RERANK_K, rerankSpans, type RerankContext, type Reranked } from "./span-rerank.js";
import { readClause } from "./clause-reader.js";
import type { ReadRowsInput, ReadTextInput } from "../strategies.js";
import { tableIdsIn, type TablePassages } from "./table-context.js";
import type { LinkedValue, SubQueryPlan } from "../types.js";
import type { DescribedRow } from "./bridge.js";
import type { Passage } from "../../indexing/types.js";
import {
  DIGIT_WORD_PATTERN,
  MONTH_ABBREVIATIONS,
  MONTH_NAMES,
  NUMBER_WORD_PATTERN,
  ORDINAL_WORDS,
  PEOPLE_NOUNS,
  TENS_PATTERN,
  WEEKDAYS,
} from "../../text/lexicons.js";

/** A reader's pick with how much of the question its context covers (0..1). */
export interface Reading {
  answer: string;
  /** Fraction of the question's (idf-weighted) content words found around the answer. */
  coverage: number;
  /** The sentence or row text the answer came from. */
  context: string;
}

const capitalised = (w: string) => w[0]!.toUpperCase() + w.slice(1);
const MONTHS = [
  ...MONTH_NAMES.map(capitalised),
  ...Object.keys(MONTH_ABBREVIATIONS)
    .sort((x, y) => y.length - x.length)
    .map((a) => `${capitalised(a)}\\.?`),
].join("|");
const DATE_RE = new RegExp(
  `\\b(?:\\d{1,2}(?:st|nd|rd|th)?\\s+(?:${MONTHS})\\s*,?\\s+\\d{4}|(?:${MONTHS})\\s+\\d{1,2}(?:st|nd|rd|th)?\\s*,?\\s+\\d{4}|(?:${MONTHS})\\s+\\d{4}|\\d{4}-\\d{2}-\\d{2})`,
  "g",
);
const MONTH_RE = new RegExp(`\\b(?:${MONTH_NAMES.map(capitalised).join("|")})\\b`, "g");
const YEAR_RE = /\b(1[0-9]{3}|20[0-9]{2})\b/g;
const NUMBER_RE =
  /(?:[-−]\s?)?(?:[$€£¥₹]\s?)?\(?\d{1,3}(?:,\d{3})+(?:\.\d+)?\)?(?:\s?%|\s(?:million|billion|thousand|percent))?|(?:[-−]\s?)?(?:[$€£¥₹]\s?)?\(?\d+(?:\.\d+)?\)?(?:\s?%|\s(?:million|billion|thousand|percent))?/g;
/** "25-44", "22-16-3": an age range or a win-loss record, read whole. */
const RANGE_RE = /(?<![\p{L}\p{N}.,-])\d+(?:-\d+)+(?![\p{L}\p{N}-])/gu;
const WORD_NUMBER_RE = new RegExp(
  `\\b(?:(?:${TENS_PATTERN})(?:-(?:${DIGIT_WORD_PATTERN}))?|${NUMBER_WORD_PATTERN}|hundred)\\b`,
  "gi",
);
// A name word; an initial may be written apart from its period ("W.P . Kinsella", tokenised text).
const NAME_RE =
  /(?:[\p{Lu}](?:\.[\p{Lu}])*\s\.(?=\s+[\p{Lu}])|[\p{Lu}][\p{L}\p{M}'’.&-]*|[\p{Lu}]\.)(?:\s+(?:(?:of|de|del|della|da|di|du|des|la|le|von|van|der|den|no|bin|al|y|the|on|upon|for|and|&)\s+|(?:de|da|di|von|van)\s+(?:la|las|los|le|les|der|den)\s+)?(?:[\p{Lu}](?:\.[\p{Lu}])*\s\.(?=\s+[\p{Lu}])|[\p{Lu}][\p{L}\p{M}'’.&-]*|\d+(?:st|nd|rd|th)?))*/gu;

/** Capitalised words that start sentences or clauses but are not names. */
const NOT_NAMES = new Set(
  (
    "the a an in on at of for from by with and or but he she it they his her its their this that these those there " +
    "after before during when while since as is was were are be been has have had also however following " +
    "i we you our mr mrs ms dr st"
  )
    .split(" ")
    .concat(MONTH_NAMES, WEEKDAYS),
);

/** Quantifiers that open a sentence capitalised ("Many of its members …"): alone, they name nothing. */
const QUANTIFIERS = new Set("many most some several few all both each every other such another".split(" "));

interface Span {
  text: string;
  /** Word index of the span's first word in the sentence. */
  at: number;
  /** Bonus for how well the span's shape fits the expected kind (0..1). */
  fit: number;
}

function wordIndexAt(sentence: string, charIndex: number): number {
  return sentence
    .slice(0, charIndex)
    .split(/\s+/)
    .filter((w) => w !== "").length;
}

function collect(sentence: string, re: RegExp, fit: number, map?: (s: string) => string): Span[] {
  const out: Span[] = [];
  for (const m of sentence.matchAll(re)) {
    // "ranks 26th": an ordinal is read whole.
    const ordinal = /^\d$/.test(m[0].slice(-1))
      ? (/^(?:st|nd|rd|th)\b/.exec(sentence.slice(m.index! + m[0].length))?.[0] ?? "")
      : "";
    const text = (map ? map(m[0] + ordinal) : m[0] + ordinal).trim();
    if (text) out.push({ text, at: wordIndexAt(sentence, m.index!), fit });
  }
  return out;
}

const DAY = /^\d{1,2}(?:st|nd|rd|th)?$/;
const MONTH_WORD = new RegExp(`^(?:${MONTHS})$`, "i");

function nameSpans(sentence: string, fit: number): Span[] {
  const out: Span[] = [];
  for (const m of sentence.matchAll(NAME_RE)) {
    let words = m[0].trim().split(/\s+/);
    let offset = m.index!;
    // Drop leading sentence/clause words ("The", "In", "He") and trailing connectors.
    // A participle opening the sentence or a bracket ("Founded in 1810 , …", "( Modified form )") is no name either.
    const opener = (w: string) =>
      /(?:^|\()$/.test(sentence.slice(0, offset).trim()) && /^\p{Lu}\p{Ll}{3,}(?:ed|ing)$/u.test(w);
    while (words.length > 0 && (NOT_NAMES.has(words[0]!.toLowerCase().replace(/[.'’]+$/, "")) || opener(words[0]!))) {
      offset += sentence.slice(offset).indexOf(words[0]!) + words[0]!.length;
      words = words.slice(1);
    }
    // "Board of Directors on 6 June 2019", "Vienna on March 3": a date after a particle is not part of the name.
    const dated = words.findIndex(
      (w, i) =>
        i > 0 &&
        /^(on|in|of|for|and|upon)$/i.test(w) &&
        ((DAY.test(words[i + 1] ?? "") && MONTH_WORD.test(words[i + 2] ?? "")) ||
          (/^on$/i.test(w) && MONTH_WORD.test(words[i + 1] ?? "") && DAY.test(words[i + 2] ?? ""))),
    );
    if (dated > 0) words = words.slice(0, dated);
    while (words.length > 0 && /^(of|de|the|and|&|for|on|upon|y)$/i.test(words[words.length - 1]!))
      words = words.slice(0, -1);
    if (words.length === 0 || (words.length === 1 && QUANTIFIERS.has(words[0]!.toLowerCase()))) continue;
    const text = words.join(" ").replace(/[.,;:]+$/, "");
    if (text.length < 2 || /^\d/.test(text)) continue;
    out.push({ text, at: wordIndexAt(sentence, offset), fit });
  }
  return out;
}

/** "Budapest , Hungary", "Norman, Oklahoma": a place with its region, as passages write it. */
function placeSpans(sentence: string): Span[] {
  const out: Span[] = [];
  for (const m of sentence.matchAll(
    /([\p{Lu}][\p{L}\p{M}'’.-]*(?:\s+[\p{Lu}][\p{L}\p{M}'’.-]*){0,2})\s*,\s*([\p{Lu}][\p{L}\p{M}'’.-]*(?:\s+[\p{Lu}][\p{L}\p{M}'’.-]*){0,2})/gu,
  )) {
    if (NOT_NAMES.has(m[1]!.split(/\s+/)[0]!.toLowerCase())) continue;
    out.push({ text: m[0].trim(), at: wordIndexAt(sentence, m.index!), fit: 1.02 });
  }
  return out;
}

/** "In what state …", "which country …": the region of a "Place , Region" span is the answer, not the place. */
function asksForRegion(question: string): boolean {
  const phrase = askedPhrase(question) ?? [];
  return phrase.length > 0 && /^(state|country|province|nation)$/.test(phrase[phrase.length - 1]!);
}

/**
 * "What city …", "which town …": a "Troy , Michigan" span or cell names the place with its region, and the
 * place alone is asked ("where …" and "what city , state …" keep the region).
 */
function asksForSettlement(question: string): boolean {
  const phrase = askedPhrase(question) ?? [];
  return (
    phrase.length > 0 &&
    /^(city|town|village)$/.test(phrase[phrase.length - 1]!) &&
    !/\b(city|town|village)\s*,/i.test(question)
  );
}

/** "Troy , Michigan" → "Troy"; other text as it is. */
function withoutRegion(text: string): string {
  const parts = text.split(/\s*,\s*/);
  return parts.length === 2 && parts[1] !== "" ? parts[0]! : text;
}

/** With `settlement`, a "Troy , Michigan" span also offers "Troy", preferred to the whole. */
function settlementPreference(spans: Span[], settlement: boolean): Span[] {
  if (!settlement) return spans;
  return spans.flatMap((sp) => {
    const place = withoutRegion(sp.text);
    return place === sp.text
      ? [sp]
      : [
          { ...sp, fit: sp.fit - 0.1 },
          { text: place, at: sp.at, fit: sp.fit + 0.1 },
        ];
  });
}

/** With `region`, a "Troy , Michigan" span also offers "Michigan", preferred to the whole. */
function regionPreference(spans: Span[], region: boolean): Span[] {
  if (!region) return spans;
  const out: Span[] = [];
  const places = new Set(
    spans
      .map((sp) => sp.text.split(/\s*,\s*/))
      .filter((p) => p.length === 2)
      .map((p) => p[0]!),
  );
  for (const sp of spans) {
    const parts = sp.text.split(/\s*,\s*/);
    if (parts.length !== 2 || parts[1] === "") {
      // "Troy" alone is the place the region's span names, not the region.
      out.push(places.has(sp.text) ? { ...sp, fit: sp.fit - 0.2 } : sp);
      continue;
    }
    out.push(
      { ...sp, fit: sp.fit - 0.1 },
      { text: parts[1]!, at: sp.at + parts[0]!.split(/\s+/).length + 1, fit: sp.fit + 0.1 },
    );
  }
  return out;
}

/** A number followed by the noun a "how many" question counts ("3,300 acres") fits best. */
function unitPreference(sentence: string, spans: Span[], counted: ReadonlySet<string>): Span[] {
  if (counted.size === 0) return spans;
  const words = sentence.split(/\s+/);
  return spans.map((sp) => {
    const end = sp.at + sp.text.split(/\s+/).length;
    // The noun, or the noun after one word that qualifies it ("30 Aboriginal languages").
    const counts = (w: string | undefined) => w !== undefined && [...keyStems(w)].some((s) => counted.has(s));
    return counts(words[end]) || (/^\p{L}+$/u.test(words[end] ?? "") && counts(words[end + 1]))
      ? { ...sp, fit: sp.fit + 1.5 }
      : sp;
  });
}

/**
 * The unit a question names for its measure ("the area in square miles", "the length , in km ,"): its last
 * word, which tells "236 square miles" from "610 square kilometres" written beside it.
 */
function namedUnit(question: string): string | undefined {
  const m = /\bin\s+((?:square |sq\. |cubic )?[a-z²0-9/]+)/i.exec(question);
  const unit = m && MEASURE_UNIT.exec(m[1]!);
  return unit ? unit[1]!.split(/\s+/).pop() : undefined;
}

/** Units a measure is written in ("12 km", "3.5 square miles", "40 steps per minute", "9 days"). */
const MEASURE_UNIT = new RegExp(
  "^\\(?\\s*((?:square |sq\\. |cubic )?(?:km²|km2|km|kilomet(?:er|re)s?|mi|miles?|m|met(?:er|re)s?|ft|feet|foot|inch(?:es)?|cm|centimet(?:er|re)s?|mm|millimet(?:er|re)s?|hectares?|ha|acres?|mph|km/h|days?|weeks?|months?|hours?|minutes?|seconds?|steps|beats|kg|kilograms?|tonnes?|tons?|pounds?|lb)(?: per (?:minute|hour|second|day|year))?)(?![\\p{L}\\d])",
  "iu",
);

/**
 * A question asking for a measure (a distance, an area, a height, a duration) without naming its
 * unit ("in km", "how many miles"): the answer is written with the unit it has in the text.
 */
export function asksMeasureWithoutUnit(question: string): boolean {
  const q = question.toLowerCase();
  if (
    !/\b(distance|how far|how long|speed|area|elevation|height|how tall|how high|length|how wide|width|how deep|depth|altitude)\b/.test(
      q,
    )
  )
    return false;
  return !/\b(km|kilomet\w*|miles?|mi|met(?:er|re)s?|feet|foot|ft|acres?|hectares?|square|mph|minutes|hours|days|weeks|months|years|seconds|inches|cm|centimet\w*|kg|pounds|tons?)\b/.test(
    q,
  );
}

/** A number span with the measure unit written right after it in the sentence ("12" → "12 km"). */
export function withMeasureUnit(sentence: string, span: { text: string; at: number }): string {
  if (!/^[-−]?\d[\d,.]*(?:\s+(?:million|billion|thousand))?$/i.test(span.text) || span.at < 0) return span.text;
  const rest = sentence
    .split(/\s+/)
    .slice(span.at + span.text.split(/\s+/).length)
    .join(" ");
  const unit = MEASURE_UNIT.exec(rest);
  return unit ? `${span.text} ${unit[1]}` : span.text;
}

/** A question asking for a nationality, language or people: a demonym may answer it. */
export const NATIONALITY_QUESTION =
  /\b(nationality|national|language|languages|ethnicity|ethnic|citizenship|descent|origin|demonym|heritage|people|cuisine)\b/i;
/** One capitalised word with a demonym's ending ("Italian", "Japanese", "Turkish", "Mexican"). */
export const DEMONYM = /^(?:North |South |East |West )?\p{Lu}\p{Ll}+(?:ian|ese|ish|ican|ean|an)$/u;

/**
 * "… was an Italian rugby league coach": a demonym written before a lower-case noun is an
 * adjective of the sentence's subject, not a name the question asks for — unless it asks for a
 * nationality or a language (measured on hybridqa/train: 32 first spans were such adjectives, 2 gold
 * answers are demonyms).
 */
function demonymPreference(sentence: string, spans: Span[], nationality: boolean): Span[] {
  if (nationality) return spans;
  const words = sentence.split(/\s+/);
  return spans.map((sp) => {
    const next = words[sp.at + sp.text.split(/\s+/).length] ?? "";
    return DEMONYM.test(sp.text) && /^\p{Ll}/u.test(next) ? { ...sp, fit: sp.fit - 0.8 } : sp;
  });
}

/** Number spans that are not the day or year of a date ("March 18 , 2005" holds no count of 18). */
function outsideDates(sentence: string, spans: Span[]): Span[] {
  const dates = collect(sentence, DATE_RE, 1).map((d) => ({ from: d.at, to: d.at + d.text.split(/\s+/).length - 1 }));
  if (dates.length === 0) return spans;
  return spans.filter((sp) => !dates.some((d) => sp.at >= d.from && sp.at <= d.to));
}

/**
 * "X was $12.5 million and $11.9 million for 2021 and 2020, respectively": for a question that asks
 * for several values (table-cells.ts `cellOperation` "list"), the `count` amounts listed last before
 * "respectively", in the sentence's order, as one list span.
 */
export function respectiveList(sentence: string, count: number): Span[] {
  const listing = respectiveListing(sentence);
  if (!listing || count < 2 || listing.amounts.length < count) return [];
  const listed = listing.amounts.slice(-count);
  return [{ text: joinList(listed.map((s) => s.text)), at: listed[0]!.at, fit: 1.5 }];
}

/**
 * "X was $12.5 million and $11.9 million for 2021 and 2020, respectively": for a question that asks
 * for one of the years, the amount in that year's place (the sentence lists as many amounts as years).
 */
export function respectiveAmount(sentence: string, year: string): { pick: Span; listed: Span[] } | undefined {
  const listing = respectiveListing(sentence);
  if (!listing) return undefined;
  const { years, amounts } = listing;
  const at = years.indexOf(year);
  return years.length >= 2 && amounts.length === years.length && at >= 0
    ? { pick: amounts[at]!, listed: amounts }
    : undefined;
}

/** The years and the amounts (not years, not inside dates) a sentence lists before "respectively". */
function respectiveListing(sentence: string): { years: string[]; amounts: Span[] } | undefined {
  const end = sentence.search(/\brespectively\b/i);
  if (end < 0) return undefined;
  const head = sentence.slice(0, end);
  const amounts = outsideDates(head, collect(head, NUMBER_RE, 1.5)).filter(
    (s) => !isYear(s.text.replace(/[(),]/g, "")),
  );
  return { years: [...head.matchAll(YEAR_RE)].map((m) => m[0]), amounts };
}

/** Number spans that are not a part of a range or record ("25-44": neither 25 nor -44). */
function outsideRanges(sentence: string, spans: Span[]): Span[] {
  const ranges = collect(sentence, RANGE_RE, 1);
  if (ranges.length === 0) return spans;
  // A part's word index is the range's, or one more when counted after the range's first digits.
  return spans.filter(
    (sp) =>
      !ranges.some(
        (r) => (sp.at === r.at || sp.at === r.at + 1) && r.text.split("-").includes(sp.text.replace(/^[-−]\s?/, "")),
      ),
  );
}

/** "1974-1981", "2013-14": a span of years is no number. */
function isYearSpan(text: string): boolean {
  return /^(1[0-9]{3}|20[0-9]{2})-\d{2,4}$/.test(text);
}

/** Candidate answer spans of a sentence for an answer kind. */
export function spansFor(sentence: string, kind: AnswerKind): Span[] {
  switch (kind) {
    case "year":
      return [...collect(sentence, YEAR_RE, 1)];
    case "date":
      return [...collect(sentence, DATE_RE, 1), ...collect(sentence, YEAR_RE, 0.6)];
    case "month":
      return [
        ...collect(sentence, DATE_RE, 1, (d) => (new RegExp(MONTHS).exec(d)?.[0] ?? d).replace(/\.$/, "")),
        ...collect(sentence, MONTH_RE, 0.8),
      ];
    case "count":
      // A count is no ordinal ("16th"), share ("49%") nor part of a range ("1941-1950").
      return [
        ...outsideRanges(sentence, outsideDates(sentence, collect(sentence, NUMBER_RE, 1))).filter(
          (s) => !isYear(s.text) && !/(?:st|nd|rd|th|%|percent)$/.test(s.text),
        ),
        ...collect(sentence, WORD_NUMBER_RE, 0.9),
      ];
    case "number":
    case "money":
    case "percent":
      return [
        ...outsideRanges(sentence, outsideDates(sentence, collect(sentence, NUMBER_RE, 1))).map((s) => ({
          ...s,
          fit: isYear(s.text) ? 0.3 : kind === "percent" && !/%|percent/.test(s.text) ? 0.6 : 1,
        })),
        ...collect(sentence, WORD_NUMBER_RE, 0.5),
        ...(kind === "number" ? collect(sentence, RANGE_RE, 1).filter((r) => !isYearSpan(r.text)) : []),
      ];
    case "boolean":
      return [];
    case "place":
      return [...nameSpans(sentence, 1), ...placeSpans(sentence)];
    case "person":
    case "choice":
    case "moreless":
      return nameSpans(sentence, 1);
    case "entity":
    case "text":
      return [...nameSpans(sentence, 1), ...collect(sentence, DATE_RE, 0.5), ...collect(sentence, NUMBER_RE, 0.4)];
  }
}

/** Kinds whose own spans read the answer (a time, yes / no): no phrase after the question's verb for them. */
const TIME_KINDS = new Set<AnswerKind>(["year", "date", "month", "boolean"]);

/** Weight of a word of the bridge note's passage titles (dev: 0.2 and 0.3 alike, 0 and 0.5 one to three questions fewer). */
const ABOUT_TITLE_WEIGHT = 0.3;

/** A sentence whose subject is a pronoun: the passage's subject, named in its first sentence. */
const PRONOUN_LED = /^\s*(?:he|she|it|they|his|her|its|their)\b/i;

/** Question word weights: stems of the sub-query (1), of the original question (0.5) and of the bridge note's titles (0.3). */
function questionWeights(subQuery: string, question: string, plan?: SubQueryPlan): Map<string, number> {
  const weights = new Map<string, number>();
  for (const s of keyStems(question)) weights.set(s, 0.5);
  // The bridge note's titles name the passages to read; the answer sentence need not repeat them
  // (a weight of 1 let sentences naming the titles outrank those holding the question's words).
  for (const s of keyStems(aboutTitles(subQuery).join(" "))) weights.set(s, ABOUT_TITLE_WEIGHT);
  for (const s of keyStems(questionPart(subQuery))) weights.set(s, 1);
  const hints = (plan?.analysis?.["targetHints"] as string[] | undefined) ?? [];
  for (const h of hints) weights.set(stem(h.toLowerCase()), Math.max(weights.get(stem(h.toLowerCase())) ?? 0, 1));
  return weights;
}

function idfOver(units: Array<Set<string>>): (s: string) => number {
  const df = new Map<string, number>();
  for (const u of units) for (const s of u) df.set(s, (df.get(s) ?? 0) + 1);
  const n = units.length;
  return (s) => Math.log(1 + (n + 1) / ((df.get(s) ?? 0) + 0.5));
}

/** True when the span is (or is inside) something the question already names. */
export function namedByQuestion(span: string, questionNorm: string, mentions: string[]): boolean {
  const s = normaliseForContainment(span);
  if (s === "") return true;
  if (s.length >= 2 && ` ${questionNorm} `.includes(` ${s} `)) return true;
  return mentions.some((m) => normaliseForContainment(m) === s);
}

/**
 * Stems an "-ed" or "-ing" verb also stands for: its base form when that ends in "e" ("moved", "moving" →
 * "move": the stemmer cuts the ending whole, so "did she move" never met "she moved"), and its agent nouns
 * ("created" → "creator", "founded" → "founder": "the creator of …" meets "created by …"). Stems
 * no question word has ("played" → "playe") are harmless.
 */
function verbFormStems(word: string): string[] {
  const w = word.toLowerCase();
  if (!/[a-z]{2}(?:ed|ing)$/.test(w)) return [];
  const s = stem(w);
  if (s === w) return [];
  const out = /[b-df-hj-np-tv-z]$/.test(s) ? [`${s}e`] : [];
  // "created" also meets "creator", "founded" "founder", "managed" "manager".
  if (s.length >= 3) out.push(`${s}er`, `${s}or`);
  return out;
}

/** A sentence's key stems (evidence.ts keyStems) with those its "-ed" and "-ing" verbs stand for (verbFormStems). */
function sentenceStems(sentence: string): Set<string> {
  const out = keyStems(sentence);
  for (const w of contentWords(sentence)) for (const b of verbFormStems(w)) out.add(b);
  return out;
}

function stemsWithPositions(sentence: string): Array<{ stem: string; at: number }> {
  const words = sentence.split(/\s+/);
  const out: Array<{ stem: string; at: number }> = [];
  words.forEach((w, i) => {
    for (const c of contentWords(w)) {
      out.push({ stem: stem(c), at: i });
      for (const b of verbFormStems(c)) out.push({ stem: b, at: i });
    }
  });
  return out;
}

/**
 * "( June 23 , 1892 - August 24 , 1991 )": a lifespan gives the birth date first and the death date
 * second, with no verb next to either; a birth question prefers the first, a death question the second.
 */
function lifespanPreference(sentence: string, spans: Span[], weights: Map<string, number>): Span[] {
  const life = /\(\s*(?:born\s+)?([^()]*?\d{4})\s*[-–—]\s*([^()]*?\d{4})\s*\)/.exec(sentence);
  if (!life) return spans;
  const wantsDeath = ["death", "die", "died"].some((w) => weights.has(w));
  const wantsBirth = ["birth", "born"].some((w) => weights.has(w));
  if (wantsDeath === wantsBirth) return spans;
  const start = wordIndexAt(sentence, life.index!);
  const dash = wordIndexAt(sentence, life.index! + life[0].indexOf(life[2]!));
  const end = start + life[0].split(/\s+/).length;
  return spans.map((sp) => {
    if (sp.at < start || sp.at > end) return sp;
    const second = sp.at >= dash;
    return { ...sp, fit: sp.fit + (second === wantsDeath ? 0.6 : -0.3) };
  });
}

/** The subject a passage is about: its "Title :" prefix or the first name of its first sentence. */
function passageSubject(text: string): string | undefined {
  // Passage chunks open with the passage title on its own line (indexing/chunking), or "Title : text".
  const titled = /^([^\n]{2,80})\n/.exec(text) ?? /^([^\n:]{2,80}?) : /.exec(text);
  if (titled && !/[.!?]$/.test(titled[1]!.trim())) return titled[1]!.trim();
  return nameSpans(sentences(text)[0] ?? "", 1)[0]?.text;
}

/** Reads the best span from passage text (TEXT route). Exported for tests and fusion. */
/** Titles a bridged sub-query names ("… (about: A; B)"), normalised. */
function normalizedAboutTitles(subQuery: string): Set<string> {
  return new Set(
    aboutTitles(subQuery)
      .map((t) => normaliseForContainment(t))
      .filter((t) => t !== ""),
  );
}

/**
 * Preference for a block among the passages linked from the described row (bridge.ts): the passage
 * the question already names ("the men 's 66 kg event") describes the row; the answer is usually in
 * another linked passage (the medalist's), so linked passages the question does not name weigh most.
 */
function linkedBonus(
  subjectName: string | undefined,
  blockText: string,
  titles: Set<string>,
  questionNorm: string,
): number {
  if (titles.size === 0) return 0;
  const head = normaliseForContainment(subjectName ?? "");
  const first = normaliseForContainment(blockText.split("\n")[0] ?? "");
  const title = [...titles].find((t) => t === head || t === first || first.startsWith(`${t} `));
  if (!title) return 0;
  // Named: the title is in the question, or most of its words are ("men 's 66 kg" for the event's page).
  const words = keyStems(title);
  const asked = keyStems(questionNorm);
  const shared = [...words].filter((w) => asked.has(w)).length;
  return ` ${questionNorm} `.includes(` ${title} `) || (words.size > 0 && shared / words.size >= 0.5) ? 0.15 : 0.45;
}

/** The head noun of the asked phrase (askedPhraseOf): "architect" of "which architect rebuilt …". */
function askedNoun(question: string): string[] {
  const asking = askedPhraseOf(question);
  if (!asking || asking.words.length === 0) return [];
  return [asking.headLast ? asking.words.at(-1)! : asking.words[0]!];
}

/** Words of an asked phrase too general to place an answer ("what year", "which city", "the name of"). */
/**
 * "What rank did the club reach ?", "the college's final standing", "the best position achieved": an
 * ordinal answers ("28th", "seventh"). A bare "position" or "finish" is so read only with a word that ranks
 * it ("best", "final"): "what position does she play ?" asks a role.
 */
function asksRank(question: string): boolean {
  const words = askedPhraseOf(question)?.words.map((w) => w.toLowerCase()) ?? [];
  if (words.some((w) => /^(rank|ranking|standing|placement|placing)$/.test(w))) return true;
  return (
    words.some((w) => /^(position|finish|place)$/.test(w)) &&
    words.some((w) => /^(best|final|highest|lowest|top|worst|finishing)$/.test(w))
  );
}

const ORDINAL_RE = new RegExp(`\\b(?:\\d+(?:st|nd|rd|th)|${ORDINAL_WORDS.join("|")})\\b`, "gi");

/** For a rank question, the sentence's ordinals ("28th", "seventh") fit best. */
function rankPreference(sentence: string, spans: Span[], rank: boolean): Span[] {
  if (!rank) return spans;
  const ordinals = collect(sentence, ORDINAL_RE, 1.5).map((s) => ({ ...s, fit: /\d/.test(s.text) ? 1.5 : 1.2 }));
  const keys = new Set(ordinals.map((s) => `${s.at} ${s.text.toLowerCase()}`));
  return [...spans.filter((s) => !keys.has(`${s.at} ${s.text.toLowerCase()}`)), ...ordinals];
}

const GENERIC_ASKED_NOUNS = new Set("name year date number city country person one type kind".split(" "));
/** How far before (words) and after the span the asked noun may be written, and what that adds to its score. */
const ASKED_NOUN_BEFORE = 3;
const ASKED_NOUN_AFTER = 1;
const ASKED_NOUN_BONUS = 0.1;

/** What the asked thing's page (asked-entity-page.ts) adds to its spans' score; 0.3 lost a question on hybridqa/train. */
const ASKED_PAGE_BONUS = 0.2;

/** Weight of a question word the described row's cells hold, when reading its linked passages. */
const ROW_WORD_WEIGHT = 0.2;

export function readPassages(
  question: string,
  subQuery: string,
  plan: SubQueryPlan | undefined,
  evidence: string,
  rowWords?: ReadonlySet<string>,
): Reading | undefined {
  const [best] = readPassageSpans(question, subQuery, plan, evidence, rowWords, 1);
  return best && { answer: best.answer, coverage: best.coverage, context: best.context };
}

/** One scored span of the passage reader (reader-candidates.ts turns these into candidates). */
export interface ScoredSpan extends Reading {
  score: number;
  /** Evidence block (passage) and sentence index of the span. */
  block: number;
  sentence: number;
  /** How well the span's shape fits the asked kind (reader `Span.fit`). */
  fit: number;
  /** Bonus of its passage among the linked ones (0 when the question names no linked passage). */
  linked: number;
  /** Word index of the span in its sentence (-1: the passage's subject, not read from the sentence). */
  at: number;
  /** Share of the span's content words the question holds (its non-target words). */
  overlap: number;
  /** Question words near the span, idf-weighted and discounted by distance (share of the question's). */
  proximity: number;
}

/**
 * The passage reader's best spans, best first, one per distinct answer (its best-scored
 * occurrence), at most `k`. A description question yields its one describing sentence.
 */
export function readPassageSpans(
  question: string,
  subQuery: string,
  plan: SubQueryPlan | undefined,
  evidence: string,
  rowWords: ReadonlySet<string> | undefined,
  k: number,
): ScoredSpan[] {
  const kind = answerKindOf(plan, subQuery || question);
  const titles = normalizedAboutTitles(subQuery);
  // The linked passages' titles name the row's entities, not the answer: keep them out of the spans.
  const questionNorm = normaliseForContainment(`${question} ${subQuery}`);
  const weights = questionWeights(subQuery || question, question, plan);
  // Words the described row's cells hold located the row; they say little about where in its linked
  // passages the answer is.
  if (rowWords) for (const [s, w] of weights) if (rowWords.has(s)) weights.set(s, w * ROW_WORD_WEIGHT);
  const mentions = plan?.entityMentions ?? [];
  const blocks = parseBlocks(evidence);
  const targets = new Set(
    ((plan?.analysis?.["targetHints"] as string[] | undefined) ?? []).map((h) => stem(h.toLowerCase())),
  );
  const region = asksForRegion(question);
  const settlement = asksForSettlement(question);
  // Reading a described row's passages, the asked noun written just before the span ("the head coach is
  // X", "the architect X") or right after it ("the X festival") tells the asked relation's
  // sentence from one holding the words that describe the row.
  const askedNouns = rowWords
    ? new Set(
        askedNoun(question)
          .filter((w) => !GENERIC_ASKED_NOUNS.has(w))
          .flatMap((w) => [...keyStems(w)]),
      )
    : new Set<string>();
  // A question for several values ("… in 2021 and 2020, respectively") reads a "respectively" list:
  // as many amounts as the periods it names (two when it names none).
  const asked = questionPart(subQuery || question);
  const listed =
    (isNumericKind(kind) || kind === "entity") && cellOperation(asked) === "list"
      ? Math.max(2, new Set(asked.match(/\b(?:19|20)\d\d\b/g) ?? []).size)
      : 0;
  const askedYears = [...new Set(asked.match(/\b(?:19|20)\d\d\b/g) ?? [])];
  const askedYear = listed === 0 && askedYears.length === 1 ? askedYears[0] : undefined;
  const measure = asksMeasureWithoutUnit(question);
  const nationality = NATIONALITY_QUESTION.test(question);
  const rank = asksRank(question);
  // "What type of school …", "what sport …": the sentences' lower-case noun phrases are spans too (class-nouns.ts).
  const questionStems = keyStems(question);
  const classAsk = isNumericKind(kind) ? undefined : askedClass(question);
  // "What was the inn famous for ?": the words the passage writes after "famous for".
  // (Not for a time, which its own spans read, nor for a phrase naming the asked noun: "the X culture" beside "X".)
  const tails = isNumericKind(kind) || TIME_KINDS.has(kind) ? [] : questionTails(question);
  const askedStems = new Set(askedNoun(question).flatMap((w) => [...keyStems(w)]));
  // "How many acres …": the number written before "acres".
  // ("…, approximately how many images …", "… scored how many goals": the noun after a later "how many";
  // not the words after a copula, "… , how many are now run by …", which name no counted noun.)
  const howMany = /\bhow\s+(?:many|much)\b/i.exec(question);
  const later = howMany && howMany.index > 0 ? askedPhraseOf(question.slice(howMany.index)) : undefined;
  const counted = /^\s*(?:[a-z]+\s+)?how\s+(?:many|much)\b/i.test(question)
    ? keyStems((askedPhrase(question) ?? []).join(" "))
    : keyStems(later && !later.headLast ? later.words.join(" ") : (namedUnit(question) ?? ""));
  const units: Array<{
    sentence: string;
    stems: Set<string>;
    block: number;
    subject: Set<string>;
    subjectName?: string;
    linked: number;
  }> = [];
  const questionOnly = normaliseForContainment(question);
  const texts = blocks.map((b) =>
    b.text
      .split("\n")
      .filter((l) => !l.trim().startsWith("|") && !/^(Table name|Title):/.test(l.trim()))
      .join("\n"),
  );
  // Reading a described row's pages, the page of the thing the question asks about (asked-entity-page.ts).
  const askedPages = rowWords ? askedEntityPages(question, askedPhrase(question) ?? [], texts) : new Set<number>();
  blocks.forEach((_, bi) => {
    const text = texts[bi]!;
    const sents = sentences(text);
    const subject = sentenceStems(sents[0] ?? "");
    const subjectName = passageSubject(text);
    const linked = linkedBonus(subjectName, text, titles, questionOnly) + (askedPages.has(bi) ? ASKED_PAGE_BONUS : 0);
    for (const s of sents)
      units.push({ sentence: s, stems: sentenceStems(s), block: bi, subject, subjectName, linked });
  });
  if (units.length === 0 || weights.size === 0) return [];
  const idf = idfOver(units.map((u) => u.stems));
  let total = 0;
  for (const [s, w] of weights) total += w * idf(s);
  if (total === 0) return [];
  if (asksForDescription(question)) {
    const d = describingSentence(question, units, weights, idf, total);
    return d
      ? [{ ...d, score: d.coverage, block: 0, sentence: 0, fit: 1, linked: 0, at: 0, overlap: 0, proximity: 0 }]
      : [];
  }

  // Per distinct answer its best occurrence, and when that best was found (ties go to the earliest).
  const best = new Map<string, ScoredSpan & { seq: number }>();
  let seq = 0;
  let sentenceInBlock = 0;
  for (let ui = 0; ui < units.length; ui++) {
    const u = units[ui]!;
    sentenceInBlock = ui > 0 && units[ui - 1]!.block === u.block ? sentenceInBlock + 1 : 0;
    // ("She moved from Hamburg in 2023": a sentence opening with a pronoun speaks of the passage's subject, and
    // holds its words as if it named it.)
    const subjectShare = PRONOUN_LED.test(u.sentence) ? 1 : 0.5;
    let matched = 0;
    for (const [s, w] of weights) {
      if (u.stems.has(s)) matched += w * idf(s);
      else if (u.subject.has(s)) matched += subjectShare * w * idf(s);
    }
    if (matched === 0) continue;
    const coverage = Math.min(1, matched / total);
    const allPositions = stemsWithPositions(u.sentence);
    const positions = allPositions.filter((p) => weights.has(p.stem));
    const spans = demonymPreference(
      u.sentence,
      unitPreference(
        u.sentence,
        settlementPreference(
          regionPreference(
            lifespanPreference(u.sentence, rankPreference(u.sentence, spansFor(u.sentence, kind), rank), weights),
            region,
          ),
          settlement,
        ),
        counted,
      ),
      nationality,
    );
    if (listed >= 2) spans.push(...respectiveList(u.sentence, listed));
    // One year of a "respectively" list: its own amount, not the other years'.
    const paired = askedYear && isNumericKind(kind) ? respectiveAmount(u.sentence, askedYear) : undefined;
    if (paired) {
      const others = spans.filter((sp) => !paired.listed.some((l) => l.at === sp.at && l.text === sp.text));
      spans.splice(0, spans.length, ...others, paired.pick);
    }
    if (classAsk) spans.push(...classNounSpans(u.sentence, (w) => [...keyStems(w)].some((s) => questionStems.has(s))));
    for (const tail of tails) {
      const after = tailPhraseSpans(u.sentence, tail).filter(
        (t) => !contentWords(t.text).some((w) => askedStems.has(stem(w))),
      );
      spans.push(...after);
      if (after.length > 0) break;
    }
    // The passage subject answers "which X …" questions whose clues are in its own passage.
    if (u.subjectName && (kind === "person" || kind === "place" || kind === "entity" || kind === "text"))
      spans.push({ text: u.subjectName, at: -1, fit: 0.8 });
    for (const span of spans) {
      if (namedByQuestion(span.text, questionNorm, mentions)) continue;
      const spanStems = new Set(contentWords(span.text).map(stem));
      // The asked-for noun inside a span ("River Tamsin" for "which river") supports it.
      const namesTarget = [...spanStems].some((s) => targets.has(s));
      const inQuestion = [...spanStems].filter((s) => weights.has(s) && !targets.has(s)).length;
      if (spanStems.size > 0 && inQuestion === spanStems.size) continue;
      // Keyword proximity: every matched question word near the span counts, the nearer the more.
      const nearest = new Map<string, number>();
      for (const p of positions) {
        if (spanStems.has(p.stem)) continue;
        const d = span.at < 0 ? 4 : p.at < span.at ? span.at - p.at : (p.at - span.at) * 1.5;
        const w = ((weights.get(p.stem) ?? 0) * idf(p.stem)) / (1 + d / 3);
        nearest.set(p.stem, Math.max(nearest.get(p.stem) ?? 0, w));
      }
      let near = 0;
      for (const w of nearest.values()) near += w;
      const proximity = near / total;
      const overlap = spanStems.size > 0 ? inQuestion / spanStems.size : 0;
      const nounNear =
        askedNouns.size > 0 &&
        span.at >= 0 &&
        allPositions.some(
          (p) =>
            askedNouns.has(p.stem) &&
            !spanStems.has(p.stem) &&
            p.at >= span.at - ASKED_NOUN_BEFORE &&
            p.at <= span.at + span.text.split(/\s+/).length - 1 + ASKED_NOUN_AFTER,
        );
      const score =
        (nounNear ? ASKED_NOUN_BONUS : 0) +
        coverage * 2 +
        proximity * 1.5 +
        span.fit * 0.5 -
        overlap * 0.8 +
        (namesTarget ? 0.4 : 0) +
        u.linked -
        u.block * 0.02;
      const answer = cleanAnswer(measure ? withMeasureUnit(u.sentence, span) : span.text);
      const key = normaliseForContainment(answer);
      const seen = best.get(key);
      if (!seen || score > seen.score)
        best.set(key, {
          answer,
          coverage,
          context: u.sentence,
          score,
          block: u.block,
          sentence: sentenceInBlock,
          fit: span.fit,
          linked: u.linked,
          at: span.at,
          overlap,
          proximity,
          seq: seq++,
        });
    }
  }
  return [...best.values()]
    .sort((a, b) => b.score - a.score || a.seq - b.seq)
    .slice(0, k)
    .map(({ seq: _seq, ...span }) => span);
}

/** A cause clause from its marker ("primarily due to …", "driven by …") to the sentence end. */
const CAUSE_RE =
  /\b(?:(?:primarily|mainly|largely|principally|partly)\s+)?(?:due to|driven by|as a result of|attributable to|because of|resulting from)\b/i;

/**
 * A sentence that restates the question before answering it gives the answer after the restatement:
 * "X consisted of A" for "What does X consist of?", "The principal activities … were A" for "What were
 * the principal activities …?", "X provides liquidity through several sources: A, B" after its colon.
 * Otherwise the whole sentence, without a leading connective ("Therefore, …").
 */
function restatedAnswer(asked: string, sentence: string): string {
  const s = sentence.replace(
    /^\s*(?:therefore|however|accordingly|in addition|additionally|as a result|consequently|furthermore|moreover)\s*,\s*/i,
    "",
  );
  const consist = /^\s*what\s+(?:does|do|did)\s.+\b(consist of|comprise)\s*\??\s*$/i.exec(asked);
  const verb = consist ? /\b(?:consist(?:s|ed)? of|compris(?:es|ed))\s+/i.exec(s) : null;
  if (verb) return s.slice(verb.index + verb[0].length);
  const colon = /:\s+/.exec(s);
  if (colon && colon.index > s.length / 4) return s.slice(colon.index + colon[0].length);
  const copula = /^\s*what\s+(is|are|was|were)\s+(.+?)\s*\??\s*$/i.exec(asked);
  if (copula) {
    const subject = keyStems(copula[2]!);
    const at = new RegExp(`\\s${copula[1]}\\s`, "i").exec(s);
    const before = at ? keyStems(s.slice(0, at.index)) : new Set<string>();
    if (at && subject.size > 0 && [...subject].filter((w) => before.has(w)).length >= Math.ceil(subject.size * 0.6))
      return s.slice(at.index + at[0].length);
  }
  return s;
}

/**
 * A description question (answer-kind.ts asksForDescription) is answered by the sentence that covers
 * most of its words; a reason question by that sentence's cause clause when it has one.
 */
function describingSentence(
  question: string,
  units: Array<{ sentence: string; stems: Set<string>; block: number }>,
  weights: Map<string, number>,
  idf: (s: string) => number,
  total: number,
): Reading | undefined {
  const asked = questionPart(question);
  const reason = /^\s*(why\b|what\b.*\b(reasons?|caused?|drove|drivers?|led to)\b)/i.test(asked);
  let best: { sentence: string; coverage: number; score: number } | undefined;
  units.forEach((u, i) => {
    let matched = 0;
    for (const [s, w] of weights) if (u.stems.has(s)) matched += w * idf(s);
    const coverage = Math.min(1, matched / total);
    // A reason question's answer sentence states the cause ("… due to …").
    const score = coverage + (reason && CAUSE_RE.test(u.sentence) ? 0.25 : 0);
    if (coverage === 0 || (best && score <= best.score)) return;
    // "X increased by $14 million. The increase is mainly attributable to …": the cause follows.
    const next = units[i + 1];
    const sentence =
      reason && !CAUSE_RE.test(u.sentence) && next && next.block === u.block && CAUSE_RE.test(next.sentence)
        ? next.sentence
        : u.sentence;
    best = { sentence: sentence.replace(/^\s*(?:\(\w{1,3}\)|[•●▪*-])\s*/, ""), coverage, score };
  });
  if (!best) return undefined;
  const cause = reason ? CAUSE_RE.exec(best.sentence) : null;
  // "How are X stated?" — "X are stated at cost, …", "When is goodwill considered impaired?" — "… is
  // considered impaired if …": what follows the question's closing participle ("defined as", "related to" drop their particle).
  const participle =
    /^\s*(?:how|when|what|where)\s+(?:is|are|was|were)\b.*\s(\w+ed(?:\s+(?:as|to|in))?)(?:\s+(?:in|on|within|by)\s+(?:the|its|their)\s+[\w\s]+)?\s*\??\s*$/i.exec(
      asked,
    )?.[1];
  const manner = participle
    ? new RegExp(`\\b${participle.replace(/\s+/g, "\\s+")}\\b\\s*`, "i").exec(best.sentence)
    : null;
  const answer = cause
    ? best.sentence.slice(cause.index)
    : manner
      ? best.sentence.slice(manner.index + manner[0].length)
      : restatedAnswer(asked, best.sentence);
  return { answer: cleanAnswer(answer), coverage: best.coverage, context: best.sentence };
}

function rowCellsNorm(row: EvidenceRow): string[] {
  return row.cells.map((c) => normaliseForContainment(c.value));
}

/** Does this row hold the linked value (exact, or LIKE-containment for fuzzy level-2 links)? */
function holdsBinding(row: EvidenceRow, b: LinkedValue): boolean {
  if (!b.matchedValue) return false;
  const v = normaliseForContainment(b.matchedValue);
  return row.cells.some((c) => {
    const cv = normaliseForContainment(c.value);
    return b.fallbackLevel === 2 ? cv.includes(v) : cv === v;
  });
}

/** Reads one cell from table rows (RETRIEVE route). Exported for tests and fusion. */
export function readTableRows(
  question: string,
  subQuery: string,
  plan: SubQueryPlan | undefined,
  rows: EvidenceRow[],
  bindings: LinkedValue[] = [],
): Reading | undefined {
  const [best] = readTableCells(question, subQuery, plan, rows, bindings, 1);
  return best && { answer: best.answer, coverage: best.coverage, context: best.context };
}

/** One scored cell of the row reader. */
export interface ScoredCell extends Reading {
  score: number;
  /** Index of its row in the rows read, and its column. */
  row: number;
  column: string;
}

/**
 * The row reader's best cells, best first, one per distinct value, at most `k`; none when the best
 * is a value the question itself names (a filter, not an answer).
 */
export function readTableCells(
  question: string,
  subQuery: string,
  plan: SubQueryPlan | undefined,
  rows: EvidenceRow[],
  bindings: LinkedValue[],
  k: number,
): ScoredCell[] {
  if (rows.length === 0) return [];
  const kind = answerKindOf(plan, subQuery || question);
  const weights = questionWeights(subQuery || question, question, plan);
  const questionNorm = normaliseForContainment(`${question} ${subQuery}`);
  const mentions = plan?.entityMentions ?? [];
  const matched = bindings.filter((b) => b.matchedValue);
  const bindingValues = new Set(matched.map((b) => normaliseForContainment(b.matchedValue!)));
  const rowStems = rows.map((r) => keyStems(r.cells.map((c) => c.value).join(" ")));
  const headerStems = new Map<string, Set<string>>();
  for (const r of rows)
    for (const c of r.cells) if (!headerStems.has(c.column)) headerStems.set(c.column, keyStems(c.column));
  const idf = idfOver([...rowStems, ...headerStems.values()]);
  let total = 0;
  for (const [s, w] of weights) total += w * idf(s);
  if (total === 0) return [];

  const best = new Map<string, ScoredCell & { seq: number }>();
  let seq = 0;
  rows.forEach((row, ri) => {
    let rowScore = 0;
    for (const b of matched) if (holdsBinding(row, b)) rowScore += 3;
    let rowMatched = 0;
    for (const [s, w] of weights) if (rowStems[ri]!.has(s)) rowMatched += w * idf(s);
    const norms = rowCellsNorm(row);
    row.cells.forEach((cell, ci) => {
      const value = cell.value.trim();
      if (value === "" || value === "-" || value === "—") return;
      const hs = headerStems.get(cell.column)!;
      let headerMatched = 0;
      for (const [s, w] of weights) if (hs.has(s)) headerMatched += w * idf(s);
      // Words of this cell found in the question are filter words, not evidence for the answer.
      const own = keyStems(value);
      let ownMatched = 0;
      for (const [s, w] of weights) if (own.has(s)) ownMatched += w * idf(s);
      const isFilter = bindingValues.has(norms[ci]!) || namedByQuestion(value, questionNorm, mentions);
      const fit = fitsKind(value, kind) ? 1 : kind === "entity" || kind === "text" ? 0.5 : -1;
      const coverage = Math.min(1, (rowMatched - ownMatched + headerMatched) / total);
      const score =
        rowScore + coverage * 2 + (headerMatched / total) * 1.5 + fit * 0.6 - (isFilter ? 3 : 0) - ri * 0.01;
      const answer = cleanAnswer(value);
      const key = normaliseForContainment(answer);
      const seen = best.get(key);
      if (!seen || score > seen.score) {
        const context = row.cells.map((c) => `${c.column}: ${c.value}`).join(" | ");
        best.set(key, {
          answer,
          coverage: isFilter ? 0 : coverage,
          context,
          score,
          row: ri,
          column: cell.column,
          seq: seq++,
        });
      }
    });
  });
  const ranked = [...best.values()].sort((a, b) => b.score - a.score || a.seq - b.seq);
  if (ranked.length === 0 || ranked[0]!.coverage === 0) return [];
  return ranked
    .filter((c) => c.coverage > 0)
    .slice(0, k)
    .map(({ seq: _seq, ...cell }) => cell);
}

/** Minimum confidence of a located cell answer (fraction of the question's row words matched). */
export const CELL_CONFIDENCE = 0.5;

/**
 * Report tables (row label × period): arithmetic questions are computed from the located cells and
 * period lookups read the located cell; undefined when the evidence has no such table.
 */
function cellReading(
  question: string,
  rows: EvidenceRow[],
  evidence: string,
  passagesOf?: TablePassages,
): CellAnswer | undefined {
  const cells = answerFromCells(question, rows, evidence, { passagesOf });
  return cells && cells.periodTable && cells.confidence >= CELL_CONFIDENCE ? cells : undefined;
}

/** TEXT route: the best span of the passages, or of table chunks when those cover more. */
export function readTextWith(input: ReadTextInput, scaleContext = "", passagesOf?: TablePassages): string {
  // A question that asks for a clause ("When does X apply?") is answered by the clause reader.
  const clause = readClause(input.subQuery || input.question, input.evidence);
  if (clause) return clause.answer;
  const [fromText] = readPassageSpans(input.question, input.subQuery, input.plan, input.evidence, undefined, 1);
  const rows = parseBlocks(input.evidence).flatMap((b) => parseMarkdownRows(b.text, b.source));
  // A description question is answered from the passages, not from a table cell.
  if (asksForDescription(input.question)) return fromText?.answer || NOT_FOUND;
  const cells = cellReading(input.subQuery || input.question, rows, `${input.evidence}\n${scaleContext}`, passagesOf);
  // The report's table answers, unless a passage states what its located row does not (reading-choice.ts).
  if (cells) return fromText && passageWins(cells, fromText) ? fromText.answer : cells.answer;
  const fromRows = readTableRows(input.question, input.subQuery, input.plan, rows);
  const pick = [fromText, fromRows].filter((r): r is Reading => !!r).sort((a, b) => b.coverage - a.coverage)[0];
  if (!pick || !pick.answer) return NOT_FOUND;
  return pick === fromRows
    ? formatForQuestion(pick.answer, input, `${input.evidence}\n${scaleContext}`, true)
    : pick.answer;
}

/** RETRIEVE route: the value at (target row, target column) of the table context. */
export function readRowsWith(input: ReadRowsInput, scaleContext = "", passagesOf?: TablePassages): string {
  const rows = parseRows(input.tableContext);
  const evidence = `${input.schemaInfo}\n${input.tableContext}`;
  const cells = cellReading(input.subQuery || input.question, rows, `${evidence}\n${scaleContext}`, passagesOf);
  if (cells) return cells.answer;
  const reading = readTableRows(input.question, input.subQuery, input.plan, rows, input.bindings);
  if (!reading || !reading.answer) return NOT_FOUND;
  return formatForQuestion(reading.answer, input, `${evidence}\n${scaleContext}`, true);
}

/** Strategies.readText (no scale context). */
export async function readText(input: ReadTextInput): Promise<string> {
  return readTextWith(input);
}

/** Strategies.readRows (no scale context). */
export async function readRows(input: ReadRowsInput): Promise<string> {
  return readRowsWith(input);
}

/**
 * Names the passages linked from the table row a question describes (bridge.ts), or undefined;
 * with `findRow`, also gives that row itself.
 */
export type Bridge = ((question: string, tableHint?: string) => string | undefined) & {
  findRow?: (question: string, tableHint?: string) => DescribedRow | undefined;
};

const LEAD_PREPOSITION = /^(in|on|at|for|from|to|of|by|during|with|into|under)$/;
const BE = /^(is|was|are|were|'s)$/;
const DO_OR_HAVE = /^(did|does|do|has|have|had|can|could|will|would)$/;
const PHRASE_END = new Set(
  "of for in on at by with from to into that who whom whose which where when did does do is was are were has have had and or as the a an".split(
    " ",
  ),
);

/**
 * The noun phrase a question's leading wh-word asks for: "What position does …" → position,
 * "What is the stadium capacity of …" → stadium capacity, "In which venue …" → venue,
 * "How many goals …" → goals. Empty when the wh-word names no noun ("Where did …", "Who did the
 * champion beat": the words after do/did are the subject); undefined when the question does not
 * open with a wh-word ("The 1998 champion is from what country ?": its opening describes the row).
 */
export function askedPhrase(question: string): string[] | undefined {
  return askedPhraseOf(question)?.words;
}

/**
 * The asked phrase and where its head noun is: last after a copula or "name of" ("what is the
 * stadium capacity …"), first otherwise, where a verb may follow the noun ("which player transferred …").
 */
export function askedPhraseOf(question: string): { words: string[]; headLast: boolean } | undefined {
  const words = question
    .toLowerCase()
    .replace(/[?]/g, " ")
    .split(/\s+/)
    .filter((w) => w !== "");
  let i = LEAD_PREPOSITION.test(words[0] ?? "") && /^(what|which)$/.test(words[1] ?? "") ? 1 : 0;
  const wh = words[i++];
  if (!wh || !/^(what|which|who|whom|where|when|how)$/.test(wh)) return trailingPhrase(words);
  const none = { words: [], headLast: true };
  if (wh === "where" || wh === "when") return none;
  if (wh === "how") {
    if (!/^(many|much)$/.test(words[i] ?? "")) return none;
    i++;
  }
  let headLast = false;
  if (BE.test(words[i] ?? "")) {
    headLast = true;
    i++;
    if (/^(the|a|an)$/.test(words[i] ?? "")) i++;
  } else if (DO_OR_HAVE.test(words[i] ?? "")) return none;
  const out: string[] = [];
  while (i < words.length && !PHRASE_END.has(words[i]!) && out.length < 4) out.push(words[i++]!);
  // "What is the name of the film …": the name of what follows.
  if (out.length === 1 && /^(name|title)$/.test(out[0]!) && words[i] === "of") {
    headLast = true;
    i += /^(the|a|an)$/.test(words[i + 1] ?? "") ? 2 : 1;
    for (let n = 0; i < words.length && !PHRASE_END.has(words[i]!) && n < 6; n++) out.push(words[i++]!);
  }
  return { words: out, headLast };
}

/** "The host … was a guest on what date ?": a what/which phrase that ends the question asks; one inside it is relative. */
function trailingPhrase(words: readonly string[]): { words: string[]; headLast: boolean } | undefined {
  const j = Math.max(words.lastIndexOf("what"), words.lastIndexOf("which"));
  // "on what date", "is what nationality"; after a noun ("the club which …") it is relative.
  // "… plays what position": after a verb, a closing "what" phrase asks too ("which" after a noun is relative).
  const closingWhat = words[j] === "what" && words.length - j - 1 <= 2;
  if (j < 1 || !(LEAD_PREPOSITION.test(words[j - 1]!) || BE.test(words[j - 1]!) || closingWhat)) return undefined;
  const out = words.slice(j + 1);
  return out.length > 0 && out.length <= 4 && out.every((w) => !PHRASE_END.has(w))
    ? { words: out, headLast: true }
    : undefined;
}

/** Words of a phrase or header for matching one to the other: lower case, stemmed, stop words kept ("name", "number"). */
export function matchWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== "" && !PHRASE_END.has(w))
    .map(stem);
}

/**
 * How well a column header carries the asked phrase: 0 when no word matches, else higher for later
 * phrase words (the head noun ends the phrase: "stadium capacity" asks for the capacity). A header
 * word of three letters or more may abbreviate a phrase word ("Pos" for position).
 */
export function headerFit(phrase: readonly string[], headLast: boolean, header: string): number {
  const heads = matchWords(header);
  let fit = 0;
  phrase.forEach((p, i) => {
    if (heads.some((h) => h === p || (h.length >= 3 && p.startsWith(h)) || agentOf(h, p) || sameSpelling(h, p)))
      fit = Math.max(fit, headLast ? i + 1 : phrase.length - i);
  });
  return fit;
}

/** "Manufacturer" of "manufactured", "Director" of "directed", "Composer" of "composed": the header names who does the asked verb. */
function agentOf(header: string, verb: string): boolean {
  return verb.length >= 4 && /^(?:er|or|r)$/.test(header.slice(verb.length)) && header.startsWith(verb);
}

/** "Colour" and "color", "Centre" and "center", "metre" and "meter": one word in British and American spelling. */
function sameSpelling(a: string, b: string): boolean {
  const key = (w: string) => w.replace(/our$/, "or").replace(/tre$/, "ter");
  return a !== b && a.length >= 4 && key(a) === key(b);
}

/**
 * A header holding every word of an asked phrase of two words or more ("catchment area"): it
 * names the column whatever kind the phrase's last noun suggests ("area" asks a measure elsewhere).
 */
function spellsPhrase(words: readonly string[], header: string): boolean {
  const heads = new Set(matchWords(header));
  return words.length >= 2 && words.every((w) => heads.has(w));
}

/** Does a cell have the shape the asked kind needs (a year for "what year", digits for a number)? */
export function cellFitsShape(value: string, kind: AnswerKind): boolean {
  if (kind === "date") return timeLike(value);
  if (kind === "year" || kind === "month") return fitsKind(value, kind);
  if (isNumericKind(kind)) return /\d/.test(value);
  return true;
}

/**
 * The cell of the row the question describes that its wh-phrase asks for: the column whose header
 * names the phrase ("What position …" → Position), or the row's person for "who won …"; undefined
 * when the phrase names no cell (the answer is then in the row's linked passages).
 */
export function askedCell(
  input: Pick<ReadTextInput, "question" | "subQuery" | "plan">,
  row: DescribedRow,
): string | undefined {
  const value = askedCellValue(input, row);
  // "The middle name of …": read from the person's page, whether or not a cell is asked.
  const namePart = rowNamePart(input.question, row, value);
  if (namePart !== undefined) return namePart;
  // "When was the keeper born ?": the person's page's opening brackets, unless a cell holds the time.
  const life = value === undefined || !timeLike(value) ? rowLifeDate(input.question, row, value) : undefined;
  if (life !== undefined) return life;
  if (value === undefined) return undefined;
  const cell = withoutTrailingNote(value);
  return asksForSettlement(input.question) ? withoutRegion(cell) : cell;
}

/**
 * A cell without the note in parentheses that ends it ("Jane Roe ( Captain )", "1647 ( Completed )",
 * "12 km ( 7 mi )"): the note qualifies the value. On hybridqa/train, of the gold table answers whose
 * cell ends in such a note, 8 drop it and 3 keep it (all 3 a note after no value: "? ? ( on hold )").
 * A results table's "details" link word and a native-script name with its reading after the English
 * one ("Moss Hall 苔の館 Koke no yakata") go too: no gold answer of hybridqa/train or dev keeps them.
 */
export function withoutTrailingNote(value: string): string {
  const core = value
    .replace(/\s*\([^()]*\)\s*$/, "")
    .replace(/(?<=[\p{Script=Latin}\d])\s+details$/u, "")
    .replace(
      /(?<=[\p{Script=Latin}\d])\s+[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}].*$/u,
      "",
    )
    .trim();
  return /[\p{L}\p{N}]/u.test(core) ? core : value;
}

function askedCellValue(
  input: Pick<ReadTextInput, "question" | "subQuery" | "plan">,
  row: DescribedRow,
): string | undefined {
  const cells: EvidenceRow = {
    tableId: row.tableId,
    rowIdx: row.rowId,
    cells: row.columns.map((column, i) => ({ column, value: row.values[i] ?? "" })),
  };
  const fromRow = readTableRows(input.question, withoutColumnNote(input.subQuery), input.plan, [cells]);
  // "This club dates from 1968 and … ?": which thing it is, the row's own.
  if (asksWhichItIs(input.question)) {
    const own = nameCellOf(row.columns, row.values);
    if (own !== undefined) return cleanAnswer(own);
  }
  const asking = askedPhraseOf(input.question);
  if (asking === undefined) return undefined;
  const phrase = asking.words;
  const words = matchWords(phrase.join(" "));
  const questionNorm = normaliseForContainment(input.question);
  const kind = answerKindOf(input.plan, withoutColumnNote(input.subQuery) || input.question);
  // Columns the asked phrase names (its head noun first), holding a value of the asked shape the question does not already name.
  const asked = cells.cells
    .map((c) => ({ ...c, fit: headerFit(words, asking.headLast, c.column) }))
    .filter(
      (c) =>
        c.fit > 0 &&
        c.value.trim() !== "" &&
        !namedByQuestion(c.value, questionNorm, []) &&
        (cellFitsShape(c.value, kind) || spellsPhrase(words, c.column)) &&
        !lifeEventElsewhere(input.question, kind, c.column),
    )
    .sort((a, b) => b.fit - a.fit);
  const best = asked.filter((c) => c.fit === asked[0]?.fit);
  if (fromRow && best.some((c) => normaliseForContainment(c.value) === normaliseForContainment(fromRow.answer)))
    return fromRow.answer;
  if (asked.length > 0) return cleanAnswer(asked[0]!.value);
  const time = timeCell(input.question, cells, questionNorm, kind);
  if (time !== undefined) return time;
  const own = rowEntity(input.question, phrase, asking.headLast, row, cells, questionNorm, kind);
  if (own !== undefined) return own;
  // "Who won bronze …": the row's person column ("Name", "Player", …) when the question does not name
  // its value. Not for "Who did the champion beat ?" (the row's person is the subject) nor "Who was the
  // coach of the medalist ?" (a person related to the row's: the answer is in a passage).
  // "Which player scored …", "What singer recorded …": a person noun asked with which/what names the row's person too.
  const whichPerson =
    kind === "person" &&
    /^\s*(?:\w+\s+)?(which|what)\s+(?!is\b|was\b|are\b|were\b|do\b|does\b|did\b)\w/i.test(input.question);
  if (
    whichPerson ||
    (/^\s*who\b/i.test(input.question) &&
      phrase.length > 0 &&
      !/\bof\b/i.test(input.question) &&
      !describesRowPerson(input.question))
  ) {
    const person = cells.cells.find(
      (c) =>
        c.value.trim() !== "" &&
        headerSuitsKind(c.column.split(/[\s_]+/), "person") &&
        !makerNotNamed(input.question, c.column) &&
        !namedByQuestion(c.value, questionNorm, []),
    );
    if (person) return cleanAnswer(person.value);
  }
  return undefined;
}

/**
 * "Who married the singer of …", "Who trained the baker whose shop …": a "who" question that describes a person
 * of its own ("the singer", past its opening "who is the NOUN") asks for someone related to the row's person,
 * told in the passages, not for that person.
 */
function describesRowPerson(question: string): boolean {
  const words = question.toLowerCase().match(/[a-z]+/g) ?? [];
  const start = /^(is|was|are|were)$/.test(words[1] ?? "") && words[2] === "the" ? 4 : 1;
  return words.some(
    (w, i) => i >= start && /^(the|a|an|his|her|its|their)$/.test(words[i - 1] ?? "") && PEOPLE_NOUNS.includes(w),
  );
}

/** A birth or death the question asks about: not "the singer born on 3 May 1977", which names the row. */
const LIFE_EVENT = new RegExp(
  `\\b(?:born|birth|die|died|dies|death)\\b(?!\\s+(?:on\\s+|in\\s+)?(?:\\d|(?:${MONTHS})\\b))`,
  "i",
);
/**
 * "What year was the singer of the hit born ?" over a row whose Year is the hit's: a birth or a death is
 * the person's page's to tell, unless the header names it ("Born", "Date of death", "Life").
 */
function lifeEventElsewhere(question: string, kind: AnswerKind, header: string): boolean {
  return (
    (kind === "year" || kind === "date" || kind === "month") &&
    LIFE_EVENT.test(question) &&
    !/\b(born|birth|died|death|life|lifespan|dob)\b/i.test(header)
  );
}

/** Time words a header shares with most time questions ("Date", "Year"): they name no event. */
const TIME_WORDS = new Set(["date", "year", "day", "month", "time", "when", "what", "which"]);

/** A day, month or year: "9 June", "March 14 , 2013", "c. 1509", "2021". */
function timeLike(value: string): boolean {
  return fitsKind(value, "date") || new RegExp(`\\b\\d{1,2}\\s+(?:${MONTHS})\\b`, "i").test(value);
}

/**
 * "When did the show first debut ?", "What year did the composer die ?": a time question whose
 * phrase names no header may name the event a time column records ("Debut date", "Died",
 * "Expected completion") by one of its other words; the row's cell there answers it.
 */
function timeCell(question: string, cells: EvidenceRow, questionNorm: string, kind: AnswerKind): string | undefined {
  if (kind !== "date" && kind !== "year" && kind !== "month") return undefined;
  // "When did the newest launched trawler sink ?": "launched" picks the row, "sink" is asked.
  const ordering = new Set([...besideSuperlative(question)].flatMap((w) => matchWords(w)));
  const asked = matchWords(question).filter((w) => !TIME_WORDS.has(w) && !ordering.has(w));
  const meets = (h: string) =>
    asked.some((w) => w === h || (Math.min(w.length, h.length) >= 3 && (w.startsWith(h) || h.startsWith(w))));
  const hit = cells.cells.find(
    (c) =>
      matchWords(c.column).some((h) => !TIME_WORDS.has(h) && meets(h)) &&
      timeLike(c.value) &&
      !namedByQuestion(c.value, questionNorm, []),
  );
  return hit && cleanAnswer(hit.value);
}

/** Wh-nouns that ask for an attribute of a row, not for the row's own entity ("what kind of …"). */
const ATTRIBUTE_NOUN =
  /^(kind|type|sort|year|date|month|day|time|number|amount|percentage|population|nationality|position|rank|score|role|genre|style|color|colour|language)$/;

/**
 * "Which station broadcasts to the town on the river …", "Which college runs the faculty of law …": a
 * "which/what NOUN" question whose noun no header names may ask for the row itself. It does when the
 * page linked from the row's name cell ("Name", "Title", else the first text column; not one the
 * question names) says in its first sentence that it is one ("… is a radio station"); otherwise the
 * noun is something the row's passages tell of. (The question may name the row's other cells: on
 * hybridqa/train, requiring it to name none lost 2 table answers and gained none.)
 */
function rowEntity(
  question: string,
  phrase: readonly string[],
  headLast: boolean,
  row: DescribedRow,
  cells: EvidenceRow,
  questionNorm: string,
  kind: AnswerKind,
): string | undefined {
  if (!/^\s*(?:\w+\s+)?(which|what)\s+(?!is\b|was\b|are\b|were\b|do\b|does\b|did\b)/i.test(question)) return undefined;
  if (
    phrase.length === 0 ||
    ATTRIBUTE_NOUN.test(phrase[0]!) ||
    isNumericKind(kind) ||
    kind === "date" ||
    kind === "year"
  )
    return undefined;
  const text = (v: string) => v.trim() !== "" && !/^[\d\s,.:%$€£()+-]+$/.test(v) && !isYear(v.trim());
  const noun = stem(headLast ? phrase[phrase.length - 1]! : phrase[0]!);
  // The row's name cell: "Name", "Title", else the first text column; a cell the question names is no answer.
  const named = cells.cells.findIndex((c) => /^(name|title)\b/i.test(c.column.trim()) && text(c.value));
  const column = named >= 0 ? named : cells.cells.findIndex((c) => text(c.value));
  const value = cells.cells[column]?.value ?? "";
  if (column < 0 || namedByQuestion(value, questionNorm, [])) return undefined;
  const page = row.passages.find((p) => p.cells?.some(([r, c]) => r === row.rowId && c === column));
  return pageSaysItIs(page?.text ?? "").has(noun) ? cleanAnswer(value) : undefined;
}

/** A passage as the index chunks it: its title on the first line, then its text. */
function passageBody(p: Passage): string {
  return p.title && !p.text.startsWith(p.title) ? `${p.title}\n${p.text}` : p.text;
}

/**
 * The best spans of every passage the described row links to, read in full (retrieval's top chunks
 * often miss the one the answer is in); `block` is the index in `row.passages` of the non-empty ones.
 * Each carries its share P under the learned span scorer (span-rerank.ts); the order is the hand
 * score's unless `orderWeights` says otherwise.
 */
export function describedRowSpans(
  input: Pick<ReadTextInput, "question" | "subQuery" | "plan">,
  row: DescribedRow,
  k: number,
  orderWeights: readonly number[] = SPAN_ORDER_WEIGHTS,
): Array<Reranked<ScoredSpan>> {
  const spans = handRowSpans(input, row, Math.max(k, SPAN_RERANK_K));
  const context = rowRerankContext(input, row);
  const relative = relativeClauseOf(input.question, keyStems(row.values.join(" ")));
  return doubtfulLast(restatedLast(rerankSpans(spans, context, orderWeights), relative), context.kind).slice(0, k);
}

/** The described row's spans in the hand score's order (before the re-ranking). */
export function handRowSpans(
  input: Pick<ReadTextInput, "question" | "subQuery" | "plan">,
  row: DescribedRow,
  k: number,
): ScoredSpan[] {
  const linked = row.passages.filter((p) => p.text.trim() !== "");
  if (linked.length === 0) return [];
  const subQuery = /\(about:/.test(input.subQuery)
    ? input.subQuery
    : `${input.subQuery} (about: ${[...new Set(row.passages.map((p) => p.title ?? ""))].join("; ")})`;
  return readPassageSpans(
    input.question,
    subQuery,
    input.plan,
    linked.map((p) => `[Source: ${p.file}]\n${passageBody(p)}`).join("\n\n"),
    keyStems(row.values.join(" ")),
    k,
  );
}

/** What the span re-ranking (span-rerank.ts) reads of the question and the row. */
export function rowRerankContext(
  input: Pick<ReadTextInput, "question" | "subQuery" | "plan">,
  row: DescribedRow,
): RerankContext {
  return {
    kind: answerKindOf(input.plan, input.subQuery || input.question),
    question: input.question,
    passages: row.passages.map((p) => normaliseForContainment(p.text)),
  };
}

/**
 * The row the (sub-)question describes in the plan's grounded table or a table of the evidence,
 * with the passages its cells link to (bridge.ts); undefined without a bridge or such a row.
 */
export function describedRowOf(
  bridge: Bridge | undefined,
  input: { question: string; subQuery: string; plan?: SubQueryPlan },
  evidence: string,
): DescribedRow | undefined {
  if (!bridge?.findRow) return undefined;
  const grounded = (input.plan?.analysis?.["grounding"] as { tableId?: string } | undefined)?.tableId;
  for (const id of [grounded, ...tableIdsIn(evidence)]) {
    if (!id) continue;
    const row = bridge.findRow(questionPart(input.subQuery) || input.question, id);
    if (row) return row;
  }
  return undefined;
}

/** The described row's cells and linked passages as `[Source: …]` blocks, as the reader reads them. */
export function describedRowEvidence(row: DescribedRow): string {
  const cells = row.columns.map((c, i) => `${c}: ${row.values[i] ?? ""}`).join(" | ");
  const passages = row.passages
    .filter((p) => p.text.trim() !== "")
    .map((p) => `[Source: ${p.file}]\n${passageBody(p)}`);
  return [`[Source: ${row.tableId}]\n${cells}`, ...passages].join("\n\n");
}

/** The TEXT input whose sub-query names the passages linked from the row of an evidence table (bridge.ts). */
export function bridgedInput(bridge: Bridge | undefined, input: ReadTextInput): ReadTextInput {
  if (!bridge || /\(about:/.test(input.subQuery)) return input;
  for (const id of tableIdsIn(input.evidence)) {
    const subQuery = bridge(withoutColumnNote(input.subQuery) || input.question, id);
    if (subQuery) return { ...input, subQuery };
  }
  return input;
}
