/**
 * Row conditions a question states without naming a cell: numeric conditions ("more than 7 points"),
 * empty columns ("no role listed"), months and finishing places, match outcomes, exclusions
 * ("other than X"), date and list-order bounds; and which mentions filter the rows.
 */
import { homeAwayPredicates, teamOnSide } from "./home-away.js";
import { firstRowsPredicate } from "./first-rows.js";
import type { QuestionAnalysis } from "../analysis.js";
import { quoteIdent } from "../../../indexing/sql-store.js";
import { normaliseText } from "../../../text/normalise.js";
import { stem } from "../../../text/stem.js";
import { chooseConditionColumn, headerMatch, isNumericColumn, isRankColumn, isYearColumn } from "../columns.js";
import type { EntityMention } from "../mentions.js";
import type { CatalogColumn, TableCatalog } from "../table-catalog.js";
import {
  MONTHS,
  ROW,
  bindingPredicate,
  blankCell,
  col,
  hasNum,
  holdsYears,
  isMonthLevel,
  mentionPredicate,
  monthColumn,
  namedDateColumn,
  numExpr,
  sameBinding,
  sqlString,
  yearExpr,
  summaryFilter,
} from "./sql-parts.js";
import type { PlanContext, RequiredBinding, RowSelection } from "./types.js";
import {
  MONTH_PATTERN,
  minutesPerTimeUnit,
  monthNumber,
  ORDINAL_PATTERN,
  ordinalValue,
  WEEKDAYS,
} from "../../../text/lexicons.js";
import { sqlFragmentsInUse as d } from "../sql-dialect.js";
import { quantityColumn } from "./count.js";

/** The numeric rank column ("Rank", "Pos"), if the table has one. */
export function rankColumn(catalog: TableCatalog, usable: Set<number> | undefined): CatalogColumn | undefined {
  return catalog.columns.find((t) => (!usable || usable.has(t.index)) && isRankColumn(t) && isNumericColumn(t));
}

export function conditionPredicates(
  a: QuestionAnalysis,
  catalog: TableCatalog,
  usable: Set<number> | undefined,
  alias?: string,
): { preds: string[]; columns: Set<number> } {
  const preds: string[] = [];
  const columns = new Set<number>();
  for (const cond of a.conditions) {
    if (cond.top) {
      // The rank column when there is one; else the table's own order (a ranked list).
      const rank = rankColumn(catalog, usable);
      // ("the top 3 most expensive": the superlative orders the rows; superlative.ts takes its first 3.)
      if (!rank && a.sortDirection !== null && cond.value >= 2) continue;
      const ref = alias ? `${alias}.${ROW}` : ROW;
      // ("the top 3 earners", "top 3 products by rating" of a table without ranks: the rows of the 3 largest values
      // of the column the words name.)
      const ranked = rank
        ? undefined
        : catalog.columns.find(
            (t) =>
              (!usable || usable.has(t.index)) &&
              isNumericColumn(t) &&
              !isYearColumn(t) &&
              headerMatch(cond.topBy ?? [], t) >= 0.8,
          );
      const beyond = cond.op === ">";
      if (ranked) {
        const table = quoteIdent(catalog.schema.physical);
        const inTop = `${numExpr(ranked, alias)} IN (SELECT ${numExpr(ranked)} FROM ${table} WHERE ${hasNum(ranked)} ORDER BY ${numExpr(ranked)} DESC LIMIT ${cond.value})`;
        preds.push(`${hasNum(ranked, alias)} AND ${beyond ? d().notTrue(inTop) : inTop}`);
        columns.add(ranked.index);
        continue;
      }
      preds.push(
        rank
          ? `${hasNum(rank, alias)} AND ${numExpr(rank, alias)} ${cond.op} ${cond.value}`
          : `${ref} ${beyond ? ">=" : "<"} ${cond.value + [...catalog.headerRows].length}`,
      );
      if (rank) columns.add(rank.index);
      continue;
    }
    if (cond.place) {
      const rank = catalog.columns.find(
        (t) => (!usable || usable.has(t.index)) && isRankColumn(t) && t.num.some((v) => v !== null),
      );
      if (!rank) continue;
      preds.push(`${hasNum(rank, alias)} AND ${numExpr(rank, alias)} ${cond.op} ${cond.value}`);
      columns.add(rank.index);
      continue;
    }
    const choose = (value: number) =>
      chooseConditionColumn(cond.hint, value, catalog, {
        ...(usable ? { usable } : {}),
        ...(cond.percent ? { percent: true } : {}),
        ...(cond.money ? { money: true } : {}),
        ...(cond.minutesPerUnit ? { duration: true } : {}),
      });
    const largest = (t: CatalogColumn) => Math.max(0, ...t.num.map((n) => Math.abs(n ?? 0)));
    // "over 2 million": the column chosen for the scaled number when it holds numbers that large, else the plain one.
    const scaled = cond.scale ? choose(cond.value * cond.scale) : undefined;
    const c = cond.clock
      ? catalog.columns.find((t) => (!usable || usable.has(t.index)) && t.timeShare >= 0.5)
      : scaled && largest(scaled) >= cond.scale!
        ? scaled
        : choose(cond.value);
    if (!c || (cond.named && headerMatch(cond.hint, c) < 0.8)) continue;
    // "before september 2004" on a date column: the month (or date) bound already reads the year.
    if (c.schema.type === "date" && monthBound(a.normalized)?.year === String(cond.value)) continue;
    // "over 2 million" of a column of millions is 2000000; of a column whose cells say "2.5 million" (2.5), 2.
    const scaledValue = cond.scale && largest(c) >= cond.scale ? cond.value * cond.scale : cond.value;
    // "over an hour" of a "Delay (min)" column is over 60.
    const columnUnit = c.headerWords.map(minutesPerTimeUnit).find((u) => u !== undefined);
    const value =
      cond.minutesPerUnit && columnUnit
        ? (scaledValue * cond.minutesPerUnit) / columnUnit
        : cond.minutesPerUnit && c.timeShare >= 0.5
          ? durationBound(c, scaledValue * cond.minutesPerUnit)
          : scaledValue;
    const yearLike = Number.isInteger(value) && value >= 1000 && value <= 2100 && isYearColumn(c);
    const expr = yearLike ? yearExpr(c, alias) : numExpr(c, alias);
    preds.push(`${hasNum(c, alias)} AND ${expr} ${cond.op} ${value}`);
    columns.add(c.index);
  }
  return { preds, columns };
}

/**
 * "shorter than 4 minutes" of a column of "3:42": numExpr reads "a:b" as a * 60 + b, minutes of an "h:mm"
 * duration or seconds of an "m:ss" one ("a:b:c" always seconds). The bound is the reading that falls among the
 * column's values: 240 seconds among songs of 208–370, 120 minutes among films of "1:52"–"2:41".
 */
function durationBound(c: CatalogColumn, minutes: number): number {
  const seconds = minutes * 60;
  const cells = c.raw.flatMap((v) => /^\s*\+?(\d{1,2}):(\d{2})(:\d{2})?/.exec(v) ?? []);
  if (cells.some((m) => m[3] !== undefined)) return seconds;
  const values = cells.map((m) => Number(m[1]) * 60 + Number(m[2]));
  const inRange = (x: number) => x >= Math.min(...values) / 2 && x <= Math.max(...values) * 2;
  return inRange(minutes) || !inRange(seconds) ? minutes : seconds;
}

/**
 * "no role listed", "without a given area", "did not have a time": the named column is empty (unless a
 * mention already selects its cells: the "No" of a yes/no column).
 */
export function emptinessPredicates(
  a: QuestionAnalysis,
  catalog: TableCatalog,
  usable: Set<number> | undefined,
  mentions: readonly EntityMention[] = [],
): { preds: string[]; columns: Set<number> } {
  const preds: string[] = [];
  const columns = new Set<number>();
  const re =
    /\b(?:no|zero|without|(?:does|did|do) not have|doesn't have|didn't have|not have|has no|had no|not listed (?:a|an|any)?|lacks?|missing)\s+(?:a |an |any |the )?(?:given |listed |recorded |known )?([a-z][a-z'-]*(?:\s+[a-z][a-z'-]*)?)/g;
  for (const m of a.normalized.matchAll(re)) {
    const phrase = m[1]!.split(" ");
    let best: CatalogColumn | undefined;
    let bestScore = 1.4;
    for (const c of catalog.columns) {
      if (usable && !usable.has(c.index)) continue;
      const s = headerMatch(phrase, c, false);
      if (s > bestScore) {
        bestScore = s;
        best = c;
      }
    }
    if (!best || columns.has(best.index) || mentions.some((m) => m.columnIndex === best.index)) continue;
    const blank = blankCell(best);
    // "no gold medals" on a column of counts: a 0 is as empty as a blank.
    preds.push(isNumericColumn(best) ? `(${blank} OR ${numExpr(best)} = 0)` : blank);
    columns.add(best.index);
  }
  return { preds, columns };
}

/**
 * "products below their reorder level", "projects over budget": one numeric column compared with another that
 * the words after the comparison name. The compared column is one the question names, else the table's one
 * quantity column ("Qty on Hand").
 */
export function columnComparisonPredicates(
  a: QuestionAnalysis,
  catalog: TableCatalog,
  usable: Set<number> | undefined,
): { preds: string[]; columns: Set<number> } {
  const preds: string[] = [];
  const columns = new Set<number>();
  const numeric = catalog.columns.filter(
    (c) => (!usable || usable.has(c.index)) && isNumericColumn(c) && !isYearColumn(c),
  );
  const named = (words: string[], c: CatalogColumn) => headerMatch(words, c, false) >= 1.5;
  for (const m of a.normalized.matchAll(
    /\b(below|under|beneath|within|above|over|exceed(?:s|ed|ing)?|(?:less|fewer|lower|more|greater|higher) than)\s+(?:(?:their|its|the|his|her)\s+)?([a-z][a-z'-]*(?:\s+[a-z][a-z'-]*){0,2})/g,
  )) {
    const phrase = m[2]!.split(" ");
    // (The longest run of the phrase's words that names a column: "reorder level" of "below reorder level now".)
    const right = [3, 2, 1]
      .filter((n) => n <= phrase.length)
      .flatMap((n) => numeric.filter((c) => named(phrase.slice(0, n), c)).map((c) => ({ c, n })))[0];
    if (!right) continue;
    const rest = a.contentWords.filter((w) => !phrase.slice(0, right.n).includes(w));
    // ("which projects are over budget?": what was spent, against the Budget.)
    // ("stocks trading below their buy price": another price, the column sharing the compared one's last word.)
    const head = right.c.headerWords.at(-1);
    const left =
      numeric.find((c) => c !== right.c && rest.some((w) => named([w], c))) ??
      (right.c.headerWords.length > 1
        ? numeric.find((c) => c !== right.c && c.headerWords.length > 1 && c.headerWords.at(-1) === head)
        : undefined) ??
      quantityColumn(catalog, usable, new Set([right.c.index])) ??
      (right.c.headerWords.includes("budget")
        ? numeric.find(
            (c) => c !== right.c && c.headerWords.some((h) => /^(?:actual|spend|cost|expense|expenditure)$/.test(h)),
          )
        : undefined);
    if (!left) continue;
    // ("within budget": at most the budget.)
    const op = m[1] === "within" ? "<=" : /^(below|under|beneath|less|fewer|lower)/.test(m[1]!) ? "<" : ">";
    preds.push(`${hasNum(left)} AND ${hasNum(right.c)} AND ${numExpr(left)} ${op} ${numExpr(right.c)}`);
    columns.add(left.index).add(right.c.index);
  }
  return { preds, columns };
}

/** "before september 2004", "after march 1, 2009" (a day makes the bound a date): a month bound, of the given month or any. */
export function monthBound(
  q: string,
  month?: number,
): { before: boolean; word: string; day: string | undefined; year: string | undefined } | null {
  // ("after may 20", "before june": without a year the bound is on the month and day of any year.)
  const m = new RegExp(
    `\\b(before|prior to|until|after|since|from) (${month === undefined ? MONTHS.join("|") : MONTHS[month]})(?:\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b,?)?(?:\\s+(?:of\\s+)?(\\d{4}))?(?![\\d:])( on(?:wards?)?\\b)?`,
  ).exec(q);
  // ("after 15 March 2024": the day written first.)
  const dayFirst = m
    ? null
    : new RegExp(
        `\\b(before|prior to|until|after|since|from) (\\d{1,2})(?:st|nd|rd|th)? (?:of )?(${month === undefined ? MONTHS.join("|") : MONTHS[month]})\\b,?(?:\\s+(\\d{4}))?(?![\\d:])( on(?:wards?)?\\b)?`,
      ).exec(q);
  if (dayFirst) {
    if (dayFirst[1] === "from" && !dayFirst[4] && !dayFirst[5]) return null;
    return {
      before: ["before", "prior to", "until"].includes(dayFirst[1]!),
      word: dayFirst[1]!,
      day: dayFirst[2],
      year: dayFirst[4],
    };
  }
  // ("invoices from september" are of that month: "from" bounds only with a year, or with "on": "from september on".)
  if (!m || (m[1] === "from" && !m[4] && !m[5])) return null;
  return { before: ["before", "prior to", "until"].includes(m[1]!), word: m[1]!, day: m[3], year: m[4] };
}

/**
 * Two frequent row conditions that name no cell: a month ("games in october", "before september
 * 2004") on a date column, and a finishing place ("placed first", "came in 2nd place") on a
 * position-like column (the place number is what the cell starts with: "1", "1st", "1st place").
 */
/** The days of the week a question asks about ("on saturday", "on mondays", "at weekends"), 0 Sunday … 6 Saturday. */
function weekdaysAsked(q: string): number[] {
  if (/\b(?:at|on|over|during) (?:the )?weekends?\b|\bweekend (?:days|shifts|runs|sales|orders)\b/.test(q))
    return [0, 6];
  const day = new RegExp(`\\b(?:on|every) (?:a )?(${WEEKDAYS.join("|")})s?\\b`).exec(q)?.[1];
  return day === undefined ? [] : [(WEEKDAYS.indexOf(day as (typeof WEEKDAYS)[number]) + 1) % 7];
}

export function monthAndPlacePredicates(
  a: QuestionAnalysis,
  catalog: TableCatalog,
  usable: Set<number> | undefined,
  mentions: EntityMention[],
): { preds: string[]; columns: Set<number>; yearOfDate: boolean } {
  const preds: string[] = [];
  const columns = new Set<number>();
  const q = a.normalized;
  const ok = (c: CatalogColumn) => (!usable || usable.has(c.index)) && !mentions.some((m) => m.columnIndex === c.index);
  // (A month inside a mention, "july 10, 1939", is already a cell condition.)
  // "between april 1 and april 15", "from january to march": a range of days of the year, both ends included.
  const M = MONTHS.join("|");
  // ("from 5 march to 12 march": the day before its month, read as the same range.)
  const dayFirst = new RegExp(
    `\\b(?:from|between) (\\d{1,2})(?:st|nd|rd|th)? (${M}) (?:to|and|through|until|till) (\\d{1,2})(?:st|nd|rd|th)? (${M})\\b(?:,? ((?:1[89]|20)\\d\\d)\\b)?`,
  ).exec(q);
  const range =
    new RegExp(
      `\\b(?:from|between) (${M})(?: (\\d{1,2})(?:st|nd|rd|th)?)? (?:to|and|through|until|till) (${M})(?: (\\d{1,2})(?:st|nd|rd|th)?)?\\b(?:,? ((?:1[89]|20)\\d\\d)\\b)?`,
    ).exec(q) ?? (dayFirst ? [dayFirst[0], dayFirst[2]!, dayFirst[1]!, dayFirst[4]!, dayFirst[3]!, dayFirst[5]] : null);
  const rangeCol = range ? monthColumn(catalog, (c) => ok(c) && c.schema.type === "date") : undefined;
  if (range && rangeCol) {
    const end = (m: string, day: string | undefined, fallback: string) =>
      `${String(MONTHS.indexOf(m) + 1).padStart(2, "0")}-${(day ?? fallback).padStart(2, "0")}`;
    const date = col(rangeCol, undefined, false);
    // (Months alone compare the month: a column of months, "2023-07", has no day to compare.)
    preds.push(
      range[2] || range[4]
        ? `substr(${date}, 6, 5) BETWEEN '${end(range[1]!, range[2], "01")}' AND '${end(range[3]!, range[4], "31")}'`
        : `substr(${date}, 6, 2) BETWEEN '${end(range[1]!, undefined, "01").slice(0, 2)}' AND '${end(range[3]!, undefined, "31").slice(0, 2)}'`,
    );
    // "in q2 2024" (from april to june 2024): that year's months.
    if (range[5]) preds.push(`substr(${date}, 1, 4) = '${range[5]}'`);
    columns.add(rangeCol.index);
  }
  // "after 2024-09-01", "before 2025-01-15": a date written as the column writes it, a bound on it; "on
  // 2024-06-15" that day, though no cell holds it (then no row has it, rather than the condition dropped).
  // (A date some cell holds is a mention, which dateBounds reads.)
  // ("between 2026-03-05 and 2026-03-12": both ends, included; dates cells hold are mentions, dateBounds's.)
  const ISO = "(?:1[89]|20)\\d\\d-[01]\\d-[0-3]\\d";
  const isoRange = new RegExp(`\\b(?:between|from) (${ISO}) (?:and|to|through|until|till) (${ISO})\\b`).exec(q);
  const isCell = (iso: string) => mentions.some((m) => m.text === iso.replace(/-/g, " "));
  if (isoRange && !isCell(isoRange[1]!) && !isCell(isoRange[2]!)) {
    const dates = catalog.columns.filter((c) => ok(c) && c.schema.type === "date");
    const named = namedDateColumn(a, catalog, usable, new Set(mentions.map((m) => m.columnIndex)));
    const dateCol = named?.schema.type === "date" ? named : dates.length === 1 ? dates[0] : undefined;
    if (dateCol) {
      const [lo, hi] = [isoRange[1]!, isoRange[2]!].sort();
      const date = col(dateCol, undefined, false);
      preds.push(`${date} IS NOT NULL AND substr(${date}, 1, 10) BETWEEN '${lo}' AND '${hi}'`);
      columns.add(dateCol.index);
    }
  }
  const iso = isoRange ? null : /\b(before|after|since|until|from|by|on) ((?:1[89]|20)\d\d-[01]\d-[0-3]\d)\b/.exec(q);
  if (iso && !mentions.some((m) => m.text === iso[2]!.replace(/-/g, " "))) {
    const dates = catalog.columns.filter((c) => ok(c) && c.schema.type === "date");
    const named = namedDateColumn(a, catalog, usable, new Set(mentions.map((m) => m.columnIndex)));
    const dateCol = named?.schema.type === "date" ? named : dates.length === 1 ? dates[0] : undefined;
    if (dateCol) {
      const op = { before: "<", until: "<", by: "<=", after: ">", since: ">=", from: ">=", on: "=" }[iso[1]!]!;
      const date = col(dateCol, undefined, false);
      preds.push(`${date} IS NOT NULL AND substr(${date}, 1, 10) ${op} '${iso[2]!}'`);
      columns.add(dateCol.index);
    }
  }
  const month = MONTHS.findIndex(
    (m) =>
      !rangeCol &&
      new RegExp(`\\b${m}\\b`).test(q) &&
      !(m === "may" && /\bmay (be|have|not)\b/.test(q)) &&
      !mentions.some((x) => x.text.split(" ").includes(m)) &&
      // ("visits in May" of a "Visits (May)" column: the header holds the month.)
      !catalog.columns.some((c) => (!usable || usable.has(c.index)) && c.headerWords.includes(m)),
  );
  if (month >= 0) {
    // ("how many arrived in june": the date column the verb names, Intake Date rather than DOB.)
    const named = namedDateColumn(a, catalog, usable, new Set(mentions.map((m) => m.columnIndex)));
    const dateCol = named?.schema.type === "date" ? named : monthColumn(catalog, ok, month);
    if (dateCol) {
      const bound = monthBound(q, month);
      const mm = String(month + 1).padStart(2, "0");
      if (dateCol.schema.type === "date" && bound) {
        const y = bound.year;
        const day = bound.day ? `-${bound.day.padStart(2, "0")}` : "";
        // ("after april" is from may on, as "after may 20" is from the 21st.)
        const op = bound.before ? "<" : bound.word === "after" ? ">" : ">=";
        const date = col(dateCol, undefined, false);
        preds.push(
          y
            ? `${date} IS NOT NULL AND substr(${date}, 1, ${day ? 10 : 7}) ${op} '${y}-${mm}${day}'`
            : `${date} IS NOT NULL AND substr(${date}, 6, ${day ? 5 : 2}) ${op} '${mm}${day}'`,
        );
      } else if (!bound) {
        // "in september or november", "in july and august": rows of either month.
        const pair = new RegExp(`\\b(?<!between )(${MONTHS.join("|")}) (?:or|and) (${MONTHS.join("|")})\\b`).exec(q);
        const months =
          pair && [pair[1], pair[2]].includes(MONTHS[month])
            ? [MONTHS.indexOf(pair[1]!), MONTHS.indexOf(pair[2]!)]
            : [month];
        const one = (i: number) =>
          dateCol.schema.type === "date"
            ? `substr(${col(dateCol, undefined, false)}, 6, 2) = '${String(i + 1).padStart(2, "0")}'`
            : d().likeText(col(dateCol), `%${MONTHS[i]!.slice(0, 3)}%`);
        preds.push(months.length > 1 ? `(${months.map(one).join(" OR ")})` : one(month));
        // "on march 6": that day of the month (a date column holds it as an ISO date, not as the words).
        // ("on 16 october": the day before the month too.)
        const day = new RegExp(
          `\\b${MONTHS[month]} (\\d{1,2})(?:st|nd|rd|th)?\\b(?![:.]\\d)|(?<![\\d:.])\\b(\\d{1,2})(?:st|nd|rd|th)? (?:of )?${MONTHS[month]}\\b`,
        )
          .exec(q)
          ?.slice(1)
          .find((x) => x !== undefined);
        if (day && months.length === 1 && dateCol.schema.type === "date" && Number(day) >= 1 && Number(day) <= 31)
          preds.push(`substr(${col(dateCol, undefined, false)}, 9, 2) = '${day.padStart(2, "0")}'`);
        // "in march 2023", "on march 6, 2024": the month of that year.
        const year = new RegExp(`\\b${MONTHS[month]} (?:of |\\d{1,2}(?:st|nd|rd|th)?,? )?((?:1[89]|20)\\d\\d)\\b`).exec(
          q,
        )?.[1];
        if (year && dateCol.schema.type === "date")
          preds.push(`substr(${col(dateCol, undefined, false)}, 1, 4) = '${year}'`);
      }
      if (preds.length > 0) columns.add(dateCol.index);
    }
  }
  let yearOfDate = false;
  // "who started in 2019?": a year that names no cell, on a column of full dates (a column of years holds it as a cell).
  // ("total revenue 2023": a year closing a search-box fragment too.)
  const yearOnly =
    // (Not a span, "in 2019-20"; a dash before words is the typist's pause: "hiked in 2024 - how many".)
    /\b(?:in|during|for|of)\s+(?:the\s+year\s+)?((?:1[89]|20)\d\d)\b(?!\s*[-–/]\s*\d)/.exec(q) ??
    /(?<=[a-z] )((?:1[89]|20)\d\d)\??$/.exec(q);
  if (
    yearOnly &&
    !mentions.some((m) => m.text.split(" ").includes(yearOnly[1]!)) &&
    !a.conditions.some((c) => c.value === Number(yearOnly[1])) &&
    !MONTHS.some((m) => q.includes(`${m} ${yearOnly[1]}`))
  ) {
    const dates = catalog.columns.filter((c) => ok(c) && c.schema.type === "date");
    const dateCol =
      dates.length === 1 ? dates[0] : namedDateColumn(a, catalog, usable, new Set(mentions.map((m) => m.columnIndex)));
    if (dateCol && dateCol.schema.type === "date" && !columns.has(dateCol.index)) {
      preds.push(`substr(${col(dateCol, undefined, false)}, 1, 4) = '${yearOnly[1]}'`);
      columns.add(dateCol.index);
      yearOfDate = true;
    } else if (dates.length === 0 && (q.match(/\b(?:1[89]|20)\d\d\b/g) ?? []).length === 1) {
      // ("launched in 2024" of a Launched column of years none of which is 2024: no row, rather than every row
      // with the year dropped; one year asked, not a span "between 1990 and 2004".)
      const years = catalog.columns.filter((c) => ok(c) && holdsYears(c) && !columns.has(c.index));
      if (years.length === 1) {
        preds.push(`TRIM(${col(years[0]!)}) = '${yearOnly[1]}'`);
        columns.add(years[0]!.index);
      }
    }
  }
  // "how much did I spend on saturdays?", "runs at the weekend": a day of the week that names no cell, on a column of
  // full dates (a Day column written "Sat" is a cell condition, found as a mention).
  const weekdays = weekdaysAsked(q);
  if (weekdays.length > 0) {
    const dates = catalog.columns.filter((c) => ok(c) && c.schema.type === "date" && !columns.has(c.index));
    const dateCol =
      dates.length === 1 ? dates[0] : namedDateColumn(a, catalog, usable, new Set(mentions.map((m) => m.columnIndex)));
    if (dateCol && dateCol.schema.type === "date" && !columns.has(dateCol.index)) {
      preds.push(`${d().weekday(col(dateCol, undefined, false))} IN (${weekdays.join(", ")})`);
      columns.add(dateCol.index);
    }
  }
  // (An ordinal before another noun is not a place: "was the first season", "got the 2nd most votes"; unless the
  // noun ends the question: "what is the third song?" of a numbered list.)
  const nthMatch =
    new RegExp(
      String.raw`^(?:what|which) (?:is|was) the (${ORDINAL_PATTERN}|2nd|3rd|[4-9]th|1\d?th) [a-z]+\s*[?.]?$`,
    ).exec(q) ??
    new RegExp(
      String.raw`^(?:what|which) [a-z]+ (?:is|was) (${ORDINAL_PATTERN}|2nd|3rd|[4-9]th|1\d?th)(?: on the [a-z]+)?\s*[?.]?$`,
    ).exec(q);
  // (The first row is a position: "what is the first year?" is read by the row order, not a rank of 1.)
  const nthRow = nthMatch && ordinalValue(nthMatch[1]!) !== 1 ? nthMatch : null;
  const place =
    new RegExp(
      String.raw`\b(?:placed?|finish(?:ed)?|came(?: in)?|come(?: in)?|got|get|ranked|was|is) (?:in )?(?:the )?(${ORDINAL_PATTERN}|1st|2nd|3rd|[4-9]th|10th)\b(?=\s+(?:place|position|overall|in|at|on|for|with|and|or|out|of|to|by|during|twice|once|times?|called|named)\b|\s*[?.,!;]|\s*$)(?: place)?`,
    ).exec(q) ??
    /\b(first|second|third|1st|2nd|3rd|[4-9]th) place\b/.exec(q) ??
    nthRow;
  // ("above 5th place" is a place comparison, read with the conditions.)
  if (place && !a.conditions.some((c) => c.place)) {
    const word = place[1]!;
    const n = ordinalValue(word) ?? Number(word.replace(/\D/g, ""));
    const placeCol = catalog.columns.find((c) => ok(c) && isRankColumn(c) && c.num.some((v) => v === n));
    if (placeCol) {
      preds.push(`${d().int(`TRIM(${col(placeCol)})`)} = ${n} AND ${d().glob(`TRIM(${col(placeCol)})`, "[0-9]*")}`);
      columns.add(placeCol.index);
    } else if (nthRow && n >= 2 && n < catalog.rowCount && !catalog.columns.some((c) => ok(c) && isRankColumn(c))) {
      // (Of a list without a rank column, the nth row in the table's order; "came 3rd" is a cell of a Result column.)
      preds.push(`${ROW} = ${n - 1 + catalog.headerRows.size}`);
    }
  }
  return { preds, columns, yearOfDate };
}

export const OUTCOMES: Record<"win" | "loss" | "draw", RegExp> = {
  win: /^(w|win|won|wins|winner|victory)$/,
  loss: /^(l|loss|lost|lose|defeat|defeated)$/,
  draw: /^(d|t|draw|drawn|tie|tied)$/,
};

/** A column of match outcomes ("W 24–7", "L", "Won", "Nominated"): most cells start with an outcome word. */
export function outcomeColumn(catalog: TableCatalog, ok: (c: CatalogColumn) => boolean): CatalogColumn | undefined {
  const first = (v: string) => (/^[a-z]+/i.exec(v.trim())?.[0] ?? "").toLowerCase();
  return catalog.columns.find((c) => {
    if (!ok(c) || isNumericColumn(c)) return false;
    const cells = c.raw.filter((v) => v.trim() !== "");
    const outcome = cells.filter(
      (v) => Object.values(OUTCOMES).some((re) => re.test(first(v))) || /^nominated$/i.test(first(v)),
    );
    return cells.length >= 2 && outcome.length >= 0.6 * cells.length && cells.some((v) => OUTCOMES.win.test(first(v)));
  });
}

/** A side's score beside the other side's: "Our Score" and "Their Score", "Us" and "Them". */
function scorePair(
  catalog: TableCatalog,
  ok: (c: CatalogColumn) => boolean,
): [CatalogColumn, CatalogColumn] | undefined {
  const numeric = catalog.columns.filter((c) => ok(c) && isNumericColumn(c));
  const ours = numeric.filter((c) => c.headerWords.some((h) => /^(?:our|us|we)$/.test(h)));
  const theirs = numeric.filter((c) =>
    c.headerWords.some((h) => /^(?:their|them|they|opponent|opp|opposition)$/.test(h)),
  );
  return ours.length === 1 && theirs.length === 1 ? [ours[0]!, theirs[0]!] : undefined;
}

/**
 * "how many matches did the falcons win?", "number of losses": the rows whose outcome cell is a win
 * (loss, draw), when the table has an outcome column and no column is named by the outcome word
 * (a "Wins" column is read, not filtered). "did not win" selects the other rows.
 */
export function outcomePredicates(
  a: QuestionAnalysis,
  catalog: TableCatalog,
  ok: (c: CatalogColumn) => boolean,
): { preds: string[]; columns: Set<number> } {
  const q = a.normalized;
  const m =
    /\b(win|wins|won|winning|victory|victories|beat|beaten|lose|loses|lost|losing|loss|losses|defeat|defeats|defeated|draw|draws|drew|drawn|tie|ties|tied)\b/.exec(
      q,
    );
  if (!m) return { preds: [], columns: new Set() };
  const kind = /^(win|wins|won|winning|victory|victories|beat|beaten)$/.test(m[1]!)
    ? "win"
    : /^(draw|draws|drew|drawn|tie|ties|tied)$/.test(m[1]!)
      ? "draw"
      : "loss";
  if (catalog.columns.some((c) => isNumericColumn(c) && headerMatch([m[1]!], c, false) >= 1.5))
    return { preds: [], columns: new Set() };
  const negated = /\b(not|n't|never|no|without)\s+(?:\w+\s+)?$/.test(q.slice(0, m.index));
  const c = outcomeColumn(catalog, ok);
  if (!c) {
    // ("how many games did we win?" of "Our Score" and "Their Score": the rows where ours is the larger.)
    const pair = scorePair(catalog, ok);
    if (!pair) return { preds: [], columns: new Set() };
    const [ours, theirs] = pair;
    const op = kind === "win" ? ">" : kind === "loss" ? "<" : "=";
    const pred = `${numExpr(ours)} ${op} ${numExpr(theirs)}`;
    return {
      preds: [`${hasNum(ours)} AND ${hasNum(theirs)} AND ${negated ? d().notTrue(pred) : pred}`],
      columns: new Set([ours.index, theirs.index]),
    };
  }
  // The outcome words as the cells write them ("W", "Won"): the cell is the word, or the word then a non-letter.
  const tokens = [
    ...new Set(
      c.raw.map((v) => /^[a-z]+/i.exec(v.trim())?.[0] ?? "").filter((t) => OUTCOMES[kind].test(t.toLowerCase())),
    ),
  ];
  if (tokens.length === 0) return { preds: [], columns: new Set() };
  const any = tokens
    .map((t) => `${d().glob(`TRIM(${col(c)})`, t)} OR ${d().glob(`TRIM(${col(c)})`, `${t}[^A-Za-z]*`)}`)
    .join(" OR ");
  // (Negated through notTrue: the SQL guard reads a bare "NOT (" as a call of a function "not" and refuses it.)
  return {
    preds: [negated ? `TRIM(${col(c)}) <> '' AND ${d().notTrue(`(${any})`)}` : `(${any})`],
    columns: new Set([c.index]),
  };
}

/** A mention that is only the literal of a numeric condition ("below 1.75" → "1 75"; "250,000,000" → "250 000 000"). */
export function isConditionLiteral(text: string, a: QuestionAnalysis): boolean {
  // ("above 5th place": the place "5th" is compared, not selected.)
  const ordinal = /^(\d+)(st|nd|rd|th)$/.exec(text);
  if (ordinal) return a.conditions.some((c) => c.place && c.value === Number(ordinal[1]));
  // ("under 1.5 kg" of a Weight column holding "1.5 kg": a bound with its unit, not that cell.)
  const withUnit = /^(\d+(?: \d+)*) [a-z]+$/.exec(text);
  if (withUnit) {
    const n = withUnit[1]!;
    const readings = [Number(n.replace(/ /g, "")), Number(n.replace(" ", "."))];
    return a.conditions.some((c) => c.op !== "=" && readings.includes(c.value));
  }
  if (!/^\d+( \d+)*$/.test(text)) return false;
  const readings = [Number(text.replace(/ /g, "")), Number(text.replace(" ", "."))];
  return a.conditions.some((c) => readings.includes(c.value));
}

/** An equality a cell with its unit already states: "have 16 GB of RAM" is the cell "16 GB", no other 16. */
function statedByCell(c: QuestionAnalysis["conditions"][number], filters: readonly EntityMention[]): boolean {
  return (
    c.op === "=" &&
    filters.some(
      (m) => m.kind === "exact" && Number(/^(\d+(?: \d+)?) [a-z]+$/.exec(m.text)?.[1]?.replace(" ", ".")) === c.value,
    )
  );
}

/**
 * Mentions usable as filters: in usable columns, and not the numbers a condition already uses.
 * Mentions of the same column as another (stronger) mention are kept only when they name the
 * same row set (AND of two different values of one column finds nothing).
 */
export function filterMentions(
  a: QuestionAnalysis,
  mentions: EntityMention[],
  usable: Set<number> | undefined,
): EntityMention[] {
  const conditionNumbers = new Set(a.conditions.map((c) => String(c.value)));
  const tokens = a.normalized
    .replace(/[^a-z0-9\u00c0-\u024f]+/g, " ")
    .trim()
    .split(" ");
  const out: EntityMention[] = [];
  for (const m of mentions) {
    if (usable && !usable.has(m.columnIndex)) continue;
    if (conditionNumbers.has(m.text) || isConditionLiteral(m.text, a)) continue;
    const i = out.findIndex((o) => o.columnIndex === m.columnIndex);
    if (i >= 0) {
      // "north and south korea combined", "2-3 or 3-2": two values of one column joined by and/or select both.
      const o = out[i]!;
      const [x, y] = o.start <= m.start ? [o, m] : [m, o];
      const between = tokens.slice(x.end, y.start).filter((t) => t !== "the");
      // (Not "A and B each won …", "the same … as", "between 2007 and 2013": those name rows one by one or a range.)
      if (
        between.length === 1 &&
        (between[0] === "and" || between[0] === "or") &&
        o.value !== m.value &&
        !/\b(each|same|between)\b/.test(a.normalized)
      ) {
        out[i] = { ...o, rows: [...new Set([...o.rows, ...m.rows])].sort((p, q) => p - q) };
      }
      continue;
    }
    out.push(m);
  }
  return out;
}

/** "other than X", "besides X", "aside from X", "except X": mentions to exclude rather than select. */
const NEGATED = "(?:not|never|don t|doesn t|didn t|isn t|aren t|wasn t|weren t|dont|doesnt|didnt|isnt|arent)";
const NEGATION_FILLER =
  "(?:work|works|worked|live|lives|based|located|belong|belongs|come|comes|from|in|at|on|of|for|with|by|part|a|an|the|yet)";

/** "were not given to X", "was not held in X", "did not use X": a verb of the negated clause before its value. */
const NEGATED_VERB =
  "(?!(?:and|but|or|nor|who|which|that|than|when|while|win|won|finish|finished|score|scored|more|less|any|only)\\b)[a-z]{3,}";

export function excludedMentions(
  a: QuestionAnalysis,
  mentions: EntityMention[],
  usable: Set<number> | undefined,
  bindings: RequiredBinding[],
  catalog: TableCatalog,
): EntityMention[] {
  const q = a.normalized.replace(/[^a-z0-9\u00c0-\u024f]+/g, " ");
  return mentions.filter((m) => {
    if ((usable && !usable.has(m.columnIndex)) || bindings.some((b) => sameBinding(m, b, catalog))) return false;
    const value = m.text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    // ("besides team X", "other than the winner Y": the column's own noun may stand before the value.)
    const nouns = catalog.columns[m.columnIndex]!.headerWords.filter((w) => /^[a-z]{3,}$/.test(w));
    const noun = nouns.length > 0 ? `(?:(?:${nouns.join("|")})[a-z]* )?` : "";
    if (
      new RegExp(
        `\\b(other than|besides|aside from|except|excluding|apart from|not counting|but not) (the )?${noun}${value}\\b`,
      ).test(q)
    )
      return true;
    // ("next to A, who scored the most?": A aside, before a superlative.)
    if (a.sortDirection !== null && new RegExp(`^next to (the )?${noun}${value}\\b`).test(q.trim())) return true;
    // "which employees are not in Sales?", "who doesn't work in Finance?", "orders that were not delivered": a
    // negated cell (not a yes/no column's word, whose no cells the mention already holds).
    // ("who didn't show up?" of a "No-show" status: the cell says the negation itself, it is selected.)
    // ("did not air in X" of a cell "Unaired in X": the un- word is the question's negated verb.)
    const cell = normaliseText(m.value);
    const unVerb = /^un([a-z]{3,})\b/.exec(cell)?.[1];
    // ("did not sink on 11 May": the day is when the negated thing did not happen, the day's row is kept.)
    const verb =
      catalog.columns[m.columnIndex]!.schema.type === "date"
        ? ""
        : `|\\b${NEGATED} ${NEGATED_VERB}(?: ${NEGATION_FILLER}){0,2} ${value}\\b`;
    return (
      cell.includes(m.text) &&
      !/^(?:no|not|non|never)\b/.test(cell) &&
      !(unVerb !== undefined && q.split(" ").some((w) => stem(w) === stem(unVerb))) &&
      new RegExp(`\\b${NEGATED}(?: ${NEGATION_FILLER}){0,3} ${value}\\b${verb}`).test(q)
    );
  });
}

/** "released before july 1, 2002": a date the question names as a bound, not as the row to select. */
export function dateBounds(
  a: QuestionAnalysis,
  mentions: EntityMention[],
  catalog: TableCatalog,
  bindings: RequiredBinding[],
): Array<{ mention: EntityMention; op: string }> {
  const tokens = a.normalized
    .replace(/[^a-z0-9\u00c0-\u024f]+/g, " ")
    .trim()
    .split(" ");
  const out: Array<{ mention: EntityMention; op: string }> = [];
  const ends = new Set<EntityMention>();
  for (const m of mentions) {
    if (catalog.columns[m.columnIndex]!.schema.type !== "date" || bindings.some((b) => sameBinding(m, b, catalog)))
      continue;
    if (ends.has(m)) continue;
    // ("between 2026-03-05 and 2026-03-12", "from 3 May to 9 May" of dates cells hold: both ends, included.)
    const last = mentions.find(
      (x) =>
        x !== m &&
        x.columnIndex === m.columnIndex &&
        x.start === m.end + 1 &&
        /^(?:and|to|through|until|till)$/.test(tokens[m.end] ?? ""),
    );
    if (last && /^(?:between|from)$/.test(tokens[m.start - 1] ?? "")) {
      out.push({ mention: m, op: ">=" }, { mention: last, op: "<=" });
      ends.add(last);
      continue;
    }
    const before = tokens.slice(Math.max(0, m.start - 2), m.start).join(" ");
    const w = /(?:^| )(before|prior to|until|after|since)$/.exec(before)?.[1];
    if (w) out.push({ mention: m, op: w === "after" ? ">" : w === "since" ? ">=" : "<" });
  }
  return out;
}

/**
 * "how many came out after blue lagoon?", "how many runners finished ahead of vera sato?": a named
 * row after before/after is a bound on the list's order, not the row to count (dates are bounded by value).
 */
export function listBounds(
  a: QuestionAnalysis,
  mentions: EntityMention[],
  catalog: TableCatalog,
  bindings: RequiredBinding[],
): Array<{ mention: EntityMention; op: string }> {
  const tokens = a.normalized
    .replace(/[^a-z0-9\u00c0-\u024f]+/g, " ")
    .trim()
    .split(" ");
  const out: Array<{ mention: EntityMention; op: string }> = [];
  for (const m of mentions) {
    const c = catalog.columns[m.columnIndex]!;
    if (
      c.schema.type === "date" ||
      isNumericColumn(c) ||
      m.rows.length === 0 ||
      bindings.some((b) => sameBinding(m, b, catalog))
    )
      continue;
    const w = /(?:^| )(before|prior to|after)$/.exec(tokens.slice(Math.max(0, m.start - 2), m.start).join(" "))?.[1];
    if (w) out.push({ mention: m, op: w === "after" ? ">" : "<" });
  }
  return out;
}

/** The rows the question selects (see RowSelection), from its mentions, bindings and stated conditions. */
/**
 * "how many cars were sold in 2023?" over a table with a Sale Date and a model-year "Yr" column: the year is
 * a cell of Yr, but the verb names the date column, so the year bounds the dates (the mention is dropped and
 * the year-of-date condition reads it).
 */
function yearsOfNamedDates(
  a: QuestionAnalysis,
  mentions: EntityMention[],
  catalog: TableCatalog,
  usable: Set<number> | undefined,
): EntityMention[] {
  // "revenue in april 2024" over months written "Apr 2024": the year is part of the date cells it names, and the
  // date conditions read it (a month with its year, a year, a range of months with its year).
  const inDates = mentions.filter(
    (m) =>
      /^(?:1[89]|20)\d\d$/.test(m.text.trim()) &&
      isMonthLevel(catalog.columns[m.columnIndex]!) &&
      new RegExp(
        `(?:\\b(?:in|during|for|of) |[a-z] )${m.text.trim()}(?:\\?)?$|\\b(?:in|during|for|of) ${m.text.trim()}\\b`,
      ).test(a.normalized),
  );
  if (inDates.length > 0) mentions = mentions.filter((m) => !inDates.includes(m));
  const years = mentions.filter((m) => {
    const c = catalog.columns[m.columnIndex]!;
    return /^(?:1[89]|20)\d\d$/.test(m.text.trim()) && c.schema.type !== "date" && holdsYears(c);
  });
  // ("2023 bikes", "the 2024 models": a year before a noun is the column of years' own.)
  const attributive = (m: EntityMention) =>
    new RegExp(`\\b${m.text.trim()} (?!(?:and|or|to|through|until|was|were|is|are|had|has|did)\\b)[a-z]`).test(
      a.normalized,
    );
  const yearsOfEvents = years.filter((m) => !attributive(m));
  if (yearsOfEvents.length === 0) return mentions;
  const named = namedDateColumn(a, catalog, usable, new Set());
  if (named?.schema.type === "date") return mentions.filter((m) => !yearsOfEvents.includes(m));
  // "sold in 2023": a year after "in"/"during" is when the row's event happened — the table's one date column —
  // unless a question word names the column of years ("2023 models", "model year 2023").
  const dates = catalog.columns.filter((c) => (!usable || usable.has(c.index)) && c.schema.type === "date");
  if (dates.length !== 1) return mentions;
  const when = yearsOfEvents.filter((m) => {
    const c = catalog.columns[m.columnIndex]!;
    // ("sold in january 2024": the year of a month is the date's too.)
    return (
      new RegExp(`\\b(?:in|during|${MONTH_PATTERN}) ${m.text.trim()}\\b`).test(a.normalized) &&
      !a.contentWords.some((w) => headerMatch([w], c, false) >= 0.8)
    );
  });
  return mentions.filter((m) => !when.includes(m));
}

/**
 * "total income from January to April" of a Month column of month names: the two months' mentions become one of
 * the rows whose month lies between them (both included); "in January and April" stays the two months.
 */
function monthSpan(a: QuestionAnalysis, mentions: EntityMention[], catalog: TableCatalog): EntityMention[] {
  const span = new RegExp(
    `\\b(?:from|between) (${MONTH_PATTERN})\\b,? (?:to|and|through|until|till) (${MONTH_PATTERN})\\b`,
    "i",
  ).exec(a.normalized);
  if (!span) return mentions;
  const [from, to] = [monthNumber(span[1]!), monthNumber(span[2]!)];
  if (from === undefined || to === undefined || from > to) return mentions;
  const first = mentions.find((m) => monthNumber(m.text) === from);
  const last = mentions.find((m) => m !== first && monthNumber(m.text) === to && m.columnIndex === first?.columnIndex);
  // ("revenue in the first quarter", typed "from january to march" by text/typed-words.ts: months the question never
  // spelled, so no mention names them; a column of month names holds them.)
  const c =
    first && last
      ? catalog.columns[first.columnIndex]!
      : catalog.columns.find((x) => {
          const filled = x.raw.filter((v) => v.trim() !== "");
          return filled.length > 0 && filled.every((v) => monthNumber(normaliseText(v)) !== undefined);
        });
  if (!c) return mentions;
  const rows = c.raw.flatMap((v, r) => {
    const n = monthNumber(normaliseText(v));
    return n !== undefined && n >= from && n <= to && !catalog.summaryRows.has(r) ? [r] : [];
  });
  if (!first || !last) {
    if (rows.length === 0) return mentions;
    const words = a.normalized.split(" ");
    const start = words.indexOf(span[1]!.toLowerCase());
    const spanned: EntityMention = {
      text: `${span[1]} to ${span[2]}`,
      column: c.schema.name,
      columnIndex: c.index,
      value: c.raw[rows[0]!]!,
      kind: "exact",
      score: 1,
      start: Math.max(0, start),
      end: Math.max(0, start) + 3,
      rows,
    };
    // (Months of the span read alone by the mention finder are the span's.)
    return [...mentions.filter((m) => m.columnIndex !== c.index || monthNumber(m.text) === undefined), spanned];
  }
  const merged: EntityMention = { ...first, text: `${first.text} to ${last.text}`, end: last.end, rows };
  return mentions.flatMap((m) => (m === first ? [merged] : m === last ? [] : [m]));
}

export function rowSelection(
  ctx: Pick<PlanContext, "analysis" | "catalog" | "usable" | "bindings" | "table" | "input">,
): RowSelection {
  const { analysis: a, catalog, usable, bindings, table } = ctx;
  const input = {
    ...ctx.input,
    mentions: monthSpan(a, yearsOfNamedDates(a, ctx.input.mentions, catalog, usable), catalog),
  };
  const excluded = excludedMentions(a, input.mentions, usable, bindings, catalog);
  const bounds =
    a.position === "next" || a.position === "previous" ? [] : dateBounds(a, input.mentions, catalog, bindings);
  const rowBounds =
    a.operator === "count"
      ? listBounds(
          a,
          input.mentions.filter((m) => !excluded.includes(m) && !bounds.some((b) => b.mention === m)),
          catalog,
          bindings,
        )
      : [];
  const filters = teamOnSide(
    a,
    filterMentions(
      a,
      input.mentions.filter(
        (m) => !excluded.includes(m) && !bounds.some((b) => b.mention === m) && !rowBounds.some((b) => b.mention === m),
      ),
      usable,
    ),
    catalog,
    usable,
  );
  const cond = conditionPredicates(
    { ...a, conditions: a.conditions.filter((c) => !statedByCell(c, filters)) },
    catalog,
    usable,
  );
  for (const m of excluded) cond.preds.push(`${col(catalog.columns[m.columnIndex]!)} <> ${sqlString(m.value)}`);
  for (const b of bounds) {
    const c = catalog.columns[b.mention.columnIndex]!;
    cond.preds.push(
      `${col(c, undefined, false)} IS NOT NULL AND ${col(c, undefined, false)} ${b.op} (SELECT ${col(c, undefined, false)} FROM ${table} WHERE ${ROW} = ${b.mention.rows[0]!})`,
    );
    cond.columns.add(c.index);
  }
  for (const b of rowBounds)
    cond.preds.push(`${ROW} ${b.op} ${b.op === "<" ? Math.min(...b.mention.rows) : Math.max(...b.mention.rows)}`);
  const empty = emptinessPredicates(a, catalog, usable, input.mentions);
  const between = columnComparisonPredicates(a, catalog, usable);
  empty.preds.push(...between.preds);
  for (const c of between.columns) empty.columns.add(c);
  const when = monthAndPlacePredicates(a, catalog, usable, input.mentions);
  empty.preds.push(...when.preds);
  for (const c of when.columns) empty.columns.add(c);
  if (a.operator !== "compare") {
    const outcome = outcomePredicates(
      a,
      catalog,
      (c) => (!usable || usable.has(c.index)) && !input.mentions.some((m) => m.columnIndex === c.index),
    );
    empty.preds.push(...outcome.preds);
    for (const c of outcome.columns) empty.columns.add(c);
  }
  // ("how many home games …", "on the road": the side's rows.)
  const side = homeAwayPredicates(a, catalog, (c) => !usable || usable.has(c.index));
  empty.preds.push(...side.preds);
  for (const c of side.columns) empty.columns.add(c);
  cond.preds.push(...empty.preds);
  for (const c of empty.columns) cond.columns.add(c);
  const filterPreds: string[] = [];
  for (const m of filters)
    if (!bindings.some((b) => sameBinding(m, b, catalog))) filterPreds.push(mentionPredicate(m, catalog));
  for (const b of bindings) filterPreds.push(bindingPredicate(b, catalog));
  const basePreds = [...filterPreds, ...cond.preds];
  // ("the first three games of 2008": the first three of the rows the rest selects.)
  const first = firstRowsPredicate(a, table, [...basePreds, ...summaryFilter(catalog)]);
  if (first) {
    cond.preds.push(first);
    basePreds.push(first);
  }
  const used = new Set<number>([...filters.map((m) => m.columnIndex), ...cond.columns]);
  const period = [...when.columns].some((i) => catalog.columns[i]!.schema.type === "date");
  return { filters, cond, filterPreds, basePreds, used, yearOfDate: when.yearOfDate, period };
}
