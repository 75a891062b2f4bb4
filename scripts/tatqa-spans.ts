/**
 * The clause reader (nodes/offline/clause-reader.ts) on TAT-QA-style data, bypassing the graph: each
 * question its clause detector takes is read over all the passages of its table and scored with the
 * official TAT-QA metric. With `--pred RUN.jsonl` (an `atr run` output on the same split) it also
 * prints, on the questions the detector takes, how many the run got right and the paired
 * better/worse of the clause answer against the run's answer (what the graph gains when the clause
 * answer wins). A change to the clause reader is measured here first (about 2 s).
 *
 *   npx tsx scripts/tatqa-spans.ts --split ../shared/data/tatqa/train [--pred RUN.jsonl] [--show wrong|better|worse|all]
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { readClause } from "../nodes/offline/clause-reader.js";
import { clauseAsk } from "../nodes/offline/clause-question.js";
import { scoreTatqa, tatPredictionFromText } from "../evals/scoring/tatqa.js";
import { readJsonl } from "../training/labels.js";
import { reportPassages, type TatQuestion as Question } from "./helpers/tatqa-reports.js";

const { values } = parseArgs({
  options: { split: { type: "string" }, pred: { type: "string" }, show: { type: "string" } },
});
if (!values.split) throw new Error("tatqa-spans: give --split DIR (a folder with questions.jsonl and passages/)");
const dir = values.split;
const questions = readJsonl<Question>(join(dir, "questions.jsonl"));
const run = new Map(
  values.pred
    ? readJsonl<{ question_id: string; agentic_tablerag_answer: string }>(values.pred).map((r) => [
        r.question_id,
        r.agentic_tablerag_answer,
      ])
    : [],
);
const em = (q: Question, answer: string) =>
  answer
    ? scoreTatqa({ answer: q.answer, scale: q.scale, answer_type: q.answer_type }, tatPredictionFromText(answer)).em
    : 0;

const byType = new Map<string, { n: number; taken: number; right: number; runRight: number }>();
let better = 0;
let worse = 0;
for (const q of questions) {
  const key = `${q.answer_type}/${q.answer_from}`;
  const e = byType.get(key) ?? { n: 0, taken: 0, right: 0, runRight: 0 };
  byType.set(key, e);
  e.n++;
  const ask = clauseAsk(q.question);
  if (!ask) continue;
  e.taken++;
  const passages = reportPassages(dir, q.table_id).join("\n");
  const answer = readClause(q.question, passages)?.answer ?? "";
  const right = em(q, answer);
  const runRight = run.has(q.question_id) ? em(q, run.get(q.question_id)!) : 0;
  e.right += right;
  e.runRight += runRight;
  if (right > runRight) better++;
  if (right < runRight) worse++;
  const show = values.show;
  const tag = right > runRight ? "better" : right < runRight ? "worse" : right ? "right" : "wrong";
  if (show && (show === "all" || show === tag || (show === "wrong" && !right)))
    console.log(
      `${tag}\t${ask}\t${key}\t${q.question}\n\tclause: ${answer}\n\tgold:   ${q.answer.join(" | ")}${values.pred ? `\n\trun:    ${run.get(q.question_id)}` : ""}`,
    );
}
let taken = 0;
let right = 0;
let runRight = 0;
for (const [key, e] of [...byType].sort()) {
  console.log(
    `${key.padEnd(24)} taken ${String(e.taken).padStart(3)} / ${String(e.n).padStart(3)}  clause right ${String(e.right).padStart(3)}${values.pred ? `  run right ${String(e.runRight).padStart(3)}` : ""}`,
  );
  taken += e.taken;
  right += e.right;
  runRight += e.runRight;
}
console.log(
  `all: taken ${taken} / ${questions.length}, clause right ${right}${values.pred ? `, run right ${runRight}; clause vs run: ${better} better / ${worse} worse` : ""}`,
);
