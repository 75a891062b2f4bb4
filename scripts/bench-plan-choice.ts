/**
 * CPU of the learned plan choice (nodes/offline/plan-choice.ts) against the registry's first plan, over
 * the same prepared questions (analysis, catalogue and condition links computed once), in-process with
 * `process.cpuUsage`; each mode runs twice, alternating, and the second pass is the warm figure.
 *
 *   npx tsx scripts/bench-plan-choice.ts --store /tmp/idx/wtq-train/tables.sqlite --questions EVAL.jsonl [--limit 1500]
 */
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { readTableSchemas } from "../indexing/sql-store.js";
import { analyzeQuestion } from "../nodes/offline/analysis.js";
import { linkMentions } from "../nodes/offline/condition-links.js";
import { choosePlan, setPlanChoiceModel } from "../nodes/offline/plan-choice.js";
import { loadCatalog } from "../nodes/offline/table-catalog.js";
import { readQuestions } from "./sql-harness.js";

const { values } = parseArgs({
  options: { store: { type: "string" }, questions: { type: "string" }, limit: { type: "string", default: "1500" } },
});
if (!values.store || !values.questions) throw new Error("usage: --store tables.sqlite --questions questions.jsonl");
const db = new Database(values.store, { readonly: true, fileMustExist: true });
const schemas = readTableSchemas(db);
const prepared = readQuestions(values.questions)
  .slice(0, Number(values.limit))
  .filter((q) => schemas.has(q.table_id))
  .map((q) => {
    const catalog = loadCatalog(db, schemas.get(q.table_id)!);
    const analysis = analyzeQuestion(q.question);
    return {
      question: q.question,
      input: { analysis, catalog, mentions: linkMentions(q.question, analysis, catalog) },
    };
  });
const run = (sql: string) => db.prepare(sql).all();
for (const [pass, mode] of [
  [1, "first plan"],
  [1, "learned choice"],
  [2, "first plan"],
  [2, "learned choice"],
] as const) {
  setPlanChoiceModel(mode === "first plan" ? null : undefined);
  const start = process.cpuUsage();
  for (const p of prepared) choosePlan(p.question, p.input, run);
  const used = process.cpuUsage(start);
  console.log(
    `pass ${pass} ${mode}: ${((used.user + used.system) / 1000 / prepared.length).toFixed(3)} ms CPU per question (${prepared.length})`,
  );
}
