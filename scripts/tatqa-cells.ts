/**
 * The report-table cell reader (nodes/offline/table-cells.ts) on TAT-QA-style data, bypassing the
 * graph: each question's whole table plus its passages (for the declared scale) go to
 * `answerFromCells`, and the answer is scored with the official TAT-QA metric. Prints EM by answer
 * type and source, and the wrong answers by cause — scale (right number, wrong scale), sign (right
 * size, wrong sign), other number, no reading. What the graph can get at best from the cells when
 * its evidence holds the whole table; a change to the cell reader is measured here first (about 5 s).
 *
 *   npx tsx scripts/tatqa-cells.ts --split ../shared/data/tatqa/train [--show wrong|scale|sign] [--out PER_QUESTION.jsonl]
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { answerFromCells } from "../nodes/offline/table-cells.js";
import { scoreTatqa, tatPredictionFromText, tatToNumber } from "../evals/scoring/tatqa.js";
import { readJsonl } from "../training/labels.js";
import { splitReports, type TatQuestion as Question } from "./helpers/tatqa-reports.js";

const { values } = parseArgs({
  options: { split: { type: "string" }, show: { type: "string" }, out: { type: "string" } },
});
if (!values.split) throw new Error("tatqa-cells: give --split DIR (a folder with questions.jsonl, tables/, passages/)");
const dir = values.split;
const questions = readJsonl<Question>(join(dir, "questions.jsonl"));
const reportOf = splitReports(dir, "tatqa-cells");

/** Why a wrong answer is wrong. */
function cause(q: Question, answer: string): string {
  if (answer === "") return "no reading";
  const p = tatPredictionFromText(answer);
  if (scoreTatqa({ answer: q.answer, scale: p.scale, answer_type: q.answer_type }, p).em) return "scale";
  const gold = q.answer.length === 1 ? tatToNumber(q.answer[0]!) : undefined;
  const pred = p.answer.length === 1 ? tatToNumber(p.answer[0]!) : undefined;
  if (gold && pred && gold.value !== 0 && Math.abs(gold.value + pred.value) < 1e-6) return "sign";
  return gold && pred ? "other number" : "other";
}

const byType = new Map<string, { n: number; right: number }>();
const causes = new Map<string, number>();
const perQuestion: string[] = [];
for (const q of questions) {
  const { tableId, rows, markdown, passages } = reportOf(q.table_id);
  const reading = answerFromCells(q.question, rows, `Table name: ${tableId}\n${markdown}\n${passages.join("\n")}`);
  const answer = reading?.answer ?? "";
  const em = answer
    ? scoreTatqa({ answer: q.answer, scale: q.scale, answer_type: q.answer_type }, tatPredictionFromText(answer)).em
    : 0;
  const key = `${q.answer_type}/${q.answer_from}`;
  const e = byType.get(key) ?? { n: 0, right: 0 };
  e.n++;
  e.right += em;
  byType.set(key, e);
  const why = em ? "" : cause(q, answer);
  if (why && why !== "no reading") causes.set(why, (causes.get(why) ?? 0) + 1);
  perQuestion.push(JSON.stringify({ question_id: q.question_id, em, answer, operation: reading?.operation }));
  const show = values.show;
  if (why && show && (show === "wrong" ? why !== "no reading" : why === show))
    console.log(`${why}\t${reading?.operation}\t${JSON.stringify(q.answer)} ${q.scale}\t${answer}\t${q.question}`);
}
let n = 0;
let right = 0;
for (const [key, e] of [...byType].sort()) {
  console.log(`${key.padEnd(24)} ${String(e.right).padStart(4)} / ${e.n}`);
  n += e.n;
  right += e.right;
}
console.log(`all${" ".repeat(21)} ${String(right).padStart(4)} / ${n}  (EM ${((100 * right) / n).toFixed(2)})`);
console.log(`wrong readings by cause: ${[...causes].map(([k, v]) => `${k} ${v}`).join(", ")}`);
if (values.out) writeFileSync(values.out, `${perQuestion.join("\n")}\n`);
