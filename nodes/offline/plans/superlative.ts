/**
 * Superlative plans: the row with the highest (lowest) value of an order column, ties kept
 * (argmax/argmin), the next value below (above) a named row's, the most (least) frequent value, and
 * the month on the most rows.
 */
import {
  chooseOrderColumn,
  headerMatch,
  isIdentifierColumn,
  isMoneyColumn,
  isTimeColumn,
  isNumericColumn,
  isPersonColumn,
  isRankColumn,
  orderDirection,
  rankTargetColumns,
  superlativeWord,
  wordsAfterSuperlative,
} from "../columns.js";
import type { QuestionAnalysis } from "../analysis.js";
import type { CatalogColumn, TableCatalog } from "../table-catalog.js";
import type { EntityMention } from "../mentions.js";
import {
  MONTHS,
  ROW,
  col,
  hasNum,
  holdsYears,
  isMonthLevel,
  isSequence,
  mentionPredicate,
  mentionRows,
  monthColumn,
  numExpr,
  orderExpr,
  spendsSignedAmounts,
  sqlString,
  summaryFilter,
  where,
} from "./sql-parts.js";
import type { PlanContext, PlanGenerator, SqlPlan } from "./types.js";
import { quantityColumn } from "./count.js";
import { rankColumn } from "./conditions.js";
import { sqlFragmentsInUse as d } from "../sql-dialect.js";
import {
  isMeasureUnit,
  minutesPerTimeUnit,
  monthNumber,
  ordinalValue,
  SUPERLATIVE_PATTERN,
} from "../../../text/lexicons.js";
import { stem } from "../../../text/stem.js";
import { STOP_WORDS } from "../../../text/stop-words.js";
import { normaliseText } from "../../../text/normalise.js";
import { MONEY_HEADER_WORDS } from "../../../text/column-words.js";

/**
 * "what is the highest salary?", "what's the maximum amount of a sale?", "what is the best selling album?": the
 * column named by the noun phrase after the superlative — its last word that names a column exactly.
 */
/** Nouns for a value itself, not for a row ("grade", "score", "mark"). */
/** Nouns for sums of money paid or received, singular. */
const PAYMENT_NOUNS = new Set([
  "donation",
  "gift",
  "payment",
  "contribution",
  "deposit",
  "withdrawal",
  "transaction",
  "purchase",
  "refund",
  "grant",
  "pledge",
  "expense",
  "sale",
]);
const VALUE_NOUNS = new Set([
  // ("the lowest calorie count": the value of the calories column.)
  "count",
  "grade",
  "grades",
  "score",
  "scores",
  "mark",
  "marks",
  "result",
  "figure",
  "value",
  "reading",
  // ("the lowest stock level": the value of the stock column.)
  "level",
]);

function superlativeHead(
  q: string,
  catalog: TableCatalog,
  usable: Set<number> | undefined,
  order: CatalogColumn,
): CatalogColumn | undefined {
  // (Typed as a search: "biggest order total", "the lowest humidity"; or asked for: "give me the lowest score".)
  const m =
    /^(?:(?:what|how much|how many)(?:\s+(?:is|was|are|were)\s+|'s\s+)|(?:give|show|tell|find|get)(?: me)?\s+)?(?:(?:the|our|my|your|their)\s+)?(?:(?:second|third|fourth|fifth|2nd|3rd|4th|5th)[- ])?(?:most|highest|largest|biggest|greatest|top|best|maximum|max|longest|tallest|heaviest|least|lowest|smallest|minimum|min|shortest|worst|cheapest|priciest|dearest|fewest|latest|earliest|newest|oldest|youngest|fastest|slowest|quickest|heaviest|lightest|hottest|coldest|warmest|wettest|driest)\s+(?:(?:\d{1,2}|two|three|four|five|ten)\s+)?(?:(?:number|amount|count|total) of\s+(?:the\s+)?)?([a-z][a-z0-9 %-]*?)(?:\s+(?:of|in|for|among|on|at|by|to|with|from|that|which|who|it|any|listed|recorded|shown|made|won|ever|per)\b.*)?\s*\??$/.exec(
      q,
    );
  // "what's the longest ride in km?": a closing unit that names the ordered column asks for its value.
  const unit = /\bin ([a-z][a-z. ]*?)\s*\??$/
    .exec(q)?.[1]
    ?.split(/[ .]+/)
    .filter((w) => w !== "");
  if (
    unit &&
    unit.length <= 2 &&
    !/\b(which|who|whom|whose)\b/.test(q) &&
    unit.every((w) => isMeasureUnit(w) && headerMatch([w], order, false) >= 0.8)
  )
    return order;
  if (!m) return undefined;
  // ("lowest churn %": a unit sign is no word of the phrase.)
  const phrase = m[1]!
    .trim()
    .split(/[ %-]+/)
    .filter((w) => w !== "");
  // "what is the highest rated movie?": a head noun after a participle that names a text column (by a
  // related word: movie → title) is the row asked for, not the rated value.
  const last = phrase[phrase.length - 1]!;
  if (phrase.length > 1 && /(ed|ing)$/.test(phrase[0]!)) {
    const row = catalog.columns.find(
      (c) => (!usable || usable.has(c.index)) && !isNumericColumn(c) && headerMatch([last], c, false) >= 0.8,
    );
    if (row) return row;
  }
  // "lowest calorie recipe" over recipes.csv, "top rated dish": a head noun that is what a row is (the head of
  // the table's name), or names no column after a participle, asks for the row by its name.
  const usableName = () => catalog.columns.find((c) => (!usable || usable.has(c.index)) && isRowName(c));
  const rowNoun = order.tableWords?.filter((w) => !/^\d+$/.test(w)).at(-1);
  const namesAColumn = (w: string) =>
    catalog.columns.some((c) => (!usable || usable.has(c.index)) && headerMatch([w], c, false) >= 0.8);
  // "what was the worst grade in english?", "top maths grade": a word for a value that names no column of
  // its own asks for the ordered value.
  // ("highest paid in engineering", "top rated": a participle with no noun after it is said of a row, its name.)
  if (phrase.length === 1 && /^(?:paid|rated|ranked|selling|earning|scoring|grossing)$/.test(last)) {
    const name = usableName();
    if (name) return name;
  }
  // ("what was the largest donation?": a payment's size is its sum.)
  if ((VALUE_NOUNS.has(last) || PAYMENT_NOUNS.has(stem(last))) && !namesAColumn(last)) return order;
  if (
    phrase.length > 1 &&
    ((rowNoun !== undefined && stem(last) === stem(rowNoun)) ||
      (!/^(what|how)\b/.test(q) && /(ed|ing)$/.test(phrase[0]!) && !namesAColumn(last)))
  ) {
    const name = usableName();
    if (name) return name;
  }
  // ("what is the heaviest shipment?" of shipments.csv: the row noun alone, which no header spells, asks for the row
  // by its name, else by its record number: "Tracking #". A plain size asks for the size: "the largest claim".)
  const rowNounAlone =
    phrase.length === 1 &&
    rowNoun !== undefined &&
    stem(last) === stem(rowNoun) &&
    !namesAColumn(last) &&
    !PLAIN_SIZE.test(q);
  // ("what was the latest release?" of a "Released" date: the noun of the ordered column's verb is the row too.)
  const verbNoun =
    phrase.length === 1 &&
    !/ed$/.test(last) &&
    normaliseText(order.schema.name)
      .split(" ")
      .some((h) => /[a-z]{3}ed$/.test(h) && stem(last).startsWith(stem(h)));
  if (rowNounAlone || verbNoun) {
    // (An identifier column holds one value per row: columns.ts isIdentifierColumn.)
    const key = catalog.columns.find((c) => (!usable || usable.has(c.index)) && isIdentifierColumn(c));
    const name = usableName() ?? key;
    if (name) return name;
  }
  // "the highest co2 reading", "the biggest order total": a word spelling the ordered column's header makes
  // the phrase a name of its value; "the most expensive listing": an adjective related to it (expensive →
  // rent) before a noun naming a text column asks for that row; "fewest goals conceded": the value.
  // ("our best revenue month": a head noun spelling a text column's header is the row asked for.)
  // ("what is the biggest bill?" of Bill and Amount: a noun spelling a text column, which the amount only relates
  // to, is the row asked for; a record number is not: "the largest claim" of Claim ID, below.)
  const spelled = catalog.columns.find(
    (c) =>
      (!usable || usable.has(c.index)) &&
      c !== order &&
      !isNumericColumn(c) &&
      (phrase.length > 1 || !isIdentifierColumn(c)) &&
      headerMatch([last], c, false) >= 1.5 &&
      headerMatch([last], order, false) < 1.5,
  );
  if (spelled) return spelled;
  // ("the highest-calorie sandwich": a head noun that is a category's value asks for the row.)
  if (phrase.length > 1 && catalog.columns.some((c) => !isNumericColumn(c) && c.distinct.has(stem(last)))) {
    const name = usableName();
    if (name) return name;
  }
  if (phrase.some((w) => headerMatch([w], order, false) >= 1.5)) return order;
  const namesOrder = (w: string) => headerMatch([w], order, false) >= 0.6;
  if (phrase.length > 1) {
    const row = catalog.columns.find(
      (c) => (!usable || usable.has(c.index)) && !isNumericColumn(c) && headerMatch([last], c, false) >= 0.8,
    );
    if (row) return row;
  }
  // ("the most expensive flat": a head noun naming no column is the row noun.)
  if ((phrase.length === 1 || namesOrder(last)) && phrase.some(namesOrder)) return order;
  for (const w of [...phrase].reverse()) {
    const named = catalog.columns.find((c) => (!usable || usable.has(c.index)) && headerMatch([w], c, false) >= 1.5);
    // "what is the largest claim?", "what's the biggest PO?": the row noun names only the record number
    // ("Claim ID", "PO #"); a "what" question asks for the amount, a "which" question (no match here) for the
    // record, and so does a search ("heaviest pet") or a table whose rows have a name of their own.
    if (named && isIdentifierColumn(named) && named !== order)
      return /^what\b/.test(q) && !catalog.columns.some((c) => (!usable || usable.has(c.index)) && isRowName(c))
        ? order
        : named;
    if (named) return named;
  }
  // "what is the largest claim?" of an expense_claims table: a phrase of the table's own row nouns asks for the amount.
  // (Not when the rows have a name of their own: "what is the longest book?" asks for its title.)
  if (
    /^what\b/.test(q) &&
    phrase.every((w) => order.tableWords?.includes(stem(w))) &&
    !catalog.columns.some((c) => (!usable || usable.has(c.index)) && isRowName(c))
  )
    return order;
  // ("lowest stock level" typed as a search: a phrase naming the ordered quantity and no row is its value.)
  // ("most expensive flat": a last word naming no column is the row noun.)
  if (!/^(which|who|whom|whose|what)\b/.test(q) && namesOrder(phrase[phrase.length - 1]!)) return order;
  return undefined;
}

/**
 * "which month had the most concerts?": the month (of a date column) on the most (fewest) rows; "which month
 * had the most new customers?": the month whose rows add up to the most of the column the words spell. Over
 * dates of several years a month is a month of one year ("November 2023"), not every November.
 */
function monthFrequencyPlan(
  a: QuestionAnalysis,
  catalog: TableCatalog,
  usable: Set<number> | undefined,
  basePreds: string[],
  table: string,
): SqlPlan | null {
  if (!/\b(which|what) month\b/.test(a.normalized) || !a.sortDirection) return null;
  const c = monthColumn(catalog, (x) => !usable || usable.has(x.index));
  if (!c) return null;
  const date = col(c, undefined, false);
  const cases = MONTHS.map((m, i) => {
    const name = sqlString(m[0]!.toUpperCase() + m.slice(1));
    return c.schema.type === "date"
      ? `WHEN substr(${date}, 6, 2) = '${String(i + 1).padStart(2, "0")}' THEN ${name}`
      : `WHEN ${d().likeText(col(c), `%${m.slice(0, 3)}%`)} THEN ${name}`;
  });
  // (Rows of whole months, "Jan 2023", over several years: a month of one year. Over dates of days, the month of
  // the year, as "which month has the most games" is usually meant.)
  const years = new Set(c.raw.flatMap((v) => v.match(/\b(?:1[89]|20)\d\d\b/g) ?? []));
  const byYear = isMonthLevel(c) && years.size > 1;
  const month = `CASE ${cases.join(" ")} END`;
  // (A row per month, "Jan 2025" … "Jun 2025": the month is answered as its row writes it.)
  const perRow = isMonthLevel(c) && c.distinct.size === c.raw.filter((v) => v.trim() !== "").length;
  const label = perRow ? col(c) : byYear ? `${month} || ' ' || substr(${date}, 1, 4)` : month;
  const key = byYear ? `substr(${date}, 1, 7)` : month;
  const measure = periodMeasure(a, catalog, usable, c, "month");
  const dir = a.sortDirection === "max" ? "DESC" : "ASC";
  const by = measure ? `SUM(${orderExpr(measure)})` : "COUNT(*)";
  return {
    sql: `SELECT ${label} FROM ${table}${where([...basePreds, `${month} IS NOT NULL`, ...(measure ? [hasNum(measure)] : []), ...summaryFilter(catalog)])} GROUP BY ${key} ORDER BY ${by} ${dir}, MIN(${ROW}) LIMIT 1`,
    template: "group-count",
    targetColumn: c.schema.name,
  };
}

/**
 * The numeric column a "which month / year had the most …" question adds up per period, if it names one
 * (else the periods' rows are counted).
 */
function periodMeasure(
  a: QuestionAnalysis,
  catalog: TableCatalog,
  usable: Set<number> | undefined,
  c: CatalogColumn,
  period: string,
): CatalogColumn | undefined {
  // (The column the most words name: "the highest gas cost" is Gas Cost, not Electricity Cost; else the one
  // column a related word names: "the highest sales" of Amount, "the cheapest month" of Cost.)
  const sw = superlativeWord(a.normalized);
  const words = [...a.contentWords.filter((w) => w !== period), ...(sw ? [sw] : [])];
  const measures = catalog.columns.filter(
    (x) =>
      (!usable || usable.has(x.index)) &&
      x !== c &&
      isNumericColumn(x) &&
      !isIdentifierColumn(x) &&
      x.schema.type !== "date" &&
      !holdsYears(x) &&
      !isSequence(x),
  );
  const best = (x: CatalogColumn) => Math.max(0, ...words.map((w) => headerMatch([w], x, false)));
  const spelled = measures.filter((x) => best(x) >= 1.5);
  const related = measures.filter((x) => best(x) >= 0.8);
  return (spelled.length > 0 ? spelled : related.length === 1 ? related : [])
    .map((x) => ({ x, named: words.filter((w) => headerMatch([w], x, false) >= 1.5).length }))
    .reduce<{ x: CatalogColumn; named: number } | undefined>(
      (best, m) => (!best || m.named > best.named ? m : best),
      undefined,
    )?.x;
}

/**
 * "which year had the most new starters?" of a column of full dates and no column of years: the rows of each
 * year counted (or a measure the question names added up), the year with the most (fewest).
 */
export const superlativeYear: PlanGenerator = {
  name: "superlative.year",
  applies: (ctx) => isSuperlative(ctx) && /\b(which|what) year\b/.test(ctx.analysis.normalized),
  build: (ctx) => {
    const { analysis: a, catalog, usable, table } = ctx;
    const ok = (x: CatalogColumn) => !usable || usable.has(x.index);
    if (!a.sortDirection || catalog.columns.some((x) => ok(x) && holdsYears(x))) return null;
    const dates = catalog.columns.filter((x) => ok(x) && x.schema.type === "date");
    if (dates.length !== 1) return null;
    const c = dates[0]!;
    const year = `substr(${col(c, undefined, false)}, 1, 4)`;
    const measure = periodMeasure(a, catalog, usable, c, "year");
    const dir = a.sortDirection === "max" ? "DESC" : "ASC";
    const by = measure ? `SUM(${orderExpr(measure)})` : "COUNT(*)";
    const preds = [
      ...ctx.rows().basePreds,
      `${col(c, undefined, false)} IS NOT NULL`,
      ...(measure ? [hasNum(measure)] : []),
    ];
    return {
      sql: `SELECT ${year} FROM ${table}${where([...preds, ...summaryFilter(catalog)])} GROUP BY ${year} ORDER BY ${by} ${dir}, MIN(${ROW}) LIMIT 1`,
      template: "group-count",
      targetColumn: c.schema.name,
    };
  },
};

/** "second highest", "3rd largest": an ordinal before the superlative. */
const NTH_SUPERLATIVE =
  /\b(second|third|fourth|fifth|2nd|3rd|4th|5th)[- ](?:highest|largest|biggest|greatest|most|longest|tallest|lowest|smallest|least|fewest|shortest|best|worst|cheapest|oldest|youngest|fastest|slowest)\b/;

const NEXT_BEST =
  /\bnext (highest|largest|biggest|greatest|most|longest|tallest|lowest|smallest|least|fewest|shortest)\b/;

/** "after A, which X has the next largest area?": the next value of the named quantity below (above) the named row's, not the next table row. */
export const superlativeNextBest: PlanGenerator = {
  name: "superlative.next-best",
  applies: ({ analysis: a }) => NEXT_BEST.test(a.normalized),
  build: (ctx) => {
    const { analysis: a, catalog, table, opts } = ctx;
    const { filters, cond } = ctx.rows();
    const nextBest = NEXT_BEST.exec(a.normalized)!;
    if (filters.length !== 1) return null;
    const anchor = filters[0]!;
    const order = chooseOrderColumn(a, catalog, filters, { ...opts, avoid: new Set([anchor.columnIndex]) });
    const target =
      order &&
      rankTargetColumns(a, catalog, filters, {
        ...opts,
        prefer: anchor.columnIndex,
        avoid: new Set([order.column.index]),
      })[ctx.targetRank]?.column;
    if (!order || order.score <= 0.5 || !target) return null;
    const down = !/^(lowest|smallest|least|fewest|shortest)$/.test(nextBest[1]!);
    const expr = orderExpr(order.column);
    const sub = `(SELECT ${expr} FROM ${table} WHERE ${mentionPredicate(anchor, catalog)} LIMIT 1)`;
    return {
      sql: `SELECT ${col(target)} FROM ${table}${where([hasNum(order.column), `${expr} ${down ? "<" : ">"} ${sub}`, ...cond.preds, ...summaryFilter(catalog)])} ORDER BY ${expr} ${down ? "DESC" : "ASC"}, ${ROW} LIMIT 1`,
      template: down ? "argmax" : "argmin",
      targetColumn: target.schema.name,
    };
  },
};

const isSuperlative = ({ analysis: a }: PlanContext) =>
  a.operator === "sort" && a.sortDirection !== null && a.position !== "first" && a.position !== "last";

/** A text column naming each row (a title, a name): one distinct value per row, not a record number. */
function isRowName(c: CatalogColumn): boolean {
  const filled = c.raw.filter((v) => v.trim() !== "").length;
  return (
    filled > 2 &&
    !isNumericColumn(c) &&
    !isIdentifierColumn(c) &&
    c.schema.type !== "date" &&
    c.distinct.size === filled
  );
}

/** A column naming one month a row ("Jan", "Feb", …): the rows are the months, no grouping needed. */
function monthPerRow(catalog: TableCatalog): boolean {
  return catalog.columns.some((c) => {
    const filled = c.norm.filter((v) => v !== "");
    return filled.length >= 2 && c.distinct.size === filled.length && filled.every((v) => monthNumber(v) !== undefined);
  });
}

/** "which month had the most concerts?": the month (of a date column) on the most (fewest) rows. */
export const superlativeMonth: PlanGenerator = {
  name: "superlative.month",
  applies: (ctx) =>
    isSuperlative(ctx) && /\b(which|what) month\b/.test(ctx.analysis.normalized) && !monthPerRow(ctx.catalog),
  build: (ctx) => monthFrequencyPlan(ctx.analysis, ctx.catalog, ctx.usable, ctx.rows().basePreds, ctx.table),
};

/** The column spelled by the words before "of the <superlative> …" ("salary of the highest earner"), if any. */
function leadColumn(q: string, catalog: TableCatalog, usable: Set<number> | undefined): CatalogColumn | undefined {
  const m = new RegExp(
    `^(?:(?:what|which) (?:is|was|are|were) (?:the )?)?([a-z][a-z ]{2,30}?) of (?:the |our |my )?(?:${SUPERLATIVE_PATTERN})\\b`,
  ).exec(q);
  if (!m) return undefined;
  const words = m[1]!.split(" ");
  let best: { c: CatalogColumn; s: number } | undefined;
  for (const c of catalog.columns) {
    if (usable && !usable.has(c.index)) continue;
    const s = headerMatch(words, c, false);
    if (s >= 1.5 && (!best || s > best.s)) best = { c, s };
  }
  return best?.c;
}

/** The rows whose order-column value is the maximum (minimum), ties kept: their asked-about column, or the value itself. */
/** Superlatives of what is held: "do we have the most of", "the most in stock", "least on hand". */
const STOCK_SUPERLATIVE =
  /\b(?:do|does|did) (?:we|you|they|i) (?:have|hold|stock|keep) the (?:most|least|fewest)\b|\b(?:most|least|fewest) (?:in stock|on hand)\b/;

export const superlativeOrder: PlanGenerator = {
  name: "superlative.order",
  applies: isSuperlative,
  build: (ctx) => {
    const { analysis: a, catalog, usable, table, opts } = ctx;
    const { filters, cond, basePreds } = ctx.rows();
    // ("the earliest screening on 15 October": a column one value pins orders nothing; the time beside it does.)
    const pinned = filters.filter((m) => m.kind === "exact" && catalog.columns[m.columnIndex]?.schema.type === "date");
    const named = chooseOrderColumn(a, catalog, filters, {
      ...opts,
      avoid: new Set([...cond.columns, ...pinned.map((m) => m.columnIndex)]),
    });
    // "which drug do we have the most of?": the stock of each row, its quantity column.
    const stock =
      STOCK_SUPERLATIVE.test(a.normalized) && !(named && named.score > 0.5)
        ? quantityColumn(catalog, usable, cond.columns)
        : undefined;
    const order = stock ? { column: stock, score: 1 } : named;
    const sw = superlativeWord(a.normalized);
    // "most/least/fewest" with no column named: the most frequent value; other superlatives use the best numeric column.
    const frequency = sw === undefined || /^(most|least|fewest)$/.test(sw);
    // "which year had the most festivals?": "most" over a year or date column is a frequency, not the latest year.
    const yearOrder =
      order !== undefined &&
      frequency &&
      sw !== undefined &&
      (holdsYears(order.column) || order.column.schema.type === "date");
    // "who earns the most?": a frequency over a column of distinct values (every count 1) means nothing;
    // a numeric column the question names, however weakly, is what it orders by.
    const key =
      frequency && order && order.score > 0 ? rankTargetColumns(a, catalog, filters, opts)[0]?.column : undefined;
    const degenerate =
      key !== undefined &&
      !isNumericColumn(key) &&
      key.distinct.size >= key.raw.length - catalog.summaryRows.size - catalog.headerRows.size &&
      key.raw.length > 2;
    // ("what costs the least?": nor is the frequency of the amounts the verb names.)
    const verb = frequency ? /^what (\w+s) (?:the )?(?:most|least)\b/.exec(a.normalized)?.[1] : undefined;
    const amount =
      verb !== undefined &&
      order !== undefined &&
      isNumericColumn(order.column) &&
      !isIdentifierColumn(order.column) &&
      !holdsYears(order.column) &&
      headerMatch([verb], order.column) > 0;
    if (!order || yearOrder || !(order.score > 0.5 || (!frequency && order.score >= 0) || degenerate || amount))
      return null;
    // ("the best-selling make" over a table of sales: the make on the most rows, unless a column counts sales.)
    if (
      /\b(?:best|top|worst)[ -]?selling\b/.test(a.normalized) &&
      (!isNumericColumn(order.column) || holdsYears(order.column) || order.column.schema.type === "date")
    )
      return null;
    const direction = orderDirection(sw, a.sortDirection!, order.column, a.normalized);
    // "what was the highest attendance?": the answer is the ordered value itself when the asked-about words
    // name the ordered column; in "what is the biggest sale amount?" (not "… the best selling album?") the head
    // noun after the superlative decides.
    const head = superlativeHead(a.normalized, catalog, usable, order.column);
    // ("earliest applicant" asks for a person, not the date that orders them.)
    const asksValue =
      a.answerType !== "person" &&
      (a.answerType === "number" ||
        a.answerType === "count" ||
        /^(what|how)\b/.test(a.normalized) ||
        // ("give me the lowest score": a request for what follows the superlative, as "what is …".)
        (head !== undefined && /^(?:give|show|tell|find|get)(?: me)? the\b/.test(a.normalized)) ||
        // ("the most goals were netted by which striker?" asks for the striker.)
        (head !== undefined && !/\b(which|who|whom|whose|where|when)\b/.test(a.normalized))) &&
      (head
        ? head === order.column ||
          // ("how much is the priciest treatment?": the row noun names the row; "how much" asks its amount.)
          (/^how much\b/.test(a.normalized) && !isNumericColumn(head) && isNumericColumn(order.column))
        : headerMatch(a.targetHints.slice(0, 2), order.column) >= 1.5 ||
          // ("what is the fastest resolution time?" of hours_to_resolve: a time asked of a column of durations; not
          // "the longest song by running time", a row.)
          (/^what (?:is|was) the [a-z]+est (?:[a-z]+ )?(?:time|duration)\??$/.test(a.normalized) &&
            isTimeColumn(order.column)) ||
          // ("what is the furthest I cycled?", "the most we spent": a clause of its own after the superlative
          // asks how far it went, the ordered value.)
          /\bthe (?:[a-z]+est|most|least|best|worst) (?:i|we|you|he|she|they)\b/.test(a.normalized) ||
          // ("what was my longest swim?" of a workout log: a closing noun that is a category cell, over rows no
          // column names, leaves the ordered value to answer; "the cheapest diesel" of a table of cars is a car.)
          (categoryNoun(a.normalized, filters) &&
            !catalog.columns.some((c) => (!usable || usable.has(c.index)) && isRowName(c))) ||
          // ("how long is the longest route?": the measure the question opens with.)
          /^how (?:long|tall|high|old|far|heavy|big|deep|wide|fast)\b/.test(a.normalized) ||
          // ("what did the most expensive asset cost?": the closing verb spells the ordered column.)
          headerMatch([closingVerb(a.normalized)], order.column, false) >= 1.5 ||
          // ("how much does the most expensive product cost?": an amount, whatever the verb; "what does the
          // cheapest one cost?" too.)
          ((/^how much (?:did|does|do|will|would)\b/.test(a.normalized) ||
            /^what (?:did|does|do|will|would) .+ cost\??$/.test(a.normalized)) &&
            isNumericColumn(order.column)));
    // (The next-best target: the ordered value when the question asked for a row's cell, else the next column;
    // a row asked for is not its ordered value, "show the employee with the highest salary", unless the question
    // asks for that value: the year of a year column, "what year was the first edition …"; the noun of "which
    // discount was the largest?".)
    const asked = /^(?:which|what) ([a-z][a-z ]*?) (?:is|was|are|were) the [a-z]+\??$/.exec(a.normalized)?.[1];
    const rowAsked =
      // (A row is asked for by a question word or a request, "player with the most goals"; a fragment typed as a
      // search, "widest trunk diameter", asks for the value.)
      (/\b(?:which|who|whom|whose)\b/.test(a.normalized) ||
        /^(?:list|name|show|give|find|get|tell)\b|^[a-z]+ with\b/.test(a.normalized)) &&
      !(
        (a.answerType === "year" || a.answerType === "date") &&
        (holdsYears(order.column) || order.column.schema.type === "date")
      ) &&
      !(asked !== undefined && headerMatch(asked.split(" "), order.column) >= 1.5);
    // (Nor another measure the words naming the ordered one name: "who has scored the most goals?" of GF and GA
    // is a team; "the cheapest room" of Nightly Rate still reads the Room.)
    const after = wordsAfterSuperlative(a.normalized);
    const measureWords = headerMatch(after, order.column) > 0 ? after : [];
    const ranked = rankTargetColumns(a, catalog, filters, { ...opts, avoid: new Set([order.column.index]) }).filter(
      (r) =>
        !rowAsked ||
        (r.column !== order.column && !(isNumericColumn(r.column) && headerMatch(measureWords, r.column) > 0)),
    );
    // "salary of the highest earner", "what is the age of the oldest member": the words before "of" name the answer.
    const lead = leadColumn(a.normalized, catalog, usable);
    // ("who has the most expensive treatment?", "whose treatment costs the most?": the person, though the
    // question names the treatment.)
    const owner =
      !asksValue && ctx.targetRank === 0 && /^(?:who (?:has|had)|whose)\b/.test(a.normalized)
        ? catalog.columns.find((c) => (!usable || usable.has(c.index)) && isPersonColumn(c))
        : undefined;
    const target =
      lead && ctx.targetRank === 0
        ? lead
        : owner && !isPersonColumn(ranked[0]?.column ?? owner)
          ? owner
          : asksValue
            ? ctx.targetRank === 0
              ? order.column
              : ranked[ctx.targetRank - 1]?.column
            : ranked[ctx.targetRank]?.column;
    if (!target) return null;
    // ("what was my biggest expense?" of a statement's signed Amount: the most money out is the lowest amount,
    // answered as a positive sum.)
    const spending = spendsSignedAmounts(a, order.column, catalog);
    const preds = [
      ...basePreds,
      hasNum(order.column),
      ...(spending ? [`${orderExpr(order.column)} < 0`] : []),
      ...summaryFilter(catalog),
    ];
    const agg = (direction === "max") !== spending ? "MAX" : "MIN";
    // "the second highest rate": the n-th distinct value from the top (bottom).
    const nth = NTH_SUPERLATIVE.exec(a.normalized);
    const offset = nth ? (ordinalValue(nth[1]!) ?? Number(nth[1]!.replace(/\D/g, ""))) - 1 : 0;
    // "the top 3 most expensive products" of a table without ranks: the rows of the 3 first values, in that order.
    const top = a.conditions.find((c) => c.top && c.op === "<=")?.value;
    if (top !== undefined && top >= 2 && offset === 0 && !rankColumn(catalog, usable)) {
      const dirSql = agg === "MAX" ? "DESC" : "ASC";
      const first = `SELECT ${orderExpr(order.column)} FROM ${table}${where(preds)} ORDER BY 1 ${dirSql} LIMIT ${top}`;
      return {
        sql: `SELECT ${col(target)} FROM ${table}${where([...preds, `${orderExpr(order.column)} IN (${first})`])} ORDER BY ${orderExpr(order.column)} ${dirSql}, ${ROW}`,
        template: direction === "max" ? "argmax" : "argmin",
        targetColumn: target.schema.name,
        allRows: true,
      };
    }
    const sub =
      offset > 0
        ? `(SELECT DISTINCT ${orderExpr(order.column)} FROM ${table}${where(preds)} ORDER BY 1 ${agg === "MAX" ? "DESC" : "ASC"} LIMIT 1 OFFSET ${offset})`
        : `(SELECT ${agg}(${orderExpr(order.column)}) FROM ${table}${where(preds)})`;
    const extreme = [...preds, `${orderExpr(order.column)} = ${sub}`];
    // ("who had the earliest appointment?" of a Date and a Time column: rows of the same day are ordered by the clock.)
    const clock = order.column.schema.type === "date" && offset === 0 ? clockColumn(ctx, target) : undefined;
    if (clock)
      extreme.push(
        `${hasNum(clock)} AND ${numExpr(clock)} = (SELECT ${agg}(${numExpr(clock)}) FROM ${table}${where([...extreme, hasNum(clock)])})`,
      );
    const selected = spending && target === order.column ? `-(${orderExpr(order.column)})` : col(target);
    return {
      sql: `SELECT ${selected} FROM ${table}${where(extreme)} ORDER BY ${ROW}`,
      template: direction === "max" ? "argmax" : "argmin",
      targetColumn: target.schema.name,
    };
  },
};

/** Whether the question closes on its superlative's noun and that noun is a linked cell: "what was the furthest run?". */
function categoryNoun(q: string, filters: readonly EntityMention[]): boolean {
  const noun = /^what (?:is|was) (?:the|my|our) (?:[a-z]+est|most|least|best|worst) ([a-z]+)\??$/.exec(q)?.[1];
  return noun !== undefined && filters.some((m) => m.kind === "exact" && m.text === noun);
}

/** The verb closing "what did/does … X cost?", else "". */
function closingVerb(q: string): string {
  return /^(?:what|how much) (?:did|does|do) .+ ([a-z]{3,})\??$/.exec(q)?.[1] ?? "";
}

/** Superlatives of a plain size: "the largest claim" is its amount, "the heaviest parcel" a parcel. */
const PLAIN_SIZE = /\b(?:largest|biggest|greatest|smallest|highest|lowest|maximum|minimum|max|min|top)\b/;

/** The table's one column of times of day ("Time", "Start"), not a duration or the asked column. */
function clockColumn(ctx: PlanContext, target: CatalogColumn): CatalogColumn | undefined {
  const found = ctx.catalog.columns.filter(
    (c) =>
      (!ctx.usable || ctx.usable.has(c.index)) &&
      c !== target &&
      c.timeShare >= 0.5 &&
      c.headerWords.some((h) => CLOCK_HEADER_WORDS.has(stem(h))),
  );
  return found.length === 1 ? found[0] : undefined;
}

/** Header words of a time of day. */
const CLOCK_HEADER_WORDS = new Set(["time", "start", "slot", "kickoff", "departure", "arrival"].map(stem));

/**
 * Two or three values share the top (bottom) count, and it counts more than one row: a real tie, every value of
 * which answers. (Not a column of distinct values, all tied at one.)
 */
function fewTied(c: CatalogColumn, catalog: TableCatalog, most: boolean, rows?: readonly number[]): boolean {
  if (c.raw.length === 0 || c.raw.length > 5000) return false;
  const skip = new Set([...catalog.summaryRows, ...catalog.headerRows]);
  const counts = new Map<string, number>();
  for (const r of rows ?? c.raw.keys()) {
    const v = c.raw[r] ?? "";
    if (v.trim() !== "" && !skip.has(r)) counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  const values = [...counts.values()];
  const best = most ? Math.max(...values) : Math.min(...values);
  const tied = values.filter((n) => n === best).length;
  return best >= 2 && tied >= 2 && tied <= 3;
}

/** The most (least) frequent non-empty value of the asked-about column. */
export const superlativeFrequency: PlanGenerator = {
  name: "superlative.frequency",
  applies: isSuperlative,
  build: (ctx) => {
    const { analysis: a, catalog, table, opts } = ctx;
    const { filters, filterPreds, basePreds } = ctx.rows();
    const ranked = rankTargetColumns(a, catalog, filters, opts);
    // (Every value unique — a large table's statistics say so, a small one's cells show it — and the grouping
    // could only return a tie of ones: "who has the most tasks?" over one task per row groups the next
    // column whose values repeat, the Owner.)
    const unique = (c: CatalogColumn) =>
      c.maxFreq !== undefined
        ? c.maxFreq <= 1
        : c.raw.length <= 500 && c.distinct.size === c.raw.filter((v) => v.trim() !== "").length;
    let target: CatalogColumn | undefined = ranked[ctx.targetRank]?.column;
    // ("the most borrowed book": the participle is what is counted, the noun after it what is asked for, not the
    // "Borrowed" date the participle spells.)
    const [, participle, noun] = /\b(?:most|least) ([a-z]{3,}ed) ([a-z]{3,})\b/.exec(a.normalized) ?? [];
    if (participle && noun && target && headerMatch([participle], target, false) >= 0.8 && ctx.targetRank === 0)
      target = rankTargetColumns({ ...a, targetHints: [noun] }, catalog, filters, {
        ...opts,
        avoid: new Set([target.index]),
      })[0]?.column;
    // (Only when the rows themselves are counted: "the most tasks" of tasks.csv, what a row is.)
    // ("the most open tasks": a linked value before the noun, Open, is a condition, not what is counted.)
    const linked = new Set(filters.flatMap((m) => m.text.toLowerCase().split(" ")));
    const counted = /\b(?:most|fewest|least) ([a-z]+(?: [a-z]+)?)/
      .exec(a.normalized)?.[1]
      ?.split(" ")
      .find((w, i, ws) => i === ws.length - 1 || !linked.has(w));
    const rowNoun = target?.tableWords?.filter((w) => !/^\d+$/.test(w)).at(-1);
    // (Or, asked who, the counted noun names the column of unique values itself: "who has the most tasks?" of a
    // Task column in event_todo.csv.)
    const countsRows =
      counted !== undefined &&
      ((rowNoun !== undefined && stem(counted) === stem(rowNoun)) ||
        (a.answerType === "person" && target !== undefined && target.headerWords.includes(stem(counted))));
    if (target && unique(target) && countsRows)
      target = ranked
        .slice(ctx.targetRank + 1)
        .find((r) => !isNumericColumn(r.column) && r.column.schema.type !== "date" && !unique(r.column))?.column;
    if (!target || (unique(target) && target.maxFreq !== undefined)) return null;
    const dir = a.sortDirection === "max" ? "DESC" : "ASC";
    const rows = where([...basePreds, `TRIM(${col(target)}) <> ''`, ...summaryFilter(catalog)]);
    // (A few values tied at the top: "which category has the most products?" of two categories of 3 is both.)
    const top = `SELECT COUNT(*) FROM ${table}${rows} GROUP BY ${col(target)} ORDER BY COUNT(*) ${dir} LIMIT 1`;
    // (Among the rows named values select too: "who has the most open tickets?" of two with two open each.)
    // (Only when a count is asked, "the most"; not "threw the farthest", which no frequency answers.)
    const selected =
      basePreds.length === 0
        ? undefined
        : basePreds.length === filterPreds.length && counted !== undefined
          ? mentionRows(filters)
          : null;
    const tie = selected !== null && fewTied(target, catalog, dir === "DESC", selected);
    return {
      sql: tie
        ? `SELECT ${col(target)} FROM ${table}${rows} GROUP BY ${col(target)} HAVING COUNT(*) = (${top}) ORDER BY MIN(${ROW})`
        : `SELECT ${col(target)} FROM ${table}${rows} GROUP BY ${col(target)} ORDER BY COUNT(*) ${dir}, MIN(${ROW}) LIMIT 1`,
      template: "group-count",
      targetColumn: target.schema.name,
    };
  },
};

/** Words asking for a total over each group of rows, not one row's value. */
// ("the lowest score overall" is over all rows, not a total; "the most visitors overall" adds each group up.)
const TOTAL_WORDS =
  /\b(?:in total|total|totals|altogether|combined|all together)\b|\b(?:most|fewest|least) [a-z]+s overall\b/;
/** "which campaign raised the most?", "which region brought in the most revenue?": money a group took in adds up. */
const MONEY_MOST =
  /^(?:which|what|who) (?:[a-z]+ )?(?:raised|gave|given|donated|spent|earned|billed|charged|paid|brought in|took in|made) (?:the )?(?:most|least)(?: (?:money|revenue|income|sales))?\??$/;
/** "which day did we sell the most?", "who baked the most this week?": what a verb names adds up over each group. */
const VERB_MOST =
  /^(?:which|what|who) (?:[a-z]+ )?(?:did (?:we|you|they|i) )?([a-z]{3,}) (?:the )?(?:most|least)(?: (?:this|last) (?:week|month|year)| overall)?(?: on| for| at| in)?\??$/;

/**
 * "Which club earned the most points?" over riders, "which team won the most medals?" over athletes, "who worked
 * the most hours?" over a timesheet: a verb and the measure after "most", asked of a group the noun after "which"
 * names, or of the people "who" asks for (its values repeat, checked below).
 */
const GROUP_VERB_MOST =
  /^(?:(?:which|what) ([a-z]+)|who) ([a-z]{3,}ed|won|got|made|took|sold|ran|rode|gave|drew|had|has|spent) (?:the )?(?:most|fewest|least) ([a-z]+)(?: overall| in total)?\??$/;

/**
 * "which category has the highest total?": where "total" is the measure and names no column, the table's one
 * amount (the one column of money, else its one numeric column that is no identifier, rank, year or date).
 */
function totalOfAmounts(ctx: PlanContext): { column: CatalogColumn; score: number } | undefined {
  if (!/\b(?:highest|largest|biggest|greatest|lowest|smallest) totals?\??$/.test(ctx.analysis.normalized))
    return undefined;
  const amounts = ctx.catalog.columns.filter(
    (c) =>
      (!ctx.usable || ctx.usable.has(c.index)) &&
      isNumericColumn(c) &&
      !isIdentifierColumn(c) &&
      !isRankColumn(c) &&
      !holdsYears(c) &&
      c.schema.type !== "date",
  );
  const money = amounts.filter((c) => isMoneyColumn(c) || c.headerWords.some((h) => MONEY_HEADER_WORDS.includes(h)));
  const only = money.length === 1 ? money[0] : amounts.length === 1 ? amounts[0] : undefined;
  return only ? { column: only, score: 1 } : undefined;
}

/**
 * "which department claimed the most in total?", "which region has the highest total sales?": the value of
 * a text column whose rows together add up to the most (least) of the ordered column. Only over a column
 * whose values repeat: with one row per value, the row with the extreme is the answer (superlative.order).
 */
export const superlativeGroupTotal: PlanGenerator = {
  name: "superlative.group-total",
  applies: (ctx) =>
    isSuperlative(ctx) &&
    (TOTAL_WORDS.test(ctx.analysis.normalized) ||
      MONEY_MOST.test(ctx.analysis.normalized) ||
      VERB_MOST.test(ctx.analysis.normalized) ||
      GROUP_VERB_MOST.test(ctx.analysis.normalized)),
  build: (ctx) => {
    const { analysis: a, catalog, usable, table, opts } = ctx;
    const { filters, cond, basePreds } = ctx.rows();
    const chosen = chooseOrderColumn(a, catalog, filters, { ...opts, avoid: cond.columns });
    // ("claimed the most in total": a verb related to the column names it too.)
    const named = chosen !== undefined && (chosen.score > 0.5 || headerMatch(a.contentWords, chosen.column) >= 0.6);
    const order = named ? chosen : totalOfAmounts(ctx);
    if (!order || !isNumericColumn(order.column) || holdsYears(order.column)) return null;
    // ("the most total votes" names a Total Votes column; "a total of 140 yards" is a condition.)
    const totalWord = /\b(?:in total|altogether|combined|all together|overall)\b|\btotals?\b(?! of \d)/.exec(
      a.normalized,
    );
    const money =
      // (Money in the cells, or a header that says amount or revenue: "Amount" of 250.00.)
      (MONEY_MOST.test(a.normalized) &&
        (order.column.raw.some((v) => /[$€£¥]/.test(v)) ||
          order.column.headerWords.some((h) => MONEY_HEADER_WORDS.includes(h) || /^(revenue|sale|income)$/.test(h)))) ||
      (VERB_MOST.test(a.normalized) && headerMatch([VERB_MOST.exec(a.normalized)![1]!], order.column) >= 0.6);
    const groupVerb = GROUP_VERB_MOST.exec(a.normalized);
    if (
      !money &&
      !groupVerb &&
      (!totalWord || (/^total/.test(totalWord[0]) && order.column.headerWords.includes("total")))
    )
      return null;
    // ("which order brought in the most?" over shop_orders.csv: a row is asked for, not a group.)
    const asked = /^(?:which|what) ([a-z]+)/.exec(a.normalized)?.[1];
    const rowNoun = order.column.tableWords?.filter((w) => !/^\d+$/.test(w)).at(-1);
    if (asked !== undefined && rowNoun !== undefined && stem(asked) === stem(rowNoun)) return null;
    const group = rankTargetColumns(a, catalog, filters, { ...opts, avoid: new Set([order.column.index]) })
      .map((r) => r.column)
      .filter(
        (c) =>
          (!usable || usable.has(c.index)) &&
          !isNumericColumn(c) &&
          !isIdentifierColumn(c) &&
          c.schema.type !== "date" &&
          !filters.some((m) => m.columnIndex === c.index),
      )[ctx.targetRank];
    if (!group) return null;
    // (The asked noun names the group outright, and the measure the ordered column: "club" of Club, "points" of Pts.)
    if (
      groupVerb &&
      !money &&
      !totalWord &&
      ((groupVerb[1] !== undefined && headerMatch([groupVerb[1]], group, false) < 1.5) ||
        headerMatch([groupVerb[3]!], order.column) < 0.6)
    )
      return null;
    const filled = group.raw.filter((v) => v.trim() !== "").length;
    if (group.distinct.size >= filled) return null;
    // (Groups of two rows or more on average: "Which crew logged the most laps?" of a table of entries where
    // a few teams run twice asks for the entry.)
    if (groupVerb && !money && !totalWord && group.distinct.size * 2 > filled) return null;
    const dir =
      orderDirection(superlativeWord(a.normalized), a.sortDirection!, order.column) === "max" ? "DESC" : "ASC";
    // ("which category did I spend the most on?" of a statement's signed Amount: the money out of each, as positive.)
    const spending = spendsSignedAmounts(a, order.column, catalog);
    const measure = spending ? `-(${orderExpr(order.column)})` : orderExpr(order.column);
    return {
      sql: `SELECT ${col(group)} FROM ${table}${where([...basePreds, `TRIM(${col(group)}) <> ''`, hasNum(order.column), ...(spending ? [`${orderExpr(order.column)} < 0`] : []), ...summaryFilter(catalog)])} GROUP BY ${col(group)} ORDER BY SUM(${measure}) ${dir}, MIN(${ROW}) LIMIT 1`,
      template: dir === "DESC" ? "argmax" : "argmin",
      targetColumn: group.schema.name,
    };
  },
};

/** "which category has the highest average price?": the group named, the extreme, the averaged measure's words. */
const GROUP_AVERAGE =
  /^(?:which|what) ([a-z]+(?: [a-z]+)?) (?:has|had|have|gets?|got|earns?|pays?|with) (?:the )?(highest|lowest|best|worst|largest|smallest|biggest|greatest|top|most|least|fewest|higher|lower|better|worse|larger|smaller|bigger|greater) (?:average|avg|mean)\b(.*)$/;
/** "which city has cheaper rents on average?": the extreme before the measure, the average after it. */
const GROUP_ON_AVERAGE =
  /^(?:which|what) ([a-z]+(?: [a-z]+)?) (?:has|had|have|gets?|got|pays?|with) (?:the )?(highest|lowest|best|worst|largest|smallest|biggest|greatest|most|least|fewest|higher|lower|better|worse|larger|smaller|bigger|greater|cheapest|cheaper|dearest|dearer) (.+?) on average$/;
/** "which courier is fastest on average?", "the most expensive supplier on average": the adjective names the measure. */
const GROUP_IS_ON_AVERAGE =
  /^(?:(?:which|what) ([a-z]+(?: [a-z]+)?) (?:is|was|are|were) (?:the )?((?:most|least) [a-z]+|[a-z]{3,}est)|(?:the )?((?:most|least) [a-z]+|[a-z]{3,}est) ([a-z]+(?: [a-z]+)?)) on average$/;
/** "which department pays the least on average?": the verb names the measure. */
const GROUP_VERB_ON_AVERAGE =
  /^(?:which|what) ([a-z]+(?: [a-z]+)?) ((?!(?:is|was|has|does)\b)[a-z]{3,}s) (?:the )?(most|least|highest|lowest|fewest) on average$/;
const MIN_WORDS = /^(lowest|worst|smallest|least|fewest|lower|worse|smaller|cheapest|cheaper)$/;

/** The group, the extreme and the measure's words of a group-average question, or undefined. */
function groupAverageParts(q: string): { group: string[]; extreme: string; measure: string } | undefined {
  const text = q.replace(/[?.!]+$/, "");
  const m = GROUP_AVERAGE.exec(text) ?? GROUP_ON_AVERAGE.exec(text);
  if (m) return { group: m[1]!.split(" "), extreme: m[2]!, measure: m[3]! };
  const verb = GROUP_VERB_ON_AVERAGE.exec(text);
  if (verb) return { group: verb[1]!.split(" "), extreme: verb[3]!, measure: verb[2]! };
  const is = GROUP_IS_ON_AVERAGE.exec(text);
  if (!is) return undefined;
  // ("most expensive": "most" is the extreme, "expensive" the measure; "fastest" is both.)
  const adjective = is[2] ?? is[3]!;
  const [extreme, measure] = /^(?:most|least) /.test(adjective) ? adjective.split(" ") : [adjective, adjective];
  return { group: (is[1] ?? is[4]!).split(" "), extreme: extreme!, measure: measure! };
}

/**
 * "which department has the highest average salary?": of a column of repeating values (the group the
 * question names), the value whose rows' mean of the named measure is the extreme — not the table's average.
 */
export const superlativeGroupAverage: PlanGenerator = {
  name: "superlative.group-average",
  applies: (ctx) => groupAverageParts(ctx.analysis.normalized) !== undefined,
  build: (ctx) => {
    const { analysis: a, catalog, usable, table } = ctx;
    const { filters, basePreds } = ctx.rows();
    const m = groupAverageParts(a.normalized)!;
    const measureWords = m.measure.split(/\s+/).filter((w) => w !== "" && !STOP_WORDS.has(w));
    const usableColumn = (c: CatalogColumn) =>
      (!usable || usable.has(c.index)) && !filters.some((f) => f.columnIndex === c.index);
    const best = (cs: CatalogColumn[], words: string[]) =>
      cs
        .map((c) => ({ c, s: headerMatch(words, c) }))
        .filter((x) => x.s >= 0.8)
        .sort((x, y) => y.s - x.s)[0]?.c;
    const measures = catalog.columns.filter(
      (c) => usableColumn(c) && isNumericColumn(c) && !holdsYears(c) && !isIdentifierColumn(c),
    );
    // ("which courier is fastest on average?": a duration in units, "Days in Transit", when no column says time.)
    const measure =
      best(measures, measureWords) ??
      (/^(?:fastest|quickest|slowest)$/.test(m.measure)
        ? measures.find((c) => c.headerWords.some((h) => minutesPerTimeUnit(h) !== undefined))
        : undefined);
    const group = best(
      catalog.columns.filter((c) => usableColumn(c) && !isNumericColumn(c) && c.schema.type !== "date"),
      m.group,
    );
    if (!measure || !group) return null;
    // (A group is a value several rows share: a name of its own per row is no group.)
    const filled = group.raw.filter((v) => v.trim() !== "").length;
    if (group.distinct.size >= filled) return null;
    const dir =
      orderDirection(m.extreme, MIN_WORDS.test(m.extreme) ? "min" : "max", measure) === "max" ? "DESC" : "ASC";
    return {
      sql: `SELECT ${col(group)} FROM ${table}${where([...basePreds, `TRIM(${col(group)}) <> ''`, hasNum(measure), ...summaryFilter(catalog)])} GROUP BY ${col(group)} ORDER BY AVG(${orderExpr(measure)}) ${dir}, MIN(${ROW}) LIMIT 1`,
      template: dir === "DESC" ? "argmax" : "argmin",
      targetColumn: group.schema.name,
    };
  },
};
