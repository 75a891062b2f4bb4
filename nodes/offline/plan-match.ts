/**
 * How well a SQL candidate's columns and values fit the question, as features for the learned
 * verifier (`pm:…`; sql-writer.ts adds them to each candidate's plans/candidate-features.ts ones).
 * On the training splits the SQL answers that looked right but were wrong mostly answered with
 * another column than the one the question asks for ("which ship …" answered from a Nationality
 * column), ordered a superlative by row frequency or by an unnamed column while the question names
 * a numeric one, or filtered on a value the question only half names. So: the column-match score
 * of the plan's target, order and condition columns against the question's words, whether another
 * column matches the asked words better, ties at the top of the order column, and the match quality
 * (exact / partial / fuzzy, rows matched) of the values the SQL filters on. Every feature is binary
 * or a score in 0..1.
 */
import type { EntityMention } from "./mentions.js";
import { headerMatch, isNumericColumn } from "./columns.js";
import {
  MAX_COMPARATIVES,
  MAX_SUPERLATIVES,
  MIN_COMPARATIVES,
  MIN_SUPERLATIVES,
  ORDINAL_WORDS,
  monthNumber,
} from "../../text/lexicons.js";
import { stem } from "../../text/stem.js";
import { wordsOf } from "../../text/tokenise.js";
import type { CatalogColumn } from "./table-catalog.js";
import type { SqlPlan, SqlPlanInput } from "./plans/types.js";

/** headerMatch of one fully named head word is 1.5 (columns.ts): that is a full match. */
const FULL_MATCH = 1.5;
/** Above this a column is named (a header word said anywhere in the question; a modifier word alone is not). */
const NAMED = 0.5;

const clip = (x: number) => Math.round(Math.max(0, Math.min(1, x)) * 1000) / 1000;

function bucket(n: number, edges: readonly number[], labels: readonly string[]): string {
  for (let i = 0; i < edges.length; i++) if (n <= edges[i]!) return labels[i]!;
  return labels[labels.length - 1]!;
}

/** The SQL's clauses (outer statement and sub-queries together: the plans' sub-queries repeat the outer columns). */
function clauses(sql: string): { select: string; where: string; order: string; extremum: string; group: string } {
  const select = /^\s*SELECT\b([\s\S]*?)\bFROM\b/i.exec(sql)?.[1] ?? "";
  const where = [
    ...sql.matchAll(/\bWHERE\b([\s\S]*?)(?=\bGROUP BY\b|\bORDER BY\b|\bLIMIT\b|\)\s*(?:ORDER|LIMIT|$)|$)/gi),
  ]
    .map((m) => m[1])
    .join(" ");
  const order = [...sql.matchAll(/\bORDER BY\b([\s\S]*?)(?=\bLIMIT\b|\)|$)/gi)].map((m) => m[1]).join(" ");
  const extremum = [...sql.matchAll(/\b(?:MAX|MIN)\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)/gi)].map((m) => m[1]).join(" ");
  const group = /\bGROUP BY\b([\s\S]*?)(?=\bORDER BY\b|\bLIMIT\b|$)/i.exec(sql)?.[1] ?? "";
  return { select, where, order, extremum, group };
}

/** The catalogue columns a SQL fragment names (by physical or raw physical identifier; `_row` is no column). */
function columnsIn(fragment: string, byPhysical: Map<string, CatalogColumn>): Set<CatalogColumn> {
  const out = new Set<CatalogColumn>();
  for (const m of fragment.matchAll(/"([^"]+)"/g)) {
    const c = byPhysical.get(m[1]!);
    if (c) out.add(c);
  }
  return out;
}

/** The quoted literals of the SQL ('' unescaped). */
function literals(sql: string): string[] {
  return [...sql.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1]!.replace(/''/g, "'"));
}

/** How many rows share the extreme value (max for argmax, min for argmin) of a numeric column. */
function tiesAtTop(column: CatalogColumn, direction: "max" | "min"): number {
  const values = column.num.filter((v): v is number => v !== null && Number.isFinite(v));
  if (values.length === 0) return 0;
  const top = direction === "max" ? Math.max(...values) : Math.min(...values);
  return values.filter((v) => v === top).length;
}

/** The `pm:…` features of one SQL plan over its planning input. */
export function planMatchFeatures(plan: SqlPlan, input: SqlPlanInput): Record<string, number> {
  const { analysis, catalog } = input;
  const f: Record<string, number> = {};
  const columns = catalog.columns.filter((c) => !input.usable || input.usable.has(c.index));
  const byPhysical = new Map<string, CatalogColumn>();
  for (const c of catalog.columns) byPhysical.set(c.schema.physical, c).set(c.schema.rawPhysical, c);
  const asked = analysis.targetHints;
  const words = analysis.contentWords;
  const sql = clauses(plan.sql);

  const orderColumns = new Set([...columnsIn(sql.order, byPhysical), ...columnsIn(sql.extremum, byPhysical)]);
  const target =
    catalog.columns.find((c) => c.schema.name === plan.targetColumn) ??
    [...columnsIn(sql.select, byPhysical)].find((c) => !orderColumns.has(c));
  if (target) orderColumns.delete(target);
  const conditionColumns = [...columnsIn(sql.where, byPhysical)].filter((c) => c !== target && !orderColumns.has(c));
  const mentionColumns = new Set(input.mentions.map((m) => m.columnIndex));
  for (const b of input.bindings ?? []) mentionColumns.add(b.columnIndex);

  // The target column against the asked words ("which ship" → Ship) and all content words.
  if (target) {
    const askedScore = asked.length > 0 ? headerMatch(asked, target) : 0;
    f["pm:target-match"] = clip(headerMatch(words, target) / FULL_MATCH);
    if (asked.length === 0) f["pm:asked=none"] = 1;
    else {
      f["pm:asked-match"] = clip(askedScore / FULL_MATCH);
      f[askedScore > 0 ? "pm:asked=target" : "pm:asked=not-target"] = 1;
      // Another column (not one the statement filters or orders on) carries the asked words better.
      const rival = columns.some(
        (c) =>
          c !== target &&
          !orderColumns.has(c) &&
          !conditionColumns.includes(c) &&
          !mentionColumns.has(c.index) &&
          headerMatch(asked, c) > askedScore,
      );
      if (rival) f["pm:asked=other-column"] = 1;
    }
    if (mentionColumns.has(target.index)) f["pm:target=mention-column"] = 1;
  } else if (plan.targetColumn === "") f["pm:target=computed"] = 1;

  // The order column of a superlative, or the row frequency when there is none.
  if (plan.template === "argmax" || plan.template === "argmin" || plan.template === "group-count") {
    const order = [...orderColumns][0];
    const numericNamed = columns.filter(
      (c) => c !== target && isNumericColumn(c) && !mentionColumns.has(c.index) && headerMatch(words, c) > NAMED,
    );
    if (!order || /\bCOUNT\s*\(/i.test(sql.order)) {
      f["pm:order=frequency"] = 1;
      if (numericNamed.length > 0) f["pm:frequency-but-numeric-named"] = 1;
    } else {
      const score = headerMatch(words, order);
      f["pm:order-match"] = clip(score / FULL_MATCH);
      f[score > 0 ? "pm:order=named" : "pm:order=unnamed"] = 1;
      if (numericNamed.some((c) => c !== order && headerMatch(words, c) > score)) f["pm:order=other-named"] = 1;
      if (plan.template !== "group-count" && isNumericColumn(order)) {
        const ties = tiesAtTop(order, plan.template === "argmin" ? "min" : "max");
        if (ties > 1) f["pm:order-ties"] = 1;
      }
    }
  }

  // Condition columns: named by the question, or holding a value it names.
  if (conditionColumns.length > 0) {
    const named = conditionColumns.filter((c) => mentionColumns.has(c.index) || headerMatch(words, c) > 0).length;
    f["pm:cond-named-share"] = clip(named / conditionColumns.length);
    if (named < conditionColumns.length) f["pm:cond=unnamed"] = 1;
  }

  Object.assign(f, valueMatch(plan.sql, input.mentions, input.bindings ?? []));
  const used = [...(target ? [target] : []), ...orderColumns, ...conditionColumns];
  Object.assign(f, wordCoverage(plan, input, used), tableCleanliness(catalog.columns, target, [...orderColumns]));
  return f;
}

/** Words a template itself accounts for (its operator), beside the superlatives and comparatives. */
const TEMPLATE_WORDS: Partial<Record<SqlPlan["template"], readonly string[]>> = {
  count: ["count", "number", "times", "total"],
  "count-column": ["count", "number", "total"],
  "group-count": ["count", "number", "times", "frequent", "frequently", "often", "common"],
  sum: ["total", "sum", "combined", "altogether", "overall", "together"],
  avg: ["average", "mean", "avg", "typical"],
  first: ["first", "earliest", "top", "opening", "initial"],
  last: ["last", "final", "latest", "bottom"],
  next: ["next", "after", "following", "below", "later"],
  previous: ["previous", "before", "preceding", "above", "prior", "earlier"],
  place: ["came", "finished", "placed", "ended", "ranked", "place", "position", ...ORDINAL_WORDS],
  difference: ["difference", "between", "than", "gap"],
  "percent-change": ["percent", "percentage", "change", "increase", "decrease", "growth"],
  moreless: ["than", "or"],
  choice: ["or"],
};
const RANKING_WORDS = new Set<string>([
  ...MAX_SUPERLATIVES,
  ...MIN_SUPERLATIVES,
  ...MAX_COMPARATIVES,
  ...MIN_COMPARATIVES,
  "max",
  "min",
]);
/** Words that name what is asked without naming a column ("name the …", "which one"). */
const ASKING_WORDS = new Set(["name", "names", "show", "give", "tell", "list", "find", "one", "ones", "value"]);

/**
 * Does the plan account for every content word of the question? A word is accounted for when it
 * names a column the statement uses (target, order, condition), belongs to a value mention the
 * statement filters on, is a number the statement holds, belongs to the template's operator
 * ("average" for avg, a superlative for argmax), names a key column (the rows' own noun: "of the
 * peaks") or belongs to the table's name. Wrong plans on the training
 * splits leave words out ("consecutive", "after the …", a second condition); a plain question over
 * a plain table leaves none. `pm:unaccounted=0|1|2|3+` and the share accounted for (0..1).
 */
function wordCoverage(plan: SqlPlan, input: SqlPlanInput, used: readonly CatalogColumn[]): Record<string, number> {
  const words = input.analysis.contentWords.filter((w) => !ASKING_WORDS.has(w));
  if (words.length === 0) return { "pm:unaccounted=0": 1, "pm:accounted-share": 1 };
  const quoted = new Set(literals(plan.sql).map((v) => v.toLowerCase()));
  const mentionWords = new Set<string>();
  for (const m of input.mentions)
    if (quoted.has(m.value.toLowerCase())) for (const w of wordsOf(m.text)) mentionWords.add(w);
  for (const b of input.bindings ?? [])
    if (quoted.has(b.value.toLowerCase())) for (const w of wordsOf(b.value)) mentionWords.add(w);
  const sqlWords = new Set(wordsOf(plan.sql));
  const operator = new Set(TEMPLATE_WORDS[plan.template] ?? []);
  const tableWords = new Set(input.catalog.columns[0]?.tableWords ?? []);
  // (the rows' own noun: "the average height of the peaks" names the key column it aggregates over)
  const keys = input.catalog.columns.filter(isKeyColumn);
  let unaccounted = 0;
  for (const w of words) {
    const parts = wordsOf(w);
    const accounted =
      parts.every((p) => mentionWords.has(p)) ||
      RANKING_WORDS.has(w) ||
      operator.has(w) ||
      (/^\d/.test(w) && parts.every((p) => sqlWords.has(p))) ||
      (monthNumber(w) !== undefined && /\d{4}-\d{2}/.test(plan.sql)) ||
      tableWords.has(stem(w)) ||
      used.some((c) => headerMatch([w], c) > 0) ||
      keys.some((c) => headerMatch([w], c) > 0);
    if (!accounted) unaccounted++;
  }
  return {
    [`pm:unaccounted=${bucket(unaccounted, [0, 1, 2], ["0", "1", "2", "3+"])}`]: 1,
    "pm:accounted-share": clip(1 - unaccounted / words.length),
  };
}

/** A column whose values name one row each (a name or id column: the table's rows are its things). */
function isKeyColumn(column: CatalogColumn): boolean {
  if (column.maxFreq !== undefined) return column.maxFreq === 1;
  return column.numericShare < 0.5 && [...column.distinct.values()].every((rows) => rows.length === 1);
}

/** A cell that reads as one clean value: no note in brackets, no footnote mark, no line break, not a placeholder. */
function cleanCell(raw: string): boolean {
  return !/[()[\]*†‡#\n]|^\s*[-–—?]+\s*$/.test(raw);
}

const cleanShares = new WeakMap<CatalogColumn, number>();

/**
 * Share of a column's non-empty cells that are clean values of its kind: clean cells, and numbers in
 * a mostly numeric column. A generated or hand-kept spreadsheet is 1 everywhere; the tables the
 * wrong answers of the training splits came from hold notes, footnote marks and mixed cells.
 */
function cleanShare(column: CatalogColumn): number {
  let share = cleanShares.get(column);
  if (share !== undefined) return share;
  const numeric = column.numericShare >= 0.5;
  let n = 0;
  let clean = 0;
  column.raw.forEach((raw, row) => {
    if (raw === undefined || raw.trim() === "") return;
    n++;
    if (cleanCell(raw) && (!numeric || column.num[row] !== null)) clean++;
  });
  share = n === 0 ? 0 : clean / n;
  cleanShares.set(column, share);
  return share;
}

/**
 * How clean the table and the plan's target and order columns are (`pm:table-clean`,
 * `pm:target-clean`, `pm:order-clean` in 0..1; `pm:table-clean=1` when every column is), with the
 * table's size (`pm:table-rows=…`). A large table (rows not read into the catalogue) gives none.
 */
function tableCleanliness(
  columns: readonly CatalogColumn[],
  target: CatalogColumn | undefined,
  order: readonly CatalogColumn[],
): Record<string, number> {
  const rows = columns[0]?.raw.length ?? 0;
  if (rows === 0) return {};
  const shares = columns.map(cleanShare);
  const table = shares.reduce((s, x) => s + x, 0) / shares.length;
  const f: Record<string, number> = {
    "pm:table-clean": clip(table),
    [`pm:table-rows=${bucket(rows, [10, 30, 100], ["1-10", "11-30", "31-100", "100+"])}`]: 1,
  };
  if (shares.every((x) => x === 1)) f["pm:table-clean=1"] = 1;
  if (target) f["pm:target-clean"] = clip(cleanShare(target));
  if (order.length > 0) f["pm:order-clean"] = clip(Math.min(...order.map(cleanShare)));
  return f;
}

/** Match quality of the question's values the statement filters on: the worst kind, the lowest score, the most rows matched. */
function valueMatch(sql: string, mentions: readonly EntityMention[], bindings: SqlPlanInput["bindings"] & object) {
  const f: Record<string, number> = {};
  const quoted = new Set(literals(sql));
  const used = mentions.filter((m) => quoted.has(m.value));
  if (used.length === 0) {
    f["pm:value=none"] = 1;
    return f;
  }
  const worst = used.some((m) => m.kind === "fuzzy")
    ? "fuzzy"
    : used.some((m) => m.kind === "partial")
      ? "partial"
      : "exact";
  f[`pm:value=${worst}`] = 1;
  f["pm:value-score"] = clip(Math.min(...used.map((m) => m.score)));
  const rows = Math.max(...used.map((m) => m.rows.length));
  f[`pm:value-rows=${bucket(rows, [1, 3], ["1", "2-3", "4+"])}`] = 1;
  if (bindings.some((b) => b.fuzzy && quoted.has(b.value))) f["pm:binding-fuzzy"] = 1;
  return f;
}
