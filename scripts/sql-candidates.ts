/**
 * Candidate recall of a traced run (`atr run --emit_trace`): the share of questions where some
 * traced candidate is right under the benchmark's official metric — over every candidate, over the
 * attempts alone (without the alternative SQL candidates, `alternative: true`), and how many questions
 * only an alternative answers right. Then the final-answer accuracy the run would have under the
 * policy of nodes/synthesize.ts `bestScoredCandidate` for several margins: an alternative replaces the
 * attempts' choice only when nothing was accepted and its P(correct) beats the chosen one's by the
 * margin ("attempts only" = no alternative ever replaces it).
 *
 *   npx tsx scripts/sql-candidates.ts --bench wtq --gold QUESTIONS.jsonl --pred RUN.jsonl
 */
import { parseArgs } from "node:util";
import { officialScore, type Bench } from "../evals/score.js";
import { readJsonl } from "../training/labels.js";
import type { TraceDecision } from "../graph/state.js";
import { answerModel } from "../nodes/offline/answer-model.js";
import { chooseWithAlternatives } from "../nodes/synthesize.js";

const { values } = parseArgs({
  options: { bench: { type: "string" }, gold: { type: "string" }, pred: { type: "string" } },
});
if (!values.bench || !values.gold || !values.pred)
  throw new Error("usage: --bench wtq|tatqa|hybridqa --gold QUESTIONS.jsonl --pred RUN.jsonl");
const bench = values.bench as Bench;
const gold = new Map(readJsonl<Record<string, unknown>>(values.gold).map((g) => [String(g.question_id), g]));
const runs = readJsonl<{ question_id: string; atr_trace?: { verifier_decisions?: TraceDecision[] } }>(values.pred);
const ranker = answerModel()?.ranker;
const threshold = answerModel()?.threshold ?? 1;
const margins = [0, 0.1, 0.2, 0.3, 0.4, 0.5, Infinity];
let all = 0;
let attemptsOnly = 0;
let alternatives = 0;
const right = margins.map(() => 0);
for (const r of runs) {
  const g = gold.get(String(r.question_id));
  if (!g) throw new Error(`${values.pred}: question ${r.question_id} is not in ${values.gold}`);
  const ok = (answer: string) =>
    ((s) => s.accuracy ?? s.em ?? 0)(
      officialScore(bench, { ...g, question: String(g.question ?? "") }, { agentic_tablerag_answer: answer }),
    ) === 1;
  const trace = (r.atr_trace?.verifier_decisions ?? []).filter((d) => d.p_correct !== undefined && d.features);
  alternatives += trace.filter((d) => d.alternative).length;
  if (trace.some((d) => ok(d.produced_answer))) all++;
  if (trace.some((d) => !d.alternative && ok(d.produced_answer))) attemptsOnly++;
  margins.forEach((m, i) => {
    const chosen = chooseWithAlternatives(trace, ranker, threshold, m);
    if (chosen && ok(chosen.produced_answer)) right[i]!++;
  });
}
const n = Math.max(1, runs.length);
const pct = (k: number) => ((100 * k) / n).toFixed(2);
console.log(
  `${bench}: ${runs.length} questions · candidate recall ${pct(all)} (attempts alone ${pct(attemptsOnly)}; only an alternative SQL candidate right: ${all - attemptsOnly}) · ${(alternatives / n).toFixed(2)} alternative SQL candidates per question`,
);
console.log(
  `accuracy by margin: ${margins.map((m, i) => `${m === Infinity ? "attempts only" : m} → ${pct(right[i]!)}`).join(" · ")}`,
);
