/**
 * The guard's lexical pre-scan, run before the parser: splits statements (so stacked statements and
 * write keywords get explicit messages rather than a parse error), refuses text where
 * node-sql-parser and SQLite could disagree on where a literal or comment ends, and enforces the
 * size limits — the parser and the AST walk recurse, so a statement that is too long, too deeply
 * parenthesised or has too many sub-queries is refused here, by name, before either runs.
 */

/** Size limits of one statement (see `DEFAULT_GUARD_LIMITS`). */
export interface GuardLimits {
  /** Characters of the statement (after removing a code fence). */
  maxChars: number;
  /** Nesting depth of parentheses (sub-queries, function calls and grouping all count). */
  maxParenDepth: number;
  /** SELECT keywords in the statement (the main query, sub-queries, CTEs, set-operation arms). */
  maxSelects: number;
  /** Depth of the parsed syntax tree (a left-deep chain of 1,000 ORs is 1,000 deep). */
  maxAstDepth: number;
}

/**
 * Far above what an answer query needs (writers produce statements of well under 2,000 characters,
 * a few levels deep); low enough that parsing stays under ~0.2 s and the walk cannot overflow the stack.
 */
export const DEFAULT_GUARD_LIMITS: Readonly<GuardLimits> = Object.freeze({
  maxChars: 10_000,
  maxParenDepth: 32,
  maxSelects: 32,
  maxAstDepth: 200,
});

export interface Lexed {
  /** Upper-cased bare words per non-empty statement. */
  statements: string[][];
  error?: string;
  /** A size limit the text breaks (a named violation). */
  limit?: string;
}

export function lex(sql: string, limits: GuardLimits = DEFAULT_GUARD_LIMITS): Lexed {
  if (sql.length > limits.maxChars) {
    return { statements: [], limit: `statement too long: ${sql.length} characters (limit ${limits.maxChars})` };
  }
  const statements: string[][] = [];
  let words: string[] = [];
  let nonEmpty = false;
  let depth = 0;
  let maxDepth = 0;
  let selects = 0;
  let i = 0;
  const n = sql.length;
  const close = () => {
    if (nonEmpty) statements.push(words);
    words = [];
    nonEmpty = false;
  };
  while (i < n) {
    const ch = sql[i]!;
    if (ch === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? n : end + 1;
    } else if (ch === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      if (end < 0) return { statements, error: "unterminated comment" };
      i = end + 2;
    } else if (ch === "'" || ch === '"' || ch === "`" || ch === "[") {
      const closer = ch === "[" ? "]" : ch;
      let j = i + 1;
      for (;;) {
        const k = sql.indexOf(closer, j);
        if (k < 0) return { statements, error: "unterminated quoted text" };
        if (closer !== "]" && sql[k + 1] === closer) {
          j = k + 2;
          continue;
        }
        // SQLite has no backslash escapes but the parser's grammar does: refuse, so both always
        // agree on where a literal ends (otherwise `'x\' OR 1=1 …` could hide an OR from the guard).
        if (sql.slice(i + 1, k).includes("\\"))
          return { statements, error: "backslashes are not allowed in quoted text" };
        i = k + 1;
        break;
      }
      nonEmpty = true;
    } else if (ch === "#") {
      // A comment for the parser, a parameter (or an error) for SQLite: refuse the ambiguity.
      return { statements, error: "'#' is not allowed outside string literals" };
    } else if (ch === ";") {
      close();
      i++;
    } else if (ch === "(" || ch === ")") {
      depth += ch === "(" ? 1 : -1;
      if (depth > maxDepth) maxDepth = depth;
      nonEmpty = true;
      i++;
    } else if (/[A-Za-z_]/.test(ch)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_$]/.test(sql[j]!)) j++;
      const word = sql.slice(i, j).toUpperCase();
      if (word === "SELECT") selects++;
      words.push(word);
      nonEmpty = true;
      i = j;
    } else {
      if (!/\s/.test(ch)) nonEmpty = true;
      i++;
    }
  }
  close();
  if (maxDepth > limits.maxParenDepth) {
    return {
      statements,
      limit: `statement nested too deeply: ${maxDepth} levels of parentheses (limit ${limits.maxParenDepth})`,
    };
  }
  if (selects > limits.maxSelects)
    return { statements, limit: `too many sub-queries: ${selects} SELECTs (limit ${limits.maxSelects})` };
  return { statements };
}

/**
 * Depth of a parsed syntax tree, measured without recursion (so a tree too deep for the walk is
 * measured safely). Stops counting at `stopAt + 1`.
 */
export function astDepth(root: unknown, stopAt: number): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (!node || typeof node !== "object") continue;
    if (depth > max) {
      max = depth;
      if (max > stopAt) return max;
    }
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return max;
}

/** Removes a surrounding markdown code fence (```sql … ```), as writers often add one. */
export function stripCodeFence(text: string): string {
  const trimmed = text.trim();
  const match = /^```[A-Za-z]*\s*\n?([\s\S]*?)\n?```$/.exec(trimmed);
  return (match ? match[1]! : trimmed).trim();
}
