/**
 * Text normalisation, one place for every room: the steps (accent folding, digit groups, spaces)
 * and the few normal forms built from them. Each form has one job; pick by what is compared:
 * - `normaliseText`: the key a cell value is indexed and matched under (punctuation → space).
 * - `normaliseForMatch`: what the offline embedder and lexical matchers read (keeps punctuation,
 *   tokenise.ts splits words).
 * - `normaliseForContainment`: "is this answer inside that sentence" (keeps `.`, `%`, `-` in numbers).
 * - `normaliseForGrounding`: numbers and words of an answer or its evidence (currency marks dropped).
 * - `normaliseAnswerText`: an answer against a cell or result value (edge quotes and punctuation trimmed).
 */
import { boundedMemo } from "./bounded-memo.js";

const COMBINING_MARKS = /[\u0300-\u036f]/g;

/** "Saint-Étienne" → "Saint-Etienne": compatibility decomposition, combining marks removed. */
export function foldAccents(text: string): string {
  // Printable ASCII has no accents to strip (NFKD is the identity on it): same result, much faster.
  if (/^[\x20-\x7e]*$/.test(text)) return text;
  return text.normalize("NFKD").replace(COMBINING_MARKS, "");
}

/** "1,234,567" → "1234567": thousands separators between digit groups dropped, other commas kept. */
export function joinDigitGroups(text: string): string {
  return text.replace(/(\d),(?=\d{3}\b)/g, "$1");
}

/** The zero-width space, the word joiner and the byte-order mark: invisible breaks (the joiners ZWJ / ZWNJ shape letters). */
const INVISIBLES = /[\u200b\u2060\ufeff]/g;

/** "1\u200b 2" → "1  2": invisible format characters (some tables put them between list items) → space. */
export function invisiblesToSpaces(text: string): string {
  return text.replace(INVISIBLES, " ");
}

/** Runs of white space → one space, ends trimmed. */
export function collapseSpaces(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Lower-case, accents stripped, punctuation → space, collapsed. Citation marks like [1] dropped. */
export function normaliseText(text: string): string {
  return foldAccents(text)
    .toLowerCase()
    .replace(/\[[^\]]{0,8}\]/g, " ")
    .replace(/[\u2018\u2019'`´]/g, "")
    .replace(/[^a-z0-9\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]+/g, " ")
    .trim();
}

/**
 * The matchers of one question normalise the same cells, headers and sentences many times over
 * (WTQ dev: ~19 calls per distinct text for normaliseForMatch, ~26 for normaliseForContainment),
 * so the two forms they use most are remembered for short texts; a long text (a chunk, a whole
 * evidence block) is computed each time and never held.
 */
const MEMO_MAX_CHARS = 256;
const MEMO_ENTRIES = 8192;
function rememberedForShort(compute: (text: string) => string): (text: string) => string {
  const memo = boundedMemo(MEMO_ENTRIES, compute);
  return (text) => (text.length <= MEMO_MAX_CHARS ? memo(text) : compute(text));
}

/** Lower-cased, accent-stripped, digit-group-joined text (punctuation kept). */
export const normaliseForMatch: (text: string) => string = rememberedForShort((text) =>
  joinDigitGroups(foldAccents(text).toLowerCase()),
);

/** Normalised form for containment tests (lower case, accents and punctuation removed; "3.5", "12%", "-4" kept). */
export const normaliseForContainment: (text: string) => string = rememberedForShort((text) =>
  collapseSpaces(
    normaliseForMatch(text)
      .replace(/[^\p{L}\p{N}.%-]+/gu, " ")
      .replace(/(?<!\d)\.|\.(?!\d)/g, " "),
  ),
);

/** Lower-case, drop `, $ £ € ¥`, keep `[a-z0-9 . -]` and spaces, collapse spaces. */
export function normaliseForGrounding(text: string): string {
  return collapseSpaces(
    text
      .toLowerCase()
      .replace(/[,$£€¥]/g, "")
      .replace(/[^a-z0-9.\-\s]/g, " "),
  );
}

/** Lower-case, thousands separators and surrounding quotes/punctuation dropped, spaces collapsed. */
export function normaliseAnswerText(text: string): string {
  return joinDigitGroups(text.toLowerCase())
    .replace(/\s+/g, " ")
    .replace(/^[\s"'“”‘’(]+|[\s"'“”‘’).,;:!?]+$/g, "");
}
