/**
 * Yes/no questions about one named row: whether it meets a stated condition ("does peru have more
 * than 20 medals?") or holds the top (bottom) value of a column ("did ghana win the most bronze?").
 * The named row's predicates stay in the outer WHERE, as every binding must.
 */
import { NUMBER_WORD_PATTERN } from "../../../text/lexicons.js";
import { wordsOf } from "../../../text/tokenise.js";
import {
  chooseOrderColumn,
  headerMatch,
  isIdentifierColumn,
  isNumericColumn,
  isYearColumn,
  orderDirection,
  rankTargetColumns,
  superlativeWord,
} from "../columns.js";
import { countAgainstBound } from "./count.js";
import {
  ROW,
  col,
  hasNum,
  holdsYears,
  mentionPredicate,
  numExpr,
  orderExpr,
  summaryFilter,
  where,
} from "./sql-parts.js";
import type { PlanContext, PlanGenerator } from "./types.js";

const YES_IF_ANY = "SELECT CASE WHEN COUNT(*) > 0 THEN 'yes' ELSE 'no' END";
/**
 * A threshold stated as one: a number (or number word) right after its comparison word ("over 10",
 * "less than $5", "at least one", "taller than 6", "before the year 1900"), not "greater than that of row 8".
 */
const STATED_THRESHOLD = new RegExp(
  `\\b(?:\\w+er|more|less|fewer|over|under|above|below|before|after|least|most|top|exceed\\w*)\\s+(?:than\\s+)?(?:the\\s+year\\s+)?(?:[$€£]?\\d|(?:${NUMBER_WORD_PATTERN})\\b)`,
);

/**
 * A yes/no question naming a row, and no second row of the same column to compare it with ("is the
 * fare of route 9 greater than that of route 4?" compares two rows: comparisonYesNo's).
 */
function aboutOneRow(ctx: PlanContext): boolean {
  const a = ctx.analysis;
  if (a.answerType !== "yesno" || a.comparison !== null) return false;
  const { filters } = ctx.rows();
  const twoRows = filters.some((m) => filters.some((o) => o.columnIndex === m.columnIndex && o.value !== m.value));
  return filters.length > 0 && !twoRows;
}

/**
 * "Does peru have more than 20 medals?", "was the fare under $5 on route 9?": the named row under the
 * stated condition; "does oslo have more than 4 stores?" names no column, and 4 is fewer than the
 * table's rows: oslo's rows (one per store) counted against the number.
 */
export const yesNoCondition: PlanGenerator = {
  name: "yes-no.condition",
  applies: (ctx) =>
    ctx.analysis.conditions.length > 0 &&
    // ("is the smart watch in stock?": some left, the condition analysis.ts reads "in stock" as.)
    (STATED_THRESHOLD.test(ctx.analysis.normalized) || /\bin stock\b/.test(ctx.analysis.normalized)) &&
    !/\bthan (?:that|those) of\b/.test(ctx.analysis.normalized) &&
    aboutOneRow(ctx),
  build: (ctx) => {
    const { analysis: a, catalog } = ctx;
    const { filters, cond, basePreds } = ctx.rows();
    // (Every word counts: "in total" names a Total column, though "total" is no content word.)
    const mentioned = new Set(filters.flatMap((m) => m.text.split(" ")));
    const asked = wordsOf(a.normalized).filter((w) => !mentioned.has(w));
    const bound = a.conditions.length === 1 ? a.conditions.find((c) => !c.place && !c.top && !c.clock) : undefined;
    // (A count cannot reach a number above the table's rows: "does ana earn more than 80000?" reads a value.)
    if (
      bound &&
      bound.value < catalog.rowCount &&
      ![...cond.columns].some((i) => asked.some((w) => headerMatch([w], catalog.columns[i]!) >= 1))
    )
      return countAgainstBound(ctx, bound);
    return { sql: `${YES_IF_ANY} FROM ${ctx.table}${where(basePreds)}`, template: "lookup", targetColumn: "" };
  },
};

/**
 * "Did ghana win the most bronze medals?", "is nepal the nation with the fewest golds?": the named row
 * holds the column's top (bottom) value among the rows the question's conditions select.
 */
export const yesNoSuperlative: PlanGenerator = {
  name: "yes-no.superlative",
  applies: (ctx) =>
    ctx.analysis.sortDirection !== null && !/\bthan\b/.test(ctx.analysis.normalized) && aboutOneRow(ctx),
  build: (ctx) => {
    const { analysis: a, catalog, table, opts } = ctx;
    const { filters, cond, filterPreds } = ctx.rows();
    const order = chooseOrderColumn(a, catalog, filters, { ...opts, avoid: cond.columns });
    const sw = superlativeWord(a.normalized);
    // "is acme the customer with the most orders?": most/fewest with no amount named (or over dates) is
    // how often the named value occurs, against the most (least) frequent value of its column.
    const dated = order !== undefined && (order.column.schema.type === "date" || isYearColumn(order.column));
    if ((sw === undefined || /^(most|least|fewest)$/.test(sw)) && (!order || order.score <= 0.5 || dated)) {
      if (filters.length !== 1) return null;
      const c = catalog.columns[filters[0]!.columnIndex]!;
      const counts = `SELECT COUNT(*) FROM ${table}${where([...cond.preds, `TRIM(${col(c)}) <> ''`, ...summaryFilter(catalog)])} GROUP BY ${col(c)}`;
      const extreme = `(${counts} ORDER BY COUNT(*) ${a.sortDirection === "min" ? "ASC" : "DESC"} LIMIT 1)`;
      return {
        sql: `SELECT CASE WHEN COUNT(*) = ${extreme} THEN 'yes' ELSE 'no' END FROM ${table}${where([...filterPreds, ...cond.preds])}`,
        template: "lookup",
        targetColumn: "",
      };
    }
    if (!order || order.score <= 0.5) return null;
    const direction = orderDirection(sw, a.sortDirection!, order.column);
    const population = [...cond.preds, hasNum(order.column), ...summaryFilter(catalog)];
    const top = `(SELECT ${direction === "max" ? "MAX" : "MIN"}(${orderExpr(order.column)}) FROM ${table}${where(population)})`;
    return {
      sql: `${YES_IF_ANY} FROM ${table}${where([...filterPreds, ...population, `${orderExpr(order.column)} = ${top}`])}`,
      template: "lookup",
      targetColumn: order.column.schema.name,
    };
  },
};

/** "did anyone start in 2015?", "are there any orders over $500?", "is there anything in stock?": whether a row exists. */
const ANY_ROW =
  /^(?:(?:did|does|do|has|have|had|was|is) (?:anyone|anybody|anything|any \w+)|(?:is|are|was|were) there (?:any|anyone|anybody|anything)\b)/;

/** Whether any row meets the question's conditions: yes when the selected rows are not none. */
export const yesNoAnyRow: PlanGenerator = {
  name: "yes-no.any-row",
  applies: ({ analysis: a }) => a.answerType === "yesno" && ANY_ROW.test(a.normalized),
  build: (ctx) => {
    const { basePreds } = ctx.rows();
    // (No condition at all: "is there anything?" asks nothing of the rows.)
    if (basePreds.length === 0) return null;
    return {
      sql: `${YES_IF_ANY} FROM ${ctx.table}${where([...basePreds, ...summaryFilter(ctx.catalog)])}`,
      template: "lookup",
      targetColumn: "",
    };
  },
};

/** "did revenue go up in March?", "has the price fallen this week?": a verb of rising or falling, and which. */
const CHANGE_VERB =
  /^(?:did|does|has|have|had|was|were|is|are) (?:the |our |my )?[a-z ]+? (?:(go|gone|went) (up|down)|(rise|risen|rose|increase|increased|grow|grown|grew|climb|climbed)|(fall|fallen|fell|drop|dropped|decrease|decreased|decline|declined|shrink|shrank|shrunk))\b/;

/**
 * "Did revenue go up in March?": the named row's value of the column the question names against the row before
 * it (the nearest with a number), as yes or no.
 */
export const yesNoChange: PlanGenerator = {
  name: "yes-no.change",
  applies: (ctx) => aboutOneRow(ctx) && CHANGE_VERB.test(ctx.analysis.normalized),
  build: (ctx) => {
    const { analysis: a, catalog, table, opts } = ctx;
    const { filters } = ctx.rows();
    if (filters.length !== 1 || filters[0]!.rows.length !== 1) return null;
    const m = CHANGE_VERB.exec(a.normalized)!;
    const up = m[2] === "up" || m[3] !== undefined;
    const measure = rankTargetColumns(a, catalog, filters, opts)
      .map((r) => r.column)
      .find((c) => isNumericColumn(c) && !isIdentifierColumn(c) && !holdsYears(c));
    if (!measure || headerMatch(a.contentWords, measure) < 0.8) return null;
    const [now, before] = [numExpr(measure, "b"), numExpr(measure, "p")];
    return {
      sql: `SELECT CASE WHEN ${now} ${up ? ">" : "<"} ${before} THEN 'yes' ELSE 'no' END FROM ${table} AS b JOIN ${table} AS p ON p.${ROW} < b.${ROW}${where([mentionPredicate(filters[0]!, catalog, "b"), hasNum(measure, "b"), hasNum(measure, "p")])} ORDER BY p.${ROW} DESC LIMIT 1`,
      template: "lookup",
      targetColumn: measure.schema.name,
    };
  },
};
