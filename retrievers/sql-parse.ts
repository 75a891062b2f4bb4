/**
 * node-sql-parser's SQLite grammar, parsed once per statement text: the guard checks a statement,
 * the provenance reads its columns and rewrites it into the row-number query, and the next attempt
 * often writes the same statement again — each was a parse of the same text. The syntax trees are
 * frozen (deeply): whoever reads one cannot change what the next reader gets.
 */
import pkg from "node-sql-parser/build/sqlite.js";
import { boundedMemo } from "../indexing/bounded-memo.js";

const { Parser } = pkg;
const parser = new Parser();
const PARSE_OPTIONS = { database: "sqlite" };

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

/** The syntax tree of `sql` (exactly this text: callers strip code fences first). */
export const parseSql = boundedMemo<Parsed>(512, (sql) => {
  try {
    return { ast: deepFreeze(parser.astify(sql, PARSE_OPTIONS)) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
});

/** SQL text of a syntax tree (the parser's sqlify adds properties to the tree: it gets a copy). */
export function sqlify(ast: unknown): string {
  return parser.sqlify(structuredClone(ast) as never, PARSE_OPTIONS);
}
