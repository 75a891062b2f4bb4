/**
 * The constrained-SQL loop of reference §6.5, used by the SQL and HYBRID routes:
 * pre-checks (fail closed, the writer is never called), the constraint prompt, then per attempt
 * writer → AST guard (retrievers/sql-guard.ts) → read-only execution → execution confidence; at most
 * two attempts, each repair block REPLACING the previous one. After the last attempt: "not found".
 *
 * Also the SQL-bound sub-query augmentation of §6 (arithmetic "IMPORTANT:" hint, "CONTEXT:" columns,
 * "TYPE NOTE:") and the expected-answer-type heuristic.
 *
 * The writer is `strategies.writeSql` (an LLM or the offline template writer), or — when
 * `sqlServiceUrl` is set — the guarded external service of §7.1, whose SQL is guarded again here.
 * The writer is shown PHYSICAL identifiers (`table.column`), with the logical names beside them.
 */
import type { SchemaEntry, TableSchema } from "../indexing/types.js";
import { ROW_ID_COLUMN } from "../indexing/types.js";
import { SQL_FAILURE_PREFIX, type SqlExecutor } from "../retrievers/sql-executor.js";
import { DEFAULT_SQL_DIALECT, dialectLabel, type SqlDialect } from "../retrievers/sql-dialect.js";
import {
  buildGuardScope,
  checkSql,
  isRequiredBinding,
  renderBinding,
  stripCodeFence,
  type GuardScope,
} from "../retrievers/sql-guard.js";
import {
  callGuardedSqlService,
  isServiceFailure,
  type SqlServiceConstraints,
  type SqlServiceOptions,
} from "../retrievers/sql-service-client.js";
import { noteFailure, type UsageMeter } from "./usage-meter.js";
import { isEmptySqlResult, NOT_FOUND } from "./sql-evidence.js";
import type { SqlCandidate, Strategies, WriteSqlInput } from "./strategies.js";
import type { LinkedValue, SubQueryPlan } from "./types.js";

export const CONSTRAINED_SQL_PROMPT_VERSION = "atr-constrained-sql-2026-11-29.1";
/** Attempts per call (reference `max_retries` = 2). */
export const DEFAULT_SQL_ATTEMPTS = 2;
/** Retrieval evidence is cut to this many characters in the prompt (reference). */
export const EVIDENCE_CHARS = 800;
export const REPAIR_HEADER = "STRICT CONSTRAINT REPAIR REQUIRED";

export interface ConstrainedSqlInput {
  /** The bare sub-query. */
  subQuery: string;
  /** "all": the writer's candidates carry every feature family, not only the shipped verifier's (WriteSqlInput). */
  verifierFeatures?: "all";
  /** The augmented sub-query; default: augmentSubQuery(subQuery, allowedColumns, tables). */
  query?: string;
  plan: SubQueryPlan;
  originalQuestion: string;
  /** Allowed columns C (View 3 entries; logical names). */
  allowedColumns: SchemaEntry[];
  /** Table id of the restored schema, when there is one. */
  restoredTableId?: string;
  /** Per-question table-id fallback scope (used only when C and the restored schema name no table). */
  fallbackTableIds: string[];
  /** Every table schema of the index, by table id. */
  tables: Map<string, TableSchema>;
  /** Linked values V* (all of them; only matched ones with level 0 or 2 become bindings). */
  bindings: LinkedValue[];
  /** Retrieval evidence text (truncated to 800 chars in the prompt). */
  evidence: string;
  strategies: Strategies;
  /** Read-only executor over View 5 (retrievers/sql-executor.ts); unused when sqlServiceUrl is set. */
  executor: SqlExecutor;
  /** When set, SQL is written and executed by the guarded external service (§7.1) instead. */
  sqlServiceUrl?: string;
  /** Options of the service adapter (timeouts, retries). */
  sqlServiceOptions?: SqlServiceOptions;
  /** Attempts (reference: 2). */
  maxAttempts?: number;
  /** Where a failing SQL writer or SQL service is noted (the loop then answers "not found"). */
  meter?: UsageMeter;
  /** Also run the writer's other candidates (writeSqlCandidates) beside the accepted statement; the SQL route asks for them. */
  alternatives?: boolean;
}

export interface ConstrainedSqlAttempt {
  sql: string;
  violations: string[];
  /** Execution confidence of this attempt (0 when refused or failed, 0.3 empty, 1 rows). */
  confidence: 0 | 0.3 | 1;
  /** The execution result string ("" when not executed). */
  result: string;
}

export interface ConstrainedSqlResult {
  /** The result string (rows as JSON) or exactly "not found". */
  answer: string;
  /** 1 with a result; 0 when the loop failed closed (an empty last result also ends as 0). */
  confidence: 0 | 0.3 | 1;
  /** The last SQL written ("" when none). */
  sql: string;
  /** The accepted result string; "" whenever `answer` is "not found" (never the sentinel). */
  sqlResult: string;
  attempts: ConstrainedSqlAttempt[];
  /** Why the loop refused before calling the writer, when it did. */
  refused?: string;
  /** The guard scope the accepted statement passed (set with a result; provenance reads it). */
  scope?: GuardScope;
  /** The plan behind `sql`, when the writer names its candidates (writeSqlCandidates). */
  plan?: Omit<SqlCandidate, "sql">;
  /** The writer's other candidates that passed the guard and returned rows (at most MAX_SQL_ALTERNATIVES). */
  alternatives?: Array<{ sql: string; sqlResult: string; plan: Omit<SqlCandidate, "sql"> }>;
}

/** Alternative statements run beside an accepted one (cheap SQLite reads; each is guarded and time-limited like the first). */
export const MAX_SQL_ALTERNATIVES = 2;

/**
 * The writer's other candidates for the accepted statement's input: each guarded and run, kept
 * when it returns rows. A writer failure here costs the alternatives only (noted), never the answer.
 */
async function runAlternatives(
  input: ConstrainedSqlInput,
  writeInput: WriteSqlInput,
  sql: string,
  scope: GuardScope,
): Promise<Pick<ConstrainedSqlResult, "plan" | "alternatives">> {
  if (!input.strategies.writeSqlCandidates) return {};
  let candidates: SqlCandidate[];
  try {
    candidates = await input.strategies.writeSqlCandidates(writeInput);
  } catch (error) {
    noteFailure(input.meter, "writeSqlCandidates failed (no alternatives)", error);
    return {};
  }
  const named = candidates.find((c) => c.sql === sql);
  const alternatives: NonNullable<ConstrainedSqlResult["alternatives"]> = [];
  for (const c of candidates) {
    if (alternatives.length >= MAX_SQL_ALTERNATIVES) break;
    if (c.sql === sql || checkSql(c.sql, scope).length > 0) continue;
    const execution = await input.executor.execute(c.sql);
    if (executionConfidence(execution.result, execution.error) !== 1) continue;
    alternatives.push({
      sql: c.sql,
      sqlResult: execution.result,
      plan: { name: c.name, template: c.template, features: c.features },
    });
  }
  return {
    ...(named ? { plan: { name: named.name, template: named.template, features: named.features } } : {}),
    ...(alternatives.length > 0 ? { alternatives } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Sub-query augmentation (§6) and the expected answer type.

const ARITHMETIC_TRIGGER =
  /\b(percentage change|percent change|change|difference|average|mean|increase|decrease|growth|decline|ratio|proportion|sum|total|how much (is|did|was)|how many|number of|count of)\b/i;

/** The one formula hint of the "IMPORTANT:" block, in the reference's priority order. */
export function arithmeticHint(subQuery: string): string | undefined {
  const q = subQuery.toLowerCase();
  if (!ARITHMETIC_TRIGGER.test(q)) return undefined;
  let hint: string;
  if (/\b(percentage|percent) change\b/.test(q)) {
    hint = "compute the percent change in SQL as (new - old) / old * 100, keep the sign, and report it in percent";
  } else if (/\b(how many|number of|count of)\b/.test(q)) {
    hint = "count with COUNT(*) and a strict WHERE clause; return a single integer";
  } else if (/\b(change|difference|increase|decrease|growth|decline)\b/.test(q)) {
    hint = "compute new - old in SQL; keep the unit and the sign";
  } else if (/\b(average|mean)\b/.test(q)) {
    hint = "compute the average with AVG(...) in SQL";
  } else if (/\b(ratio|proportion)\b/.test(q)) {
    hint = "compute the ratio in SQL as a decimal (a percentage only if the question asks for one)";
  } else if (/\b(sum|total)\b/.test(q)) {
    hint = "compute the total with SUM(...) in SQL";
  } else {
    hint = "compute the value in SQL and return a scalar with its unit";
  }
  return `IMPORTANT: ${hint}; do not return raw rows.`;
}

const NUMERIC_TEXT = /^[-+(]?[$€£¥]?\s*\d[\d,]*(\.\d+)?\s*%?\)?$/;

/**
 * §6 augmentation: the sub-query, then the "IMPORTANT:" arithmetic hint, a "CONTEXT:" line with the
 * top 5 columns and their types, and a "TYPE NOTE:" for text columns whose examples look numeric
 * (with real column types this fires only for text columns holding numbers). Blank-line separated.
 */
export function augmentSubQuery(
  subQuery: string,
  columns: readonly SchemaEntry[],
  tables?: ReadonlyMap<string, TableSchema>,
): string {
  const blocks = [subQuery];
  const hint = arithmeticHint(subQuery);
  if (hint) blocks.push(hint);
  const top = columns.slice(0, 5);
  if (top.length > 0) blocks.push(`CONTEXT: relevant columns: ${top.map((c) => `${c.column} (${c.type})`).join(", ")}`);
  const numericText = top.filter((c) => {
    if (c.type !== "text") return false;
    const examples = c.examples
      .split(",")
      .map((e) => e.trim())
      .filter((e) => e !== "");
    return examples.length > 0 && examples.every((e) => NUMERIC_TEXT.test(e));
  });
  if (numericText.length > 0) {
    const names = numericText.map((c) => {
      const col = tables?.get(c.tableId)?.columns.find((k) => k.name === c.column);
      return col ? col.physical : c.column;
    });
    blocks.push(
      `TYPE NOTE: ${names.join(", ")} ${names.length > 1 ? "are" : "is"} stored as text but ${names.length > 1 ? "hold" : "holds"} numbers; ` +
        `for arithmetic use CAST(REPLACE(REPLACE(column, ',', ''), '$', '') AS REAL).`,
    );
  }
  return blocks.join("\n\n");
}

/** Expected answer type from the sub-query's leading words (reference §6.5 heuristic). */
export function expectedAnswerType(subQuery: string): string {
  const q = subQuery.trim().toLowerCase();
  if (/^(who|whom|whose)\b/.test(q)) return "person name";
  if (/^(which|what) (country|nation)\b/.test(q)) return "country name";
  if (/^where\b|^(which|what) (city|town|place|location|venue|state|region)\b/.test(q)) return "city or location";
  if (/^when\b|^(which|what|in what|in which) (year|date|day|month)\b/.test(q)) return "date or year";
  if (/^how many\b/.test(q)) return "integer count";
  if (/^how old\b|^(what|which) age\b/.test(q)) return "age or year";
  if (/^how (much|many) (more|less|fewer|higher|lower)\b|^what (is|was) the (difference|change)\b/.test(q))
    return "numeric difference";
  if (/^which\b|^(what|give|name) (is |was |are |were )?the (name|title)s?\b/.test(q)) return "name or title";
  return "infer from query";
}

// ---------------------------------------------------------------------------------------------
// Pre-checks and the constraint prompt.

interface PreparedScope {
  scope: GuardScope;
  tables: TableSchema[];
  columns: SchemaEntry[];
  restored?: TableSchema;
}

function unique<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** A column of a table as an allowed-column entry (no embedded text). */
export function schemaEntry(table: TableSchema, column: TableSchema["columns"][number]): SchemaEntry {
  return {
    tableId: table.tableId,
    column: column.name,
    type: column.type,
    examples: column.examples.join(", "),
    text: "",
  };
}

/** §6.5 pre-checks 1–4; returns the reasons to refuse, or the scope. */
export function prepareSqlScope(
  input: Pick<
    ConstrainedSqlInput,
    "allowedColumns" | "restoredTableId" | "fallbackTableIds" | "tables" | "bindings"
  > & { dialect?: SqlDialect },
): PreparedScope | { refused: string } {
  const restored = input.restoredTableId ? input.tables.get(input.restoredTableId) : undefined;
  let columns = unique(input.allowedColumns, (c) => `${c.tableId}\u0000${c.column}`);
  if (columns.length === 0 && restored) columns = restored.columns.map((c) => schemaEntry(restored, c));
  if (columns.length === 0) return { refused: "no allowed columns (C and the restored schema are empty)" };
  let tableIds = unique(
    [...columns.map((c) => c.tableId), ...(input.restoredTableId ? [input.restoredTableId] : [])],
    (t) => t,
  );
  if (tableIds.length === 0) tableIds = unique(input.fallbackTableIds, (t) => t);
  if (tableIds.length === 0) return { refused: "no allowed tables" };
  const tables: TableSchema[] = [];
  for (const id of tableIds) {
    const schema = input.tables.get(id);
    if (schema) tables.push(schema);
    else if (columns.some((c) => c.tableId === id)) return { refused: `no schema for table ${id}` };
  }
  const built = buildGuardScope({
    tables,
    allowedColumns: columns.map((c) => ({ tableId: c.tableId, column: c.column })),
    linkedValues: input.bindings,
    ...(input.dialect ? { dialect: input.dialect } : {}),
  });
  if (built.errors.length > 0) return { refused: built.errors.join("; ") };
  return { scope: built.scope, tables, columns, ...(restored ? { restored } : {}) };
}

/** The constraint prompt (without a repair block). */
export function buildConstraintPrompt(args: {
  query: string;
  prepared: PreparedScope;
  expectedAnswerType: string;
  evidence: string;
}): string {
  const { scope, tables, columns, restored } = args.prepared;
  const qualify = scope.tables.length > 1;
  const byId = new Map(tables.map((t) => [t.tableId, t]));
  const columnLines = columns.map((entry) => {
    const table = byId.get(entry.tableId)!;
    const col = table.columns.find((c) => c.name === entry.column)!;
    const raw = col.type === "text" ? "" : `; original text in ${table.physical}.${col.rawPhysical}`;
    const examples = col.examples.length > 0 ? `; examples: ${col.examples.join(", ")}` : "";
    return `- ${table.physical}.${col.physical} ("${col.name}", ${col.type}${raw}${examples})`;
  });
  const bindings = scope.bindings.map((b) => `- ${renderBinding(b, qualify)}`);
  const evidence = args.evidence.length > EVIDENCE_CHARS ? `${args.evidence.slice(0, EVIDENCE_CHARS)}…` : args.evidence;
  const lines = [
    args.query,
    "",
    `Allowed columns (use only these in SELECT/WHERE/GROUP BY/ORDER BY; ${ROW_ID_COLUMN} is the 0-based row order of each table):`,
    ...columnLines,
    "",
    "Value bindings:",
    ...(bindings.length > 0 ? bindings : ["(none)"]),
    "",
    `Expected answer type: ${args.expectedAnswerType}`,
    "",
    "Retrieval evidence:",
    evidence.trim() === "" ? "(none)" : evidence,
    "",
    "Rules:",
    "1. Use only the allowed columns listed above.",
    "2. Copy every value binding verbatim into the OUTER WHERE clause, joined by AND; never express a binding with !=, <, >, IN, OR, NOT, CASE or a nested sub-query.",
    "3. Without value bindings, write the most plausible WHERE clause, or none.",
    "4. Use the evidence for the real column names and value formats.",
    "5. Select exactly one result column.",
    "6. Do any arithmetic (ages, differences, ranks via ORDER BY … LIMIT 1) inside the SQL.",
    `7. Write exactly one read-only SELECT statement in ${dialectLabel(scope.dialect ?? DEFAULT_SQL_DIALECT)} syntax; string literals in single quotes; no SELECT *.`,
    "",
    `Allowed tables: ${scope.tables.map((t) => t.physical).join(", ")}`,
  ];
  if (restored) lines.push(`Target table: ${restored.physical}`);
  return lines.join("\n");
}

/** The repair block after a guard refusal (replaces any earlier block). */
export function repairBlock(sql: string, violations: readonly string[]): string {
  return [
    REPAIR_HEADER,
    `Rejected SQL: ${sql}`,
    `Violations: ${violations.join("; ")}`,
    "Generate a new SQL query without relaxing C or V*.",
  ].join("\n");
}

/** The note after an empty or failed execution (replaces any earlier block). */
export function emptyResultBlock(sql: string, result: string): string {
  return [
    "NOTE: the previous SQL's execution was empty or failed; produce a different query that still satisfies every constraint.",
    `Previous SQL: ${sql}`,
    `Previous result: ${result.slice(0, 200)}`,
  ].join("\n");
}

/** Execution confidence, root rules (§6.5 step 4). */
export function executionConfidence(result: string | null | undefined, error?: string): 0 | 0.3 | 1 {
  if (error) return 0;
  const t = (result ?? "").trim();
  if (t === "") return 0;
  try {
    const data = JSON.parse(t) as unknown;
    // Our addition: rows whose every value is NULL (an aggregate over no rows) count as empty too.
    if (data === null || (typeof data === "object" && isEmptySqlResult(t))) return 0.3;
    return 1;
  } catch {
    if (/^[[{]/.test(t)) return 0;
    if (t.startsWith(SQL_FAILURE_PREFIX)) return 0;
    return 1;
  }
}

function serviceConstraints(prepared: PreparedScope, linked: readonly LinkedValue[]): SqlServiceConstraints {
  const tableColumns: Record<string, string[]> = {};
  for (const c of prepared.columns) (tableColumns[c.tableId] ??= []).push(c.column);
  const fullSchemas: SqlServiceConstraints["full_table_schemas"] = {};
  for (const t of prepared.tables) {
    fullSchemas[t.tableId] = {
      table_name: t.tableId,
      columns: t.columns.map((c) => [c.name, c.type, c.examples.join(", ")]),
    };
  }
  return {
    allowed_columns: unique(
      prepared.columns.map((c) => c.column),
      (c) => c,
    ),
    allowed_tables: prepared.tables.map((t) => t.tableId),
    table_columns: tableColumns,
    full_table_schemas: fullSchemas,
    linked_values: linked.map((v) => ({
      entity: v.entity,
      column: v.column,
      matched_value: v.matchedValue,
      confidence: v.confidence,
      fallback_level: v.fallbackLevel,
      table_id: v.tableId,
    })),
  };
}

function notFound(attempts: ConstrainedSqlAttempt[], refused?: string): ConstrainedSqlResult {
  const last = attempts[attempts.length - 1];
  const result: ConstrainedSqlResult = {
    answer: NOT_FOUND,
    confidence: 0,
    sql: last?.sql ?? "",
    sqlResult: "",
    attempts,
  };
  if (refused !== undefined) result.refused = refused;
  return result;
}

/** Runs the constrained-SQL loop (see file comment). Never throws for model or SQL failures. */
export async function runConstrainedSql(input: ConstrainedSqlInput): Promise<ConstrainedSqlResult> {
  // The store decides the dialect (the external service speaks SQLite, §7.1).
  const dialect = input.sqlServiceUrl ? DEFAULT_SQL_DIALECT : (input.executor?.dialect ?? DEFAULT_SQL_DIALECT);
  const prepared = prepareSqlScope({ ...input, dialect });
  if ("refused" in prepared) return notFound([], prepared.refused);
  const maxAttempts = input.maxAttempts ?? DEFAULT_SQL_ATTEMPTS;
  const query = input.query ?? augmentSubQuery(input.subQuery, input.allowedColumns, input.tables);
  const answerType = expectedAnswerType(input.subQuery);
  const base = buildConstraintPrompt({ query, prepared, expectedAnswerType: answerType, evidence: input.evidence });
  const matched = input.bindings.filter(isRequiredBinding);
  const attempts: ConstrainedSqlAttempt[] = [];
  let block: string | undefined;
  let repair: { sql: string; violations: string[] } | undefined;

  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const prompt = block ? `${base}\n\n${block}` : base;
    let sql: string;
    let serviceResult: string | undefined;
    let writeInput: WriteSqlInput | undefined;
    if (input.sqlServiceUrl) {
      const reply = await callGuardedSqlService(
        input.sqlServiceUrl,
        {
          table_name_list: prepared.scope.tables.map((t) => t.physical),
          query: prompt,
          constraints: serviceConstraints(prepared, input.bindings),
        },
        input.sqlServiceOptions,
      );
      if (isServiceFailure(reply)) {
        noteFailure(input.meter, "SQL service failed (not found)", reply.error ?? "SQL service failure");
        attempts.push({
          sql: reply.sql_str ?? "",
          violations: [reply.error ?? "SQL service failure"],
          confidence: 0,
          result: reply.sql_execution_result,
        });
        return notFound(attempts);
      }
      sql = reply.sql_str;
      serviceResult = reply.error ? `${SQL_FAILURE_PREFIX} ${reply.error}` : reply.sql_execution_result;
    } else {
      writeInput = {
        query,
        subQuery: input.subQuery,
        plan: input.plan,
        originalQuestion: input.originalQuestion,
        allowedColumns: prepared.columns,
        tables: prepared.tables,
        bindings: matched,
        expectedAnswerType: answerType,
        evidence: input.evidence,
        prompt,
        dialect,
        ...(repair ? { repair } : {}),
        ...(input.verifierFeatures ? { verifierFeatures: input.verifierFeatures } : {}),
      };
      try {
        sql = await input.strategies.writeSql(writeInput);
      } catch (error) {
        noteFailure(input.meter, "writeSql failed (not found)", error);
        const message = error instanceof Error ? error.message : String(error);
        attempts.push({ sql: "", violations: [`SQL writer failed: ${message}`], confidence: 0, result: "" });
        return notFound(attempts);
      }
    }
    sql = stripCodeFence(sql ?? "");
    const violations = checkSql(sql, prepared.scope);
    if (violations.length > 0) {
      attempts.push({ sql, violations, confidence: 0, result: "" });
      block = repairBlock(sql, violations);
      repair = { sql, violations };
      continue;
    }
    let result: string;
    let error: string | undefined;
    if (serviceResult !== undefined) result = serviceResult;
    else {
      const execution = await input.executor.execute(sql);
      result = execution.result;
      error = execution.error;
    }
    const confidence = executionConfidence(result, error);
    attempts.push({ sql, violations: [], confidence, result });
    if (confidence !== 1) {
      block = emptyResultBlock(sql, result);
      repair = { sql, violations: [confidence === 0.3 ? "execution returned no rows" : `execution failed: ${result}`] };
      continue;
    }
    const others =
      writeInput && input.alternatives ? await runAlternatives(input, writeInput, sql, prepared.scope) : {};
    return { answer: result, confidence: 1, sql, sqlResult: result, attempts, scope: prepared.scope, ...others };
  }
  return notFound(attempts);
}
