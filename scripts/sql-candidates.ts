/**
 * Candidate recall of a traced run (`atr run --emit_trace`): the share of questions where some
 * traced candidate is right under the benchmark's official metric — over every candidate, over the
 * attempts alone (without the alternative SQL candidates, `cand:alt`), and how many questions only
 * an alternative answers right; with the SQL candidates per question.
 *
 *   npx tsx scripts/sql-candidates.ts --bench wtq --gold QUESTIONS.jsonl --pred RUN.jsonl
 */
import { parseArgs } from "node:util";
import { loadQuestions } from "../training/answer-verifier.js";
import type { Bench } from "../evals/score.js";

const { values } = parseArgs({ options: { bench: { type: "string" }, gold: { type: "string" }, pred: { type: "string" } } });
if (!values.bench || !values.gold || !values.pred) throw new Error("usage: --bench wtq|tatqa|hybridqa --gold QUESTIONS.jsonl --pred RUN.jsonl");
const questions = loadQuestions(values.bench as Bench, values.gold, values.pred);
const n = Math.max(1, questions.length);
const pct = (k: number) => ((100 * k) / n).toFixed(2);
const isAlt = (c: { features: Record<string, number> }) => c.features["cand:alt"] === 1;
const all = questions.filter((q) => q.candidates.some((c) => c.right)).length;
const attempts = questions.filter((q) => q.candidates.some((c) => c.right && !isAlt(c))).length;
const alts = questions.reduce((s, q) => s + q.candidates.filter(isAlt).length, 0);
console.log(`${values.bench}: ${questions.length} questions · candidate recall ${pct(all)} (attempts alone ${pct(attempts)}; only an alternative SQL candidate right: ${all - attempts}) · ${(alts / n).toFixed(2)} alternative SQL candidates per question`);
