/**
 * Where the question's mentions stand among the analysis's own tokens (`normaliseText(a.normalized)`): plans that
 * read the words around a mention ("the same X as A", "the next X after A") need both in one token space.
 */
import type { EntityMention } from "../mentions.js";
import { normaliseText } from "../../../text/normalise.js";

/** The analysis's normalised question as tokens. */
export function questionTokens(normalized: string): string[] {
  return normaliseText(normalized).split(" ");
}

/**
 * Where the mention's words stand among `tokens`: at its own span when the two tokenisations agree, else the first
 * place its words are found (the analysis drops a leading request: "tell me …"); a possessive "s" may close a word.
 */
export function placed(m: EntityMention, tokens: string[]): { start: number; end: number } | undefined {
  const words = m.text.split(" ");
  const at = (s: number) => words.every((w, i) => tokens[s + i] === w || tokens[s + i] === `${w}s`);
  if (at(m.start)) return { start: m.start, end: m.start + words.length };
  for (let s = 0; s + words.length <= tokens.length; s++) if (at(s)) return { start: s, end: s + words.length };
  return undefined;
}

/** The mentions found among `tokens`, their spans moved to where they stand there (the others left out). */
export function placeMentions(mentions: readonly EntityMention[], tokens: string[]): EntityMention[] {
  const out: EntityMention[] = [];
  for (const m of mentions) {
    const at = placed(m, tokens);
    if (at) out.push({ ...m, ...at });
  }
  return out;
}
