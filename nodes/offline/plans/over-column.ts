/**
 * "How much over budget were groceries?", "how far below target was May?": by how much the named rows' value
 * passes the other column the question compares it with (conditions.ts `columnComparisonPredicates`).
 */
import { columnComparisonPredicates } from "./conditions.js";
import { hasNum, numExpr, where } from "./sql-parts.js";
import type { PlanGenerator } from "./types.js";

const HOW_FAR = /^(?:by )?how (?:much|far) (over|under|above|below|beyond|short of)\b/;

export const comparisonOverColumn: PlanGenerator = {
  name: "comparison.over-column",
  applies: ({ analysis: a }) => HOW_FAR.test(a.normalized),
  build: (ctx) => {
    const { analysis: a, catalog, table, opts } = ctx;
    const between = columnComparisonPredicates(a, catalog, opts.usable);
    // (The compared pair, the spent column first: `columnComparisonPredicates` adds the left one first.)
    const [left, right] = [...between.columns].map((i) => catalog.columns[i]!);
    if (!left || !right) return null;
    const { filters, basePreds } = ctx.rows();
    // (Of named rows only: "how much over budget were we?" over every row is another question.)
    if (filters.length === 0) return null;
    // (The named rows, not only those beyond: one under its budget is over by a negative amount.)
    const preds = basePreds.filter((p) => !between.preds.includes(p));
    const under = /^(?:under|below|short)/.test(HOW_FAR.exec(a.normalized)![1]!);
    const [from, to] = under ? [right, left] : [left, right];
    return {
      sql: `SELECT SUM(${numExpr(from)}) - SUM(${numExpr(to)}) FROM ${table}${where([...preds, hasNum(from), hasNum(to)])}`,
      template: "difference",
      targetColumn: from.schema.name,
    };
  },
};
