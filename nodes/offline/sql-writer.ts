/**
 * Offline NL→SQL: SQLite SELECTs built from templates over one table — lookup, filtered count,
 * sum/average, argmax/argmin (ties kept), comparison of two named rows (which / more-or-less /
 * difference), first/last row and next/previous row (by `_row`), percentage change.
 *
 * Guard contract (retrievers/sql-guard.ts): only the usable (allowed) columns and `_row` appear;
 * every required binding appears verbatim in the OUTER WHERE, joined by AND, as
 * `<binding column> = 'value'` (or `LIKE '%value%'` for fuzzy bindings). Numbers stored as text
 * are read with SQLite's CAST after dropping thousands separators and currency signs (on a PostgreSQL
 * store the fragments of nodes/offline/sql-dialect.ts compute the same values).
 */
import type { SearchableIndex as OpenedIndex } from "../../retrievers/open-search.js";
import type { TableSchema } from "../../indexing/types.js";
import { isRequiredBinding } from "../../retrievers/sql-guard.js";
import type { SqlCandidate, WriteSqlInput } from "../strategies.js";
import { analysisOf, analyzeQuestion, type QuestionAnalysis } from "./analysis.js";
import { linkMentions } from "./condition-links.js";
import { loadCatalog } from "./table-catalog.js";
import { candidateFeatures, kindAgreement } from "./plans/candidate-features.js";
import { planMatchFeatures } from "./plan-match.js";
import { sqlChoiceMargins } from "./choice-margins.js";
import { familyOn } from "./feature-families.js";
import { firstPlan, planCandidates } from "./plans/registry.js";
import { PLAN_CHOICE_CAP } from "./plan-choice.js";
import { sameBinding } from "./plans/sql-parts.js";
import type { NamedPlan, RequiredBinding, SqlPlanInput } from "./plans/types.js";
import { withSqlFragments } from "./sql-dialect.js";

export type { NamedPlan, RequiredBinding, SqlPlan, SqlPlanInput, SqlTemplate } from "./plans/types.js";
export { sqlString } from "./plans/sql-parts.js";

/**
 * Builds the SQL for a question over one table, or null when no generator applies: the candidate the
 * decomposer chose for this table when that was not the registry's first plan (`grounding.planChoice`,
 * the learned choice of plan-choice.ts), else the first plan (nodes/offline/plans/registry.ts).
 */
export function planSql(input: SqlPlanInput): NamedPlan | null {
  const g = input.analysis.grounding;
  const chosen = g?.planChoice;
  if (chosen && g.tableId === input.catalog.schema.tableId) {
    const match = planCandidates(input, PLAN_CHOICE_CAP).find(
      (p) => p.generator === chosen.generator && p.targetRank === chosen.targetRank,
    );
    if (match) return match;
  }
  return firstPlan(input);
}

/** Thrown when no template fits the question over the allowed columns (the SQL loop fails closed). */
export class NoSqlTemplateError extends Error {
  constructor(subQuery: string) {
    super(
      `offline writeSql: no SQL template fits "${subQuery}" over the allowed columns; the route answers "not found"`,
    );
    this.name = "NoSqlTemplateError";
  }
}

/** The table to write SQL for: the grounded table when in scope, else the one owning most allowed columns. */
function sqlTable(input: WriteSqlInput, analysis: QuestionAnalysis): TableSchema | undefined {
  const grounded = analysis.grounding?.tableId;
  const inScope = input.tables.find(
    (t) => t.tableId === grounded && input.allowedColumns.some((c) => c.tableId === t.tableId),
  );
  if (inScope) return inScope;
  // The question names its table: SQL over another table would answer a different question.
  if (analysis.grounding?.hinted) return undefined;
  const counts = new Map<string, number>();
  for (const c of input.allowedColumns) counts.set(c.tableId, (counts.get(c.tableId) ?? 0) + 1);
  const best = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  return input.tables.find((t) => t.tableId === best) ?? input.tables[0];
}

/**
 * The planning input of a writeSql call: analysis (from the plan, or computed), mentions grounded in
 * the chosen table, the allowed columns C of that table and the required bindings V*. On a repair
 * call the mentions that are not bindings are dropped (the first statement's own filters are the
 * usual reason for an empty result).
 */
function writeInputFor(index: OpenedIndex, input: WriteSqlInput): SqlPlanInput {
  const analysis = analysisOf(input.plan) ?? analyzeQuestion(input.subQuery);
  const schema = sqlTable(input, analysis);
  if (!schema) throw new NoSqlTemplateError(input.subQuery);
  const catalog = loadCatalog(index.db, schema);
  let mentions =
    analysis.grounding?.tableId === schema.tableId
      ? analysis.grounding.mentions
      : linkMentions(input.subQuery, analysis, catalog);
  const usable = new Set<number>();
  for (const c of input.allowedColumns) {
    if (c.tableId !== schema.tableId) continue;
    const i = schema.columns.findIndex((s) => s.name === c.column);
    if (i >= 0) usable.add(i);
  }
  const bindings: RequiredBinding[] = [];
  for (const b of input.bindings) {
    if (!isRequiredBinding(b) || (b.tableId !== null && b.tableId !== schema.tableId)) continue;
    const i = schema.columns.findIndex((s) => s.name === b.column);
    if (i >= 0) bindings.push({ columnIndex: i, value: b.matchedValue!, fuzzy: b.fallbackLevel === 2 });
  }
  if (input.repair) mentions = mentions.filter((m) => bindings.some((b) => sameBinding(m, b, catalog)));
  // The plan made at decomposition needs columns that C lacks: a plan over the rest would answer
  // another question, so fail closed and let the router try another route.
  const needed = analysis.grounding?.tableId === schema.tableId ? (analysis.grounding.columns ?? []) : [];
  const missing = needed.filter((name) => !usable.has(schema.columns.findIndex((c) => c.name === name)));
  if (missing.length > 0)
    throw new NoSqlTemplateError(`${input.subQuery}" (allowed columns lack ${missing.join(", ")}`);
  return { analysis, catalog, mentions, usable, bindings };
}

/** writeSql and writeSqlCandidates of one call share its planning input (the loop passes both the same object). */
const planned = new WeakMap<WriteSqlInput, SqlPlanInput>();

function plannedInput(index: OpenedIndex, input: WriteSqlInput): SqlPlanInput {
  let p = planned.get(input);
  if (!p) planned.set(input, (p = writeInputFor(index, input)));
  return p;
}

/** The offline writeSql strategy: the registry's first plan over the call's planning input (writeInputFor). */
export function createWriteSql(index: OpenedIndex): (input: WriteSqlInput) => Promise<string> {
  return async (input) => {
    // The store's dialect (SQLite or PostgreSQL fragments, nodes/offline/sql-dialect.ts) for this synchronous build.
    const plan = withSqlFragments(input.dialect, () => planSql(plannedInput(index, input)));
    if (!plan) throw new NoSqlTemplateError(input.subQuery);
    return plan.sql;
  };
}

/** How many SQL candidates one offline SQL attempt proposes (the first plan included). */
export const SQL_CANDIDATES = 4;

/**
 * The offline writeSqlCandidates strategy: up to SQL_CANDIDATES plans of the registry for the same
 * input (every applicable generator, then the next-best target columns), the first being writeSql's,
 * each named with its features (plans/candidate-features.ts).
 */
export function createWriteSqlCandidates(index: OpenedIndex): (input: WriteSqlInput) => Promise<SqlCandidate[]> {
  return async (input) =>
    withSqlFragments(input.dialect, () => {
      const planInput = plannedInput(index, input);
      const kind = { hasPassages: index.passages.length > 0 };
      const planMatch = familyOn("pm:", input.verifierFeatures, kind);
      const margins = familyOn("mg:", input.verifierFeatures, kind);
      // (An alternative whose template contradicts the expected answer kind — a lookup for "how many" — was right
      // for 5 of 272 such candidates on WTQ train-500: not worth running.)
      // writeSql's plan first (the learned choice may have taken another candidate), then the others in list order.
      const chosen = planSql(planInput);
      const others = planCandidates(planInput, SQL_CANDIDATES + 1).filter((p) => p.sql !== chosen?.sql);
      return (chosen ? [chosen, ...others] : others)
        .slice(0, SQL_CANDIDATES)
        .filter((plan, rank) => rank === 0 || kindAgreement(plan.template, planInput.analysis) !== "disagree")
        .map((plan, rank) => ({
          sql: plan.sql,
          name: plan.generator,
          template: plan.template,
          features: {
            ...candidateFeatures(plan, rank, planInput.analysis),
            ...(planMatch ? planMatchFeatures(plan, planInput) : {}),
            ...(margins ? sqlChoiceMargins(plan, planInput) : {}),
          },
        }));
    });
}
