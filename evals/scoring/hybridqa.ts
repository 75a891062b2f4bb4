/**
 * HybridQA exact match and F1, SQuAD style: a port of `evaluate_script.py` of wenhuchen/HybridQA
 * (lower-case, ASCII punctuation removed, articles removed, whitespace collapsed; F1 over token
 * multisets; both empty → 1). The official report breaks EM/F1 down by `answer_from` = table/passage.
 */

const ASCII_PUNCT = new Set([..."!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"]);
// Python's `\b` under re.UNICODE: word characters are letters, digits (any script) and `_`.
const ARTICLES = /(?<![\p{L}\p{N}_])(a|an|the)(?![\p{L}\p{N}_])/gu;

/** `normalize_answer` of the SQuAD / HybridQA script. */
export function normalizeSquad(text: string): string {
  const lower = text.toLowerCase();
  const noPunct = [...lower].filter((ch) => !ASCII_PUNCT.has(ch)).join("");
  return noPunct.replace(ARTICLES, " ").split(/\s+/u).filter((w) => w !== "").join(" ");
}

function tokens(text: string): string[] {
  if (!text) return [];
  return normalizeSquad(text).split(" ").filter((w) => w !== "");
}

export function squadExact(gold: string, pred: string): number {
  return normalizeSquad(gold) === normalizeSquad(pred) ? 1 : 0;
}

export function squadF1(gold: string, pred: string): number {
  const g = tokens(gold);
  const p = tokens(pred);
  if (g.length === 0 || p.length === 0) return g.length === p.length ? 1 : 0;
  const counts = new Map<string, number>();
  for (const t of g) counts.set(t, (counts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of p) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      same++;
      counts.set(t, c - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / p.length;
  const recall = same / g.length;
  return (2 * precision * recall) / (precision + recall);
}

/** EM and F1 of one prediction, the maximum over the gold strings (HybridQA has one). Missing → "". */
export function scoreHybridqa(golds: string[], prediction: string | null | undefined): { em: number; f1: number } {
  const pred = prediction ?? "";
  const list = golds.length > 0 ? golds : [""];
  return {
    em: Math.max(...list.map((g) => squadExact(g, pred))),
    f1: Math.max(...list.map((g) => squadF1(g, pred))),
  };
}
