/**
 * The guard's AST walk: resolves every table and column of a parsed SELECT against the scope
 * (CTEs, derived tables and correlated sub-queries included) and records what it finds — tables
 * outside scope, forbidden columns, disallowed functions, parameters, constructs it does not know.
 * For each derived table / CTE it also records, per output column, its provable base origin (for
 * bindings) and whether its value depends on its own row only (for row restriction, see
 * retrievers/sql-guard-bindings.ts).
 */
import type { GuardScope, GuardTable } from "./sql-guard-scope.js";

/** Functions a read-only answer query may call (SQLite core, date and math functions; windows). */
const ALLOWED_FUNCTIONS = new Set([
  "abs",
  "round",
  "replace",
  "substr",
  "substring",
  "lower",
  "upper",
  "trim",
  "ltrim",
  "rtrim",
  "length",
  "coalesce",
  "ifnull",
  "nullif",
  "iif",
  "instr",
  "strftime",
  "date",
  "time",
  "datetime",
  "julianday",
  "unixepoch",
  "printf",
  "format",
  "min",
  "max",
  "sign",
  "typeof",
  "char",
  "unicode",
  "floor",
  "ceil",
  "ceiling",
  "power",
  "pow",
  "sqrt",
  "exp",
  "ln",
  "log",
  "log10",
  "log2",
  "mod",
  "trunc",
  "exists",
  "row_number",
  "rank",
  "dense_rank",
  "ntile",
  "lag",
  "lead",
  "first_value",
  "last_value",
  "nth_value",
  "percent_rank",
  "cume_dist",
  "group_concat",
  "total",
  "count",
  "sum",
  "avg",
  // PostgreSQL: instr's twin, and SQLite's lenient CAST as the index schema's functions (indexing/pg-store.ts).
  "strpos",
  "atr_real",
  "atr_int",
  "atr_weekday",
]);
const ALLOWED_AGGREGATES = new Set(["count", "sum", "avg", "min", "max", "total", "group_concat"]);
const LITERAL_TYPES = new Set([
  "single_quote_string",
  "string",
  "number",
  "bool",
  "boolean",
  "null",
  "hex_string",
  "full_hex_string",
  "natural_string",
  "bit_string",
  "regex_string",
  "bigint",
]);
export const IDENTIFIER_LITERALS = new Set(["double_quote_string", "backticks_quote_string"]);
/** Node types `expr()` understands; anything else met inside window specs is walked structurally. */
const EXPRESSION_TYPES = new Set([
  ...LITERAL_TYPES,
  ...IDENTIFIER_LITERALS,
  "column_ref",
  "star",
  "select",
  "binary_expr",
  "unary_expr",
  "expr_list",
  "case",
  "cast",
  "function",
  "aggr_func",
  "window_func",
  "var",
  "param",
  "origin",
]);

export interface Origin {
  table: string;
  column: string;
}

/** One output column of a (derived) query. */
export interface DerivedColumn {
  /** Provable base origin (single-source row-preserving projection of a base column), else null. */
  origin: Origin | null;
  /**
   * The value depends on its own row only (a projection or row expression over one source, no
   * aggregate, window or sub-query): restricting the derived rows restricts the value.
   */
  local: boolean;
}

/** SELECT DISTINCT (the PostgreSQL grammar writes `distinct: {type: null}` for a plain SELECT). */
function isDistinct(node: Node): boolean {
  const d = node.distinct;
  return !!d && (typeof d !== "object" || !!(d as Node).type);
}

/** Output columns of a (derived) query by name. */
export type DerivedColumns = Map<string, DerivedColumn>;

/** One FROM item as the walk resolved it. */
export interface Source {
  name: string;
  base?: GuardTable;
  derived?: DerivedColumns;
  /** The FROM item (its `on` / `using` join condition). */
  item: Node;
}

export interface Scope {
  parent?: Scope;
  ctes: Map<string, DerivedColumns>;
  sources: Source[];
  /** Result-column aliases of the SELECT owning this scope. */
  aliases: Set<string>;
}

export interface Flags {
  aggregate: boolean;
  window: boolean;
}

export type Node = Record<string, any>;

/** Where a column reference resolves: a source of some scope, a result alias, or nowhere (why). */
type Located = { source: Source; scope: Scope } | { alias: true } | { error: string };

export class Walker {
  readonly tableViolations: string[] = [];
  readonly violations: string[] = [];
  readonly disallowed = new Set<string>();
  usedBaseTable = false;
  usedColumn = false;
  countStar = false;
  /** Base columns the statement reads: physical table → physical columns (for an answer's provenance). */
  readonly read = new Map<string, Set<string>>();
  /** The scope of every core SELECT walked (the binding checks resolve their predicates in it). */
  readonly coreScopes = new Map<Node, Scope>();
  private readonly byPhysical: Map<string, GuardTable>;

  constructor(scope: GuardScope) {
    this.byPhysical = new Map(scope.tables.map((t) => [t.physical, t]));
  }

  private add(list: string[], message: string): void {
    if (!list.includes(message)) list.push(message);
  }

  private lookupCte(scope: Scope | undefined, name: string): DerivedColumns | undefined {
    for (let s = scope; s; s = s.parent) {
      const hit = s.ctes.get(name);
      if (hit) return hit;
    }
    return undefined;
  }

  /** A full query: WITH list, then one core SELECT or a set-operation chain. */
  query(node: Node, parent: Scope | undefined): { columns: DerivedColumns; scope: Scope } {
    const withScope: Scope = { parent, ctes: new Map(), sources: [], aliases: new Set() };
    for (const cte of (node.with as Node[] | null) ?? []) {
      const name = String(cte.name?.value ?? cte.name).toLowerCase();
      const body = cte.stmt?.ast ?? cte.stmt;
      const { columns } = this.query(body, withScope);
      const renamed =
        Array.isArray(cte.columns) && cte.columns.length > 0 ? renameColumns(columns, cte.columns) : columns;
      withScope.ctes.set(name, renamed);
    }
    const first = this.core(node, withScope);
    if (node._next) {
      for (let part: Node | undefined = node._next; part; part = part._next) this.core(part, withScope);
      // A set operation's output never provably preserves one base row: no origins.
      return {
        columns: new Map([...first.columns.keys()].map((k) => [k, { origin: null, local: false }])),
        scope: first.scope,
      };
    }
    return first;
  }

  /** One core SELECT (no set operation). */
  private core(node: Node, parent: Scope): { columns: DerivedColumns; scope: Scope } {
    if (node.type !== "select") {
      this.add(this.violations, "only one read-only SELECT query is allowed");
      return { columns: new Map(), scope: parent };
    }
    const scope: Scope = { parent, ctes: new Map(), sources: [], aliases: new Set() };
    this.coreScopes.set(node, scope);
    const flags: Flags = { aggregate: false, window: false };
    const from: Node[] = Array.isArray(node.from) ? node.from : node.from ? [node.from] : [];
    const pending: Source[] = [];
    for (const item of from) {
      if (item.type === "dual") continue;
      if (item.expr && (item.expr.ast || item.expr.type === "select")) {
        const { columns } = this.query(item.expr.ast ?? item.expr, parent);
        pending.push({ name: String(item.as ?? "").toLowerCase(), derived: columns, item });
        continue;
      }
      if (typeof item.table !== "string") {
        this.add(this.violations, "unsupported FROM item (only tables, CTEs and sub-queries are allowed)");
        continue;
      }
      const table = item.table.toLowerCase();
      let alias = String(item.as ?? table).toLowerCase();
      // The grammar reads `t NATURAL JOIN u` / `t CROSS JOIN u` as an alias of t. NATURAL joins on
      // every shared column (forbidden ones included): refuse it. CROSS is a plain join: drop the alias.
      if (alias === "natural") {
        this.add(this.violations, "NATURAL JOIN is not allowed (write JOIN … ON with allowed columns)");
        continue;
      }
      if (alias === "cross") alias = table;
      if (item.db || item.schema) {
        this.add(
          this.tableViolations,
          `database-qualified tables are not allowed: ${item.db ?? item.schema}.${item.table}`,
        );
        continue;
      }
      const cte = this.lookupCte(parent, table);
      if (cte) {
        pending.push({ name: alias, derived: cte, item });
        continue;
      }
      const base = this.byPhysical.get(table);
      if (!base) {
        this.disallowed.add(item.table);
        continue;
      }
      if (base.allowed.size === 0) {
        this.add(this.tableViolations, `table ${base.physical} has no authorised columns`);
        continue;
      }
      this.usedBaseTable = true;
      pending.push({ name: alias, base, item });
    }
    scope.sources = pending;
    const rowPreserving =
      pending.length === 1 &&
      from.length === 1 &&
      !isDistinct(node) &&
      !(node.groupby?.columns?.length > 0) &&
      !node.having &&
      !(node.limit?.value?.length > 0) &&
      !node._next;
    // Values of one source's row, before any grouping (LIMIT and DISTINCT keep each value with its row).
    const rowLocal = pending.length === 1 && from.length === 1 && !(node.groupby?.columns?.length > 0) && !node.having;
    for (const item of from) {
      if (item.on) this.expr(item.on, scope, flags, false);
      for (const name of (item.using as Array<string | Node> | undefined) ?? []) {
        const column = String(typeof name === "string" ? name : (name.value ?? name.column)).toLowerCase();
        for (const source of pending) this.checkInSource(source, column);
      }
    }
    const columns: DerivedColumns = new Map();
    const columnFlags: Flags = { aggregate: false, window: false };
    for (const col of (node.columns as Node[]) ?? []) {
      const expr = col.expr ?? col;
      if (isStar(expr)) {
        this.add(this.violations, "SELECT * is not allowed");
        continue;
      }
      this.expr(expr, scope, columnFlags, false);
      const alias = col.as === null || col.as === undefined ? null : String(col.as?.value ?? col.as).toLowerCase();
      const name = alias ?? (expr.type === "column_ref" ? columnName(expr) : null);
      if (alias) scope.aliases.add(alias);
      if (name === null) continue;
      const origin = rowPreserving && expr.type === "column_ref" ? this.resolve(expr, scope, true) : null;
      columns.set(name, { origin: origin ?? null, local: rowLocal && this.isRowLocal(expr, scope) });
    }
    if (node.where) this.expr(node.where, scope, flags, true);
    for (const g of (node.groupby?.columns as Node[] | null) ?? []) this.expr(g, scope, flags, true);
    if (node.having) this.expr(node.having, scope, flags, true);
    for (const o of (node.orderby as Node[] | null) ?? []) this.expr(o.expr, scope, flags, true);
    for (const v of (node.limit?.value as Node[] | null) ?? []) this.expr(v, scope, flags, false);
    if (node.window) this.walkAny(node.window, scope, flags);
    if (columnFlags.aggregate || columnFlags.window) {
      for (const key of columns.keys()) columns.set(key, { origin: null, local: false });
    }
    return { columns, scope };
  }

  private checkInSource(source: Source, column: string): void {
    if (source.base && source.base.all.has(column) && !source.base.allowed.has(column)) {
      this.add(
        this.violations,
        `column/source constraint resolution failed: ${source.base.physical}.${column} is not an allowed column`,
      );
    }
  }

  /** Finds the source (or result alias) a column reference names, innermost scope first. */
  locate(ref: Node, scope: Scope, aliasesOk = false): Located {
    const column = columnName(ref);
    const qualifier = ref.table ? String(ref.table).toLowerCase() : null;
    if (qualifier) {
      for (let s: Scope | undefined = scope; s; s = s.parent) {
        const source = s.sources.find((src) => src.name === qualifier);
        if (!source) continue;
        if (source.base) {
          if (!source.base.all.has(column)) return { error: `unknown column ${qualifier}.${column}` };
          if (!source.base.allowed.has(column))
            return { error: `${source.base.physical}.${column} is not an allowed column` };
        } else if (!source.derived!.has(column)) return { error: `unknown column ${qualifier}.${column}` };
        return { source, scope: s };
      }
      return { error: `unknown table or alias ${qualifier} for column ${column}` };
    }
    for (let s: Scope | undefined = scope; s; s = s.parent) {
      const hits = s.sources.filter((src) => (src.base ? src.base.all.has(column) : src.derived!.has(column)));
      if (hits.length > 1) return { error: `ambiguous column ${column}` };
      if (hits.length === 1) {
        const source = hits[0]!;
        if (source.base && !source.base.allowed.has(column))
          return { error: `${source.base.physical}.${column} is not an allowed column` };
        return { source, scope: s };
      }
      if (s === scope && aliasesOk && s.aliases.has(column)) return { alias: true };
    }
    return { error: `unknown column ${column}` };
  }

  /**
   * Resolves a column reference to its origin; records a violation for forbidden/unknown columns
   * unless `silent`. Returns null for computed columns, undefined when it cannot be resolved.
   */
  resolve(ref: Node, scope: Scope, silent: boolean, aliasesOk = false): Origin | null | undefined {
    const found = this.locate(ref, scope, aliasesOk);
    if ("error" in found) {
      if (!silent) this.add(this.violations, `column/source constraint resolution failed: ${found.error}`);
      return undefined;
    }
    if ("alias" in found) return null;
    if (!silent) this.usedColumn = true;
    const column = columnName(ref);
    if (found.source.base) {
      const physical = found.source.base.physical;
      let columns = this.read.get(physical);
      if (!columns) this.read.set(physical, (columns = new Set()));
      columns.add(column);
      return { table: physical, column };
    }
    return found.source.derived!.get(column)?.origin ?? null;
  }

  /** True when an expression reads only its own row: no sub-query, and every column is a row-local one. */
  private isRowLocal(expr: Node, scope: Scope): boolean {
    let local = true;
    visitExpression(expr, (node) => {
      if (node.ast || node.type === "select") local = false;
      else if (node.type === "column_ref" || IDENTIFIER_LITERALS.has(node.type)) {
        const ref = node.type === "column_ref" ? node : { type: "column_ref", table: null, column: String(node.value) };
        if (columnName(ref) === "*") return;
        const found = this.locate(ref, scope);
        if (!("source" in found)) return;
        if (found.scope !== scope)
          local = false; // a correlated outer value is fixed per row, but keep it simple: not local
        else if (found.source.derived && found.source.derived.get(columnName(ref))?.local !== true) local = false;
      }
    });
    return local;
  }

  /** Walks one expression; `aliasesOk` lets result aliases resolve (WHERE/GROUP BY/HAVING/ORDER BY). */
  expr(node: Node | null | undefined, scope: Scope, flags: Flags, aliasesOk: boolean, inCount = false): void {
    if (node === null || node === undefined || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const item of node) this.expr(item, scope, flags, aliasesOk);
      return;
    }
    if (node.ast) {
      this.query(node.ast, scope);
      return;
    }
    switch (node.type) {
      case "column_ref":
        if (columnName(node) === "*") {
          if (!inCount) this.add(this.violations, "SELECT * is not allowed");
          else this.countStar = true;
          return;
        }
        this.resolve(node, scope, false, aliasesOk);
        return;
      case "star":
        if (!inCount) this.add(this.violations, "SELECT * is not allowed");
        else this.countStar = true;
        return;
      case "select":
        this.query(node, scope);
        return;
      case "binary_expr":
        this.expr(node.left, scope, flags, aliasesOk);
        this.expr(node.right, scope, flags, aliasesOk);
        return;
      case "unary_expr":
        this.expr(node.expr, scope, flags, aliasesOk);
        return;
      case "expr_list":
        this.expr(node.value, scope, flags, aliasesOk);
        return;
      case "case":
        this.expr(node.expr, scope, flags, aliasesOk);
        for (const arm of (node.args as Node[]) ?? []) {
          this.expr(arm.cond, scope, flags, aliasesOk);
          this.expr(arm.result, scope, flags, aliasesOk);
        }
        return;
      case "cast":
        this.expr(node.expr, scope, flags, aliasesOk);
        return;
      case "function": {
        const name = functionName(node);
        if (node.name?.schema || !ALLOWED_FUNCTIONS.has(name)) {
          this.add(this.violations, `function not allowed: ${name || "(unnamed)"}`);
        }
        if (ALLOWED_AGGREGATES.has(name)) flags.aggregate = true;
        if (name === "printf" || name === "format") {
          const problem = formatProblem(node.args?.value?.[0]);
          if (problem) this.add(this.violations, `${name}: ${problem}`);
        }
        this.expr(node.args, scope, flags, aliasesOk);
        if (node.over) {
          flags.window = true;
          this.walkAny(node.over, scope, flags);
        }
        return;
      }
      case "window_func": {
        // PostgreSQL grammar: ranking/offset functions with OVER (SQLite's grammar makes them "function").
        const name = String(node.name ?? "").toLowerCase();
        if (!ALLOWED_FUNCTIONS.has(name)) this.add(this.violations, `function not allowed: ${name || "(unnamed)"}`);
        this.expr(node.args, scope, flags, aliasesOk);
        flags.window = true;
        this.walkAny(node.over, scope, flags);
        return;
      }
      case "aggr_func": {
        const name = String(node.name ?? "").toLowerCase();
        if (!ALLOWED_AGGREGATES.has(name)) this.add(this.violations, `function not allowed: ${name}`);
        flags.aggregate = true;
        this.expr(node.args?.expr, scope, flags, aliasesOk, name === "count");
        for (const o of (node.args?.orderby as Node[] | null) ?? []) this.expr(o.expr, scope, flags, aliasesOk);
        if (node.over) {
          flags.window = true;
          this.walkAny(node.over, scope, flags);
        }
        return;
      }
      case "var":
      case "param":
      case "origin":
        this.add(this.violations, "query parameters are not allowed");
        return;
      default:
        if (IDENTIFIER_LITERALS.has(node.type)) {
          // SQLite reads "x" as a column when one exists: treat it as an identifier, fail closed.
          const origin = this.resolve(
            { type: "column_ref", table: null, column: String(node.value) },
            scope,
            true,
            aliasesOk,
          );
          if (origin === undefined) {
            this.add(
              this.violations,
              `column/source constraint resolution failed: "${node.value}" is not an allowed column (write string literals in single quotes)`,
            );
          } else this.usedColumn = true;
          return;
        }
        if (LITERAL_TYPES.has(node.type)) return;
        this.add(this.violations, `unsupported SQL construct: ${String(node.type)}`);
    }
  }

  /** Walks window specs and other nested structures generically (any column_ref inside is checked). */
  private walkAny(node: unknown, scope: Scope, flags: Flags): void {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const item of node) this.walkAny(item, scope, flags);
      return;
    }
    const n = node as Node;
    if (typeof n.type === "string" && EXPRESSION_TYPES.has(n.type)) {
      this.expr(n, scope, flags, true);
      return;
    }
    for (const value of Object.values(n)) this.walkAny(value, scope, flags);
  }
}

/**
 * Calls `visit` on every node of one expression, not descending into sub-queries (their node is
 * visited, their contents are not). Recursion is bounded by the AST depth limit checked before.
 */
export function visitExpression(node: unknown, visit: (node: Node) => void): void {
  if (!node || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const item of node) visitExpression(item, visit);
    return;
  }
  const n = node as Node;
  if (typeof n.type === "string" || n.ast) visit(n);
  if (n.ast || n.type === "select") return;
  for (const value of Object.values(n)) visitExpression(value, visit);
}

/** A printf format must be a literal with widths/precisions under 1,000 (a huge one allocates the whole string at once). */
function formatProblem(format: Node | undefined): string | undefined {
  if (!format || (format.type !== "single_quote_string" && format.type !== "string"))
    return "printf width: the format must be a string literal";
  if (/%[-+ 0#,!]*(\*|\d{4,})|%[-+ 0#,!]*\d*\.(\*|\d{4,})/.test(String(format.value)))
    return "printf width or precision over 999 (or *) is not allowed";
  return undefined;
}

function isStar(expr: Node): boolean {
  return (expr.type === "column_ref" && columnName(expr) === "*") || expr.type === "star";
}

export function columnName(ref: Node): string {
  const c = ref.column;
  const raw = typeof c === "string" ? c : (c?.expr?.value ?? c?.value ?? "");
  return String(raw).toLowerCase();
}

function functionName(node: Node): string {
  const parts = (node.name?.name as Node[] | undefined) ?? [];
  return parts
    .map((p) => String(p.value))
    .join(".")
    .toLowerCase();
}

function renameColumns(columns: DerivedColumns, names: Node[]): DerivedColumns {
  const values = [...columns.values()];
  const out: DerivedColumns = new Map();
  names.forEach((name, i) => {
    const key = String(name?.column?.expr?.value ?? name?.column ?? name?.value ?? name).toLowerCase();
    out.set(key, values[i] ?? { origin: null, local: false });
  });
  return out;
}
