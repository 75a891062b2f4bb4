/**
 * "Which film inspired the characters in the film directed by Ada Roe ?": the asked noun comes back
 * later in the question as "the (…) film", which names the row the question describes. The column
 * that noun names holds that row's own film, not the asked one (another film, told in the row's
 * passages); askedCell (reader.ts) then reads no cell by the asked phrase.
 */
import { stem } from "../../text/stem.js";

/** Does the head noun of the asked phrase come back after "the" (one word may stand between) later in the question? */
export function askedNounReturns(question: string, asking: { words: string[]; headLast: boolean }): boolean {
  const head = asking.headLast ? asking.words.at(-1) : asking.words[0];
  if (!head) return false;
  const target = stem(head);
  const words = question
    .toLowerCase()
    .split(/[^\p{L}\p{N}'-]+/u)
    .filter((w) => w !== "");
  const first = words.findIndex((w) => stem(w) === target);
  if (first < 0) return false;
  for (let i = first + 1; i < words.length; i++) {
    if (stem(words[i]!) !== target) continue;
    if (words[i - 1] === "the" || words[i - 2] === "the") return true;
  }
  return false;
}
