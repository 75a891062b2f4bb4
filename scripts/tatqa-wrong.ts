/**
 * The wrong answers of an `atr run --emit_trace` over a TAT-QA-style split, by class: where the right
 * answer was among the question's attempts but another one was chosen ("ranked out"), else by gold
 * answer type and source and, for numbers, by cause (scale, sign, other number). With `--cells
 * CELLS.jsonl` (scripts/tatqa-cells.ts --out) it also says whether the cell reader alone, on the whole
 * table, had the answer. Official TAT-QA metric throughout.
 *
 *   npx tsx scripts/tatqa-wrong.ts --split ../shared/data/tatqa/train --pred RUN.jsonl [--cells CELLS.jsonl] [--show CLASS|all]
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { scoreTatqa, tatPredictionFromText, tatToNumber } from "../evals/scoring/tatqa.js";
import { readJsonl } from "../training/labels.js";

const { values } = parseArgs({
  options: { split: { type: "string" }, pred: { type: "string" }, cells: { type: "string" }, show: { type: "string" } },
});
if (!values.split || !values.pred)
  throw new Error("tatqa-wrong: give --split DIR (with questions.jsonl) and --pred RUN.jsonl (atr run --emit_trace)");
interface Question {
  question_id: string;
  question: string;
  answer: string[];
  answer_type: string;
  answer_from: string;
  scale: string;
}
interface Decision {
  route: string;
  produced_answer?: string;
  p_correct?: number;
}
interface RunRow {
  question_id: string;
  agentic_tablerag_answer: string;
  atr_trace?: { verifier_decisions?: Decision[] };
}
const questions = readJsonl<Question>(join(values.split, "questions.jsonl"));
const run = new Map(readJsonl<RunRow>(values.pred).map((r) => [r.question_id, r]));
const cells = new Map(
  values.cells
    ? readJsonl<{ question_id: string; em: number; answer: string }>(values.cells).map((r) => [r.question_id, r])
    : [],
);
const em = (q: Question, answer: string | undefined) =>
  answer
    ? scoreTatqa({ answer: q.answer, scale: q.scale, answer_type: q.answer_type }, tatPredictionFromText(answer)).em
    : 0;

/** Why a wrong final answer is wrong. */
function cause(q: Question, row: RunRow | undefined): string {
  const answer = row?.agentic_tablerag_answer ?? "";
  const decisions = row?.atr_trace?.verifier_decisions ?? [];
  if (decisions.some((d) => em(q, d.produced_answer))) return "ranked out";
  if (!answer || /^not found$/i.test(answer)) return "no answer";
  const p = tatPredictionFromText(answer);
  if (scoreTatqa({ answer: q.answer, scale: p.scale, answer_type: q.answer_type }, p).em) return "scale";
  const gold = q.answer.length === 1 ? tatToNumber(q.answer[0]!) : undefined;
  const pred = p.answer.length === 1 ? tatToNumber(p.answer[0]!) : undefined;
  if (gold && pred && gold.value !== 0 && Math.abs(gold.value + pred.value) < 1e-6) return "sign";
  if (q.answer_type === "arithmetic" || q.answer_type === "count") return pred ? "number: other" : "number: text given";
  return gold && pred ? "span: other number" : gold ? "span: number asked, text given" : "span: wrong";
}

const classes = new Map<string, number>();
let wrong = 0;
for (const q of questions) {
  const row = run.get(q.question_id);
  if (em(q, row?.agentic_tablerag_answer)) continue;
  wrong++;
  const why = cause(q, row);
  const key = `${q.answer_type}/${q.answer_from}: ${why}`;
  classes.set(key, (classes.get(key) ?? 0) + 1);
  const c = cells.get(q.question_id);
  if (values.show && (values.show === "all" || why === values.show || key.includes(values.show)))
    console.log(
      `${key}\t${q.question}\n\tgold:  ${q.answer.join(" | ")} ${q.scale}\n\trun:   ${row?.agentic_tablerag_answer}${c ? `\n\tcells: ${c.answer}${c.em ? " (right)" : ""}` : ""}` +
        (row?.atr_trace?.verifier_decisions ?? [])
          .map(
            (d) =>
              `\n\t  ${d.route} P ${d.p_correct?.toFixed(2)} ${d.produced_answer}${em(q, d.produced_answer) ? " (right)" : ""}`,
          )
          .join(""),
    );
}
for (const [k, n] of [...classes].sort((a, b) => b[1] - a[1])) console.log(`${String(n).padStart(4)}  ${k}`);
console.log(`wrong ${wrong} / ${questions.length}`);
