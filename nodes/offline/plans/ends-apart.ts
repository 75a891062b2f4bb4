/**
 * "How far apart were the first and the last race's crowds?", "the points gap between first place and last place": the
 * asked measure of the last row minus the first's (apart, so its size), in table order — or by the place column when
 * places are named.
 */
import { isNumericColumn, isRankColumn, isRecordNumberColumn, rankTargetColumns } from "../columns.js";
import { ROW, hasNum, numExpr, orderExpr, summaryFilter, where } from "./sql-parts.js";
import type { PlanGenerator } from "./types.js";
import type { CatalogColumn } from "../table-catalog.js";
import { rowSelection } from "./conditions.js";

/** (A measure between the two ends: "difference", "how long between", "how many days are between".) */
const ENDS_APART =
  /\b(?:difference|differences|gap|how (?:long|far|many [a-z]+)|apart)\b.*\bbetween (?:the )?first\b(.*?)\band (?:the )?(?:very )?last\b/;

export const aggregateEndsApart: PlanGenerator = {
  name: "aggregate.ends-apart",
  applies: ({ analysis: a }) => ENDS_APART.test(a.normalized),
  build: (ctx) => {
    const { analysis: a, catalog, table, opts } = ctx;
    // ("first place" and "last place" are the two ends, no row condition on the place.)
    const ends = { ...a, normalized: a.normalized.replace(/\b(?:first|last) (?:place|position)\b/g, "the ends") };
    const { filters, cond, basePreds } = rowSelection({ ...ctx, analysis: ends });
    const hints = a.normalized
      .replace(/\b(?:difference|differences|gap|between|first|last|and|how|long|far|apart|place|position)\b/g, " ")
      .split(/\s+/)
      .filter((w) => w !== "");
    // (A measure: no record number, no place, no date.)
    const measure = (x: CatalogColumn) =>
      isNumericColumn(x) && !isRecordNumberColumn(x) && !isRankColumn(x) && x.schema.type !== "date";
    const c = rankTargetColumns({ ...a, targetHints: hints, answerType: "number" }, catalog, filters, {
      ...opts,
      avoid: cond.columns,
    })
      .map((r) => r.column)
      .filter(measure)[ctx.targetRank];
    if (!c) return null;
    // ("first and last place": the places order the rows, not the table.)
    const rank = /\b(?:place|position|ranked)\b/.test(a.normalized)
      ? catalog.columns.find((x) => isRankColumn(x) && (!ctx.usable || ctx.usable.has(x.index)))
      : undefined;
    const rows = where([...basePreds, hasNum(c), ...(rank ? [hasNum(rank)] : []), ...summaryFilter(catalog)]);
    const order = (dir: "ASC" | "DESC") => (rank ? `${orderExpr(rank)} ${dir}, ${ROW} ${dir}` : `${ROW} ${dir}`);
    const end = (dir: "ASC" | "DESC") => `(SELECT ${numExpr(c)} FROM ${table}${rows} ORDER BY ${order(dir)} LIMIT 1)`;
    return {
      sql: `SELECT ABS(${end("DESC")} - ${end("ASC")})`,
      template: "difference",
      targetColumn: c.schema.name,
    };
  },
};
