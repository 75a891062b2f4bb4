/**
 * A question's relative clause names the thing it asks about by a fact of it ("the county seat of
 * the county *where a plant supplies power to Acme Grid*"). The row's pages often write that fact
 * again word for word ("… and it supplies power to Acme Grid"), and that sentence matches the
 * question best, but it is the sentence that found the thing, not the one that tells the asked
 * fact: its names and numbers are rarely the answer. A span from a sentence that writes three or
 * more content words of the relative clause in a row, and none of the main clause's words beyond
 * the row's cells ("county seat"), goes behind the other spans (reader.ts `describedRowSpans`).
 *
 * docs/OFFLINE-BACKBONE.md ("Fourteenth round") has the figures on hybridqa/train.
 */
import { keyStems } from "./evidence.js";
import { isStopWord } from "../../text/stop-words.js";
import { wordsOf } from "../../text/tokenise.js";

/** Content words of the clause a sentence must write in a row to restate it. */
const RESTATED_RUN = 3;
const RELATIVE = new Set(["whose", "where", "that", "which", "who"]);
/** Words of the main clause that say what is asked of any thing, not which fact. */
const GENERIC = new Set(["year", "date", "time"].map((w) => [...keyStems(w)][0]!));

/** The question's relative clause (its words, in order) and its main clause's stems beyond the row's cells. */
export interface RelativeClause {
  clause: string[];
  main: Set<string>;
}

/** The relative clause after the question's first relative word (not its opening "who" / "which"). */
export function relativeClauseOf(question: string, rowStems: ReadonlySet<string>): RelativeClause | undefined {
  const words = wordsOf(question);
  const at = words.findIndex((w, i) => i > 1 && RELATIVE.has(w));
  if (at < 0) return undefined;
  const clause = words.slice(at + 1);
  if (clause.filter((w) => !isStopWord(w)).length < RESTATED_RUN) return undefined;
  const main = new Set([...keyStems(words.slice(0, at).join(" "))].filter((s) => !rowStems.has(s) && !GENERIC.has(s)));
  return { clause, main };
}

/** Does the sentence write RESTATED_RUN content words of the clause in a row, and none of the main clause's words? */
export function restatesClause(sentence: string, relative: RelativeClause): boolean {
  const held = keyStems(sentence);
  if ([...relative.main].some((s) => held.has(s))) return false;
  const text = ` ${wordsOf(sentence).join(" ")} `;
  const { clause } = relative;
  for (let i = 0; i < clause.length; i++) {
    let content = 0;
    for (let j = i; j < clause.length; j++) {
      if (!isStopWord(clause[j]!)) content++;
      if (content < RESTATED_RUN) continue;
      if (!text.includes(` ${clause.slice(i, j + 1).join(" ")} `)) break;
      return true;
    }
  }
  return false;
}

/** The spans with those read from a sentence restating the relative clause behind the others, each group in its order. */
export function restatedLast<S extends { context: string }>(
  spans: readonly S[],
  relative: RelativeClause | undefined,
): S[] {
  if (!relative) return [...spans];
  const restated = spans.map((s) => restatesClause(s.context, relative));
  return [...spans.filter((_, i) => !restated[i]), ...spans.filter((_, i) => restated[i])];
}
