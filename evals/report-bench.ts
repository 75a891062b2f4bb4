/**
 * Which benchmark's official scorer fits a gold question file: told by the fields only one
 * benchmark's converted files carry (WTQ `answer_canon`, TAT-QA `scale`/`derivation`, HybridQA
 * `answer_node`), else by a benchmark name in the file's path (`…/wtq/dev/questions.jsonl`).
 * Used by `atr report` and the LangSmith experiment upload; `atr score` takes `--bench`.
 */
import { BENCHES, type Bench } from "./score.js";
import type { QuestionRecord } from "./dataset.js";

const FIELD_SIGNS: Array<[Bench, string[]]> = [
  ["wtq", ["answer_canon", "answer_canon_type"]],
  ["tatqa", ["scale", "derivation", "rel_paragraphs"]],
  ["hybridqa", ["answer_node"]],
];

/** The benchmark, or undefined when neither the fields nor the path say. */
export function detectBench(gold: QuestionRecord[], path = ""): Bench | undefined {
  const sample = gold.slice(0, 50);
  for (const [bench, fields] of FIELD_SIGNS) {
    if (sample.some((q) => fields.some((f) => f in q))) return bench;
  }
  const parts = path.toLowerCase().split(/[\\/]/);
  return BENCHES.find((b) => parts.includes(b) || parts.some((p) => p.startsWith(`${b}_`) || p.startsWith(`${b}-`)));
}

/** The given `--bench`, or the detected one; a clear error naming the file when neither works. */
export function resolveBench(given: string | undefined, gold: QuestionRecord[], path: string): Bench {
  if (given !== undefined) {
    if (!(BENCHES as readonly string[]).includes(given))
      throw new Error(`--bench must be one of ${BENCHES.join(", ")}, not "${given}"`);
    return given as Bench;
  }
  const bench = detectBench(gold, path);
  if (!bench) {
    throw new Error(
      `cannot tell which benchmark ${path} belongs to (no answer_canon, scale or answer_node field, no benchmark name in its path); ` +
        `pass --bench ${BENCHES.join("|")} (wtq's denotation accuracy suits short answers of your own files)`,
    );
  }
  return bench;
}
