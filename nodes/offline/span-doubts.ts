/**
 * Spans of a described row's passages (reader.ts `describedRowSpans`) that cannot be a whole answer
 * and go behind the others, keeping their order:
 *
 * - a span cut inside a bracket ("Ada Roe ( Danish", "Vell ( /vɛl/"): a name run into a pronunciation
 *   or a gloss, whose other half is missing;
 * - an all-capitals abbreviation ("U.S", "GM", "NHL") when a person is asked: an initialism names a
 *   country, a firm or a league, never a person.
 *
 * On hybridqa/train no gold answer is cut inside a bracket and none of the gold persons is written in
 * capitals alone (docs/OFFLINE-BACKBONE.md, "Twelfth round").
 */
import type { AnswerKind } from "./answer-kind.js";

const ABBREVIATION = /^\p{Lu}[\p{Lu}.&]{0,5}$/u;

/** Does the span open a bracket it does not close (or close one it did not open)? */
export function cutInBracket(text: string): boolean {
  let depth = 0;
  for (const ch of text) {
    if (ch === "(" || ch === "[") depth++;
    else if (ch === ")" || ch === "]") {
      if (depth === 0) return true;
      depth--;
    }
  }
  return depth !== 0;
}

/** Can the span not be the whole answer of a question asking `kind`? */
export function doubtfulSpan(text: string, kind: AnswerKind): boolean {
  const t = text.trim();
  return cutInBracket(t) || (kind === "person" && ABBREVIATION.test(t));
}

/** The spans with the doubtful ones behind the others, each group in its order. */
export function doubtfulLast<S extends { answer: string }>(spans: readonly S[], kind: AnswerKind): S[] {
  const doubtful = spans.map((s) => doubtfulSpan(s.answer, kind));
  return [...spans.filter((_, i) => !doubtful[i]), ...spans.filter((_, i) => doubtful[i])];
}
