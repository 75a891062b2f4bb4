/**
 * Which tables the SQL, HYBRID and RETRIEVE routes may draw their allowed columns C from (DESIGN.md
 * "does better": schema retrieval scoped to the hinted/retrieved tables instead of the reference's
 * global schema search, §15.7). One exported function so the policy can be tuned in one place.
 */
import type { State } from "../graph/state.js";
import type { DocChunk, SchemaEntry, TableSchema } from "../indexing/types.js";
import { tableNameVariants } from "../indexing/identifiers.js";
import { analysisOf } from "./offline/analysis.js";
import { schemaEntry } from "./constrained-sql.js";

export interface SchemaScopeInput {
  /** The question's table hint. */
  tableHint?: string;
  /** The table the decomposer grounded the sub-query in (the offline backbone's analysis), if any. */
  groundedTable?: string;
  /** The restored schema of the current sub-query. */
  schema: TableSchema | null;
  /** The selected chunks. */
  chunks: readonly DocChunk[];
  /** Every table of the index. */
  tables: ReadonlyMap<string, TableSchema>;
}

/** Index table ids a hint names: the id itself, a name variant, or the sheets of a workbook. */
export function tablesForHint(hint: string, tables: ReadonlyMap<string, TableSchema>): string[] {
  if (tables.has(hint)) return [hint];
  const variants = new Set(tableNameVariants(hint).map((v) => v.toLowerCase()));
  const out: string[] = [];
  for (const id of tables.keys()) {
    const lower = id.toLowerCase();
    const stem = lower.split("#")[0]!;
    if (variants.has(lower) || variants.has(stem) || tableNameVariants(stem).some((v) => variants.has(v))) out.push(id);
  }
  return out;
}

/**
 * The hinted tables alone when the hint names tables of the index (the hint says where the answer
 * is; adding the restored table let another table's columns into C: WTQ dev 41.0 → 42.25 without
 * it); without a usable hint the table the decomposer grounded the question in (it read the
 * question against every retrieved table's cells and headers; retrieval may restore another table
 * whose words overlap, a sales ledger and weather stations sharing region names), else the restored
 * schema's table alone (mixing the other retrieved tables into C let columns of unrelated tables
 * drive the SQL); else the selected table chunks' tables; `undefined` (search every table) when none
 * exist.
 */
export function schemaScope(input: SchemaScopeInput): string[] | undefined {
  const ids: string[] = [];
  const add = (id: string | undefined) => {
    if (id !== undefined && input.tables.has(id) && !ids.includes(id)) ids.push(id);
  };
  const hinted = input.tableHint ? tablesForHint(input.tableHint, input.tables) : [];
  hinted.forEach(add);
  if (ids.length > 0) return ids;
  add(input.groundedTable);
  if (ids.length > 0) return ids;
  add(input.schema?.tableId);
  if (ids.length === 0) {
    for (const c of input.chunks) if (c.type === "table") add(c.tableId);
  }
  return ids.length > 0 ? ids : undefined;
}

/** `schemaScope` of the current sub-query: the question's hint, its grounded table, its restored schema and selected chunks. */
export function subQueryScope(
  state: Pick<State, "table_id" | "schema" | "chunks" | "plan">,
  tables: ReadonlyMap<string, TableSchema>,
): string[] | undefined {
  const groundedTable = analysisOf(state.plan ?? undefined)?.grounding?.tableId;
  return schemaScope({
    tableHint: state.table_id,
    ...(groundedTable ? { groundedTable } : {}),
    schema: state.schema,
    chunks: state.chunks,
    tables,
  });
}

/**
 * The allowed columns C with the columns the offline decomposer's plan reads in its grounded table added, when
 * that table is in scope: it read the question against the table's headers and cells, and View 3's top k may miss
 * a column whose header shares no word with the question as the embedder reads it ("what table is Ana at?" of a
 * "Table #" column, "table" being a stop word), which left the SQL route failing closed.
 */
export function withGroundedColumns(
  columns: SchemaEntry[],
  state: Pick<State, "plan">,
  tables: ReadonlyMap<string, TableSchema>,
  tableIds: string[] | undefined,
): SchemaEntry[] {
  const grounding = analysisOf(state.plan ?? undefined)?.grounding;
  const table = grounding ? tables.get(grounding.tableId) : undefined;
  if (!grounding || !table || (tableIds && !tableIds.includes(table.tableId))) return columns;
  const missing = (grounding.columns ?? []).filter(
    (name) => !columns.some((c) => c.tableId === table.tableId && c.column === name),
  );
  const added = missing.flatMap((name) => {
    const column = table.columns.find((c) => c.name === name);
    return column ? [schemaEntry(table, column)] : [];
  });
  return added.length > 0 ? [...columns, ...added] : columns;
}
