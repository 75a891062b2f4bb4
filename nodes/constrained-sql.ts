/**
 * The constrained-SQL loop of reference §6.5, used by the SQL and HYBRID routes: pre-checks (fail
 * closed), the constraint prompt, writer → AST guard → read-only execution → execution confidence,
 * at most two attempts, each repair replacing the previous repair block.
 *
 * (Signature committed first so the graph nodes can code against it; implementation follows.)
 */
import type { SchemaEntry, TableSchema } from "../indexing/types.js";
import type { Strategies } from "./strategies.js";
import type { LinkedValue, SubQueryPlan } from "./types.js";
import type { SqlExecutor } from "../retrievers/sql-executor.js";

export interface ConstrainedSqlInput {
  /** The bare sub-query. */
  subQuery: string;
  /** The augmented sub-query (see `augmentSubQuery`); default: augmentSubQuery(subQuery, allowedColumns, tables). */
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
  /** Read-only executor over View 5 (retrievers/sql-executor.ts). */
  executor: SqlExecutor;
  /** When set, SQL is written and executed by the guarded external service (§7.1) instead. */
  sqlServiceUrl?: string;
  /** Attempts (reference: 2). */
  maxAttempts?: number;
}

export interface ConstrainedSqlAttempt {
  sql: string;
  violations: string[];
  confidence: number;
  /** The executor's result string ("" when not executed). */
  result: string;
}

export interface ConstrainedSqlResult {
  /** The result string (rows as JSON) or exactly "not found". */
  answer: string;
  confidence: 0 | 0.3 | 1;
  /** The last SQL written ("" when none). */
  sql: string;
  /** The last execution result string ("" when none). */
  sqlResult: string;
  attempts: ConstrainedSqlAttempt[];
  /** Why the loop refused before calling the writer, when it did. */
  refused?: string;
}

export declare function runConstrainedSql(input: ConstrainedSqlInput): Promise<ConstrainedSqlResult>;
