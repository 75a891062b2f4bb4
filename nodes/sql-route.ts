/**
 * What the SQL and HYBRID nodes share: running the constrained-SQL loop for the current sub-query,
 * evidence fusion, the refusals to record and the route's provenance.
 *
 * Fusion: the default fast path returns the SQL scalar directly; with `useMarkdownFusion` only
 * lookup/filter scalars that are not 0/empty/null are returned directly. Otherwise one fusion call
 * over text, schema/cell evidence, SQL result and table markdown. Our fix: the executor's failure
 * sentinel is never a scalar (it reaches fusion as an empty SQL result).
 *
 * Provenance: the SQL that ran, its result rows, the columns it reads and the rows it read with
 * their cells; the passage sentences too when the answer is not a value of the result (fusion read
 * it from the text), and only those when no SQL result was accepted.
 */
import type { Configuration } from "../graph/configuration.js";
import type { SqlAlternative, State } from "../graph/state.js";
import { normaliseAnswerText } from "../text/normalise.js";
import { isValidAnswer } from "./answer-validity.js";
import type { SchemaEntry } from "../indexing/types.js";
import type { RouteProvenance } from "./attempt.js";
import { runConstrainedSql, type ConstrainedSqlResult } from "./constrained-sql.js";
import { tableMarkdown } from "./evidence-text.js";
import type { AgentIndex, NodeResources } from "./node-resources.js";
import { passageSentences, resultHolds, sqlProvenance, tablesMentioning } from "./provenance.js";
import { tablesForHint } from "./schema-scope.js";
import { isUninformativeScalar, sqlScalar } from "./sql-evidence.js";
import type { Strategies } from "./strategies.js";
import type { LinkedValue, Route } from "./types.js";
import { noteFailure, type UsageMeter } from "./usage-meter.js";

export interface FusionInput {
  state: State;
  route: Route;
  /** The accepted SQL result ("" when the loop failed closed). */
  sqlResult: string;
  /** Schema (and, for HYBRID, cell) evidence. */
  schemaEvidence: string;
  useMarkdownFusion: boolean;
  /** Where a failing fusion call is noted. */
  meter?: UsageMeter;
}

/** §8.2 evidence fusion. A fusion error gives "" (noted in `input.meter`). */
export async function fuseAnswer(
  strategies: Pick<Strategies, "fuse" | "fuseScalars">,
  input: FusionInput,
): Promise<string> {
  const plan = input.state.plan!;
  const scalar = sqlScalar(input.sqlResult);
  if (scalar !== undefined && !strategies.fuseScalars) {
    if (!input.useMarkdownFusion) return scalar.trim();
    const lookupLike = plan.expectedOperator === "lookup" || plan.expectedOperator === "filter";
    if (lookupLike && !isUninformativeScalar(scalar)) return scalar.trim();
  }
  try {
    const answer = await strategies.fuse({
      question: input.state.question,
      subQuery: plan.subQuery,
      plan,
      route: input.route,
      textEvidence: input.state.textEvidence,
      schemaEvidence: input.schemaEvidence,
      sqlResult: input.sqlResult,
      markdown: tableMarkdown(input.state.chunks),
    });
    return typeof answer === "string" ? answer.trim() : "";
  } catch (error) {
    noteFailure(input.meter, "fuse failed (no answer)", error);
    return "";
  }
}

/**
 * What the constrained-SQL loop refused or could not do, for the trace: "<sql> → <violations>" per
 * refused statement, the writer's failure when it wrote none, and the pre-check's reason.
 */
export function sqlRefusals(result: ConstrainedSqlResult): string[] {
  const refused = result.attempts
    .filter((a) => a.violations.length > 0)
    .map((a) => (a.sql ? `${a.sql} → ` : "") + a.violations.join("; "));
  return result.refused !== undefined ? [result.refused, ...refused] : refused;
}

/** The provenance of an SQL/HYBRID answer (see file comment). */
export async function sqlRouteProvenance(
  state: State,
  c: Configuration,
  index: AgentIndex,
  resources: NodeResources,
  result: ConstrainedSqlResult,
  answer: string,
): Promise<RouteProvenance> {
  if (result.sqlResult === "" || !result.scope)
    return { tables: tablesMentioning(answer, state.chunks), passages: passageSentences(answer, state.chunks) };
  const executor = c.sqlServiceUrl ? undefined : await resources.sqlExecutor(c);
  const found = await sqlProvenance({
    sql: result.sql,
    sqlResult: result.sqlResult,
    scope: result.scope,
    tables: index.tables,
    ...(executor ? { executor } : {}),
  });
  const passages = resultHolds(answer, found.sql.resultRows) ? [] : passageSentences(answer, state.chunks);
  return { tables: found.tables, cells: found.cells, sql: found.sql, passages };
}

/**
 * The answers of the loop's alternative statements (fused like the accepted one), each kept when it
 * is a valid answer that differs from the route's own and from the alternatives before it.
 */
export async function sqlAlternatives(
  strategies: Strategies,
  input: Omit<FusionInput, "sqlResult">,
  result: ConstrainedSqlResult,
  answer: string,
): Promise<SqlAlternative[]> {
  const out: SqlAlternative[] = [];
  const seen = new Set([normaliseAnswerText(answer)]);
  for (const alt of result.alternatives ?? []) {
    const fused = await fuseAnswer(strategies, { ...input, sqlResult: alt.sqlResult });
    const key = normaliseAnswerText(fused);
    if (!isValidAnswer(fused) || seen.has(key)) continue;
    seen.add(key);
    out.push({ answer: fused, sql: alt.sql, sqlResult: alt.sqlResult, plan: alt.plan });
  }
  return out;
}

/** Runs the constrained-SQL loop for the current sub-query over C and the linked values. */
export async function runSqlFor(
  state: State,
  c: Configuration,
  index: AgentIndex,
  resources: NodeResources,
  strategies: Strategies,
  columns: SchemaEntry[],
  bindings: LinkedValue[],
  evidence: string,
  meter?: UsageMeter,
  alternatives = false,
): Promise<ConstrainedSqlResult> {
  return runConstrainedSql({
    subQuery: state.plan!.subQuery,
    plan: state.plan!,
    originalQuestion: state.question,
    allowedColumns: columns,
    ...(state.schema ? { restoredTableId: state.schema.tableId } : {}),
    fallbackTableIds: state.table_id ? tablesForHint(state.table_id, index.tables) : [],
    tables: index.tables,
    bindings,
    evidence,
    strategies,
    executor: await resources.sqlExecutor(c),
    ...(c.sqlServiceUrl ? { sqlServiceUrl: c.sqlServiceUrl } : {}),
    ...(meter ? { meter } : {}),
    ...(c.verifierFeatures === "all" ? { verifierFeatures: "all" as const } : {}),
    alternatives,
  });
}
