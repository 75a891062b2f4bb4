/**
 * Dev harness for the offline NL→SQL engine, bypassing the graph: analysis → mentions → column choice
 * → SQL template → execute against a tables.sqlite → WTQ denotation check.
 *
 *   npx tsx scripts/offline-dev.ts --store /tmp/wtqdev/tables.sqlite \
 *     --questions ../shared/data/wtq/dev/questions.jsonl [--limit N] [--show wrong|all|none] [--c-top K]
 *
 * Build the store first (any tables dir): npx tsx scripts/offline-dev.ts --build <tables dir> --store <file>.
 * `--no-target-model` ranks target columns with the hand score (models/target-columns.json unused);
 * `--no-link-model` keeps findMentions's condition links (models/condition-links.json unused);
 * `--no-plan-model` answers with the registry's first plan (models/plan-choice.json unused).
 * `--c-top K` restricts the usable columns to the K best columns by header overlap with the question
 * (an approximation of the graph's allowed columns C) to measure what C costs.
 */
import { existsSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import Database from "better-sqlite3";
import { parseArgs } from "node:util";
import { openSearchableIndex as openIndex } from "../retrievers/open-search.js";
import { buildGuardScope, checkSql } from "../retrievers/sql-guard.js";
import { loadTables } from "../indexing/load-tables.js";
import { readTableSchemas, writeSqlStore } from "../indexing/sql-store.js";
import { wtqCorrect } from "../evals/scoring/wtq.js";
import { analyzeQuestion } from "../nodes/offline/analysis.js";
import { linkMentions, setConditionLinkModel } from "../nodes/offline/condition-links.js";
import { planSql } from "../nodes/offline/sql-writer.js";
import { planFeatures, rowsFeature, type PlanFeatures } from "../nodes/offline/confidence.js";
import { loadCatalog } from "../nodes/offline/table-catalog.js";
import { expandHeaderShorthand } from "../nodes/offline/header-shorthand.js";
import { fuseEvidence } from "../nodes/offline/fuse.js";
import { cleanAnswer } from "../nodes/offline/answer-format.js";
import type { SubQueryPlan } from "../nodes/types.js";
import { setTargetColumnModel } from "../nodes/offline/target-column-model.js";
import { choosePlan, setPlanChoiceModel } from "../nodes/offline/plan-choice.js";

const { values } = parseArgs({
  options: {
    store: { type: "string" },
    build: { type: "string" },
    questions: { type: "string" },
    limit: { type: "string" },
    show: { type: "string", default: "wrong" },
    template: { type: "string" },
    index: { type: "string" },
    "c-top": { type: "string" },
    out: { type: "string" },
    "no-target-model": { type: "boolean", default: false },
    "no-link-model": { type: "boolean", default: false },
    "no-plan-model": { type: "boolean", default: false },
  },
});
// (The hand-scored target column, for before/after figures of the learned one.)
if (values["no-target-model"]) setTargetColumnModel(null);
// (findMentions's own links, for before/after figures of the learned condition linking.)
if (values["no-link-model"]) setConditionLinkModel(null);
// (The registry's first plan, for before/after figures of the learned plan choice.)
if (values["no-plan-model"]) setPlanChoiceModel(null);

if (values.build) {
  if (!values.store) throw new Error("--build needs --store <file>");
  if (existsSync(values.store)) unlinkSync(values.store);
  const loaded = loadTables(values.build);
  writeSqlStore(values.store, loaded.tables);
  console.log(`wrote ${loaded.tables.length} tables to ${values.store}`);
  process.exit(0);
}
if (!(values.store || values.index) || !values.questions)
  throw new Error("usage: --store <tables.sqlite> | --index <dir>, --questions <questions.jsonl>");

const index = values.index ? await openIndex(values.index) : undefined;
const db = index ? index.db : new Database(values.store!, { readonly: true, fileMustExist: true });
const schemas = index ? index.tables : readTableSchemas(db);
const cTop = values["c-top"] ? Number(values["c-top"]) : 0;
let cMisses = 0;
let guardRefusals = 0;
const lines = readFileSync(values.questions, "utf8").trim().split("\n");
const questions = lines.map(
  (l) =>
    JSON.parse(l) as {
      question_id: string;
      question: string;
      table_id: string;
      answer: string[];
      answer_canon?: string[];
    },
);
const limit = values.limit ? Number(values.limit) : questions.length;

let right = 0;
let answered = 0;
let answeredRight = 0;
const times: number[] = [];
const predictions: Array<{
  question_id: string;
  prediction: string;
  ok: boolean;
  template: string;
  targetColumn?: string;
  sql?: string;
  features?: PlanFeatures;
}> = [];
const byTemplate = new Map<string, { n: number; ok: number }>();
for (const q of questions.slice(0, limit)) {
  const t0 = performance.now();
  const schema = schemas.get(q.table_id);
  let prediction = "";
  let template = "none";
  let sql = "";
  let note = "";
  let features: PlanFeatures | undefined;
  let targetColumn: string | undefined;
  if (schema) {
    const catalog = loadCatalog(db, schema);
    // (As the decomposer asks it: in the table's own header shorthand.)
    const asked = expandHeaderShorthand(q.question, catalog);
    const analysis = analyzeQuestion(asked);
    const mentions = linkMentions(asked, analysis, catalog);
    note = mentions.map((m) => `${m.text}→${m.column}=${m.value}(${m.kind})`).join("; ");
    let usable: Set<number> | undefined;
    if (index && cTop > 0) {
      const hits = await index.search.schema(q.question, cTop, { tableIds: [q.table_id] });
      usable = new Set(
        hits.map((h) => schema.columns.findIndex((c) => c.name === h.entry.column)).filter((i) => i >= 0),
      );
      const full = planSql({ analysis, catalog, mentions });
      const restricted = planSql({ analysis, catalog, mentions, usable });
      if (full?.sql !== restricted?.sql) cMisses++;
    }
    // The decomposer's plan: the learned choice among the candidates, each run (plan-choice.ts).
    const plan =
      choosePlan(q.question, { analysis, catalog, mentions, ...(usable ? { usable } : {}) }, (sql) =>
        db.prepare(sql).all(),
      )?.plan ?? null;
    features = plan ? planFeatures(analysis, mentions, plan, catalog) : undefined;
    if (plan) {
      // The SQL routes run every statement through the guard: count what it refuses.
      const usableCols = schema.columns
        .filter((_, i) => !usable || usable.has(i))
        .map((c) => ({ tableId: schema.tableId, column: c.name }));
      const scope = buildGuardScope({ tables: [schema], allowedColumns: usableCols, linkedValues: [] });
      const violations = checkSql(plan.sql, scope.scope);
      if (violations.length > 0) {
        guardRefusals++;
        note += ` GUARD: ${violations.join("; ")}`;
      }
      template = plan.template;
      targetColumn = plan.targetColumn;
      sql = plan.sql;
      // As in the graph, a statement the guard refuses is not executed (the store is read-only anyway).
      if (violations.length === 0) {
        try {
          const rows = db.prepare(plan.sql).all();
          if (features) features.rows = rowsFeature(rows);
          const subPlan: SubQueryPlan = {
            subQuery: q.question,
            requiredModalities: "table",
            expectedOperator: analysis.operator,
            needGlobalTableView: analysis.needGlobalView,
            entityMentions: mentions.map((m) => m.text),
            uncertainty: 0,
            analysis: analysis as unknown as Record<string, unknown>,
          };
          const sqlResult = JSON.stringify(rows);
          prediction = fuseEvidence({
            question: q.question,
            subQuery: q.question,
            plan: subPlan,
            route: "SQL",
            textEvidence: "",
            schemaEvidence: "",
            sqlResult,
            markdown: "",
          });
          // The graph's synthesis cleans a single step's answer the same way (first line, quotes, spaces).
          prediction = prediction === "not found" ? "" : cleanAnswer(prediction);
        } catch (error) {
          note += ` SQL ERROR ${(error as Error).message}`;
        }
      }
    }
  }
  times.push(performance.now() - t0);
  const ok = wtqCorrect({ answer: q.answer, answer_canon: q.answer_canon ?? null }, prediction);
  if (ok) right++;
  if (prediction !== "") {
    answered++;
    if (ok) answeredRight++;
  }
  predictions.push({
    question_id: q.question_id,
    prediction,
    ok,
    template,
    ...(targetColumn !== undefined ? { targetColumn, sql } : {}),
    ...(features ? { features } : {}),
  });
  const s = byTemplate.get(template) ?? { n: 0, ok: 0 };
  s.n++;
  if (ok) s.ok++;
  byTemplate.set(template, s);
  if (
    (values.template === undefined || values.template === template) &&
    (values.show === "all" || (values.show === "wrong" && !ok))
  ) {
    console.log(
      `${ok ? "OK " : "BAD"} [${template}] ${q.question}\n    gold=${JSON.stringify(q.answer)} pred=${JSON.stringify(prediction)}\n    ${note}\n    ${sql}`,
    );
  }
}
if (values.out) writeFileSync(values.out, predictions.map((p) => JSON.stringify(p)).join("\n") + "\n");
times.sort((x, y) => x - y);
const n = Math.min(limit, questions.length);
console.log(
  `accuracy ${right}/${n} = ${((100 * right) / n).toFixed(1)}%; answered ${answered} (precision ${((100 * answeredRight) / Math.max(1, answered)).toFixed(1)}%)`,
);
console.log(
  `latency median ${times[Math.floor(n / 2)]!.toFixed(2)} ms, p95 ${times[Math.floor(n * 0.95)]!.toFixed(2)} ms`,
);
console.log(`guard refusals: ${guardRefusals}`);
if (cTop > 0) console.log(`SQL changed by the top-${cTop} column restriction: ${cMisses}`);
for (const [t, s] of [...byTemplate].sort((x, y) => y[1].n - x[1].n)) console.log(`  ${t.padEnd(15)} ${s.ok}/${s.n}`);
if (index) index.close();
else db.close();
