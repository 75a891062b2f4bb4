/**
 * Common-noun answers of the passage reader. The reader's spans are names, numbers and dates
 * (reader.ts `spansFor`), so a question that asks for a class of things — "what type of school …",
 * "what sport …", "which disease …", "what is the bell made of ?" — never saw its answer when the
 * passage writes it in lower case: "… is a private music school", "she competed in curling",
 * "died of pneumonia", "made of brass or copper".
 *
 * `askedClass` tells such a question and the noun it classifies ("school" of "what type of
 * school"); `classNounSpans` proposes a sentence's lower-case noun phrases: each run of lower-case
 * content words, its head (last word), the run without a last word the question names ("bronze" of
 * "bronze medal" for "what medal"), and two one-word runs joined by "and" / "or" ("brass or copper").
 * The reader scores them like its other spans (question words near them, the sentence's coverage).
 */

/** Nouns that ask for a class of things (answered with a common noun as often as with a name). */
const CLASS_NOUNS = new Set(
  (
    "type types kind kinds sort form genre genres style sport sports discipline disease illness affliction ailment " +
    "injury condition crop crops industry industries material materials substance fabric degree subject subjects " +
    "field profession professions occupation occupations trade forte specialty speciality purpose function meaning " +
    "medium policy medal landform animal animals creature canine bird plant tree fruit instrument weapon vehicle " +
    "colour colours color colors shape"
  ).split(" "),
);

/** "made of", "made from", "composed of", "built of": a material is asked. */
const MATERIAL = /\b(?:made|composed|built|constructed|carved|cast)\s+(?:out\s+)?(?:of|from)\b/i;

/** Words that end a lower-case noun phrase (function words, pronouns, auxiliaries, common adverbs). */
const NOT_NOUN = new Set(
  (
    "a an the of in on at to for from by with and or but nor if as than then so such is are was were be been being " +
    "am do does did has have had having can could will would shall should may might must not no yes it its this that " +
    "these those there their they them he she his her him we our you your i me my which who whom whose what when " +
    "where why how while also later often still very more most less least many much some several few all both each " +
    "every other another any only just even about into onto over under after before between during until since " +
    "per via upon within without against among around through throughout toward towards near including up down out " +
    "off again ever never once here now however although though because unless whether either neither first last " +
    "one two three four five six seven eight nine ten same own called known named new old well " +
    // irregular past forms, verbs far more often than nouns
    "made won became become began begun took taken went gone came grew grown held led left built born gave given " +
    "got wrote written ran sold bought lost met said told seen saw found"
  ).split(" "),
);

/** A lower-case word of letters (hyphens inside: "well-being", "sun-dried"). */
const LOWER_WORD = /^\p{Ll}[\p{Ll}-]*\p{Ll}$/u;

/** A lower-case content word that may be part of a noun phrase (no function word, no "-ly" adverb). */
function nounLike(w: string): boolean {
  return LOWER_WORD.test(w) && !NOT_NOUN.has(w) && !/ly$/.test(w);
}

/** After a name or a subject pronoun, a word ending in "-s" or "-ed" is the verb ("Ana competed", "it consists"). */
function verbAfterSubject(previous: string | undefined): boolean {
  return previous !== undefined && (/^\p{Lu}/u.test(previous) || /^(?:he|she|it|they|who|which|that)$/.test(previous));
}

/** What the question asks a class of: the noun it classifies ("school" of "what type of school"), if any. */
export interface ClassAsk {
  /** The classifying noun ("type", "sport", "material"). */
  noun: string;
  /** The noun classified, after "type / kind / sort / form / genre / style of" ("school"). */
  of?: string;
}

/**
 * Does the question ask for a class of things? "What type of school …", "In which sport …",
 * "What disease killed …", "What is the genre of …", "What is the bell made of ?".
 */
export function askedClass(question: string): ClassAsk | undefined {
  const words = question
    .toLowerCase()
    .split(/[^\p{L}-]+/u)
    .filter((w) => w !== "");
  for (let i = 0; i < words.length; i++) {
    if (words[i] !== "what" && words[i] !== "which") continue;
    let j = i + 1;
    if (/^(?:is|was|are|were)$/.test(words[j] ?? "")) j++;
    if (/^(?:the|a|an)$/.test(words[j] ?? "")) j++;
    // The noun, or the noun after one word that qualifies it ("which broadcast medium", "what olympic medal").
    for (const k of [j, j + 1]) {
      const noun = words[k];
      if (noun === undefined || !CLASS_NOUNS.has(noun)) continue;
      if (k === j + 1 && NOT_NOUN.has(words[j]!)) break;
      const classifier = /^(?:type|types|kind|kinds|sort|form|genre|style)$/.test(noun);
      let o = k + 1;
      if (classifier && /^(?:of|for)$/.test(words[o] ?? "")) {
        o++;
        if (/^(?:the|a|an)$/.test(words[o] ?? "")) o++;
        if (words[o] !== undefined && !NOT_NOUN.has(words[o]!)) return { noun, of: words[o] };
      }
      return { noun };
    }
  }
  return MATERIAL.test(question) && /\b(?:what|which)\b/i.test(question) ? { noun: "material" } : undefined;
}

interface ClassSpan {
  text: string;
  /** Word index of the span's first word in the sentence. */
  at: number;
  fit: number;
}

/** Words after which a word ending in "-ing" or "-s" is a verb ("starring Ana", "refers to", "appears in the …"). */
const VERB_OBJECT = /^(?:\p{Lu}.*|a|an|the|his|her|its|their|of|in|on|to|with|by|for|at|from|into|that)$/u;
/** A word that heads no noun phrase: a superlative or a word with an adjective's ending ("oldest", "famous"). */
const ADJECTIVE = /(?:est|ous|ive|ful|less|able|ible|ical)$/;
/** Nouns that classify ("a specific type of …"): the phrase after their "of" is the class. */
const CLASSIFIER = /^(?:type|types|kind|kinds|sort|sorts|form|forms|genre|species|variety|style)$/;

/** A verb written where a noun phrase might go ("-ing" / "-s" before its object, "-ed"). */
function verbAt(words: readonly string[], i: number): boolean {
  const w = words[i]!;
  if (/ed$/.test(w)) return true;
  if (!/(?:ing|[^su]s)$/.test(w)) return false;
  return VERB_OBJECT.test(words[i + 1] ?? "") || (/s$/.test(w) && verbAfterSubject(words[i - 1]));
}

/**
 * The lower-case noun phrases of a sentence (tokenised text, words apart from punctuation) as spans:
 * each run of lower-case content words (at most four, ending before a word that reads as a verb:
 * "a fox appears in …", "died of pneumonia"), its head, the run without a last word that `named` holds
 * (the question's own words: "bronze medal" → "bronze", in place of the whole), and "X and Y" /
 * "X or Y" of two one-word runs. A run right after "type / kind / form … of" fits best ("a type of
 * solid-state lighting"); a run whose head reads as an adjective ("oldest") is left out.
 */
export function classNounSpans(sentence: string, named: (word: string) => boolean, fit = 1): ClassSpan[] {
  const words = sentence.split(/\s+/).filter((w) => w !== "");
  const runs: Array<{ at: number; words: string[] }> = [];
  let i = 0;
  while (i < words.length) {
    if (!nounLike(words[i]!) || verbAt(words, i)) {
      i++;
      continue;
    }
    const run = [words[i]!];
    let j = i + 1;
    while (j < words.length && nounLike(words[j]!) && !verbAt(words, j)) run.push(words[j++]!);
    runs.push({ at: i, words: run });
    i = j;
  }
  const out: ClassSpan[] = [];
  const add = (text: string, at: number, f: number) => {
    if (text.length >= 3 && !ADJECTIVE.test(text.split(" ").at(-1)!)) out.push({ text, at, fit: f });
  };
  for (const r of runs) {
    const head = r.words.at(-1)!;
    if (r.words.length > 4 || CLASSIFIER.test(head)) continue;
    // "a type of X", "a form of the X".
    const before = words.slice(Math.max(0, r.at - 3), r.at).join(" ");
    const f = /\b(?:type|types|kind|kinds|sort|form|forms|genre|species|variety|style)\s+of(?:\s+(?:a|an|the))?$/.test(
      before,
    )
      ? fit + 0.3
      : fit;
    if (r.words.length >= 2 && named(head)) add(r.words.slice(0, -1).join(" "), r.at, f + 0.1);
    else add(r.words.join(" "), r.at, f);
    if (r.words.length >= 2) add(head, r.at + r.words.length - 1, f - 0.1);
  }
  // "brass or copper": two one-word runs joined by a conjunction ("or" names one thing's alternatives, "and" a list).
  for (let k = 0; k + 1 < runs.length; k++) {
    const a = runs[k]!;
    const b = runs[k + 1]!;
    if (a.words.length === 1 && b.words.length === 1 && b.at === a.at + 2 && /^(?:and|or)$/.test(words[a.at + 1]!))
      add(`${a.words[0]} ${words[a.at + 1]} ${b.words[0]}`, a.at, words[a.at + 1] === "or" ? fit + 0.1 : fit - 0.1);
  }
  return out;
}
