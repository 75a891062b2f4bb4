/** Aggregate plans: the sum or average of a numeric column over the selected rows. */
import { headerMatch, isIdentifierColumn, isNumericColumn, rankTargetColumns } from "../columns.js";
import { hasNum, holdsYears, numExpr, summaryFilter, where } from "./sql-parts.js";
import type { PlanGenerator } from "./types.js";

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
        !isIdentifierColumn(r.column) &&
        !(a.aggregate === "sum" && holdsYears(r.column)) &&
        // (The average of a column of full dates is not what "the average order total" asks.)
        !(r.column.schema.type === "date" && !/\byears?\b/.test(a.normalized)) &&
        // (Nor clock times the question does not name: "total birds seen at the lake" adds no "Time".)
        !(r.column.timeShare >= 0.5 && headerMatch(a.contentWords, r.column) < 1),
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
    const fn = a.aggregate === "avg" ? "AVG" : "SUM";
    return {
      sql: `SELECT ${fn}(${numExpr(c)}) FROM ${table}${where([...basePreds, hasNum(c), ...summaryFilter(catalog)])}`,
      template: a.aggregate!,
      targetColumn: c.schema.name,
    };
  },
};

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
    }).filter((r) => isNumericColumn(r.column) && !isIdentifierColumn(r.column) && r.column.schema.type !== "date")[
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

/** "the difference between the largest and smallest order", "the range of salaries": MAX − MIN of one column. */
const SPREAD =
  /\bdifference between the (?:highest|largest|biggest|greatest|maximum|max|most expensive|longest|oldest) and (?:the )?(?:lowest|smallest|least|minimum|min|cheapest|shortest|youngest)\b|\b(?:what is|what's) the range of\b/;

export const aggregateSpread: PlanGenerator = {
  name: "aggregate.spread",
  applies: ({ analysis: a }) => SPREAD.test(a.normalized),
  build: (ctx) => {
    const { analysis: a, catalog, table, opts } = ctx;
    const { filters, cond, basePreds } = ctx.rows();
    const after = a.normalized.replace(SPREAD, " ").trim();
    const ranked = rankTargetColumns(
      { ...a, targetHints: after.split(/\s+/), answerType: "number" },
      catalog,
      filters,
      {
        ...opts,
        avoid: cond.columns,
      },
    ).filter((r) => isNumericColumn(r.column) && !isIdentifierColumn(r.column) && r.column.schema.type !== "date");
    const c = ranked[ctx.targetRank]?.column;
    if (!c) return null;
    return {
      sql: `SELECT MAX(${numExpr(c)}) - MIN(${numExpr(c)}) FROM ${table}${where([...basePreds, hasNum(c), ...summaryFilter(catalog)])}`,
      template: "difference",
      targetColumn: c.schema.name,
    };
  },
};
