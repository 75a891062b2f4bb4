/** Aggregate plans: the sum or average of a numeric column over the selected rows. */
import { isIdentifierColumn, isNumericColumn, rankTargetColumns } from "../columns.js";
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
        !(r.column.schema.type === "date" && !/\byears?\b/.test(a.normalized)),
    );
    const c = ranked[ctx.targetRank]?.column;
    if (!c) return null;
    const fn = a.aggregate === "avg" ? "AVG" : "SUM";
    return {
      sql: `SELECT ${fn}(${numExpr(c)}) FROM ${table}${where([...basePreds, hasNum(c), ...summaryFilter(catalog)])}`,
      template: a.aggregate!,
      targetColumn: c.schema.name,
    };
  },
};
