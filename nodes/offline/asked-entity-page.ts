/**
 * A question about a row asks a fact of one thing ("the area of *the prefecture* that holds the
 * temple", "the home country of *the athlete* who won silver") and describes it by others. The row
 * links a page for each of them, and the describing things' pages hold the question's words too.
 * The page whose first sentence says its subject is the earliest such noun of the question
 * ("Norland Prefecture is a prefecture …") is the asked thing's; the reader adds ASKED_PAGE_BONUS to
 * its spans (reader.ts `readPassageSpans`, a described row's pages only).
 *
 * docs/OFFLINE-BACKBONE.md ("Fifteenth round") has the figures on hybridqa/train.
 */
import { keyStems, sentences } from "./evidence.js";
import { wordsOf } from "../../text/tokenise.js";
import { isStopWord } from "../../text/stop-words.js";

/** What a page says its subject is: the stems of the copula's complement in its first sentence ("… is a community radio station"). */
export function pageSaysItIs(text: string): Set<string> {
  const complement =
    /\b(?:is|was|are|were)\s+(?:a|an|the|one of the)\s+([^,.;()]+?)(?=\s+(?:and|who|which|that|from|in|of|on|for|by|with|based|located)\b|[,.;()]|$)/i.exec(
      sentences(text)[0] ?? "",
    );
  return keyStems(complement?.[1] ?? "");
}

/** A page as the reader reads it opens with its title on a line of its own. */
function withoutTitleLine(text: string): string {
  const titled = /^([^\n]{2,80})\n/.exec(text);
  return titled && !/[.!?]$/.test(titled[1]!.trim()) ? text.slice(titled[0].length) : text;
}

/** Words that introduce the noun phrase of the thing asked about: "the area *of* the …", "what affiliation *does* the …". */
const LEADS = new Set(["of", "does", "did", "do", "is", "was", "are", "were"]);
const DETERMINERS = new Set(["the", "this", "that", "these", "a", "an"]);
const RELATIVE = new Set(["whose", "where", "that", "which", "who"]);
/** Words of the noun phrase after its determiner that may name the thing ("the passenger air route"). */
const PHRASE_WORDS = 4;

/**
 * The indexes of the pages that say they are the thing the question asks about: the first noun
 * phrase after "of / does / was … the" beyond the asked phrase, one of whose words some page, but not
 * every page, says its subject is.
 */
export function askedEntityPages(question: string, asked: readonly string[], pages: readonly string[]): Set<number> {
  const words = wordsOf(question);
  const skip = keyStems(asked.join(" "));
  // (Only in the main clause: "the astronaut who flew *on the* mission …" describes, it does not ask.)
  const relative = words.findIndex((w, i) => i > 1 && RELATIVE.has(w));
  const end = relative < 0 ? words.length : relative;
  for (let i = 0; i + 2 < end; i++) {
    if (!LEADS.has(words[i]!) || !DETERMINERS.has(words[i + 1]!)) continue;
    const phrase: string[] = [];
    for (let j = i + 2; j < words.length && phrase.length < PHRASE_WORDS && !isStopWord(words[j]!); j++)
      phrase.push(words[j]!);
    const stems = phrase.flatMap((w) => [...keyStems(w)]).filter((s) => !skip.has(s));
    if (stems.length === 0) continue;
    const said = pages.map((p) => pageSaysItIs(withoutTitleLine(p)));
    for (const s of stems) {
      const holding = said.flatMap((set, k) => (set.has(s) ? [k] : []));
      if (holding.length > 0 && holding.length < pages.length) return new Set(holding);
    }
    return new Set();
  }
  return new Set();
}
