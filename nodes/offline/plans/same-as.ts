/**
 * "The same X as A": the rows that share a named row's value of a named column, the named row excluded —
 * listed ("which boats went afloat in the same year as Osprey?"), or counted ("how many clubs have the
 * same tally as Rovers?"). The named row stands after "as" ("… the same coach as Dana?"), or, when a
 * question word follows "as", before "same" ("Dana had the same coach as which other rower?").
 *
 * - *A part of time*: "the same year (month, day, decade) as A" compares that part of a date or year column —
 *   the one the question's words name ("launched", "joined" of a Joined column), else the table's only one.
 * - *The other rows' conditions*: a value named on the other side of "same" from the named row selects the
 *   other rows ("which other Dutch rower had the same coach as Ana?"); one in the named row's own column is
 *   another named row ("A and B had the same coach as which rower?": neither is the answer).
 * - Blank cells are no shared value.
 */
import { headerMatch, isNumericColumn, isYearColumn, rankTargetColumns } from "../columns.js";
import type { EntityMention } from "../mentions.js";
import type { CatalogColumn } from "../table-catalog.js";
import {
  ROW,
  bindingPredicate,
  col,
  holdsYears,
  mentionPredicate,
  namedDateColumn,
  sameBinding,
  summaryFilter,
  where,
  yearExpr,
} from "./sql-parts.js";
import type { PlanContext, PlanGenerator, SqlPlan } from "./types.js";
import { placeMentions, questionTokens } from "./mention-places.js";
import { STOP_WORDS } from "../../../text/stop-words.js";

/** Words between "same" and "as" that name no column. */
const FILLER = /^(?:number|numbers|amount|amounts|of|the|a|an|exact|exactly|total)$/;
/** The parts of time "the same … as" may compare. */
const TIME_PART = /^(?:year|years|month|months|day|days|date|dates|decade|decades)$/;
/** What may follow "as" when the named row stands before "same". */
const QUESTION_AFTER_AS = /^(?:which|what|who|whom|whose|how|any|another)$/;

interface SameAsParts {
  tokens: string[];
  /** Token index of "same" (or of "many" in "as many … as"). */
  same: number;
  /** Token index of the "as" after the compared words. */
  as: number;
  /** The compared words ("number of titles", "year"). */
  words: string[];
}

function sameAsParts(normalized: string): SameAsParts | null {
  const tokens = questionTokens(normalized);
  for (let i = 0; i < tokens.length; i++) {
    const same = tokens[i] === "same" || (tokens[i] === "many" && tokens[i - 1] === "as");
    if (!same) continue;
    // ("the same as X": no compared words — nothing names the column.)
    for (let j = i + 2; j <= Math.min(tokens.length - 1, i + 10); j++)
      if (tokens[j] === "as") return { tokens, same: i, as: j, words: tokens.slice(i + 1, j) };
  }
  return null;
}

/** The date or year column "the same year/month/day as" compares, and how. */
function timeAttribute(
  ctx: PlanContext,
  part: string,
  avoid: Set<number>,
): { column: CatalogColumn; expr: (alias: string) => string } | null {
  const { analysis: a, catalog, usable } = ctx;
  const timeColumn = (c: CatalogColumn) =>
    (!usable || usable.has(c.index)) && !avoid.has(c.index) && (c.schema.type === "date" || holdsYears(c));
  const named = namedDateColumn(a, catalog, usable, avoid);
  const dated = catalog.columns.filter(timeColumn);
  const column = named ?? (dated.length === 1 ? dated[0] : undefined);
  if (!column) return null;
  const isDate = column.schema.type === "date";
  if (/^year/.test(part)) return { column, expr: (x) => yearExpr(column, x) };
  if (/^decade/.test(part)) return { column, expr: (x) => `${yearExpr(column, x)} / 10` };
  if (/^month/.test(part)) return isDate ? { column, expr: (x) => `substr(${col(column, x, false)}, 1, 7)` } : null;
  // A day or a date: the whole date (a column of years has none).
  if (!isDate && isYearColumn(column)) return null;
  return { column, expr: (x) => (isDate ? col(column, x, false) : col(column, x)) };
}

/**
 * The column "the same <words> as" compares, and its expression: a part of time of a date or year column ("the same
 * year"), else the column the words name ("the same total count of silver cups": Silver; "the same total as": Total,
 * the only word).
 */
function comparedColumn(
  ctx: PlanContext,
  between: string[],
  avoid: Set<number>,
): { column: CatalogColumn; expr: (alias: string) => string } | null {
  const { catalog, usable } = ctx;
  const plain = between.filter((w) => !FILLER.test(w));
  const words = plain.length > 0 ? plain : between.filter((w) => w === "total");
  if (words.length === 0) return null;
  const part = words.length === 1 && TIME_PART.test(words[0]!) ? words[0]! : undefined;
  if (part) return timeAttribute(ctx, part, avoid);
  const bestColumn = (typed: string[]) => {
    let best = 0.5;
    let found: CatalogColumn | undefined;
    for (const c of catalog.columns) {
      if ((usable && !usable.has(c.index)) || avoid.has(c.index)) continue;
      const sc = headerMatch(typed, c);
      if (sc > best) {
        best = sc;
        found = c;
      }
    }
    return found;
  };
  // ("the same number of total medals" of a Total column: the word names it when the others name none.)
  const column = bestColumn(words) ?? (between.includes("total") ? bestColumn([...words, "total"]) : undefined);
  return column ? { column, expr: (x) => col(column, x) } : null;
}

/**
 * "Which crew rowed the same count of heats as finals?": no named row — the rows whose two named
 * columns hold the same value, the words between "same" and "as" naming one and the words after "as" the other.
 */
function twoColumnsPlan(ctx: PlanContext, parts: SameAsParts, mode: "list" | "count"): SqlPlan | null {
  const { analysis: a, catalog, usable, table } = ctx;
  if (ctx.input.mentions.length > 0 || ctx.bindings.length > 0) return null;
  const first = comparedColumn(ctx, parts.words, new Set());
  if (!first || first.column.schema.type === "date") return null;
  const after = parts.tokens.slice(parts.as + 1).filter((t) => !FILLER.test(t) && !STOP_WORDS.has(t));
  if (after.length === 0 || after.length > 4) return null;
  const second = comparedColumn(ctx, after, new Set([first.column.index]));
  if (!second || second.column.schema.type === "date") return null;
  const [x, y] = [first.column, second.column];
  const avoid = new Set([x.index, y.index]);
  // (The rows are named by a text column: "which finalist …" of a numeric Finalists column is the State.)
  const target = rankTargetColumns(a, catalog, [], { ...(usable ? { usable } : {}), avoid }).find(
    (r) => !isNumericColumn(r.column),
  )?.column;
  if (!target) return null;
  const preds = [`TRIM(${col(x)}) = TRIM(${col(y)})`, `TRIM(${col(x)}) <> ''`, ...summaryFilter(catalog)];
  if (mode === "count")
    return { sql: `SELECT COUNT(*) FROM ${table}${where(preds)}`, template: "count", targetColumn: "" };
  return {
    sql: `SELECT ${col(target)} FROM ${table}${where(preds)} ORDER BY ${ROW}`,
    template: "lookup",
    targetColumn: target.schema.name,
  };
}

function sameAsPlan(ctx: PlanContext, mode: "list" | "count" | "exists"): SqlPlan | null {
  const { analysis: a, catalog, usable, bindings, table } = ctx;
  const parts = sameAsParts(a.normalized);
  if (!parts) return null;
  const { tokens, same, as } = parts;
  const mentions = placeMentions(
    ctx.input.mentions.filter((m) => !usable || usable.has(m.columnIndex)),
    tokens,
  );
  // Before "same" or after "as": which side names the row.
  const asked = as + 1 >= tokens.length || QUESTION_AFTER_AS.test(tokens[as + 1]!);
  const onAnchorSide = (m: EntityMention) => (asked ? m.end <= same : m.start > as);
  const anchor = mentions.find(onAnchorSide);
  if (!anchor) return mode === "exists" ? null : twoColumnsPlan(ctx, parts, mode);
  // Other named rows of the anchor's column beside it ("A and B") are no answer either.
  const twins = mentions.filter((m) => m !== anchor && onAnchorSide(m) && m.columnIndex === anchor.columnIndex);
  const avoid = new Set([anchor.columnIndex]);
  const compared = comparedColumn(ctx, parts.words, avoid);
  if (!compared) return null;
  const { column: attr, expr } = compared;
  // The answer is another row's entity: the anchor's column, unless the question names another one.
  const named = rankTargetColumns(a, catalog, [], { ...(usable ? { usable } : {}), avoid: new Set([attr.index]) })[0];
  const target =
    named && named.column.index !== anchor.columnIndex && headerMatch(a.targetHints, named.column) >= 1.5
      ? named.column
      : catalog.columns[anchor.columnIndex]!;
  // The other side's exact values select the other rows ("which other Dutch rower …"); the anchor's side's
  // values of other columns qualify the named row ("A in 2012").
  const others = mentions.filter(
    (m) => m !== anchor && !twins.includes(m) && m.kind === "exact" && m.columnIndex !== attr.index,
  );
  const aPreds = [
    bindings.some((b) => sameBinding(anchor, b, catalog)) ? "" : mentionPredicate(anchor, catalog, "a"),
    ...bindings.map((b) => bindingPredicate(b, catalog, "a")),
    ...others.filter(onAnchorSide).map((m) => mentionPredicate(m, catalog, "a")),
  ].filter((p) => p !== "");
  const bPreds = [
    ...others.filter((m) => !onAnchorSide(m)).map((m) => mentionPredicate(m, catalog, "b")),
    ...twins.map((m) => `b.${ROW} NOT IN (${m.rows.join(", ")})`),
    // (The named value's other rows are no other row: "Germany" listed twice.)
    `${col(catalog.columns[anchor.columnIndex]!, "b")} <> ${col(catalog.columns[anchor.columnIndex]!, "a")}`,
    `TRIM(${col(attr, "a")}) <> ''`,
    ...summaryFilter(catalog, "b"),
  ];
  const join = `FROM ${table} AS a JOIN ${table} AS b ON ${expr("b")} = ${expr("a")} AND b.${ROW} <> a.${ROW}${where([...aPreds, ...bPreds])}`;
  if (mode === "count")
    return { sql: `SELECT COUNT(DISTINCT b.${ROW}) ${join}`, template: "count", targetColumn: target.schema.name };
  if (mode === "exists")
    return {
      sql: `SELECT CASE WHEN COUNT(*) > 0 THEN 'yes' ELSE 'no' END ${join}`,
      template: "lookup",
      targetColumn: "",
    };
  // (One line per other row, however many named rows it shares the value with.)
  return {
    sql: `SELECT b.${col(target)} ${join} GROUP BY b.${ROW} ORDER BY b.${ROW}`,
    template: "lookup",
    targetColumn: target.schema.name,
  };
}

/** "How many …" asked of the rows: before "same", or right after "as" ("the same coach as how many rowers?"). */
function asksCount(normalized: string): boolean {
  return /^(?:.* )?how many\b/.test(normalized) && !/\bhow many (?:times|years|days|points)\b/.test(normalized);
}

/** "Which rowers had the same coach as Ana?", "Ana had the same coach as which rower?": the rows sharing the value. */
export const comparisonSameAs: PlanGenerator = {
  name: "comparison.same-as",
  applies: ({ analysis: a }) => /\b(same|as many)\b/.test(a.normalized) && !asksCount(a.normalized),
  build: (ctx) => sameAsPlan(ctx, "list"),
};

/** "How many clubs have the same tally as Rovers?": those rows counted. */
export const countSameAs: PlanGenerator = {
  name: "count.same-as",
  applies: ({ analysis: a }) => /\b(same|as many)\b/.test(a.normalized) && asksCount(a.normalized),
  build: (ctx) => sameAsPlan(ctx, "count"),
};

/**
 * "Is A's coach the same as B's?", "was A launched the same year as B?": the two named rows' values compared, yes or
 * no; "does any rower have the same coach as A?": whether another row shares A's value.
 */
function sameYesNoPlan(ctx: PlanContext): SqlPlan | null {
  const { analysis: a, catalog, usable, table } = ctx;
  const tokens = questionTokens(a.normalized);
  const same = tokens.indexOf("same");
  if (same < 0) return null;
  if (/^(?:is|are|was|were|do|does|did|has|have|had) (?:there )?any\b/.test(tokens.join(" ")))
    return sameAsPlan(ctx, "exists");
  const mentions = placeMentions(
    ctx.input.mentions.filter((m) => !usable || usable.has(m.columnIndex)),
    tokens,
  );
  // Two named rows: two values of one column.
  const pair = mentions.flatMap((m, i) =>
    mentions
      .slice(i + 1)
      .flatMap((o) => (o.columnIndex === m.columnIndex && o.value !== m.value ? [[m, o] as const] : [])),
  )[0];
  if (!pair || ctx.bindings.length > 0) return null;
  const [m1, m2] = pair;
  const avoid = new Set([m1.columnIndex]);
  const parts = sameAsParts(a.normalized);
  // The compared words: between "same" and "as", else the question's other words ("is the purse of A the same as B's?").
  const named = new Set(mentions.flatMap((m) => tokens.slice(m.start, m.end)));
  const rest = tokens.filter((t, i) => i > 0 && !named.has(t) && t !== "same" && !STOP_WORDS.has(t));
  const compared =
    (parts && parts.same === same ? comparedColumn(ctx, parts.words, avoid) : null) ?? comparedColumn(ctx, rest, avoid);
  if (!compared) return null;
  const { column, expr } = compared;
  return {
    sql: `SELECT CASE WHEN ${expr("a")} = ${expr("b")} THEN 'yes' ELSE 'no' END FROM ${table} AS a JOIN ${table} AS b ON ${mentionPredicate(m2, catalog, "b")}${where([mentionPredicate(m1, catalog, "a"), `TRIM(${col(column, "a")}) <> ''`])} LIMIT 1`,
    template: "lookup",
    targetColumn: "",
  };
}

/** "Was A's coach the same as B's?": yes or no, ahead of the other yes/no plans. */
export const yesNoSame: PlanGenerator = {
  name: "yes-no.same",
  applies: ({ analysis: a }) => a.answerType === "yesno" && /\bsame\b/.test(a.normalized),
  build: sameYesNoPlan,
};
