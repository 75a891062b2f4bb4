/**
 * Spans after the question's closing verb phrase. A question that ends on its verb ("What was the
 * inn famous for ?", "The mill was built by who ?", "How often does the fair take place ?") asks for what
 * the passage writes right after the same words: "… is famous for its cider press , …" gives "its
 * cider press". The reader's other spans are names, numbers, dates and class nouns, so a lower-case
 * object or complement was never proposed.
 *
 * `questionTails` takes the question's last words (at most three, after a trailing "who" / "what" is
 * dropped); `tailPhraseSpans` finds them in a sentence, word by word up to an inflection, and proposes
 * the words after them up to a clause boundary (a punctuation mark, a relative or a conjunction that
 * opens a clause, "in" / "on" before a year or a date).
 */
import { stem } from "../../text/stem.js";

interface TailSpan {
  text: string;
  /** Word index of the span's first word in the sentence. */
  at: number;
  fit: number;
}

/** Words that end a clause's object: relatives and clause-opening conjunctions. */
const CLAUSE_WORD =
  /^(?:which|who|whom|whose|where|when|while|whereas|because|although|though|but|after|before|until|since)$/i;
/** Words that can be a question's last word without ending a verb phrase. */
const NO_TAIL =
  /^(?:is|are|was|were|be|been|do|does|did|has|have|had|the|a|an|of|it|its|there|this|that|they|he|she)$/i;
/** A question's last word that closes a verb phrase ("famous for", "settled by"). */
const PREPOSITION = /^(?:for|by|as|in|on|to|with|from|into|at|about|after|like|under|over)$/;
/** The longest object kept (longer runs are descriptions, not answers). */
const MAX_WORDS = 8;

/** A word's root for matching tenses: its stem without a final "e" ("takes", "taking", "take" → "tak"). */
function root(word: string): string {
  return stem(word.toLowerCase()).replace(/e$/, "");
}

/** Words that open no verb phrase: auxiliaries, determiners, pronouns, wh-words. */
const NO_HEAD =
  /^(?:is|are|was|were|be|been|do|does|did|has|have|had|the|a|an|it|its|there|this|that|they|he|she|his|her|their|what|which|who|how|when|where|why)$/i;

/**
 * The question's closing words (lower case) when it ends on a verb phrase: its last two words, and
 * the last three when the word before them belongs to the phrase too (longest first).
 */
export function questionTails(question: string): string[][] {
  const all = question
    .replace(/\?\s*$/, "")
    .trim()
    .split(/\s+/);
  let end = all.length;
  if (end > 0 && /^(?:who|whom|what)$/i.test(all[end - 1]!)) end--;
  const plain = (w: string | undefined) => w !== undefined && /^\p{Ll}[\p{Ll}'-]*$/u.test(w) && !NO_HEAD.test(w);
  const last = all[end - 1];
  if (last === undefined || !/^\p{Ll}[\p{Ll}'-]*$/u.test(last) || NO_TAIL.test(last) || !plain(all[end - 2])) return [];
  // A verb phrase ends on a preposition ("famous for"), a participle ("known for wearing") or, after
  // "do" / "does" / "did", on the verb or its object ("does the fair take place"); other closing words
  // are a noun phrase that qualifies the asked thing ("the most career goals").
  const verbal =
    PREPOSITION.test(last) ||
    /(?:ed|ing)$|^known$/.test(last) ||
    /\b(?:do|does|did)\b/i.test(all.slice(0, end).join(" "));
  if (!verbal) return [];
  const two = all.slice(end - 2, end).map((w) => w.toLowerCase());
  return plain(all[end - 3]) ? [all.slice(end - 3, end).map((w) => w.toLowerCase()), two] : [two];
}

/** The words after the tail's occurrences in the sentence, up to a clause boundary. */
export function tailPhraseSpans(sentence: string, tail: readonly string[]): TailSpan[] {
  const words = sentence.split(/\s+/).filter((w) => w !== "");
  const roots = tail.map(root);
  const out: TailSpan[] = [];
  for (let i = 0; i + roots.length <= words.length; i++) {
    if (!roots.every((r, k) => root(words[i + k]!) === r)) continue;
    const start = i + roots.length;
    const taken: string[] = [];
    for (let j = start; j < words.length && taken.length <= MAX_WORDS; j++) {
      const w = words[j]!;
      if (!/[\p{L}\d]/u.test(w) || CLAUSE_WORD.test(w)) break;
      if (/^(?:and|or)$/i.test(w) && /^(?:the|a|an|he|she|it|they|was|is|were|are|his|her)$/i.test(words[j + 1] ?? ""))
        break;
      if (
        /^(?:in|on|at|by)$/i.test(w) &&
        /^(?:\d|january|february|march|april|may|june|july|august|september|october|november|december)/i.test(
          words[j + 1] ?? "",
        )
      )
        break;
      taken.push(w.replace(/[.;:]$/, ""));
      if (/[.;:]$/.test(w)) break;
    }
    // After a closing verb and its object ("… study music ?"), a phrase opening with a preposition is an
    // adjunct ("in Vienna in 1990"): its place or time is read by the name and date spans.
    if (PREPOSITION.test(taken[0]?.toLowerCase() ?? "")) continue;
    if (taken.length > 0 && taken.length <= MAX_WORDS) out.push({ text: taken.join(" "), at: start, fit: 1 });
  }
  return out;
}
