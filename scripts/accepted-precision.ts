/**
 * Accepted-answer precision of a results file written by `atr run --emit_trace`: of the questions
 * whose final answer came from a verifier-accepted attempt, how many are right by the benchmark's
 * official metric (WTQ denotation, TAT-QA EM, HybridQA EM). Also per effective route of the
 * accepted attempt, so a cascade can decide which accepted routes to trust. A record's
 * `atr_stats.answer_verified` decides when present (a plausible fallback answer is unverified even if
 * an accepted attempt produced the same text); older files fall back to matching accepted attempts.
 * Also reports the accuracy of the unverified (plausible-fallback) answers.
 *
 *   npx tsx scripts/accepted-precision.ts --bench tatqa --gold ../shared/data/tatqa/dev/questions.jsonl --pred out/tatqa_….jsonl
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { scoreHybridqa } from "../evals/scoring/hybridqa.js";
import { scoreTatqa, tatPredictionFromText } from "../evals/scoring/tatqa.js";
import { wtqCorrect } from "../evals/scoring/wtq.js";

const { values } = parseArgs({
  options: { bench: { type: "string" }, gold: { type: "string" }, pred: { type: "string" } },
});
if (!values.bench || !values.gold || !values.pred) {
  console.error(
    "usage: npx tsx scripts/accepted-precision.ts --bench wtq|tatqa|hybridqa --gold QUESTIONS.jsonl --pred RESULTS.jsonl",
  );
  process.exit(2);
}

type Record_ = Record<string, unknown> & { question_id: string };
const readJsonl = (path: string): Record_[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record_);

const gold = new Map(readJsonl(values.gold).map((q) => [q.question_id, q]));
const bench = values.bench;

function correct(q: Record_, answer: string): boolean {
  const g = q.answer as string[];
  if (bench === "wtq")
    return wtqCorrect({ answer: g, answer_canon: (q.answer_canon as string[] | undefined) ?? null }, answer);
  if (bench === "tatqa")
    return (
      scoreTatqa(
        { answer: g, answer_type: String(q.answer_type), scale: String(q.scale ?? "") },
        tatPredictionFromText(answer),
      ).em === 1
    );
  if (bench === "hybridqa") return scoreHybridqa(g, answer).em === 1;
  throw new Error(`--bench must be wtq, tatqa or hybridqa, got ${bench}`);
}

let total = 0;
let right = 0;
let accepted = 0;
let acceptedRight = 0;
let unverified = 0;
let unverifiedRight = 0;
const byRoute = new Map<string, { n: number; ok: number }>();
for (const r of readJsonl(values.pred)) {
  const q = gold.get(r.question_id);
  if (!q) continue;
  total++;
  const answer = String(r.agentic_tablerag_answer ?? "");
  const ok = correct(q, answer);
  if (ok) right++;
  const decisions =
    (
      r.atr_trace as {
        verifier_decisions?: Array<{ accepted: boolean; effective_route: string; produced_answer: string }>;
      }
    )?.verifier_decisions ?? [];
  const acc = decisions.filter((d) => d.accepted && d.produced_answer.trim() === answer.trim());
  const verifiedFlag = (r.atr_stats as { answer_verified?: boolean } | undefined)?.answer_verified;
  const verified =
    typeof verifiedFlag === "boolean"
      ? verifiedFlag && answer !== "not found"
      : acc.length > 0 && answer !== "not found";
  if (!verified) {
    if (answer !== "not found") {
      unverified++;
      if (ok) unverifiedRight++;
    }
    continue;
  }
  accepted++;
  if (ok) acceptedRight++;
  const route = acc[acc.length - 1]?.effective_route ?? "(synthesis)";
  const s = byRoute.get(route) ?? { n: 0, ok: 0 };
  s.n++;
  if (ok) s.ok++;
  byRoute.set(route, s);
}
const pct = (a: number, b: number) => (b ? ((100 * a) / b).toFixed(1) : "–");
console.log(
  `${bench}: ${total} questions, right ${right} (${pct(right, total)}%), accepted ${accepted} (${pct(accepted, total)}%), accepted-answer precision ${pct(acceptedRight, accepted)}%`,
);
if (unverified)
  console.log(
    `  unverified (plausible fallback) answers: ${unverified}, ${unverifiedRight} right (${pct(unverifiedRight, unverified)}%)`,
  );
for (const [route, s] of [...byRoute].sort((a, b) => b[1].n - a[1].n))
  console.log(`  accepted via ${route.padEnd(8)} ${s.ok}/${s.n} right (${pct(s.ok, s.n)}%)`);
