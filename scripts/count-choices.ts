/**
 * Execution labels for the counting plans (issue 16, chosen on wtq/train): for each question whose
 * first plan counts rows (`count.rows`), the statement is run again counting the distinct non-empty
 * values of each column instead (the same WHERE), and every variant is judged with the official WTQ
 * match. One JSON line per question: the variants' answers and labels and the features a choice
 * between them can use (the counted noun's header match per column, distinct/row ratio, whether the
 * rows are filtered). scripts/offline-dev.ts measures a choice once it is in the plans.
 *
 *   npx tsx scripts/count-choices.ts --store /tmp/atr-idx/wtq-train/tables.sqlite \
 *     --questions ../shared/data/wtq/train/questions.jsonl --out /tmp/count-choices.jsonl
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { readTableSchemas } from "../indexing/sql-store.js";
import { firstPlan } from "../nodes/offline/plans/registry.js";
import { col, numExpr } from "../nodes/offline/plans/sql-parts.js";
import { headerMatch, isNumericColumn } from "../nodes/offline/columns.js";
import { judgeStatement, prepareQuestion, readQuestions } from "./sql-harness.js";

const { values } = parseArgs({
  options: { store: { type: "string" }, questions: { type: "string" }, out: { type: "string" } },
});
if (!values.store || !values.questions || !values.out)
  throw new Error("usage: --store tables.sqlite --questions questions.jsonl --out FILE.jsonl");
const db = new Database(values.store, { readonly: true, fileMustExist: true });
const schemas = readTableSchemas(db);
const out: string[] = [];
for (const q of readQuestions(values.questions)) {
  const prepared = prepareQuestion(db, schemas, q);
  if (!prepared) continue;
  const { analysis, catalog, mentions } = prepared;
  const plan = firstPlan({ analysis, catalog, mentions });
  if (!plan || plan.generator !== "count.rows" || !plan.sql.startsWith("SELECT COUNT(*) ")) continue;
  const judge = (sql: string) => judgeStatement(db, q, analysis, mentions, sql);
  const rows = judge(plan.sql);
  const noun = analysis.countNoun.length ? analysis.countNoun : analysis.targetHints;
  const filtered = / WHERE /.test(plan.sql);
  const columns = catalog.columns.map((c) => {
    const where = filtered ? " AND " : " WHERE ";
    const sql = `${plan.sql.replace("SELECT COUNT(*) ", `SELECT COUNT(DISTINCT ${col(c)}) `)}${where}TRIM(${col(c)}) <> ''`;
    return {
      name: c.schema.name,
      match: headerMatch(noun, c),
      numeric: isNumericColumn(c),
      distinctShare: c.distinct.size / Math.max(1, c.raw.length),
      mentioned: mentions.some((m) => m.columnIndex === c.index),
      ...judge(sql),
      // The summed numbers of the column over the selected rows (a count a cell already holds).
      sum: isNumericColumn(c) ? judge(plan.sql.replace("SELECT COUNT(*) ", `SELECT SUM(${numExpr(c)}) `)) : null,
    };
  });
  out.push(
    JSON.stringify({
      question_id: q.question_id,
      table_id: q.table_id,
      question: q.question,
      noun,
      filtered,
      nRows: catalog.columns[0]?.raw.length ?? 0,
      rows,
      columns,
    }),
  );
}
writeFileSync(values.out, out.join("\n") + "\n");
console.log(`${out.length} count.rows questions → ${values.out}`);
