/**
 * Plans across one row's columns of a kind (quarters "Q1" … "Q4", months "Jan" … "Dec", weekdays "Mon" …
 * "Fri"; or the subjects of a table of marks): which of them holds the row's highest (lowest) value, answered with
 * its header ("which quarter was best for West?"), and their total or average ("what were South's total sales?").
 */
import { headerMatch, isIdentifierColumn, isNumericColumn, isYearColumn } from "../columns.js";
import type { CatalogColumn } from "../table-catalog.js";
import { normaliseText } from "../../../text/normalise.js";
import { WEEKDAYS, calendarShortForms, monthNumber } from "../../../text/lexicons.js";
import { sqlFragmentsInUse as d } from "../sql-dialect.js";
import { mentionRows, numExpr, sqlString, summaryFilter, where } from "./sql-parts.js";
import type { PlanContext, PlanGenerator } from "./types.js";

type Kind = "quarter" | "month" | "weekday" | "subject";

const WEEKDAY_FORMS: ReadonlySet<string> = new Set(WEEKDAYS.flatMap((d) => [d, ...calendarShortForms(d)]));

/** The kind of period a column's header names, if it is one alone ("Q3", "Sept", "Tue"). */
function kindOf(c: CatalogColumn): Kind | undefined {
  const name = normaliseText(c.schema.name).trim();
  if (/^q[1-4]$/.test(name)) return "quarter";
  if (monthNumber(name) !== undefined) return "month";
  if (WEEKDAY_FORMS.has(name)) return "weekday";
  return undefined;
}

/**
 * The kind of period the question's words ask about ("which quarter …", "what was her best day?"), or a subject
 * ("what was Dana's best subject?"): each numeric column of a table of marks is one.
 */
function askedKind(q: string): Kind | undefined {
  if (/\bquarters?\b/.test(q)) return "quarter";
  if (/\bmonths?\b/.test(q)) return "month";
  if (/\b(?:week)?days?\b/.test(q)) return "weekday";
  if (/\b(?:subjects?|courses?|exams?|tests?|events?|disciplines?)\b/.test(q)) return "subject";
  return undefined;
}

/** The columns that are subjects: the numeric ones (no record number, no year), unless a column is the noun itself. */
function subjectColumns(ctx: PlanContext): CatalogColumn[] {
  const noun = /\b(subjects?|courses?|exams?|tests?|events?|disciplines?)\b/.exec(ctx.analysis.normalized)?.[1] ?? "";
  // ("which course has the highest fee?" of a Course column: the noun names the rows, not a column of marks.)
  if (ctx.catalog.columns.some((c) => headerMatch([noun], c, false) >= 0.8)) return [];
  return ctx.catalog.columns.filter(
    (c) => (!ctx.usable || ctx.usable.has(c.index)) && isNumericColumn(c) && !isIdentifierColumn(c) && !isYearColumn(c),
  );
}

/**
 * The numeric columns of the kind the question asks about (else of the one kind the table's period columns
 * share), two or more, and the one row the question's mentions select; or undefined.
 */
function periodColumns(ctx: PlanContext): { columns: CatalogColumn[]; preds: string[] } | undefined {
  const periods = ctx.catalog.columns.filter(
    (c) => (!ctx.usable || ctx.usable.has(c.index)) && isNumericColumn(c) && kindOf(c) !== undefined,
  );
  const kinds = new Set(periods.map(kindOf));
  const kind = askedKind(ctx.analysis.normalized) ?? (kinds.size === 1 ? [...kinds][0] : undefined);
  const columns = kind === "subject" ? subjectColumns(ctx) : periods.filter((c) => kindOf(c) === kind);
  if (columns.length < 2) return undefined;
  const { filters, basePreds } = ctx.rows();
  if (filters.some((m) => columns.some((c) => c.index === m.columnIndex))) return undefined;
  if (mentionRows(filters)?.length !== 1) return undefined;
  return { columns, preds: [...basePreds, ...summaryFilter(ctx.catalog)] };
}

/** "Which quarter was best for West?", "in which month did North sell the least?": the header of the row's extreme. */
export const rowColumnsExtreme: PlanGenerator = {
  name: "row-columns.extreme",
  applies: ({ analysis: a }) => a.sortDirection !== null && askedKind(a.normalized) !== undefined,
  build: (ctx) => {
    const found = periodColumns(ctx);
    if (!found) return null;
    const { columns, preds } = found;
    // (One row per column, its header and its number, ordered: pairwise comparisons of twelve months outgrow
    // the SQL guard's length limit. The first of a tie, as the columns stand.)
    const branches = columns.map(
      (c, i) =>
        `SELECT ${sqlString(c.schema.name)} AS period_name, ${numExpr(c)} AS period_value, ${i} AS period_order FROM ${ctx.table}${where(preds)}`,
    );
    const dir = ctx.analysis.sortDirection === "min" ? "ASC" : "DESC";
    return {
      sql: `SELECT period_name FROM (${branches.join(" UNION ALL ")}) AS periods WHERE period_value IS NOT NULL ORDER BY period_value ${dir}, period_order LIMIT 1`,
      template: "choice",
      targetColumn: "",
      options: columns.map((c) => c.schema.name),
    };
  },
};

/** "What were South's total sales over the quarters?", "Ana's average per day": the row's period columns added up. */
export const rowColumnsTotal: PlanGenerator = {
  name: "row-columns.total",
  applies: ({ analysis: a }) => a.aggregate !== null && a.sortDirection === null,
  build: (ctx) => {
    // (A column that already holds the total answers: "Total", "Annual".)
    if (ctx.catalog.columns.some((c) => c.headerWords.some((h) => /^(?:total|annual|year|sum|all)$/.test(h))))
      return null;
    const found = periodColumns(ctx);
    if (!found) return null;
    const { columns, preds } = found;
    // (Not when the words name one of them, or another numeric column: "South's Q2 sales", "Ana's bonus".)
    const named = ctx.catalog.columns.some(
      (c) => isNumericColumn(c) && headerMatch(ctx.analysis.contentWords, c, false) >= 1.5,
    );
    if (named) return null;
    const sum = columns.map((c) => `COALESCE(${numExpr(c)}, 0)`).join(" + ");
    const avg = ctx.analysis.aggregate === "avg";
    return {
      sql: `SELECT ${avg ? d().round(`(${sum}) * 1.0 / ${columns.length}`, 2) : sum} FROM ${ctx.table}${where(preds)}`,
      template: avg ? "avg" : "sum",
      targetColumn: "",
    };
  },
};
