/**
 * The AST guard of reference §6.6: decides whether one SQL text may run against View 5.
 *
 * Admissible = exactly one read-only SELECT (CTEs, sub-queries and set operations allowed) that
 * - reads only in-scope tables (no database-qualified names; CTE/derived names never mask real tables),
 * - uses only authorised physical columns (typed `<col>` or raw `<col>__raw` of an allowed logical
 *   column, plus the `_row` row-order column), never `*` outside COUNT(*),
 * - calls only allow-listed functions, binds no parameters,
 * - carries every required value binding as a mandatory predicate of the OUTER WHERE (reachable only
 *   through AND / parentheses): `col = 'value'` for exact bindings, `col LIKE '%value%'` for fuzzy ones,
 *   where `col` provably resolves to the bound base column (through derived tables / CTEs only when they
 *   are single-source row-preserving projections; computed or constant aliases never count).
 *
 * The model is shown PHYSICAL identifiers (as the reference does); logical names appear only in the
 * prompt's mapping. SQLite resolves an unqualified name against the FROM tables before result aliases,
 * so any identifier that names a real but forbidden column is refused even when an alias shares its
 * name (aliases cannot authorise forbidden columns). SQLite also reads a double-quoted word as a column
 * when one exists, so `"x"` is treated as an identifier, never as a string literal.
 *
 * Parsed with node-sql-parser's SQLite grammar (it parses what SQLite accepts for SELECTs, incl.
 * backquoted identifiers, `==`, GLOB, COLLATE and window functions; PRAGMA/ATTACH/… are parse errors,
 * which is a refusal). A small lexer runs first so that stacked statements and write keywords get
 * explicit messages rather than a parse error.
 */
import pkg from "node-sql-parser/build/sqlite.js";
import type { ColumnSchema, TableSchema } from "../indexing/types.js";
import { ROW_ID_COLUMN } from "../indexing/types.js";
import type { LinkedValue } from "../nodes/types.js";

const { Parser } = pkg;
const parser = new Parser();
const PARSE_OPTIONS = { database: "sqlite" };

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
}

export interface GuardScopeInput {
  /** Full schemas of the tables in scope (each table id once). */
  tables: TableSchema[];
  /** Allowed logical columns; a table listed in `tables` with no entry here is in scope with no columns. */
  allowedColumns: Array<{ tableId: string; column: string }>;
  /** Linked values V*; only matched ones with level 0 (exact) or 2 (fuzzy) become bindings. */
  linkedValues: LinkedValue[];
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
  return { scope: { tables, bindings }, errors };
}

/** `'…'` with single quotes doubled. */
export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** Renders a binding as the predicate the writer must copy (`table.` prefix when several tables). */
export function renderBinding(binding: GuardBinding, qualify: boolean): string {
  const column = qualify ? `${binding.physicalTable}.${binding.shownColumn}` : binding.shownColumn;
  return binding.fuzzy ? `${column} LIKE ${sqlString(`%${binding.value}%`)}` : `${column} = ${sqlString(binding.value)}`;
}

// ---------------------------------------------------------------------------------------------
// Lexical pre-scan: statement count, leading keyword, INTO / RECURSIVE.

interface Lexed {
  statements: string[][]; // upper-cased bare words per non-empty statement
  error?: string;
}

function lex(sql: string): Lexed {
  const statements: string[][] = [];
  let words: string[] = [];
  let nonEmpty = false;
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
        if (sql.slice(i + 1, k).includes("\\")) return { statements, error: "backslashes are not allowed in quoted text" };
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
    } else if (/[A-Za-z_]/.test(ch)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_$]/.test(sql[j]!)) j++;
      words.push(sql.slice(i, j).toUpperCase());
      nonEmpty = true;
      i = j;
    } else {
      if (!/\s/.test(ch)) nonEmpty = true;
      i++;
    }
  }
  close();
  return { statements };
}

/** Removes a surrounding markdown code fence (```sql … ```), as writers often add one. */
export function stripCodeFence(text: string): string {
  const trimmed = text.trim();
  const match = /^```[A-Za-z]*\s*\n?([\s\S]*?)\n?```$/.exec(trimmed);
  return (match ? match[1]! : trimmed).trim();
}

// ---------------------------------------------------------------------------------------------
// AST walk.

/** Functions a read-only answer query may call (SQLite core, date and math functions; windows). */
const ALLOWED_FUNCTIONS = new Set([
  "abs", "round", "replace", "substr", "substring", "lower", "upper", "trim", "ltrim", "rtrim",
  "length", "coalesce", "ifnull", "nullif", "iif", "instr", "strftime", "date", "time", "datetime",
  "julianday", "unixepoch", "printf", "format", "min", "max", "sign", "typeof", "char", "unicode",
  "floor", "ceil", "ceiling", "power", "pow", "sqrt", "exp", "ln", "log", "log10", "log2", "mod",
  "trunc", "exists", "row_number", "rank", "dense_rank", "ntile", "lag", "lead", "first_value",
  "last_value", "nth_value", "percent_rank", "cume_dist", "group_concat", "total", "count", "sum", "avg",
]);
const ALLOWED_AGGREGATES = new Set(["count", "sum", "avg", "min", "max", "total", "group_concat"]);
const LITERAL_TYPES = new Set([
  "single_quote_string", "string", "number", "bool", "boolean", "null", "hex_string", "full_hex_string",
  "natural_string", "bit_string", "regex_string", "bigint",
]);
const IDENTIFIER_LITERALS = new Set(["double_quote_string", "backticks_quote_string"]);
/** Node types `expr()` understands; anything else met inside window specs is walked structurally. */
const EXPRESSION_TYPES = new Set([
  ...LITERAL_TYPES, ...IDENTIFIER_LITERALS, "column_ref", "star", "select", "binary_expr", "unary_expr",
  "expr_list", "case", "cast", "function", "aggr_func", "var", "param", "origin",
]);

interface Origin {
  table: string;
  column: string;
}

/** Output columns of a (derived) query: name → provable base origin, or null for computed ones. */
type DerivedColumns = Map<string, Origin | null>;

interface Source {
  name: string;
  base?: GuardTable;
  derived?: DerivedColumns;
}

interface Scope {
  parent?: Scope;
  ctes: Map<string, DerivedColumns>;
  sources: Source[];
  /** Result-column aliases of the SELECT owning this scope. */
  aliases: Set<string>;
}

interface Flags {
  aggregate: boolean;
  window: boolean;
}

type Node = Record<string, any>;

class Walker {
  readonly tableViolations: string[] = [];
  readonly violations: string[] = [];
  readonly disallowed = new Set<string>();
  usedBaseTable = false;
  usedColumn = false;
  countStar = false;
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
      const renamed = Array.isArray(cte.columns) && cte.columns.length > 0 ? renameColumns(columns, cte.columns) : columns;
      withScope.ctes.set(name, renamed);
    }
    const first = this.core(node, withScope);
    if (node._next) {
      for (let part: Node | undefined = node._next; part; part = part._next) this.core(part, withScope);
      // A set operation's output never provably preserves one base row: no origins.
      return { columns: new Map([...first.columns.keys()].map((k) => [k, null])), scope: first.scope };
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
    const flags: Flags = { aggregate: false, window: false };
    const from: Node[] = Array.isArray(node.from) ? node.from : node.from ? [node.from] : [];
    const pending: Source[] = [];
    for (const item of from) {
      if (item.type === "dual") continue;
      if (item.expr && (item.expr.ast || item.expr.type === "select")) {
        const { columns } = this.query(item.expr.ast ?? item.expr, parent);
        pending.push({ name: String(item.as ?? "").toLowerCase(), derived: columns });
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
        this.add(this.tableViolations, `database-qualified tables are not allowed: ${item.db ?? item.schema}.${item.table}`);
        continue;
      }
      const cte = this.lookupCte(parent, table);
      if (cte) {
        pending.push({ name: alias, derived: cte });
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
      pending.push({ name: alias, base });
    }
    scope.sources = pending;
    const rowPreserving =
      pending.length === 1 &&
      from.length === 1 &&
      !node.distinct &&
      !(node.groupby?.columns?.length > 0) &&
      !node.having &&
      !(node.limit?.value?.length > 0) &&
      !node._next;
    for (const item of from) {
      if (item.on) this.expr(item.on, scope, flags, false);
      for (const name of (item.using as Array<string | Node> | undefined) ?? []) {
        const column = String(typeof name === "string" ? name : name.value ?? name.column).toLowerCase();
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
      columns.set(name, origin ?? null);
    }
    if (node.where) this.expr(node.where, scope, flags, true);
    for (const g of (node.groupby?.columns as Node[] | null) ?? []) this.expr(g, scope, flags, true);
    if (node.having) this.expr(node.having, scope, flags, true);
    for (const o of (node.orderby as Node[] | null) ?? []) this.expr(o.expr, scope, flags, true);
    for (const v of (node.limit?.value as Node[] | null) ?? []) this.expr(v, scope, flags, false);
    if (node.window) this.walkAny(node.window, scope, flags);
    if (columnFlags.aggregate || columnFlags.window) {
      for (const key of columns.keys()) columns.set(key, null);
    }
    return { columns, scope };
  }

  private checkInSource(source: Source, column: string): void {
    if (source.base && source.base.all.has(column) && !source.base.allowed.has(column)) {
      this.add(this.violations, `column/source constraint resolution failed: ${source.base.physical}.${column} is not an allowed column`);
    }
  }

  /**
   * Resolves a column reference to its origin; records a violation for forbidden/unknown columns
   * unless `silent`. Returns null for computed columns, undefined when it cannot be resolved.
   */
  resolve(ref: Node, scope: Scope, silent: boolean, aliasesOk = false): Origin | null | undefined {
    const column = columnName(ref);
    const qualifier = ref.table ? String(ref.table).toLowerCase() : null;
    const fail = (message: string) => {
      if (!silent) this.add(this.violations, `column/source constraint resolution failed: ${message}`);
      return undefined;
    };
    if (qualifier) {
      for (let s: Scope | undefined = scope; s; s = s.parent) {
        const source = s.sources.find((src) => src.name === qualifier);
        if (!source) continue;
        if (source.base) {
          if (!source.base.all.has(column)) return fail(`unknown column ${qualifier}.${column}`);
          if (!source.base.allowed.has(column)) return fail(`${source.base.physical}.${column} is not an allowed column`);
          if (!silent) this.usedColumn = true;
          return { table: source.base.physical, column };
        }
        if (!source.derived!.has(column)) return fail(`unknown column ${qualifier}.${column}`);
        if (!silent) this.usedColumn = true;
        return source.derived!.get(column) ?? null;
      }
      return fail(`unknown table or alias ${qualifier} for column ${column}`);
    }
    for (let s: Scope | undefined = scope; s; s = s.parent) {
      const hits = s.sources.filter((src) => (src.base ? src.base.all.has(column) : src.derived!.has(column)));
      if (hits.length > 1) return fail(`ambiguous column ${column}`);
      if (hits.length === 1) {
        const source = hits[0]!;
        if (source.base) {
          if (!source.base.allowed.has(column)) return fail(`${source.base.physical}.${column} is not an allowed column`);
          if (!silent) this.usedColumn = true;
          return { table: source.base.physical, column };
        }
        if (!silent) this.usedColumn = true;
        return source.derived!.get(column) ?? null;
      }
      if (s === scope && aliasesOk && s.aliases.has(column)) return null;
    }
    return fail(`unknown column ${column}`);
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
        this.expr(node.args, scope, flags, aliasesOk);
        if (node.over) {
          flags.window = true;
          this.walkAny(node.over, scope, flags);
        }
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
          const origin = this.resolve({ type: "column_ref", table: null, column: String(node.value) }, scope, true, aliasesOk);
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

function isStar(expr: Node): boolean {
  return (expr.type === "column_ref" && columnName(expr) === "*") || expr.type === "star";
}

function columnName(ref: Node): string {
  const c = ref.column;
  const raw = typeof c === "string" ? c : c?.expr?.value ?? c?.value ?? "";
  return String(raw).toLowerCase();
}

function functionName(node: Node): string {
  const parts = (node.name?.name as Node[] | undefined) ?? [];
  return parts.map((p) => String(p.value)).join(".").toLowerCase();
}

function renameColumns(columns: DerivedColumns, names: Node[]): DerivedColumns {
  const values = [...columns.values()];
  const out: DerivedColumns = new Map();
  names.forEach((name, i) => {
    const key = String(name?.column?.expr?.value ?? name?.column ?? name?.value ?? name).toLowerCase();
    out.set(key, values[i] ?? null);
  });
  return out;
}

/** The AND-conjuncts of a WHERE clause (parentheses are transparent in the AST). */
function conjuncts(node: Node | null | undefined): Node[] {
  if (!node) return [];
  if (node.type === "binary_expr" && String(node.operator).toUpperCase() === "AND") {
    return [...conjuncts(node.left), ...conjuncts(node.right)];
  }
  return [node];
}

/** The text of a literal (string or possibly negated number); undefined for anything else. */
function literalText(node: Node): string | undefined {
  if (!node || node.suffix || node.collate) return undefined;
  if (node.type === "single_quote_string" || node.type === "string") return String(node.value).replace(/''/g, "'");
  if (node.type === "number") return String(node.value);
  if (node.type === "unary_expr" && node.operator === "-" && node.expr?.type === "number") return `-${node.expr.value}`;
  return undefined;
}

function satisfies(walker: Walker, predicate: Node, scope: Scope, binding: GuardBinding): boolean {
  if (predicate.type !== "binary_expr") return false;
  const op = String(predicate.operator).toUpperCase();
  if (binding.fuzzy ? op !== "LIKE" : op !== "=" && op !== "==") return false;
  const wanted = binding.fuzzy ? `%${binding.value}%` : binding.value;
  const sides: Array<[Node, Node]> = binding.fuzzy
    ? [[predicate.left, predicate.right]]
    : [
        [predicate.left, predicate.right],
        [predicate.right, predicate.left],
      ];
  for (const [side, literalSide] of sides) {
    if (!side) continue;
    // A double-quoted word that names a column is that column in SQLite.
    const columnSide = IDENTIFIER_LITERALS.has(side.type) ? { type: "column_ref", table: null, column: String(side.value) } : side;
    if (columnSide.type !== "column_ref") continue;
    if (literalText(literalSide) !== wanted) continue;
    const origin = walker.resolve(columnSide, scope, true);
    if (origin && origin.table === binding.physicalTable && binding.physicalColumns.includes(origin.column)) return true;
  }
  return false;
}

/**
 * Checks one SQL text against the scope. Returns the violations; an empty list means admissible.
 */
export function checkSql(sqlText: string, scope: GuardScope): string[] {
  const sql = stripCodeFence(sqlText ?? "");
  if (sql === "") return ["SQL service did not return sql_str"];
  const lexed = lex(sql);
  if (lexed.error) return [`SQL parse error: ${lexed.error}`];
  if (lexed.statements.length === 0) return ["SQL service did not return sql_str"];
  if (lexed.statements.length > 1) return ["exactly one SQL statement is required"];
  const words = lexed.statements[0]!;
  if (words[0] !== "SELECT" && words[0] !== "WITH") {
    return ["only one read-only SELECT query is allowed"];
  }
  if (words.includes("INTO")) return ["only one read-only SELECT query is allowed"];
  if (words.includes("RECURSIVE")) return ["recursive queries are not allowed"];
  let ast: unknown;
  try {
    ast = parser.astify(sql, PARSE_OPTIONS);
  } catch (error) {
    if (/\bOVER\s*\(\s*ORDER\b/i.test(sql)) {
      return ["SQL parse error: a window OVER (ORDER BY …) needs PARTITION BY here; use ORDER BY … LIMIT 1 or COUNT instead"];
    }
    const message = error instanceof Error ? error.message : String(error);
    return [`SQL parse error: ${message.slice(0, 160)}`];
  }
  const statements = Array.isArray(ast) ? ast : [ast];
  if (statements.length !== 1) return ["exactly one SQL statement is required"];
  const root = statements[0] as Node;
  if (root.type !== "select") return ["only one read-only SELECT query is allowed"];

  const walker = new Walker(scope);
  const { scope: outer } = walker.query(root, undefined);
  const tableViolations = [...walker.tableViolations];
  if (walker.disallowed.size > 0) tableViolations.unshift(`disallowed tables: ${[...walker.disallowed].join(", ")}`);
  if (!walker.usedBaseTable && tableViolations.length === 0) tableViolations.push("query does not reference an allowed table");
  if (tableViolations.length > 0) return tableViolations;

  const violations = [...walker.violations];
  if (!walker.usedColumn && !walker.countStar && violations.length === 0) {
    violations.push("query does not reference an allowed column");
  }
  const qualify = scope.tables.length > 1;
  const predicates = root._next ? [] : conjuncts(root.where);
  for (const binding of scope.bindings) {
    if (predicates.some((p) => satisfies(walker, p, outer, binding))) continue;
    const shown = renderBinding(binding, qualify);
    violations.push(
      binding.fuzzy
        ? `missing fuzzy LIKE binding: ${shown} as a mandatory outer WHERE predicate`
        : `missing exact WHERE binding: ${shown} as a mandatory equality predicate`,
    );
  }
  return violations;
}
