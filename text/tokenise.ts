/**
 * Tokenisation: the word runs every matcher splits text into. `wordsOf` is the plain split (letters
 * and digits, after normaliseForMatch), `contentWords` the same without stop words, and
 * `questionWords` the split that keeps internal apostrophes, hyphens and decimal points
 * ("o'neil", "co-op", "3.5") for reading a question's conditions.
 */
import { normaliseForMatch } from "./normalise.js";
import { isStopWord, type StopWordOptions } from "./stop-words.js";

const WORD = /[\p{L}\p{N}]+/gu;

/** Runs of letters and digits of the normalised text ("Saint-Étienne, 1,234" → saint, etienne, 1234). */
export function wordsOf(text: string): string[] {
  return normaliseForMatch(text).match(WORD) ?? [];
}

/** Content words of a text (normalised, stop words removed). */
export function contentWords(text: string, options: StopWordOptions = {}): string[] {
  const out: string[] = [];
  for (const m of normaliseForMatch(text).matchAll(WORD)) {
    const w = m[0];
    if (!isStopWord(w, options)) out.push(w);
  }
  return out;
}

/** Word tokens that keep internal apostrophes, hyphens and decimal points; the text's case is kept. */
export function questionWords(text: string): string[] {
  return text.match(/[a-z0-9\u00c0-\u024f]+(?:['.\-][a-z0-9\u00c0-\u024f]+)*/gi) ?? [];
}
