/** Lookup plans: the asked-about column of the rows the mentions and conditions select. */
import { rankTargetColumns } from "../columns.js";
import { ROW, col, summaryFilter, where } from "./sql-parts.js";
import type { PlanGenerator } from "./types.js";

/** The target column of the selected rows: the first row unless a list is asked for (the rows of a year are all the answer). */
export const lookupRows: PlanGenerator = {
  name: "lookup.rows",
  applies: () => true,
  build: (ctx) => {
    const { analysis: a, catalog, table, opts } = ctx;
    const { filters, cond, basePreds, yearOfDate } = ctx.rows();
    const target = rankTargetColumns(a, catalog, filters, { ...opts, avoid: cond.columns })[ctx.targetRank]?.column;
    if (!target || basePreds.length === 0) return null;
    const preds = filters.length === 0 ? [...basePreds, ...summaryFilter(catalog)] : basePreds;
    const one =
      (!a.listAnswer && !(filters.length === 0 && yearOfDate)) ||
      /^(name|tell me|give me|list) (a|an|one|only one)\b|^what is (a|one)\b|\bthe only\b|\bonly one\b/.test(
        a.normalized,
      )
        ? " LIMIT 1"
        : "";
    return {
      sql: `SELECT ${col(target)} FROM ${table}${where(preds)} ORDER BY ${ROW}${one}`,
      template: "lookup",
      targetColumn: target.schema.name,
      ...(one ? {} : { allRows: true }),
    };
  },
};
