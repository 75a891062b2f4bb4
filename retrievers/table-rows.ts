/**
 * View 5 as a retriever: rows of one table of the SQL store that satisfy a simple equality filter
 * on logical column names. The SQL is parameterised: identifiers come from the TableSchema (the
 * physical names written at build time), values are bound parameters — never interpolated.
 */
import type Database from "better-sqlite3";
import { BaseRetriever, type BaseRetrieverInput } from "@langchain/core/retrievers";
import { Document } from "@langchain/core/documents";
import { ROW_ID_COLUMN, type TableSchema } from "../indexing/types.js";
import { rowText } from "../indexing/cell-selection.js";
import { quoteIdent as quote } from "../indexing/sql-store.js";

export class TableRowsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TableRowsError";
  }
}

export interface TableRowsQuery {
  tableId: string;
  /** Logical column → original cell text it must equal. */
  where?: Record<string, string>;
  /** At most this many rows (default 10). */
  limit?: number;
}

export interface TableRow {
  tableId: string;
  rowIdx: number;
  values: Record<string, string>;
}

/** Rows of `tableId` in row order whose columns equal the filter values (original text). */
export function readTableRows(
  db: Database.Database,
  tables: Map<string, TableSchema>,
  query: TableRowsQuery,
): TableRow[] {
  const schema = tables.get(query.tableId);
  if (!schema)
    throw new TableRowsError(
      `unknown table id "${query.tableId}" — see \`atr search --view schema\` for the ids in this index`,
    );
  const limit = query.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 0)
    throw new TableRowsError(`limit must be a non-negative integer, got ${limit}`);
  const clauses: string[] = [];
  const params: string[] = [];
  for (const [column, value] of Object.entries(query.where ?? {})) {
    const col = schema.columns.find((c) => c.name === column);
    if (!col)
      throw new TableRowsError(
        `table "${schema.tableId}" has no column "${column}" (columns: ${schema.columns.map((c) => c.name).join(", ")})`,
      );
    clauses.push(`${quote(col.rawPhysical)} = ?`);
    params.push(value);
  }
  const select = [quote(ROW_ID_COLUMN), ...schema.columns.map((c) => quote(c.rawPhysical))].join(", ");
  const sql = `SELECT ${select} FROM ${quote(schema.physical)}${clauses.length ? ` WHERE ${clauses.join(" AND ")}` : ""} ORDER BY ${quote(ROW_ID_COLUMN)} LIMIT ${limit}`;
  const rows = db
    .prepare(sql)
    .raw(true)
    .all(...params) as unknown[][];
  return rows.map((r) => {
    const values: Record<string, string> = {};
    schema.columns.forEach((c, i) => (values[c.name] = r[i + 1] == null ? "" : String(r[i + 1])));
    return { tableId: schema.tableId, rowIdx: Number(r[0]), values };
  });
}

export interface TableRowsRetrieverInput extends BaseRetrieverInput {
  db: Database.Database;
  tables: Map<string, TableSchema>;
  tableId: string;
  where?: Record<string, string>;
  limit?: number;
}

/**
 * View 5: the query string is not embedded — the rows are selected by table and filter. (A query of
 * the form `column = value` adds one equality to the configured filter.)
 */
export class TableRowsRetriever extends BaseRetriever {
  lc_namespace = ["atr", "retrievers"];
  static lc_name() {
    return "TableRowsRetriever";
  }
  constructor(private readonly fields: TableRowsRetrieverInput) {
    super(fields);
  }
  async _getRelevantDocuments(query: string): Promise<Document[]> {
    const where = { ...(this.fields.where ?? {}) };
    const m = /^\s*([^=]+?)\s*=\s*(.*?)\s*$/.exec(query);
    if (m) where[m[1]!] = m[2]!.replace(/^'(.*)'$/, "$1");
    const rows = readTableRows(this.fields.db, this.fields.tables, {
      tableId: this.fields.tableId,
      where,
      limit: this.fields.limit,
    });
    const schema = this.fields.tables.get(this.fields.tableId)!;
    return rows.map(
      (r) =>
        new Document({
          pageContent: rowText(
            r.tableId,
            schema.columns.map((c) => c.name),
            schema.columns.map((c) => r.values[c.name] ?? ""),
            0,
          ),
          metadata: { view: "relational", tableId: r.tableId, rowIdx: r.rowIdx, values: r.values },
        }),
    );
  }
}
