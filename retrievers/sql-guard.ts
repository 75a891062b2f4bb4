/**
 * The AST guard of reference §6.6: decides whether one SQL text may run against View 5.
 *
 * Admissible = exactly one read-only SELECT (CTEs, sub-queries and set operations allowed) that
 * - stays within the size limits (length, parenthesis depth, sub-query count, syntax-tree depth),
 * - reads only in-scope tables (no database-qualified names; CTE/derived names never mask real tables),
 * - uses only authorised physical columns (typed `<col>` or raw `<col>__raw` of an allowed logical
 *   column, plus the `_row` row-order column), never `*` outside COUNT(*),
 * - calls only allow-listed functions, binds no parameters,
 * - carries every required value binding as a mandatory predicate of the outer WHERE, on a column
 *   that provably resolves to the bound base column, restricting the rows every selected value comes
 *   from (retrievers/sql-guard-bindings.ts).
 *
 * The model is shown PHYSICAL identifiers (as the reference does); logical names appear only in the
 * prompt's mapping. SQLite resolves an unqualified name against the FROM tables before result aliases,
 * so any identifier that names a real but forbidden column is refused even when an alias shares its
 * name (aliases cannot authorise forbidden columns). SQLite also reads a double-quoted word as a column
 * when one exists, so `"x"` is treated as an identifier, never as a string literal.
 *
 * Parsed with node-sql-parser's grammar of the store's dialect (`scope.dialect`: SQLite by default,
 * PostgreSQL for a View 5 in PostgreSQL — the same rules either way). The SQLite grammar (it parses what SQLite accepts for SELECTs, incl.
 * backquoted identifiers, `==`, GLOB, COLLATE and window functions; PRAGMA/ATTACH/… are parse errors,
 * which is a refusal). The pieces, one job each: sql-guard-scope.ts (what may be used),
 * sql-guard-lexer.ts (statement split, literal boundaries, size limits), sql-guard-walker.ts (tables,
 * columns, functions), sql-guard-bindings.ts (bindings and row restriction).
 */
import { bindingViolations } from "./sql-guard-bindings.js";
import { astDepth, DEFAULT_GUARD_LIMITS, lex, stripCodeFence, type GuardLimits } from "./sql-guard-lexer.js";
import type { GuardScope } from "./sql-guard-scope.js";
import { Walker, type Node } from "./sql-guard-walker.js";
import { parseSql } from "./sql-parse.js";

export { bindingColumn, buildGuardScope, isRequiredBinding, renderBinding, sqlString } from "./sql-guard-scope.js";
export type { GuardBinding, GuardScope, GuardScopeInput, GuardScopeResult, GuardTable } from "./sql-guard-scope.js";
export { DEFAULT_GUARD_LIMITS, stripCodeFence, type GuardLimits } from "./sql-guard-lexer.js";

/**
 * Checks one SQL text against the scope. Returns the violations; an empty list means admissible.
 * Never throws for any input text.
 */
export function checkSql(sqlText: string, scope: GuardScope, limits: GuardLimits = DEFAULT_GUARD_LIMITS): string[] {
  const sql = stripCodeFence(typeof sqlText === "string" ? sqlText : "");
  if (sql === "") return ["SQL service did not return sql_str"];
  const lexed = lex(sql, limits);
  if (lexed.limit) return [lexed.limit];
  if (lexed.error) return [`SQL parse error: ${lexed.error}`];
  if (lexed.statements.length === 0) return ["SQL service did not return sql_str"];
  if (lexed.statements.length > 1) return ["exactly one SQL statement is required"];
  const words = lexed.statements[0]!;
  if (words[0] !== "SELECT" && words[0] !== "WITH") {
    return ["only one read-only SELECT query is allowed"];
  }
  if (words.includes("INTO")) return ["only one read-only SELECT query is allowed"];
  if (words.includes("RECURSIVE")) return ["recursive queries are not allowed"];
  const parsed = parseSql(sql, scope.dialect);
  if ("error" in parsed) {
    if (/\bOVER\s*\(\s*ORDER\b/i.test(sql)) {
      return [
        "SQL parse error: a window OVER (ORDER BY …) needs PARTITION BY here; use ORDER BY … LIMIT 1 or COUNT instead",
      ];
    }
    return [`SQL parse error: ${parsed.error.slice(0, 160)}`];
  }
  const ast = parsed.ast;
  const statements = Array.isArray(ast) ? ast : [ast];
  if (statements.length !== 1) return ["exactly one SQL statement is required"];
  const root = statements[0] as Node;
  if (root.type !== "select") return ["only one read-only SELECT query is allowed"];
  const depth = astDepth(root, limits.maxAstDepth);
  if (depth > limits.maxAstDepth) {
    return [
      `statement nested too deeply: syntax tree deeper than ${limits.maxAstDepth} (long AND/OR chains or nested expressions; use IN (…) lists)`,
    ];
  }

  const walker = new Walker(scope);
  walker.query(root, undefined);
  const tableViolations = [...walker.tableViolations];
  if (walker.disallowed.size > 0) tableViolations.unshift(`disallowed tables: ${[...walker.disallowed].join(", ")}`);
  if (!walker.usedBaseTable && tableViolations.length === 0)
    tableViolations.push("query does not reference an allowed table");
  if (tableViolations.length > 0) return tableViolations;

  const violations = [...walker.violations];
  if (!walker.usedColumn && !walker.countStar && violations.length === 0) {
    violations.push("query does not reference an allowed column");
  }
  // Row restriction is judged on a statement whose columns resolved; missing bindings always show.
  const bindings = bindingViolations(walker, root, scope);
  violations.push(...(violations.length > 0 ? bindings.filter((v) => v.startsWith("missing ")) : bindings));
  return violations;
}

/**
 * The base columns a statement reads, as the guard resolves them: physical table → physical
 * columns (lower-case). For the provenance of an answer; run it on SQL `checkSql` accepted.
 * Undefined when the statement does not parse.
 */
export function columnsRead(sqlText: string, scope: GuardScope): Map<string, Set<string>> | undefined {
  const parsed = parseSql(stripCodeFence(sqlText ?? ""), scope.dialect);
  if ("error" in parsed) return undefined;
  const statements = Array.isArray(parsed.ast) ? parsed.ast : [parsed.ast];
  if (statements.length !== 1) return undefined;
  const walker = new Walker(scope);
  walker.query(statements[0] as Node, undefined);
  return walker.read;
}
