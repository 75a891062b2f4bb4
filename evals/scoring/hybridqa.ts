/**
 * HybridQA exact match and F1, SQuAD style: a port of `evaluate_script.py` of wenhuchen/HybridQA
 * (lower-case, ASCII punctuation removed, articles removed, whitespace collapsed; F1 over token
 * multisets; both empty → 1). The official report breaks EM/F1 down by `answer_from` = table/passage.
 */

import { ARTICLES, ASCII_PUNCT, multisetF1 } from "./tokens.js";

/** `normalize_answer` of the SQuAD / HybridQA script. */
export function normalizeSquad(text: string): string {
  const lower = text.toLowerCase();
  const noPunct = [...lower].filter((ch) => !ASCII_PUNCT.has(ch)).join("");
  return noPunct
    .replace(ARTICLES, " ")
    .split(/\s+/u)
    .filter((w) => w !== "")
    .join(" ");
}

function tokens(text: string): string[] {
  if (!text) return [];
  return normalizeSquad(text)
    .split(" ")
    .filter((w) => w !== "");
}

export function squadExact(gold: string, pred: string): number {
  return normalizeSquad(gold) === normalizeSquad(pred) ? 1 : 0;
}

export function squadF1(gold: string, pred: string): number {
  const g = tokens(gold);
  const p = tokens(pred);
  if (g.length === 0 || p.length === 0) return g.length === p.length ? 1 : 0;
  return multisetF1(g, p);
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
