/** Text pieces shared by the SQuAD-style scorers (HybridQA, TAT-QA, the paper's metric set). */

/** Python's `string.punctuation`. */
export const ASCII_PUNCT = new Set([..."!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"]);

/** `\b(a|an|the)\b` with Python's Unicode word boundaries (letters, digits of any script, `_`). */
export const ARTICLES = /(?<![\p{L}\p{N}_])(a|an|the)(?![\p{L}\p{N}_])/gu;

/** F1 of two non-empty token lists counted as multisets (SQuAD `compute_f1` core). */
export function multisetF1(gold: readonly string[], pred: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const t of gold) counts.set(t, (counts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of pred) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      same++;
      counts.set(t, c - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / pred.length;
  const recall = same / gold.length;
  return (2 * precision * recall) / (precision + recall);
}
