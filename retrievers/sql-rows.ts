/**
 * Which table rows a SELECT read, for the provenance of an answer: the statement rewritten on
 * node-sql-parser's AST (the guard's parser) to select `_row` and the given columns instead of its
 * own result columns. A plain SELECT keeps its WHERE, ORDER BY and LIMIT (the rows it returned); an
 * aggregate or grouped one keeps its WHERE only (the rows it aggregated). Only one base table,
 * no joins, set operations or CTEs: anything else has no single row set, and the caller says so.
 * The rewritten statement only removes parts of one the guard accepted; callers guard it again.
 */
import { ROW_ID_COLUMN } from "../indexing/types.js";
import { stripCodeFence } from "./sql-guard.js";
import { parseSql, sqlify } from "./sql-parse.js";

type Node = Record<string, unknown>;

/** True when an aggregate (COUNT, SUM, …) or a window function appears anywhere in the expression. */
function aggregates(node: unknown): boolean {
  if (node === null || typeof node !== "object") return false;
  if (Array.isArray(node)) return node.some(aggregates);
  const n = node as Node;
  if (n.type === "aggr_func" || (n.over !== undefined && n.over !== null)) return true;
  // Sub-queries aggregate on their own rows, not on the outer query's.
  if (n.type === "select" || n.ast !== undefined) return false;
  return Object.values(n).some(aggregates);
}

const column = (name: string) => ({ expr: { type: "column_ref", table: null, column: name }, as: null });

export type RowsQuery = { sql: string; table: string } | { unavailable: string };

/**
 * The row-number query for `sql`, selecting `_row` then `columns` (physical names of its one
 * table), or why there is none.
 */
export function rowsQuery(sql: string, columns: readonly string[]): RowsQuery {
  const parsed = parseSql(stripCodeFence(sql));
  if ("error" in parsed) return { unavailable: `the SQL does not parse: ${parsed.error.slice(0, 120)}` };
  const statements = Array.isArray(parsed.ast) ? parsed.ast : [parsed.ast];
  const root = statements[0] as Node | undefined;
  if (statements.length !== 1 || !root || root.type !== "select") return { unavailable: "not one SELECT statement" };
  if (root._next || (Array.isArray(root.with) && root.with.length > 0))
    return { unavailable: "set operations and CTEs read no single row set" };
  const from = Array.isArray(root.from) ? (root.from as Node[]) : [];
  if (from.length !== 1 || typeof from[0]!.table !== "string" || from[0]!.join) {
    return {
      unavailable: "the SQL reads several tables or aliases (a join) or a sub-query: no single row set to trace",
    };
  }
  const groupBy = (root.groupby as Node | null)?.columns;
  const grouped = aggregates(root.columns) || (Array.isArray(groupBy) && groupBy.length > 0) || Boolean(root.having);
  const rewritten: Node = { ...root, columns: [column(ROW_ID_COLUMN), ...columns.map(column)], distinct: null };
  if (grouped) Object.assign(rewritten, { groupby: null, having: null, orderby: null, limit: null });
  return { sql: sqlify(rewritten), table: String(from[0]!.table) };
}
