/**
 * The kind of value a question asks for (number, year, person, place, …) and whether a candidate
 * string has that shape. Shared by the offline reader (to pick spans), the rule verifier (type
 * agreement) and synthesis. The question analysis of the offline decomposer may already carry an
 * expected answer type in `plan.analysis`; `answerKindOf` prefers it and falls back to the wh-word.
 */
import { parseDate, parseNumber } from "../../indexing/column-types.js";
import type { SubQueryPlan } from "../types.js";
import { questionPart } from "./evidence.js";
import { clauseAsk } from "./clause-question.js";
import { WHERE_FINISHED } from "./analysis.js";
import { withoutRequest } from "../../text/requests.js";
import {
  MONTH_PATTERN,
  nounPattern,
  PERSON_NOUNS as PERSON_NOUN_LIST,
  PLACE_NOUNS as PLACE_NOUN_LIST,
} from "../../text/lexicons.js";

export const ANSWER_KINDS = [
  "count",
  "number",
  "percent",
  "money",
  "year",
  "date",
  "month",
  "person",
  "place",
  "boolean",
  "choice",
  "moreless",
  "entity",
  "text",
] as const;
export type AnswerKind = (typeof ANSWER_KINDS)[number];

/** Nouns after "what/which" (or "the … of") that ask for a number. */
const NUMBER_NOUNS =
  "population|capacity|enrollment|enrolment|attendance|number|amount|total|height|weight|length|area|age|points?|score|" +
  "goals?|votes?|revenue|salary|price|cost|budget|gross|seats|elevation|altitude|distance|depth|width|size|rank|ranking|" +
  "speed|duration|record|margin|value|balance|expense|expenses|income|sales|proportion|ratio|rate|average|sum|difference|change|count";
/** A plural noun after a first noun ("licenses", "taxes"), not a verb or a word ending in -ss. */
const PLURAL_HEAD = /^(?!(?:is|was|has|does|this|its|whereas)$)[a-z-]{2,}[^s'u]s$/;
/** Place and person nouns (text/lexicons.ts) with plurals; "area of" asks for a place too. */
const PLACE_NOUNS = `${nounPattern(PLACE_NOUN_LIST)}|area of`;
const PERSON_NOUNS = nounPattern(PERSON_NOUN_LIST);
const MONTH_WORDS = MONTH_PATTERN;
const MONTH_RE = new RegExp(`^(${MONTH_WORDS})\\.?$`, "i");

function mapAnalysisType(value: unknown): AnswerKind | undefined {
  if (typeof value !== "string") return undefined;
  const v = value.toLowerCase();
  if ((ANSWER_KINDS as readonly string[]).includes(v)) return v as AnswerKind;
  if (v === "integer") return "count";
  if (v === "numeric" || v === "real" || v === "quantity") return "number";
  if (v === "percentage") return "percent";
  if (v === "currency") return "money";
  if (v === "location") return "place";
  if (v === "name" || v === "string") return "entity";
  if (v === "yes/no" || v === "yesno" || v === "bool") return "boolean";
  return undefined;
}

/** Words that end the noun phrase a question asks for: prepositions, relative words, verbs of a clause. */
const PHRASE_END =
  /^(?:in|at|of|for|on|to|from|by|during|between|as|under|over|with|within|after|before|since|per|that|which|who|whom|whose|where|when|is|was|are|were|did|does|do|has|have|had)$/;

/** The last word of the noun phrase of "what is/was the …" ("… compensation expense in 2021?" → "expense"). */
function phraseHead(q: string): string | undefined {
  const rest = /^\s*what (?:is|was|are|were) the ([^?,;:()]+)/.exec(q)?.[1];
  if (!rest) return undefined;
  const words = rest.trim().split(" ");
  const end = words.findIndex((w) => PHRASE_END.test(w));
  return (end < 0 ? words : words.slice(0, end)).at(-1);
}

/** The kind the question's wording asks for (no analysis needed). */
export function answerKindFromQuestion(question: string): AnswerKind {
  // ("can you tell me the highest salary?" asks for the salary, not whether one can.)
  const q = ` ${withoutRequest(question.toLowerCase().replace(/\s+/g, " ").trim())} `;
  if (/^\s*(is|are|was|were|did|does|do|has|have|had|can|could|will|would)\s/.test(q)) return "boolean";
  if (/\bhow many\b/.test(q)) return "count";
  if (
    /\b(what|which) (percentage|percent)\b|\bpercentage (change|of|increase|decrease)\b|\bpercent(age)? (change|increase|decrease)\b|\bwhat (%|per cent)/.test(
      q,
    )
  )
    return "percent";
  if (/\bhow (much|old|long|tall|far|big|large|high|heavy|deep|wide)\b/.test(q)) return "number";
  if (
    /\b(what|which|in what|in which) year\b|\byear (of|did|was|when)\b|\bwhat year\b|\byear .* (born|founded|established|opened|built|died)\b/.test(
      q,
    )
  )
    return "year";
  if (/\b(birth|death) month\b|\bwhat month\b|\bwhich month\b|\bmonth of\b/.test(q)) return "month";
  if (/\b(birth ?date|date of (birth|death)|what date|which date|on what day|the date)\b/.test(q)) return "date";
  // In "how big is the lake whose shore …" the who/where/when is a relative word:
  // the question word is the first wh-word, and after what/which the noun decides.
  const lead = /\b(what|which|who|whom|whose|where|when|how)\b/.exec(q)?.[1];
  const relative = lead === "what" || lead === "which";
  if (!relative && /\bwhen\b/.test(q)) return "date";
  if (!relative && /\bwho(m|se)?\b/.test(q)) return "person";
  // ("where did Ana come?": a finishing place, a number.)
  if (WHERE_FINISHED.test(q.trim())) return "number";
  if (!relative && /\bwhere\b/.test(q)) return "place";
  const noun = /\b(?:what|which)(?: is| was| are| were)?(?: the)? ([a-z-]+)(?: ([a-z-]+))?/.exec(q);
  const head = noun ? `${noun[1]} ${noun[2] ?? ""}`.trim() : "";
  if (head) {
    if (new RegExp(`^(${NUMBER_NOUNS})\\b`).test(head)) return "number";
    // "what place did Ana finish", "which position is Bo in": a finishing place, a number ("what
    // position does she play" is a role).
    if (
      (/^(place|position) (did|does|do)$/.test(head) && /\b(finish(ed)?|come|came|end(ed)?|rank(ed)?)\b/.test(q)) ||
      /^ (what|which) (place|position) (is|was) .+ in\??\s*$/.test(q)
    )
      return "number";
    // "what is the stadium capacity …": in a compound the second noun is the head; after a plural
    // noun it is the verb ("which products cost less than 30?" asks for products).
    const verb =
      noun?.[2] !== undefined && PLURAL_HEAD.test(noun[1]!) && !/^ (?:what|which) (?:is|was|are|were) /.test(q);
    if (noun && noun[2] && !verb && new RegExp(`^(${NUMBER_NOUNS})$`).test(noun[2])) return "number";
    // "what was the state taxes": a place or person noun before a plural noun only modifies it.
    const modifier =
      noun && noun[2] && /^(?:what|which) (?:is|was|are|were) the /.test(q.trim()) && PLURAL_HEAD.test(noun[2]);
    if (!modifier && new RegExp(`^(${PLACE_NOUNS})\\b`).test(head)) return "place";
    if (!modifier && new RegExp(`^(${PERSON_NOUNS})\\b`).test(head)) return "person";
    // "what is the estimated population …": the first noun may follow one adjective.
    if (noun && noun[2] && !verb && new RegExp(`^(${NUMBER_NOUNS})$`).test(noun[2])) return "number";
    if (noun && noun[2] && new RegExp(`^(${PLACE_NOUNS})$`).test(noun[2])) return "place";
    // "what was the share based compensation expense in 2021?": a longer noun phrase ends in its head.
    if (new RegExp(`^(${NUMBER_NOUNS})$`).test(phraseHead(q) ?? "")) return "number";
  }
  if (/\b(what|which)\b/.test(q)) return "entity";
  return "text";
}

/**
 * The expected answer kind: the plan's analysis (nodes/offline/analysis.ts `answerType`) when it is
 * specific, refined by the question's wording where the analysis says only "entity"/"date"
 * (e.g. "birth month" → month, "what is the population" → number).
 */
export function answerKindOf(plan: SubQueryPlan | undefined, question: string): AnswerKind {
  // A description ("When is goodwill considered impaired?") is a clause, whatever the wh-word.
  if (asksForDescription(question) || clauseAsk(question)) return "text";
  const a = plan?.analysis ?? {};
  const fromAnalysis = mapAnalysisType(a["answerType"] ?? a["expectedAnswerType"]);
  // The decomposer's notes ("(columns: Name, Birthdate)", "(about: …)") are not the question's wording.
  const fromWords = answerKindFromQuestion(questionPart(question) || question);
  // ("how hard is the trail?": a grade, which a Difficulty column writes in words as often as in numbers.)
  if (/\bhow (?:hard|difficult)\b/i.test(questionPart(question) || question)) return "text";
  if (!fromAnalysis || fromAnalysis === "entity" || fromAnalysis === "text") return fromWords;
  // "Which club had the highest average …": the wh-noun decides, not the aggregate word.
  if (
    /^\s*(which|who|whom)\b/i.test(question) &&
    (fromWords === "entity" || fromWords === "person" || fromWords === "place") &&
    fromAnalysis === "number"
  )
    return fromWords;
  if (fromAnalysis === "date" && (fromWords === "month" || fromWords === "year")) return fromWords;
  // "the number of X as a percentage of Y": the wording's percentage is more specific than a count.
  if (fromWords === "percent" && (fromAnalysis === "count" || fromAnalysis === "number")) return fromWords;
  return fromAnalysis;
}

/** Kinds whose answers are numbers. */
export function isNumericKind(kind: AnswerKind): boolean {
  return kind === "count" || kind === "number" || kind === "percent" || kind === "money";
}

export function isYear(text: string): boolean {
  return /^(1[0-9]{3}|20[0-9]{2})s?$/.test(text.trim());
}

export function isMonth(text: string): boolean {
  return MONTH_RE.test(text.trim());
}

/** A number as written ("1,234", "$5.2 million", "12%", "(3.4)", "thirteen"). */
export function looksNumeric(text: string): boolean {
  const t = text.trim();
  if (parseNumber(t) !== null) return true;
  if (parseNumber(t.replace(/\s+(thousand|million|billion|trillion|percent|per cent)$/i, "")) !== null) return true;
  return WORD_NUMBERS.has(t.toLowerCase());
}

export const WORD_NUMBERS = new Map<string, number>(
  "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty"
    .split(" ")
    .map((w, i) => [w, i] as [string, number]),
);

const TENS = new Map(
  ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"].map(
    (w, i) => [w, 20 + 10 * i] as [string, number],
  ),
);

/** Value of a number written with digits or in English words up to ninety-nine, else null. */
export function numericValue(text: string): number | null {
  const t = text.trim();
  const n = parseNumber(t) ?? parseNumber(t.replace(/\s+(thousand|million|billion|trillion|percent|per cent)$/i, ""));
  if (n !== null) return n;
  const w = t.toLowerCase();
  const word = WORD_NUMBERS.get(w) ?? TENS.get(w);
  if (word !== undefined) return word;
  const m = /^([a-z]+)-([a-z]+)$/.exec(w);
  if (m && TENS.has(m[1]!) && (WORD_NUMBERS.get(m[2]!) ?? 0) > 0 && (WORD_NUMBERS.get(m[2]!) ?? 10) < 10)
    return TENS.get(m[1]!)! + WORD_NUMBERS.get(m[2]!)!;
  return null;
}

export function looksLikeDate(text: string): boolean {
  const t = text.trim();
  return parseDate(t) !== null || isYear(t) || /^\d{1,2} [A-Za-z]+ \d{4}$/.test(t);
}

/** Capitalised words (a name), allowing short lower-case particles ("de", "no", "of", "van"). */
export function looksLikeName(text: string): boolean {
  const words = text.trim().split(/\s+/);
  if (words.length === 0 || /\d/.test(text)) return false;
  const caps = words.filter((w) => /^[\p{Lu}]/u.test(w)).length;
  return caps >= 1 && caps >= Math.ceil(words.length / 2);
}

/** Words that name a column holding values of a kind ("Player" holds persons, "Venue" places). */
export function headerSuitsKind(headerWords: string[], kind: AnswerKind): boolean {
  const re =
    kind === "person"
      ? new RegExp(`^(name|${PERSON_NOUNS})s?$`)
      : kind === "place"
        ? new RegExp(`^(${PLACE_NOUNS})s?$`)
        : kind === "year" || kind === "date" || kind === "month"
          ? /^(year|years|season|date|dates|born|birth|founded|established|opened|died|death|released|term|period|from|to|start|end)$/
          : kind === "count" || kind === "number" || kind === "money" || kind === "percent"
            ? new RegExp(`^(${NUMBER_NOUNS}|no|pts|gp|apps|total)$`)
            : undefined;
  return !!re && headerWords.some((w) => re.test(w.toLowerCase()));
}

export interface FitOptions {
  /** The answer was read from a column of years (a SQL plan's answer column; plans/candidate-features.ts TARGET_YEARS). */
  yearColumn?: boolean;
  /** The answer was read from a text column whose whole header the question spells (TARGET_SPELLED_TEXT). */
  spelledTextColumn?: boolean;
}

/**
 * Whether `answer` has the shape `kind` asks for. Lenient where benchmarks are ("when" may be a
 * year; a "who" may be a team): the verifier uses it to reject clear mismatches only.
 */
export function fitsKind(answer: string, kind: AnswerKind, options: FitOptions = {}): boolean {
  const a = answer.trim();
  if (a === "") return false;
  // A whole number of 1–4 digits read from a column of years is a year ("founded in 977").
  if (options.yearColumn && (kind === "year" || kind === "date") && /^\d{1,4}$/.test(a)) return true;
  // ("what shirt size …" of a Shirt size column: "XL" is its cell, though "size" asks for a number elsewhere.)
  if (options.spelledTextColumn && kind === "number") return true;
  // ("Nadia: 487.65", one line per group of "how much did each person spend?": the value after the group's label.)
  const grouped = /^[^:]{1,80}:\s+(\S.*)$/.exec(a);
  if (grouped && (kind === "number" || kind === "money" || kind === "percent" || kind === "count"))
    return fitsKind(grouped[1]!, kind, options);
  switch (kind) {
    case "count": {
      // "9.5 million" subscribers: a whole count written with a scale word
      const scaled = /^(.*\d)\s+(thousand|million|billion)$/i.exec(a);
      const n = numericValue(scaled ? scaled[1]! : a);
      // Reports show reductions of a count in brackets ("shares forfeited (1,250)").
      return n !== null && (n >= 0 || /^\(.*\)$/.test(a)) && (scaled !== null || Number.isInteger(n));
    }
    case "number":
      // "25-44", "22-16-3": a range or a record; "2:14:05", "1:26.66": a duration ("how long did it take");
      // "3.1 million hectares", "610 square kilometres": a measure as the reader writes it (withMeasureUnit).
      return (
        looksNumeric(a) ||
        /^[-+]?[$€£¥]?\d[\d,.]*(?:\s+(?:thousand|million|billion))?\s*(?:(?:square|sq\.|cubic)\s+)?[a-zA-Z%²]{0,12}$/i.test(
          a,
        ) ||
        /^\d+(?:-\d+)+$/.test(a) ||
        /^\+?\d{1,3}(?::\d{2}){1,2}(?:\.\d+)?$/.test(a)
      );
    case "money":
      return looksNumeric(a) || /^[-+]?[$€£¥]?\d[\d,.]*\s*[a-zA-Z%²]{0,12}$/.test(a);
    case "percent":
      return looksNumeric(a) || /^[-+]?\d[\d,.]*\s*%$/.test(a);
    case "year":
      return isYear(a) || (/\b(1[0-9]{3}|20[0-9]{2})\b/.test(a) && a.length <= 20);
    case "date":
      // (A clock time answers "when does the flight leave?".)
      return (
        looksLikeDate(a) ||
        /\b(1[0-9]{3}|20[0-9]{2})\b/.test(a) ||
        isMonth(a.split(/\s+/)[0] ?? "") ||
        /^\d{1,2}:\d{2}(?:\s?[ap]\.?m\.?)?$/i.test(a)
      );
    case "month":
      return isMonth(a) || (/^[A-Za-z]+ \d{4}$/.test(a) && isMonth(a.split(" ")[0]!));
    case "person":
      return !looksNumeric(a) && !looksLikeDate(a) && /\p{L}/u.test(a);
    case "place":
      return !looksNumeric(a) && !looksLikeDate(a) && /\p{L}/u.test(a);
    case "boolean":
      return /^(yes|no|true|false)$/i.test(a);
    case "moreless":
      return /^(more|less|fewer|higher|lower|same|equal|above|below|before|after|earlier|later)$/i.test(a);
    case "choice":
    case "entity":
    case "text":
      return /[\p{L}\p{N}]/u.test(a);
  }
}

/**
 * Whether the question asks for a description rather than a value: a reason ("Why did …", "What
 * caused …", "What is the primary reason …"), a manner or definition ("How is X stated", "How does
 * the company define …"), contents ("What does X include / consist of"). TAT-QA answers these with a
 * clause or sentence of the passages, never a table cell.
 */
export function asksForDescription(question: string): boolean {
  const asked = questionPart(question).replace(/\s+/g, " ").trim();
  const q = asked.toLowerCase();
  return (
    // "What is Audit Fees?", "What are OEM?": a bare capitalised term asks for its definition.
    /^what (is|are) [A-Z][\w-]*(?: [A-Z][\w-]*){0,3} ?\??$/.test(asked.replace(/^What/, "what")) ||
    /^why\b/.test(q) ||
    /^how (is|are|was|were|does|do|did|should|would|will)\b/.test(q) ||
    /^what (caused|drove|led to)\b/.test(q) ||
    /^what (is|are|was|were) (the )?(primary |main |principal )?(reasons?|causes?|drivers?)\b/.test(q) ||
    /^what (does|do|did) .+ (include|consist of|comprise|relate to)\b/.test(q) ||
    /^what (is|are) included in\b/.test(q) ||
    // "Where are subsidiary undertakings disclosed?": a report's place for an item is a clause ("within note 35 …").
    /^where (is|are|was|were) .+ (disclosed|defined|reported|recorded|presented|recognised|recognized|included|classified)( in)?\s*\??$/.test(
      q,
    ) ||
    /^what (is|are|was|were) .+ related to\s*\??$/.test(q) ||
    /^what (is|are|was|were) the (sources?|implications?|impacts?|effects?|principal activities)\b/.test(q) ||
    /^when (is|are) \S.* (considered|recognised|recognized|tested|impaired)\b/.test(q)
  );
}
