/**
 * Words of a question that stand beside its superlative ("the newest launched trawler", "the club
 * that won the latest title"): they say how the row is picked, not which of its events is asked. A
 * time question reads the row's time cell by the event it asks ("When did the ship sink ?" → "Sank"),
 * and a header these words name ("Year launched", "Year ( s ) won") holds the time that ordered the
 * rows instead.
 */
import { MAX_SUPERLATIVES, MIN_SUPERLATIVES } from "../../text/lexicons.js";

const SUPERLATIVES = new Set<string>([...MAX_SUPERLATIVES, ...MIN_SUPERLATIVES, "recent", "recently"]);
const FILLER = /^(the|a|an|most|least|recently|recent)$/;

/**
 * The question's words (lower case) up to two before a superlative ("won the latest") and the one after it
 * ("recently launched", "latest title"), but for articles and other superlatives.
 */
export function besideSuperlative(question: string): Set<string> {
  const words = question
    .toLowerCase()
    .split(/[^\p{L}\p{N}'-]+/u)
    .filter((w) => w !== "");
  const out = new Set<string>();
  words.forEach((w, i) => {
    if (!SUPERLATIVES.has(w)) return;
    for (let j = Math.max(0, i - 2); j <= Math.min(words.length - 1, i + 1); j++)
      if (j !== i && !FILLER.test(words[j]!) && !SUPERLATIVES.has(words[j]!)) out.add(words[j]!);
  });
  return out;
}
