/** Lookup plans: the asked-about column of the rows the mentions and conditions select. */
import { headerMatch, isIdentifierColumn, isNumericColumn, rankTargetColumns } from "../columns.js";
import { isFlagColumn } from "../flag-columns.js";
import {
  ROW,
  col,
  hasNum,
  holdsYears,
  isUnnamedRunningTotal,
  mentionRows,
  numExpr,
  summaryFilter,
  where,
} from "./sql-parts.js";
import type { PlanGenerator } from "./types.js";

/** The target column of the selected rows: the first row unless a list is asked for (the rows of a year are all the answer). */
export const lookupRows: PlanGenerator = {
  name: "lookup.rows",
  applies: () => true,
  build: (ctx) => {
    const { analysis: a, catalog, table, opts } = ctx;
    const { filters, cond, basePreds, yearOfDate, period } = ctx.rows();
    // ("top 3 salaries": the words of a top-N's order are all it asks for, the values that order.)
    const top = a.conditions.find((c) => c.top);
    const topValues =
      top !== undefined &&
      a.targetHints.length === 0 &&
      a.contentWords.every((w) => w === "top" || /^\d+$/.test(w) || (top.topBy ?? []).includes(w));
    // ("what was added to the menu in 2025?": the dates a condition reads are no answer to "what"; the rows are.)
    const ranked = rankTargetColumns(a, catalog, filters, {
      ...opts,
      avoid: topValues ? new Set() : cond.columns,
    }).filter(
      (r) =>
        !(
          r.column.schema.type === "date" &&
          cond.columns.has(r.column.index) &&
          a.answerType !== "date" &&
          a.answerType !== "year" &&
          !/\b(?:dates?|days?|when|times?|months?|years?|weeks?)\b/.test(a.normalized)
        ),
    );
    let target = ranked[ctx.targetRank]?.column;
    if (!target || basePreds.length === 0) return null;
    const preds = filters.length === 0 ? [...basePreds, ...summaryFilter(catalog)] : basePreds;
    // ("what did Mia order?" of rows that each record one purchase: everything the named rows hold, not the
    // first. Not "who directed X?" of two films of one title: wtq/train wants the first there.)
    const everyEvent =
      (mentionRows(filters)?.length ?? 0) > 1 &&
      !isNumericColumn(target) &&
      /^what (?:did|does|do|has|have) (?:[a-z]+ ){1,3}[a-z]+\??$/.test(a.normalized);
    // ("who is certified?", "who would not recommend us?" of a yes/no column: everyone ticked, or not.)
    const everyFlagged =
      /^who\b/.test(a.normalized) &&
      filters.length > 0 &&
      filters.every((m) => isFlagColumn(catalog.columns[m.columnIndex]!));
    // ("who is on the basic plan?", "who's in Sales?": everyone of a group a repeating value names; "what is Amir
    // working on?": everything a named person's rows hold.)
    // ("who worked on Atlas?" of a timesheet: everyone its rows name.)
    const everyMember =
      (/^who(?:s| is| are) (?:in|on|at|from) (?:the )?[a-z0-9 &'-]+\??$/.test(a.normalized) ||
        /^who (?:worked|works|has worked|have worked|is working|was working) (?:on|for) (?:the )?[a-z0-9 &'-]+\??$/.test(
          a.normalized,
        ) ||
        /^what(?:s| is| are) [a-z0-9 &'-]+ (?:working on|doing|handling|responsible for|in charge of|assigned(?: to)?)\??$/.test(
          a.normalized,
        )) &&
      filters.length === 1 &&
      (mentionRows(filters)?.length ?? 0) > 1;
    const one =
      (!a.listAnswer && !everyEvent && !everyFlagged && !everyMember && !(filters.length === 0 && yearOfDate)) ||
      /^(name|tell me|give me|list) (a|an|one|only one)\b|^what is (a|one)\b|\bthe only\b|\bonly one\b/.test(
        a.normalized,
      )
        ? " LIMIT 1"
        : "";
    // "how much was spent on travel?", "how much revenue did we make in 2023?", "what was the revenue in q2 2024?"
    // (money over a period): an amount over several selected rows is their sum (one row's amount stays its cell).
    // (Or a word of money taken or spent over a period: "what was the revenue in April?")
    const money =
      target.raw.filter((v) => /[$€£¥]/.test(v)).length >= 0.5 * target.raw.filter((v) => v.trim()).length ||
      /\b(?:revenue|income|takings|turnover|earnings|spending|spent)\b/.test(a.normalized);
    const summed = /\bhow much\b/.test(a.normalized) || (money && period && filters.length === 0);
    // (Of amounts beside a running balance, the amounts: "how much income did I get in March?")
    if (summed && isUnnamedRunningTotal(target, a))
      target = ranked.find((r) => isNumericColumn(r.column) && !isUnnamedRunningTotal(r.column, a))?.column ?? target;
    if (
      summed &&
      !a.listAnswer &&
      isNumericColumn(target) &&
      !isIdentifierColumn(target) &&
      !holdsYears(target) &&
      target.timeShare < 0.5 &&
      (filters.length > 0 ? (mentionRows(filters)?.length ?? 0) > 1 : yearOfDate || period) &&
      // ("how much is a rye loaf?" over a day's rows that all price it £4.20: the one price, not their sum.)
      !(filters.length > 0 && new Set(mentionRows(filters)!.map((r) => target.raw[r])).size === 1)
    )
      return {
        sql: `SELECT SUM(${numExpr(target)}) FROM ${table}${where([...preds, hasNum(target)])}`,
        template: "sum",
        targetColumn: target.schema.name,
      };
    return {
      sql: `SELECT ${col(target)} FROM ${table}${where(preds)} ORDER BY ${ROW}${one}`,
      template: "lookup",
      targetColumn: target.schema.name,
      ...(one ? {} : { allRows: true }),
    };
  },
};

/** "who are the managers?", "what departments are there?", "list the cities": a plural noun asked for whole. */
const ALL_OF = [
  /^(?:who|what|which) (?:are|were) (?:all )?(?:the |our |all the )([a-z]{3,}s)\??$/,
  /^(?:what|which) ([a-z]{3,}s) (?:are there|do we have|are listed|are in the (?:table|list))\??$/,
  /^(?:list|show(?: me)?|name|give me) (?:all )?(?:of )?(?:the |our )?(?:different )?([a-z]{3,}s)\??$/,
];

/**
 * The distinct values of the column a plural noun spells, in the order they first appear ("who are the
 * managers?" of a Manager column over every employee's row: each manager once).
 */
export const lookupAllValues: PlanGenerator = {
  name: "lookup.all-values",
  applies: (ctx) => ctx.analysis.operator === "lookup" && ctx.analysis.conditions.length === 0,
  build: (ctx) => {
    const { analysis: a, catalog, table, usable } = ctx;
    const { basePreds } = ctx.rows();
    const noun = ALL_OF.map((re) => re.exec(a.normalized)?.[1]).find((n) => n !== undefined);
    if (noun === undefined || basePreds.length > 0) return null;
    const c = catalog.columns.find(
      (x) =>
        (!usable || usable.has(x.index)) &&
        !isNumericColumn(x) &&
        x.schema.type !== "date" &&
        headerMatch([noun], x, false) >= 1.5,
    );
    if (!c) return null;
    return {
      sql: `SELECT ${col(c)} FROM ${table}${where([`TRIM(${col(c)}) <> ''`, ...summaryFilter(catalog)])} GROUP BY ${col(c)} ORDER BY MIN(${ROW})`,
      template: "lookup",
      targetColumn: c.schema.name,
      allRows: true,
    };
  },
};
