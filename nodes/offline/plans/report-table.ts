/**
 * Report-table plans (financial reports: a row label × year columns): the value of a named row in a
 * named year, and its change, percentage change, average or sum over the years the question names.
 */
import { isNumericColumn, isYearColumn } from "../columns.js";
import type { CatalogColumn } from "../table-catalog.js";
import { ROW, bindingPredicate, col, mentionPredicate, numExpr, sameBinding, where } from "./sql-parts.js";
import type { PlanGenerator, RequiredBinding, SqlPlan, SqlPlanInput, SqlTemplate } from "./types.js";

/**
 * "What was the percentage change in licence income between 2020 and 2021?": the row named by
 * a mention, the columns whose header (or header rows) name the question's years. Change and
 * percentage change are later − earlier (over earlier); average and sum take every named year.
 */
function yearColumnsPlan(input: SqlPlanInput, bindings: RequiredBinding[], table: string): SqlPlan | null {
  const { analysis: a, catalog, usable } = input;
  let years = [...new Set(a.numbers.filter((n) => Number.isInteger(n) && n >= 1950 && n <= 2049))];
  if (catalog.columnYears.size === 0) return null;
  // "What was the percentage change in water usage?": no year named → the two latest years.
  if (years.length === 0 && /\b(change|difference|increase|decrease|growth|decline)\b/.test(a.normalized)) {
    years = [...new Set([...catalog.columnYears.values()].flat())].sort((x, y) => y - x).slice(0, 2);
  }
  if (years.length === 0) return null;
  const yearCols: Array<{ year: number; column: CatalogColumn }> = [];
  for (const year of years) {
    for (const [index, ys] of catalog.columnYears) {
      const c = catalog.columns[index]!;
      if (ys.includes(year) && (!usable || usable.has(index)) && isNumericColumn(c) && !isYearColumn(c)) {
        yearCols.push({ year, column: c });
        break;
      }
    }
  }
  if (yearCols.length === 0) return null;
  const yearColumnSet = new Set(yearCols.map((y) => y.column.index));
  const label = input.mentions.find(
    (m) =>
      !yearColumnSet.has(m.columnIndex) &&
      !catalog.columnYears.has(m.columnIndex) &&
      (!usable || usable.has(m.columnIndex)),
  );
  if (!label) return null;
  const preds = [
    bindings.some((b) => sameBinding(label, b, catalog)) ? "" : mentionPredicate(label, catalog),
    ...bindings.map((b) => bindingPredicate(b, catalog)),
  ].filter((p) => p !== "");
  const q = a.normalized;
  const sorted = [...yearCols].sort((x, y) => x.year - y.year);
  const earlier = numExpr(sorted[0]!.column);
  const later = numExpr(sorted[sorted.length - 1]!.column);
  let expr: string | undefined;
  let template: SqlTemplate = "lookup";
  if (
    /\bpercent(age)?\b|%/.test(q) &&
    /\b(change|increase|decrease|growth|decline|grow|rise|fall|drop)\b/.test(q) &&
    sorted.length >= 2
  ) {
    expr = `(${later} - ${earlier}) * 100.0 / ${earlier}`;
    template = "percent-change";
  } else if (/\b(change|difference|differ|increase|decrease|growth|decline|variance)\b/.test(q) && sorted.length >= 2) {
    expr = `${later} - ${earlier}`;
    template = "difference";
  } else if (/\b(average|mean)\b/.test(q) && sorted.length >= 2) {
    expr = `(${sorted.map((y) => numExpr(y.column)).join(" + ")}) / ${sorted.length}.0`;
    template = "avg";
  } else if (/\b(sum of|combined|in total|total of|sum)\b/.test(q) && sorted.length >= 2) {
    expr = sorted.map((y) => numExpr(y.column)).join(" + ");
    template = "sum";
  } else if (sorted.length === 1 && !/\b(change|difference|average|percent|ratio|proportion)\b/.test(q)) {
    return {
      sql: `SELECT ${col(sorted[0]!.column)} FROM ${table}${where(preds)} ORDER BY ${ROW} LIMIT 1`,
      template: "lookup",
      targetColumn: sorted[0]!.column.schema.name,
    };
  }
  if (!expr) return null;
  return { sql: `SELECT ${expr} FROM ${table}${where(preds)} ORDER BY ${ROW} LIMIT 1`, template, targetColumn: "" };
}

/** A row label and year columns → value, change, % change, average, sum. */
export const reportTableYears: PlanGenerator = {
  name: "report-table.years",
  applies: (ctx) => ctx.catalog.columnYears.size > 0,
  build: (ctx) => yearColumnsPlan(ctx.input, ctx.bindings, ctx.table),
};
