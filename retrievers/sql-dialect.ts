/**
 * The SQL dialect of a View 5 store: which grammar the guard parses with, and what the SQL prompt
 * asks the writer for. The store decides (retrievers/sql-store.ts); nodes read it from the executor.
 */
export type SqlDialect = "sqlite" | "postgres";

export const DEFAULT_SQL_DIALECT: SqlDialect = "sqlite";

/** The name the SQL prompt uses ("one read-only <label> SELECT"). */
export function dialectLabel(dialect: SqlDialect): string {
  return dialect === "postgres" ? "PostgreSQL" : "SQLite";
}
