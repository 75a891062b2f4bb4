/**
 * The one English stemmer of the project: plural and -ed/-ing endings, so that "medals"/"medal",
 * "cities"/"city", "founded"/"founding"/"found" meet. Deliberately light (no Porter rules): words
 * are matched against table headers and cell values, where an over-eager stemmer merges names.
 */

/** The stem of one word (lower-cased first). */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(sses|xes|ches|shes)$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  return w;
}

/**
 * The stem with an agent "-er" also removed ("player" → "play"), for deciding that two words are
 * forms of one word ("player"/"players"/"played") rather than one a misspelling of the other.
 */
export function wordFamily(word: string): string {
  const s = stem(word);
  return s.length > 4 && s.endsWith("er") ? s.slice(0, -2) : s;
}

/** The set of stems of some words. */
export function stemSet(words: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const w of words) out.add(stem(w));
  return out;
}

/** A stem with its doubled last consonant made single ("enroll" → "enrol"). */
const single = (s: string) => s.replace(/([b-df-hj-np-tv-z])\1$/, "$1");

/**
 * A noun and the participle of its verb, as one root: "enrolment"/"enrolled", "insurance"/"insured",
 * "arrival"/"arrived". Only a noun with such a suffix meets a participle; other words never do.
 */
export function nounOfParticiple(noun: string, participle: string): boolean {
  if (!/[a-z]{3}(?:ed|en)$/.test(participle)) return false;
  const root = stem(noun).replace(/(?:ments?|ances?|ences?|als?)$/, "");
  return root.length >= 4 && root !== stem(noun) && single(root) === single(stem(participle));
}
