/**
 * The oracle verifier (reference §2.5, §8.6): a diagnostic upper bound for the verifier. Given the
 * gold answer, it picks the first of the run's answers — final, best, each step's, every produced
 * one — that "oracle-matches" the gold, so a run shows how often a right answer was produced at all.
 * It reads the gold: its figures are not results of the system and `atr run` marks every record.
 */

/** The gold text of a question record: `answer-text`, else `answer`, else `answers`; lists joined with spaces. */
export function goldText(record: Record<string, unknown>): string | undefined {
  for (const field of ["answer-text", "answer", "answers"]) {
    const v = record[field];
    if (v === undefined || v === null) continue;
    const text = Array.isArray(v) ? v.map((x) => String(x ?? "")).join(" ") : String(v);
    if (text.trim() !== "") return text;
  }
  return undefined;
}

/** §8.6 normalisation: lower-case, articles removed, non-word characters → space, collapsed. */
export function oracleNormalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/\b(a|an|the)\b/g, " ")
    .replace(/[^\p{L}\p{N}_]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** §8.6 match: both non-empty and equal, or one inside the other, or every gold token in the prediction. */
export function oracleMatches(prediction: string, gold: string): boolean {
  const p = oracleNormalise(prediction);
  const g = oracleNormalise(gold);
  if (p === "" || g === "") return false;
  if (p === g || p.includes(g) || g.includes(p)) return true;
  const words = new Set(p.split(" "));
  return g.split(" ").every((t) => words.has(t));
}

/** The first candidate that oracle-matches the gold, in the order given; undefined when none does. */
export function oracleChoice(candidates: readonly string[], gold: string): string | undefined {
  return candidates.find((c) => oracleMatches(c, gold));
}
