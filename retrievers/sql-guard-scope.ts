/**
 * The guard's scope (reference §6.5 pre-checks 3–4): which tables and physical columns a statement
 * may use and which value bindings it must carry, built from the schemas in scope, the allowed
 * columns C and the linked values V*. Also renders a binding as the predicate a writer must copy.
 */
import type { ColumnSchema, TableSchema } from "../indexing/types.js";
import { ROW_ID_COLUMN } from "../indexing/types.js";
import type { SqlDialect } from "./sql-dialect.js";
import type { LinkedValue } from "./types.js";

/** One table the guard admits, with its authorised and full physical column sets (lower-case). */
export interface GuardTable {
  tableId: string;
  physical: string;
  /** Physical columns the query may use (typed + raw of allowed logical columns, plus `_row`). */
  allowed: Set<string>;
  /** Every physical column of the table (so a forbidden column is recognised, never silently missed). */
  all: Set<string>;
}

/** A required value binding, resolved to its owning (table, column). */
export interface GuardBinding {
  entity: string;
  tableId: string;
  physicalTable: string;
  /** Logical column name. */
  column: string;
  /** Physical columns that satisfy the binding: the typed and the raw column. */
  physicalColumns: string[];
  /** The column the prompt shows for this binding (see `bindingColumn`). */
  shownColumn: string;
  value: string;
  fuzzy: boolean;
}

export interface GuardScope {
  tables: GuardTable[];
  bindings: GuardBinding[];
  /** Grammar the statement is parsed with (the store's dialect); SQLite when absent. */
  dialect?: SqlDialect;
}

export interface GuardScopeInput {
  /** Full schemas of the tables in scope (each table id once). */
  tables: TableSchema[];
  /** Allowed logical columns; a table listed in `tables` with no entry here is in scope with no columns. */
  allowedColumns: Array<{ tableId: string; column: string }>;
  /** Linked values V*; only matched ones with level 0 (exact) or 2 (fuzzy) become bindings. */
  linkedValues: LinkedValue[];
  /** The store's SQL dialect (default SQLite). */
  dialect?: SqlDialect;
}

/** Error codes of the scope pre-check (reference §6.5 pre-checks 3–4). */
export interface GuardScopeResult {
  scope: GuardScope;
  /** Non-empty = the scope itself is inconsistent: refuse without writing SQL. */
  errors: string[];
}

/** The physical column a binding is rendered with: typed for text columns, the original text otherwise. */
export function bindingColumn(column: ColumnSchema): string {
  return column.type === "text" ? column.physical : column.rawPhysical;
}

/** True when a linked value is a required binding (matched, level 0 exact or 2 fuzzy). */
export function isRequiredBinding(value: LinkedValue): boolean {
  return (
    value.matchedValue !== null &&
    value.matchedValue !== "no_match" &&
    (value.fallbackLevel === 0 || value.fallbackLevel === 2)
  );
}

/** Builds the guard scope from schemas, C and V*; reports every inconsistency (fail closed). */
export function buildGuardScope(input: GuardScopeInput): GuardScopeResult {
  const errors: string[] = [];
  const tables: GuardTable[] = [];
  const byId = new Map<string, TableSchema>();
  const physicalSeen = new Map<string, string>();
  for (const schema of input.tables) {
    if (byId.has(schema.tableId)) continue;
    byId.set(schema.tableId, schema);
    const physical = schema.physical.toLowerCase();
    const other = physicalSeen.get(physical);
    if (other !== undefined) {
      errors.push(`physical table name collision: ${other} and ${schema.tableId} both map to ${physical}`);
      continue;
    }
    physicalSeen.set(physical, schema.tableId);
    const all = new Set<string>([ROW_ID_COLUMN]);
    for (const c of schema.columns) {
      all.add(c.physical.toLowerCase());
      all.add(c.rawPhysical.toLowerCase());
    }
    tables.push({ tableId: schema.tableId, physical, allowed: new Set(), all });
  }
  const tableOf = new Map(tables.map((t) => [t.tableId, t]));
  const allowedLogical = new Set<string>();
  for (const { tableId, column } of input.allowedColumns) {
    const schema = byId.get(tableId);
    const table = tableOf.get(tableId);
    if (!schema || !table) {
      errors.push(`allowed column ${column} names table ${tableId}, which has no schema in scope`);
      continue;
    }
    const col = schema.columns.find((c) => c.name === column);
    if (!col) {
      errors.push(`allowed column ${column} is not a column of table ${tableId}`);
      continue;
    }
    table.allowed.add(col.physical.toLowerCase());
    table.allowed.add(col.rawPhysical.toLowerCase());
    table.allowed.add(ROW_ID_COLUMN);
    allowedLogical.add(`${tableId}\u0000${column}`);
  }
  const bindings: GuardBinding[] = [];
  for (const value of input.linkedValues) {
    if (!isRequiredBinding(value)) continue;
    const owners = [...allowedLogical]
      .map((key) => key.split("\u0000") as [string, string])
      .filter(([tableId, column]) => column === value.column && (value.tableId === null || value.tableId === tableId));
    if (owners.length === 0) {
      errors.push(`linked column is outside C: ${value.column}`);
      continue;
    }
    if (owners.length > 1) {
      errors.push(`ambiguous linked column table: ${value.column} (${owners.map(([t]) => t).join(", ")})`);
      continue;
    }
    const [tableId, column] = owners[0]!;
    const col = byId.get(tableId)!.columns.find((c) => c.name === column)!;
    bindings.push({
      entity: value.entity,
      tableId,
      physicalTable: tableOf.get(tableId)!.physical,
      column,
      physicalColumns: [col.physical.toLowerCase(), col.rawPhysical.toLowerCase()],
      shownColumn: bindingColumn(col),
      value: value.matchedValue!,
      fuzzy: value.fallbackLevel === 2,
    });
  }
  if (tables.length === 0) errors.push("no allowed table");
  if (allowedLogical.size === 0) errors.push("no allowed column");
  return {
    scope: { tables, bindings, ...(input.dialect && input.dialect !== "sqlite" ? { dialect: input.dialect } : {}) },
    errors,
  };
}

/** `'…'` with single quotes doubled. */
export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** Renders a binding as the predicate the writer must copy (`table.` prefix when several tables). */
export function renderBinding(binding: GuardBinding, qualify: boolean): string {
  const column = qualify ? `${binding.physicalTable}.${binding.shownColumn}` : binding.shownColumn;
  return binding.fuzzy
    ? `${column} LIKE ${sqlString(`%${binding.value}%`)}`
    : `${column} = ${sqlString(binding.value)}`;
}
