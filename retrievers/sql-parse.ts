/**
 * node-sql-parser's SQLite (or PostgreSQL) grammar, parsed once per statement text and dialect: the guard checks a statement,
 * the provenance reads its columns and rewrites it into the row-number query, and the next attempt
 * often writes the same statement again — each was a parse of the same text. The syntax trees are
 * frozen (deeply): whoever reads one cannot change what the next reader gets.
 */
import pkg from "node-sql-parser/build/sqlite.js";
import pgPkg from "node-sql-parser/build/postgresql.js";
import { boundedMemo } from "../indexing/bounded-memo.js";
import type { SqlDialect } from "./sql-dialect.js";

const parser = new pkg.Parser();
const pgParser = new pgPkg.Parser();
const PARSE_OPTIONS = { database: "sqlite" };
const PG_PARSE_OPTIONS = { database: "PostgresQL" };

/** A parsed statement text: its syntax tree, or the parser's error message. */
export type Parsed = { ast: unknown } | { error: string };

function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== "object" || Object.isFrozen(v)) continue;
    Object.freeze(v);
    for (const child of Object.values(v as object)) stack.push(child);
  }
  return value;
}

function parsedBy(astify: (sql: string) => unknown): (sql: string) => Parsed {
  return (sql) => {
    try {
      return { ast: deepFreeze(astify(sql)) };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  };
}

const sqliteParses = boundedMemo<Parsed>(
  512,
  parsedBy((sql) => parser.astify(sql, PARSE_OPTIONS)),
);
const postgresParses = boundedMemo<Parsed>(
  512,
  parsedBy((sql) => pgParser.astify(sql, PG_PARSE_OPTIONS)),
);

/** The syntax tree of `sql` in a dialect (exactly this text: callers strip code fences first). */
export function parseSql(sql: string, dialect: SqlDialect = "sqlite"): Parsed {
  return dialect === "postgres" ? postgresParses(sql) : sqliteParses(sql);
}

/** SQL text of a syntax tree (the parser's sqlify adds properties to the tree: it gets a copy). */
export function sqlify(ast: unknown): string {
  return parser.sqlify(structuredClone(ast) as never, PARSE_OPTIONS);
}
