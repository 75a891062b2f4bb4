/** Aggregate plans: the sum or average of a numeric column over the selected rows, or over each group of them. */
import {
  headerMatch,
  isRecordNumberColumn,
  isMoneyColumn,
  isNumericColumn,
  isPersonColumn,
  rankTargetColumns,
} from "../columns.js";
import type { CatalogColumn } from "../table-catalog.js";
import { sqlFragmentsInUse as d } from "../sql-dialect.js";
import { stem } from "../../../text/stem.js";
import { quantityColumn } from "./count.js";
import {
  ROW,
  col,
  hasNum,
  holdsYears,
  isUnnamedRunningTotal,
  numExpr,
  spendsSignedAmounts,
  summaryFilter,
  where,
} from "./sql-parts.js";
import type { PlanContext, PlanGenerator } from "./types.js";
import { measureCue, MONEY_HEADER_WORDS } from "../../../text/column-words.js";

/** SUM/AVG of the numeric column the question names best (a sum of years means nothing: "total years" counts rows). */
export const aggregateColumn: PlanGenerator = {
  name: "aggregate.column",
  applies: ({ analysis: a }) => a.operator === "aggregate" && a.aggregate !== null,
  build: (ctx) => {
    const { analysis: a, catalog, table, opts } = ctx;
    const { filters, cond, basePreds } = ctx.rows();
    const ranked = rankTargetColumns({ ...a, answerType: "number" }, catalog, filters, {
      ...opts,
      avoid: cond.columns,
    }).filter(
      (r) =>
        isNumericColumn(r.column) &&
        !isRecordNumberColumn(r.column) &&
        !(a.aggregate === "sum" && holdsYears(r.column)) &&
        // (The average of a column of full dates is not what "the average order total" asks.)
        !(r.column.schema.type === "date" && !/\byears?\b/.test(a.normalized)) &&
        // (Nor clock times the question does not name: "total birds seen at the lake" adds no "Time".)
        !(r.column.timeShare >= 0.5 && headerMatch(a.contentWords, r.column) < 1) &&
        // (Nor a running balance.)
        !(a.aggregate === "sum" && isUnnamedRunningTotal(r.column, a)),
    );
    // ("J2763 total $", "total for order 12": a "Total" column when the question names no other.)
    const totals = ranked.filter((r) => r.column.headerWords.includes("total"));
    const others = a.contentWords.filter((w) => w !== "total");
    const totalFirst =
      a.aggregate === "sum" &&
      /\btotal\b/.test(a.normalized) &&
      totals.length === 1 &&
      !ranked.some((r) => r !== totals[0] && headerMatch(others, r.column) >= 0.8);
    // ("the average price" beside an "avg_rating" column: "average" is the operation; the word after it names
    // the column.)
    const averaged = a.aggregate === "avg" ? /\b(?:average|avg|mean) ([a-z]+)/.exec(a.normalized)?.[1] : undefined;
    const named = averaged ? ranked.find((r) => headerMatch([averaged], r.column, false) >= 1.2) : undefined;
    const order = totalFirst
      ? [totals[0]!, ...ranked.filter((r) => r !== totals[0])]
      : named &&
          ranked[0]?.column.headerWords.some((h) => /^(?:average|avg|mean)$/.test(h)) &&
          headerMatch([averaged!], ranked[0].column, false) < 1.2
        ? [named, ...ranked.filter((r) => r !== named)]
        : ranked;
    const c = order[ctx.targetRank]?.column;
    if (!c) return null;
    // ("how much did I spend on groceries?" of a statement's signed Amount: the money out, as a positive sum.)
    const spending = a.aggregate === "sum" && spendsSignedAmounts(a, c, catalog);
    const value =
      a.aggregate === "avg"
        ? d().round(`AVG(${numExpr(c)})`, averageDigits(c))
        : spending
          ? `-SUM(${numExpr(c)})`
          : `SUM(${numExpr(c)})`;
    return {
      sql: `SELECT ${value} FROM ${table}${where([...basePreds, hasNum(c), ...(spending ? [`${numExpr(c)} < 0`] : []), ...summaryFilter(catalog)])}`,
      template: a.aggregate!,
      targetColumn: c.schema.name,
    };
  },
};

/**
 * Decimals an average of the column is shown to: one more than its values have, at least 2 and at most 6
 * ("63214.29" of whole salaries, "9.14" of distances to a tenth, "26.625" of scores to the thousandth kept); money
 * in cents to the cent.
 */
function averageDigits(c: CatalogColumn): number {
  let places = 0;
  for (let r = 0; r < c.raw.length; r++) {
    if (c.num[r] === null) continue;
    const fraction = /\d\.(\d+)/.exec(c.raw[r] ?? "")?.[1];
    if (fraction) places = Math.max(places, fraction.length);
  }
  // (Money in cents is averaged to the cent: "£152.23", not 152.233.)
  if (places === 2 && (isMoneyColumn(c) || c.headerWords.some((h) => MONEY_HEADER_WORDS.includes(h)))) return 2;
  return Math.min(Math.max(places + 1, 2), 6);
}

/**
 * "What is the median salary?": the average of the values with at least half the selected rows at or
 * below them and at least half at or above (the middle value, or the two middle ones). (Correlated
 * counts, not LIMIT/OFFSET arithmetic, which the SQL guard's parser does not read.)
 */
export const aggregateMedian: PlanGenerator = {
  name: "aggregate.median",
  // (Not over a column that holds medians already: "counties with a median income over 50000".)
  applies: ({ analysis: a, catalog }) =>
    /\bmedian\b/.test(a.normalized) &&
    a.operator !== "count" &&
    !catalog.columns.some((c) => c.headerWords.includes("median")),
  build: (ctx) => {
    const { analysis: a, catalog, table, opts } = ctx;
    const { filters, cond, basePreds } = ctx.rows();
    const c = rankTargetColumns({ ...a, answerType: "number" }, catalog, filters, {
      ...opts,
      avoid: cond.columns,
    }).filter((r) => isNumericColumn(r.column) && !isRecordNumberColumn(r.column) && r.column.schema.type !== "date")[
      ctx.targetRank
    ]?.column;
    if (!c) return null;
    // (Unqualified predicates read the innermost table: the outer row a, or the counted rows.)
    const preds = [...basePreds, hasNum(c), ...summaryFilter(catalog)];
    const n = `(SELECT COUNT(*) FROM ${table} AS n${where(preds)})`;
    const half = (op: string) =>
      `(SELECT COUNT(*) FROM ${table} AS b${where([...preds, `${numExpr(c, "b")} ${op} ${numExpr(c, "a")}`])}) * 2 >= ${n}`;
    return {
      sql: `SELECT AVG(${numExpr(c, "a")}) FROM ${table} AS a${where([...preds, half("<="), half(">=")])}`,
      template: "avg",
      targetColumn: c.schema.name,
    };
  },
};

/** "what percentage of orders were shipped?", "what share of staff work in sales?" */
const SHARE = /^(?:what|which) (?:percentage|percent|share|proportion|fraction|%) of (?:the |all )?\w+/;

/**
 * The share of rows the question's mentions and conditions select, in percent of the table's rows (summary
 * rows aside), unless the table has a percent column the words name ("what percentage of votes did X get?"
 * reads that column: lookup).
 */
export const aggregateShare: PlanGenerator = {
  name: "aggregate.share",
  applies: ({ analysis: a }) => SHARE.test(a.normalized),
  build: (ctx) => {
    const { catalog, table } = ctx;
    const { basePreds } = ctx.rows();
    if (basePreds.length === 0) return null;
    if (catalog.columns.some((c) => c.headerWords.some((h) => /^(percent|percentage|pct|share|%)$/.test(h))))
      return null;
    const selected = `SUM(CASE WHEN ${basePreds.map((p) => `(${p})`).join(" AND ")} THEN 1 ELSE 0 END)`;
    return {
      sql: `SELECT ROUND(100.0 * ${selected} / COUNT(*), 2) FROM ${table}${where(summaryFilter(catalog))}`,
      template: "avg",
      targetColumn: "",
    };
  },
};

/**
 * "the difference between the largest and smallest order", "between the most and least expensive items", "the range
 * of salaries", "the gap between the heaviest ship and the lightest": MAX − MIN of one column (either order, words
 * between the two extremes).
 */
const SPREAD_OLD =
  /\b(?:difference|gap)(?: in ([a-z]+))? between the (?:highest|largest|biggest|greatest|maximum|max|most(?: expensive)?|longest|oldest) and (?:the )?(?:lowest|smallest|least|minimum|min|cheapest|shortest|youngest)\b|\b(?:difference|gap)(?: in ([a-z]+))? between the (?:cheapest|lowest|smallest|youngest|shortest) and (?:the )?(?:most expensive|highest|largest|biggest|oldest|longest)\b|\b(?:what is|what's) the range of\b/;
const HIGH_END =
  "highest|largest|biggest|greatest|maximum|max|most|longest|oldest|tallest|heaviest|fastest|best|farthest|furthest|deepest|widest|hottest|warmest";
const LOW_END =
  "lowest|smallest|least|minimum|min|shortest|youngest|lightest|slowest|cheapest|worst|fewest|nearest|closest|shallowest|narrowest|coldest";
const OWNER = "(?:the |his |her |their |its )?";
/** (Two ends of one measure, a few words apart: "the greatest catch and the least", "fastest and slowest speed".) */
const ENDS = new RegExp(
  `\\b(?:difference|gap)\\b[a-z0-9' ]{0,40}?\\bbetween ${OWNER}(?:(?:${HIGH_END})\\b[a-z' ]{0,40}? and ${OWNER}(?:${LOW_END})|(?:${LOW_END})\\b[a-z' ]{0,40}? and ${OWNER}(?:${HIGH_END}))\\b`,
);
const SPREAD = { test: (q: string) => SPREAD_OLD.test(q) || ENDS.test(q) };

export const aggregateSpread: PlanGenerator = {
  name: "aggregate.spread",
  applies: ({ analysis: a }) => SPREAD.test(a.normalized),
  build: (ctx) => {
    const { analysis: a, catalog, table, opts } = ctx;
    const { filters, cond, basePreds } = ctx.rows();
    // ("the difference in age between …": the measure named inside the phrase stays a hint.)
    // (Between the two ends, the measure's own words stay hints: "the highest paid player's wage and …".)
    const after = a.normalized
      .replace(SPREAD_OLD, (_m, w1?: string, w2?: string) => ` ${w1 ?? w2 ?? ""} `)
      .replace(new RegExp(`\\b(?:difference|gap|between|and|${HIGH_END}|${LOW_END})\\b`, "g"), " ")
      .trim();
    const ranked = rankTargetColumns(
      { ...a, targetHints: after.split(/\s+/), answerType: "number" },
      catalog,
      filters,
      {
        ...opts,
        avoid: cond.columns,
      },
    ).filter((r) => isNumericColumn(r.column) && !isRecordNumberColumn(r.column) && r.column.schema.type !== "date");
    const c = ranked[ctx.targetRank]?.column;
    if (!c) return null;
    return {
      sql: `SELECT MAX(${numExpr(c)}) - MIN(${numExpr(c)}) FROM ${table}${where([...basePreds, hasNum(c), ...summaryFilter(catalog)])}`,
      template: "difference",
      targetColumn: c.schema.name,
    };
  },
};

/**
 * The word naming the groups: "in each department", "per region", "broken down by city", "… by region?", "how much
 * did each team spend?".
 */
const PER_GROUP =
  /\b(?:in|for|of) each ([a-z]+)\b|\bper ([a-z]+)\b|\bbroken down by ([a-z]+)\b|\bby ([a-z]+)\??$|\b(?:did|does|do|has|have|had) each ([a-z]+)\b/;

/** The text column of repeating values the group word names. */
function groupColumn(ctx: PlanContext): CatalogColumn | undefined {
  const m = PER_GROUP.exec(ctx.analysis.normalized);
  const word = m?.slice(1).find((w) => w !== undefined);
  if (!word) return undefined;
  // ("average meals per shift" of a table of shifts, "baked per day": a rate over the rows, not groups.)
  if (
    m![2] !== undefined &&
    (/^(?:day|week|month|year|night|shift|session|visit|game|match|hour)s?$/.test(word) ||
      ctx.catalog.columns[0]?.tableWords?.includes(stem(word)) === true)
  )
    return undefined;
  const repeating = ctx.catalog.columns.filter((c) => {
    if ((ctx.usable && !ctx.usable.has(c.index)) || isNumericColumn(c) || c.schema.type === "date") return false;
    const filled = c.raw.filter((v) => v.trim() !== "").length;
    return c.distinct.size >= 2 && c.distinct.size < filled;
  });
  const named = repeating.find((c) => headerMatch([word], c, false) >= 1.5);
  if (named || !/^(?:person|people|individual)$/.test(word)) return named;
  // ("how much did each person spend?" of a "Paid by" column: the one column of people, or of who did it.)
  const people = repeating.filter((c) => isPersonColumn(c) || c.headerWords.at(-1) === "by");
  return people.length === 1 ? people[0] : undefined;
}

/**
 * "How many employees are there in each department?", "average salary per department", "total sales by
 * region": one line per group ("Sales: 3"), in the order the groups first appear.
 */
export const aggregatePerGroup: PlanGenerator = {
  name: "aggregate.per-group",
  applies: (ctx) =>
    (ctx.analysis.operator === "count" ||
      ctx.analysis.operator === "aggregate" ||
      // ("how much did each team spend?": an amount per group is its total.)
      (ctx.analysis.operator === "lookup" && measureCue(ctx.analysis.normalized) === "much")) &&
    ctx.analysis.sortDirection === null &&
    groupColumn(ctx) !== undefined,
  build: (ctx) => {
    const { analysis: a, catalog, table, opts } = ctx;
    const group = groupColumn(ctx)!;
    const { filters, basePreds } = ctx.rows();
    const label = (value: string) => `${col(group)} || ': ' || ${value}`;
    const preds = [...basePreds, `TRIM(${col(group)}) <> ''`, ...summaryFilter(catalog)];
    const grouped = (select: string, extra: string[] = []) =>
      `SELECT ${select} FROM ${table}${where([...preds, ...extra])} GROUP BY ${col(group)} ORDER BY MIN(${ROW})`;
    if (a.operator === "count" && a.aggregate !== "sum")
      return {
        sql: grouped(label("COUNT(*)")),
        template: "group-count",
        targetColumn: group.schema.name,
        allRows: true,
      };
    // (An average or a total per group: of the numeric column the question names.)
    const measure = rankTargetColumns({ ...a, answerType: "number" }, catalog, filters, {
      ...opts,
      avoid: new Set([group.index]),
    }).find(
      (r) =>
        isNumericColumn(r.column) && !isRecordNumberColumn(r.column) && !holdsYears(r.column) && r.column !== group,
    )?.column;
    if (!measure) return null;
    const fn = a.aggregate === "avg" ? "AVG" : "SUM";
    return {
      sql: grouped(label(d().number2(`${fn}(${numExpr(measure)})`)), [hasNum(measure)]),
      template: a.aggregate === "avg" ? "avg" : "sum",
      targetColumn: measure.schema.name,
      allRows: true,
    };
  },
};

/** "the total value of the stock", "how much is our inventory worth?": what the goods held are worth. */
const STOCK_VALUE =
  /\b(?:value|worth) of (?:the |our |all |my )?(?:stock|inventory|goods)\b|\b(?:stock|inventory) (?:value|worth)\b|\b(?:stock|inventory) (?:is |are )?worth\b/;

/**
 * The stock's value, price × quantity added up over the selected rows, when the table has one unit price
 * column and one quantity column and no column that already holds the value.
 */
export const aggregateStockValue: PlanGenerator = {
  name: "aggregate.stock-value",
  applies: ({ analysis: a }) => STOCK_VALUE.test(a.normalized),
  build: (ctx) => {
    const { catalog, table, usable } = ctx;
    const { cond, basePreds } = ctx.rows();
    const usableNumeric = catalog.columns.filter(
      (c) => (!usable || usable.has(c.index)) && isNumericColumn(c) && !isRecordNumberColumn(c) && !holdsYears(c),
    );
    if (usableNumeric.some((c) => c.headerWords.some((h) => h === "value" || h === "worth"))) return null;
    const prices = usableNumeric.filter((c) => c.headerWords.some((h) => h === "price" || h === "cost"));
    const quantity = quantityColumn(catalog, usable, new Set([...cond.columns, ...prices.map((c) => c.index)]));
    if (prices.length !== 1 || !quantity) return null;
    const price = prices[0]!;
    return {
      sql: `SELECT SUM(${numExpr(price)} * ${numExpr(quantity)}) FROM ${table}${where([...basePreds, hasNum(price), hasNum(quantity), ...summaryFilter(catalog)])}`,
      template: "sum",
      targetColumn: price.schema.name,
    };
  },
};
