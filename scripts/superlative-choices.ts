/**
 * Execution labels for the value-or-row choice of superlatives (issue 16, chosen on wtq/train): for
 * each question whose first plan is `superlative.order`, the statement is run answering with the
 * ordered column itself (the value) and with the best other target column (the row's cell), each
 * judged with the official WTQ match. One JSON line per question with both labels and the plan's choice.
 *
 *   npx tsx scripts/superlative-choices.ts --store /tmp/atr-idx/wtq-train/tables.sqlite \
 *     --questions ../shared/data/wtq/train/questions.jsonl --out /tmp/superlative-choices.jsonl
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { readTableSchemas } from "../indexing/sql-store.js";
import { firstPlan } from "../nodes/offline/plans/registry.js";
import { col } from "../nodes/offline/plans/sql-parts.js";
import { headerMatch, rankTargetColumns } from "../nodes/offline/columns.js";
import { recordOrderRankings, type OrderRanking } from "../nodes/offline/order-column-model.js";
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
  let last: OrderRanking | undefined;
  recordOrderRankings((r) => (last = r));
  const plan = firstPlan({ analysis, catalog, mentions });
  recordOrderRankings(null);
  if (!plan || plan.generator !== "superlative.order" || !last) continue;
  const ranking: OrderRanking = last;
  const order = ranking.rows.reduce((b, r) => (r.hand > b.hand ? r : b), ranking.rows[0]!).column;
  const row = rankTargetColumns(analysis, catalog, mentions, { avoid: new Set([order.index]) })[0]?.column;
  if (!row) continue;
  const current = plan.sql.slice("SELECT ".length, plan.sql.indexOf(" FROM "));
  const judge = (target: string): boolean =>
    judgeStatement(db, q, analysis, mentions, `SELECT ${target}${plan.sql.slice(plan.sql.indexOf(" FROM "))}`).ok;
  out.push(
    JSON.stringify({
      question_id: q.question_id,
      question: q.question,
      answerType: analysis.answerType,
      asksValue: current === col(order),
      hintsMatchOrder: headerMatch(analysis.targetHints.slice(0, 2), order),
      hintsMatchRow: headerMatch(analysis.targetHints.slice(0, 2), row),
      value: judge(col(order)),
      row: judge(col(row)),
    }),
  );
}
writeFileSync(values.out, out.join("\n") + "\n");
console.log(`${out.length} superlative.order questions → ${values.out}`);
