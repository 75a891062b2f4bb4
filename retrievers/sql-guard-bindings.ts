/**
 * Required value bindings (reference §6.5): each must be a mandatory predicate of the outer WHERE
 * (reachable only through AND / parentheses) — `col = 'value'` exact, `col LIKE '%value%'` fuzzy —
 * on a column that provably resolves to the bound base column, and it must RESTRICT THE ROWS EVERY
 * SELECTED VALUE COMES FROM. A predicate on one source does not restrict another, so (with bindings):
 *
 * - every FROM source of the outer query must be the bound source, or joined to a restricted source by
 *   a mandatory column equality (`ON a.k = b.k`, `USING (k)`, `WHERE a.k = b.k`, `b._row = a._row + 1`),
 *   or pinned to another named value of a bound column (`a.rider = 'X' AND b.rider = 'Y'`: two
 *   entities of the question compared): a self-join or cross join `ON 1=1` / `FROM t a, t b`, or a
 *   filter on another column (`b.founded = 1900`), leaves the other copy unrestricted;
 * - a column read from a derived table / CTE must be row-local there (a projection of its own row: an
 *   aggregate, window or sub-query computed inside the derived table saw rows the outer filter drops);
 * - a sub-query in the select list (scalar, EXISTS, …) must itself read only restricted rows: its
 *   sources joined by equality to the outer restricted sources (correlated) or carrying every binding;
 * - each arm of a UNION / INTERSECT / EXCEPT is an outer query and is checked on its own.
 */
import { renderBinding, type GuardBinding, type GuardScope } from "./sql-guard-scope.js";
import {
  columnName,
  IDENTIFIER_LITERALS,
  visitExpression,
  type Node,
  type Scope,
  type Source,
  type Walker,
} from "./sql-guard-walker.js";

/** The AND-conjuncts of a condition (parentheses are transparent in the AST). */
export function conjuncts(node: Node | null | undefined): Node[] {
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

/** A double-quoted word that names a column is that column in SQLite. */
function asColumnRef(node: Node | undefined): Node | undefined {
  if (!node) return undefined;
  if (IDENTIFIER_LITERALS.has(node.type)) return { type: "column_ref", table: null, column: String(node.value) };
  return node.type === "column_ref" ? node : undefined;
}

/**
 * The source whose bound column the predicate tests with the binding's value (`anyValue`: with any
 * literal, the same operator), or undefined.
 */
function satisfiedBy(
  walker: Walker,
  predicate: Node,
  scope: Scope,
  binding: GuardBinding,
  anyValue = false,
): Source | undefined {
  if (predicate.type !== "binary_expr") return undefined;
  const op = String(predicate.operator).toUpperCase();
  if (binding.fuzzy ? op !== "LIKE" : op !== "=" && op !== "==") return undefined;
  const wanted = binding.fuzzy ? `%${binding.value}%` : binding.value;
  const sides: Array<[Node, Node]> = binding.fuzzy
    ? [[predicate.left, predicate.right]]
    : [
        [predicate.left, predicate.right],
        [predicate.right, predicate.left],
      ];
  for (const [side, literalSide] of sides) {
    const ref = asColumnRef(side);
    const literal = literalText(literalSide);
    if (!ref || literal === undefined || (!anyValue && literal !== wanted)) continue;
    const origin = walker.resolve(ref, scope, true);
    if (!origin || origin.table !== binding.physicalTable || !binding.physicalColumns.includes(origin.column)) continue;
    const found = walker.locate(ref, scope);
    if ("source" in found) return found.source;
  }
  return undefined;
}

/**
 * What a mandatory equality ties together: `col = col` of two sources ties both ways; `col = expr`
 * where expr is a row expression over other sources (`b._row = a._row + 1`) determines the column's
 * source once every source of expr is restricted. Constants tie nothing (`b.city = 'x'` is a filter,
 * not a link to the bound rows).
 */
interface Tie {
  from: Source[];
  to: Source;
}

/**
 * A column that belongs to its source's row: a base column, or a row-local derived column. A derived
 * table's computed column (`SELECT a.club AS k FROM clubs a, clubs b`) ties nothing: equal k values
 * stand for many unrelated rows.
 */
function isRowColumn(source: Source, ref: Node): boolean {
  return !source.derived || source.derived.get(columnName(ref))?.local === true;
}

function sourcesOf(walker: Walker, expr: Node, scope: Scope): Source[] | undefined {
  const found = new Set<Source>();
  let ok = true;
  visitExpression(expr, (node) => {
    if (node.ast || node.type === "select" || node.type === "aggr_func" || node.over) ok = false;
    const ref = asColumnRef(node);
    if (!ref) return;
    const located = walker.locate(ref, scope);
    if ("source" in located && isRowColumn(located.source, ref)) found.add(located.source);
    else ok = false;
  });
  return ok && found.size > 0 ? [...found] : undefined;
}

function equalityTies(walker: Walker, predicate: Node, scope: Scope): Tie[] {
  if (predicate.type !== "binary_expr" || !["=", "=="].includes(String(predicate.operator))) return [];
  const ties: Tie[] = [];
  for (const [side, other] of [
    [predicate.left, predicate.right],
    [predicate.right, predicate.left],
  ] as Array<[Node, Node]>) {
    const ref = asColumnRef(side);
    if (!ref) continue;
    const target = walker.locate(ref, scope);
    if (!("source" in target) || !isRowColumn(target.source, ref)) continue;
    const from = sourcesOf(walker, other, scope);
    if (from && !from.includes(target.source)) ties.push({ from, to: target.source });
  }
  return ties;
}

/** The mandatory join conditions of one core SELECT: WHERE and every ON, as conjuncts. */
function joinConjuncts(core: Node): Node[] {
  const from: Node[] = Array.isArray(core.from) ? core.from : core.from ? [core.from] : [];
  return [...conjuncts(core.where), ...from.flatMap((item) => conjuncts(item.on))];
}

/** Grows `restricted` with every source joined to it by a mandatory equality (USING included). */
function closeOverJoins(walker: Walker, core: Node, scope: Scope, restricted: Set<Source>): void {
  const ties: Tie[] = joinConjuncts(core).flatMap((predicate) => equalityTies(walker, predicate, scope));
  scope.sources.forEach((source, k) => {
    for (const name of (source.item.using as Array<string | Node> | undefined) ?? []) {
      const column = String(typeof name === "string" ? name : (name.value ?? name.column)).toLowerCase();
      for (const earlier of scope.sources.slice(0, k)) {
        if (earlier.base ? earlier.base.all.has(column) : earlier.derived?.has(column))
          ties.push({ from: [earlier], to: source }, { from: [source], to: earlier });
      }
    }
  });
  for (let grown = true; grown;) {
    grown = false;
    for (const tie of ties) {
      if (!restricted.has(tie.to) && tie.from.every((s) => restricted.has(s))) {
        restricted.add(tie.to);
        grown = true;
      }
    }
  }
}

/** The core SELECTs of a query (a set operation's arms, in order). */
function cores(query: Node): Node[] {
  const out: Node[] = [];
  for (let part: Node | undefined = query; part; part = part._next) out.push(part);
  return out;
}

/** The sub-queries directly inside the select list (not those nested in other sub-queries). */
function selectListSubqueries(core: Node): Node[] {
  const found: Node[] = [];
  for (const col of (core.columns as Node[] | undefined) ?? []) {
    visitExpression(col.expr ?? col, (node) => {
      if (node.ast) found.push(node.ast);
      else if (node.type === "select") found.push(node);
    });
  }
  return found;
}

/**
 * Checks that the rows of one core SELECT are all restricted (sources in `restricted` after the join
 * closure), that it reads only row-local derived columns in its select list, and recursively that its
 * select-list sub-queries read restricted rows. `where` names the query in messages.
 */
function checkRestricted(
  walker: Walker,
  core: Node,
  restricted: Set<Source>,
  bindings: GuardBinding[],
  seedOwn: boolean,
  where: string,
  out: string[],
): void {
  const scope = walker.coreScopes.get(core);
  if (!scope) return;
  if (!seedOwn) {
    // Another copy pinned to a named value of a bound column (`a.rider = 'X' AND b.rider = 'Y'`:
    // two entities of the question compared) is restricted the way the binding asks for.
    for (const predicate of conjuncts(core.where)) {
      for (const binding of bindings) {
        const pinned = satisfiedBy(walker, predicate, scope, binding, true);
        if (pinned) restricted.add(pinned);
      }
    }
  }
  if (seedOwn) {
    // A sub-query that carries every binding itself is restricted by it.
    const own = scope.sources.filter((source) =>
      bindings.every((b) => conjuncts(core.where).some((p) => satisfiedBy(walker, p, scope, b) === source)),
    );
    for (const source of own) restricted.add(source);
  }
  closeOverJoins(walker, core, scope, restricted);
  const loose = scope.sources.filter((source) => !restricted.has(source));
  if (loose.length > 0) {
    const names = loose.map((s) => s.name || "(derived table)").join(", ");
    add(
      out,
      `binding does not restrict the rows of ${names} in ${where}: join each source to the bound rows with a column equality (a.col = b.col) or drop it`,
    );
  }
  for (const col of (core.columns as Node[] | undefined) ?? []) {
    visitExpression(col.expr ?? col, (node) => {
      const ref = asColumnRef(node);
      if (!ref || columnName(ref) === "*") return;
      const found = walker.locate(ref, scope);
      if (!("source" in found) || !found.source.derived) return;
      if (found.source.derived.get(columnName(ref))?.local !== true) {
        add(
          out,
          `binding does not restrict ${found.source.name ? `${found.source.name}.` : ""}${columnName(ref)}: it is computed over rows the binding does not filter (an aggregate, window or sub-query inside a derived table); compute it in the outer query`,
        );
      }
    });
  }
  for (const sub of selectListSubqueries(core)) {
    for (const arm of cores(sub))
      checkRestricted(walker, arm, new Set(restricted), bindings, true, "a sub-query of the select list", out);
  }
}

function add(list: string[], message: string): void {
  if (!list.includes(message)) list.push(message);
}

/** Binding violations of a walked statement: missing bindings, then rows the bindings do not restrict. */
export function bindingViolations(walker: Walker, root: Node, scope: GuardScope): string[] {
  if (scope.bindings.length === 0) return [];
  const qualify = scope.tables.length > 1;
  const out: string[] = [];
  const arms = cores(root);
  const restrictedPerArm: Array<Set<Source>> = [];
  for (const binding of scope.bindings) {
    let everyArm = true;
    arms.forEach((arm, i) => {
      const armScope = walker.coreScopes.get(arm);
      const source =
        armScope &&
        conjuncts(arm.where)
          .map((p) => satisfiedBy(walker, p, armScope, binding))
          .find((s) => s !== undefined);
      if (!source) everyArm = false;
      else (restrictedPerArm[i] ??= new Set()).add(source);
    });
    if (everyArm) continue;
    const shown = renderBinding(binding, qualify);
    out.push(
      binding.fuzzy
        ? `missing fuzzy LIKE binding: ${shown} as a mandatory outer WHERE predicate`
        : `missing exact WHERE binding: ${shown} as a mandatory equality predicate`,
    );
  }
  if (out.length > 0) return out;
  arms.forEach((arm, i) =>
    checkRestricted(
      walker,
      arm,
      restrictedPerArm[i] ?? new Set(),
      scope.bindings,
      false,
      arms.length > 1 ? `arm ${i + 1} of the set operation` : "the outer query",
      out,
    ),
  );
  return out;
}
