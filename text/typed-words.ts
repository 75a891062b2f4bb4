/**
 * What a hurried user types for the words that carry a question's operation: "hieghest", "totl",
 * "averge", "whcih" (one letter missing, extra or swapped), "more then", "feb", "q1". Applied to the
 * question before it is analysed (nodes/offline/analysis.ts); names and cell values are left alone —
 * only lower-case words are corrected, and only towards a short list of operation words, never by
 * substituting a letter (that would turn real words into others: "lease" is not "least").
 */
import { MAX_SUPERLATIVES, MIN_SUPERLATIVES, MONTH_ABBREVIATIONS, MONTH_NAMES } from "./lexicons.js";

/** Operation words worth correcting towards (5 letters or more: shorter ones sit next to real words). */
const OPERATION_WORDS: readonly string[] = [
  ...[...MAX_SUPERLATIVES, ...MIN_SUPERLATIVES].filter((w) => w.length >= 5),
  "total",
  "average",
  "which",
  "maximum",
  "minimum",
];
const KNOWN = new Set(OPERATION_WORDS);

/** One letter inserted, deleted, or two neighbours swapped (Damerau, no substitution). */
function oneSlip(typed: string, word: string): boolean {
  if (typed === word) return false;
  if (typed.length === word.length) {
    const i = [...typed].findIndex((ch, k) => ch !== word[k]);
    return typed[i] === word[i + 1] && typed[i + 1] === word[i] && typed.slice(i + 2) === word.slice(i + 2);
  }
  const [long, short] = typed.length > word.length ? [typed, word] : [word, typed];
  if (long.length !== short.length + 1) return false;
  for (let i = 0; i < long.length; i++) if (long.slice(0, i) + long.slice(i + 1) === short) return true;
  return false;
}

/** The operation word a typed word slips from, if exactly one. */
export function operationWordFor(typed: string): string | undefined {
  if (typed.length < 4 || KNOWN.has(typed) || !/^[a-z]+$/.test(typed)) return undefined;
  // ("totals", "averages": a plural is the word itself, not a slip.)
  if (KNOWN.has(typed.replace(/s$/, "")) || KNOWN.has(typed.replace(/es$/, ""))) return undefined;
  // (The first letter is kept, the first two in a 4-letter word: "last", "east" are not slips of "least".)
  const found = OPERATION_WORDS.filter(
    (w) => w[0] === typed[0] && (typed.length > 4 || w[1] === typed[1]) && oneSlip(typed, w),
  );
  return found.length === 1 ? found[0] : undefined;
}

const MONTH_BY_NUMBER = (n: number) => MONTH_NAMES[n - 1]!;
// ("mar" is a month only before a day or a year: "mar 3"; "may" is its own word.)
// (After a word of time or before a day or year only: "jan" and "jun" are also names.)
const ABBREVIATIONS = Object.keys(MONTH_ABBREVIATIONS).join("|");
const MONTH_ABBREVIATION = new RegExp(
  `\\b(?<=(?:in|of|since|after|before|from|until|till|on|during|between|through) )(?:${ABBREVIATIONS})\\b\\.?|\\b(?:${ABBREVIATIONS})\\b\\.?(?= \\d)|(?<=\\b\\d{1,2}(?:st|nd|rd|th)? )(?:${ABBREVIATIONS})\\b\\.?`,
  "gi",
);
const QUARTER = /\b(?:in |during |for |over )?(?:the )?(?:q([1-4])|(first|second|third|fourth) quarter)(?: of)?\b/gi;
const QUARTERS: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4 };

/** A typed quarter without the months written after it ("q4 from october to december" → "q4"): a "Q4" column's name. */
export function quarterAsTyped(text: string): string {
  return text.replace(/\b(q[1-4]) from [a-z]+ to [a-z]+\b/g, "$1");
}
/** "the second half of 2024", "the first half of the year": six months. */
// (A year must follow, or "the year": "goals in the first half" is a match's half.)
const HALF = /\b(?:in |during |for |over )?(?:the )?(first|second|1st|2nd) half(?: of)?(?: the year\b|(?= \d{4}\b))/gi;
/** "the first week of june": its days ("the last week" depends on the month and stays as typed). */
const WEEK_OF = new RegExp(
  `\\b(?:in |during )?the (first|second|third|fourth|1st|2nd|3rd|4th) week of (${MONTH_NAMES.join("|")})\\b`,
  "gi",
);
const ORDINAL_NUMBER: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  "1st": 1,
  "2nd": 2,
  "3rd": 3,
  "4th": 4,
};
/** "$10k", "£2.5k": a sum of money in thousands. */
const MONEY_THOUSANDS = /([$£€])(\d+(?:\.\d+)?)k\b/gi;

/**
 * The question with typed slips undone: operation words, "then" after a comparative, month
 * abbreviations ("feb" → "february"), quarters ("in q1" → "from january to march"), "# of" and "no. of" ("number of"), "soonest" ("earliest").
 */
export function undoTypedSlips(question: string): string {
  return (
    question
      .replace(/\b[a-z]+\b/g, (w) => operationWordFor(w) ?? w)
      .replace(
        /\b(more|less|fewer|greater|higher|lower|bigger|smaller|larger|older|younger|longer|shorter|heavier|lighter|later|earlier) then\b/gi,
        "$1 than",
      )
      .replace(MONTH_ABBREVIATION, (all) => {
        const n = MONTH_ABBREVIATIONS[all.replace(/\.$/, "").toLowerCase()];
        return n ? MONTH_BY_NUMBER(n) : all;
      })
      // (The typed "q3" is kept before its months: it may be a column's header, "Q3" of a table of quarters.)
      .replace(QUARTER, (_all, q: string | undefined, word: string | undefined) => {
        const n = q ? Number(q) : QUARTERS[word!.toLowerCase()]!;
        return `${q ? `q${q} ` : ""}from ${MONTH_BY_NUMBER(3 * n - 2)} to ${MONTH_BY_NUMBER(3 * n)}`;
      })
      .replace(HALF, (_all, h: string) =>
        ORDINAL_NUMBER[h.toLowerCase()] === 1 ? "from january to june" : "from july to december",
      )
      .replace(WEEK_OF, (_all, w: string, month: string) => {
        const n = ORDINAL_NUMBER[w.toLowerCase()]!;
        return `between ${month} ${7 * n - 6} and ${month} ${7 * n}`;
      })
      .replace(MONEY_THOUSANDS, (_all, sign: string, n: string) => `${sign}${Math.round(Number(n) * 1000)}`)
      // "# of loans in may", "no. of flights to oslo", "# units available": a count.
      // (Only where a count starts: "squad # 7", "what squad # is listed" name a column.)
      .replace(/(^|\bthe |\btotal )#\s*(?:of\s+)?(?=[a-z])/gi, "$1number of ")
      .replace(/\bno\.\s*of\b/gi, "number of")
      // "available soonest", "expires soonest": the earliest date.
      .replace(/\bsoonest\b/gi, "earliest")
      .replace(/\bsooner\b/gi, "earlier")
  );
}
