/**
 * Offline NL→SQL: SQLite SELECTs built from templates over one table — lookup, filtered count,
 * sum/average, argmax/argmin (ties kept), comparison of two named rows (which / more-or-less /
 * difference), first/last row and next/previous row (by `_row`), percentage change.
 *
 * Guard contract (retrievers/sql-guard.ts): only the usable (allowed) columns and `_row` appear;
 * every required binding appears verbatim in the OUTER WHERE, joined by AND, as
 * `<binding column> = 'value'` (or `LIKE '%value%'` for fuzzy bindings). Numbers stored as text
 * are read with SQLite's CAST after dropping thousands separators and currency signs (on a PostgreSQL
 * store the fragments of nodes/offline/sql-dialect.ts compute the same values).
 */
import type { SearchableIndex as OpenedIndex } from "../../retrievers/open-search.js";
import { quoteIdent } from "../../indexing/sql-store.js";
import { ROW_ID_COLUMN, type TableSchema } from "../../indexing/types.js";
import { bindingColumn, isRequiredBinding } from "../../retrievers/sql-guard.js";
import type { WriteSqlInput } from "../strategies.js";
import { analysisOf, analyzeQuestion, type QuestionAnalysis } from "./analysis.js";
import { askedWords, findMentions } from "./mentions.js";
import { loadCatalog } from "./table-catalog.js";
import { normaliseText } from "../../text/normalise.js";
import { chooseConditionColumn, chooseOrderColumn, headerMatch, isNumericColumn, isRankColumn, isYearColumn, orderDirection, rankTargetColumns, stopWordHeader, superlativeWord } from "./columns.js";
import type { EntityMention } from "./mentions.js";
import type { CatalogColumn, TableCatalog } from "./table-catalog.js";
import { MONTH_NAMES, ORDINAL_PATTERN, ordinalValue } from "../../text/lexicons.js";
import { SQLITE_FRAGMENTS, sqlFragments, type SqlFragments } from "./sql-dialect.js";

/** A value the SQL must contain as a mandatory outer-WHERE predicate (from the value linker). */
export interface RequiredBinding {
  columnIndex: number;
  value: string;
  fuzzy: boolean;
}

export interface SqlPlanInput {
  analysis: QuestionAnalysis;
  catalog: TableCatalog;
  mentions: EntityMention[];
  /** Column indices the SQL may use (allowed columns C). All when undefined. */
  usable?: Set<number>;
  bindings?: RequiredBinding[];
}

/** What the SQL computes, so the caller can format and judge the result. */
export type SqlTemplate =
  | "lookup"
  | "count"
  | "count-column"
  | "sum"
  | "avg"
  | "argmax"
  | "argmin"
  | "group-count"
  | "first"
  | "last"
  | "next"
  | "previous"
  | "choice"
  | "moreless"
  | "difference"
  | "percent-change";

export interface SqlPlan {
  sql: string;
  template: SqlTemplate;
  /** Logical name of the answer column ("" for computed answers). */
  targetColumn: string;
  /** For "choice" plans: the options the answer is one of (as the SQL returns them). */
  options?: string[];
  /** Every row the statement returns is the answer (the rows of a period), even for a singular question. */
  allRows?: boolean;
}

const ROW = quoteIdent(ROW_ID_COLUMN);
/** The store's fragments, set by createWriteSql for one (synchronous) planSql call; SQLite otherwise. */
let d: SqlFragments = SQLITE_FRAGMENTS;

/** SQL string literal with quotes doubled. */
export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

function col(c: CatalogColumn, alias?: string, raw = true): string {
  const name = quoteIdent(raw ? c.schema.rawPhysical : c.schema.physical);
  return alias ? `${alias}.${name}` : name;
}

/** Numeric value of a column: the typed column when numeric, else the raw text parsed by CAST. */
function numExpr(c: CatalogColumn, alias?: string): string {
  if (c.schema.type === "integer" || c.schema.type === "real") return col(c, alias, false);
  if (c.timeShare >= 0.5) {
    // "m:ss.xx" (or "h:mm:ss") as seconds; a leading "+" (gap times) is dropped.
    const r = `REPLACE(TRIM(${col(c, alias)}), '+', '')`;
    // (No parentheses around CASE: the guard's parser refuses "SELECT (CASE …) FROM" in a sub-query.)
    const colon = d.instr(r, "':'");
    return `CASE WHEN ${colon} > 0 THEN ${d.real(`substr(${r}, 1, ${colon} - 1)`)} * 60 + ${d.real(`REPLACE(substr(${r}, ${colon} + 1), ':', '')`)} ELSE ${d.real(r)} END`;
  }
  if (c.schema.type === "date") return d.int(`substr(${col(c, alias, false)}, 1, 4)`);
  const bare = `REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(TRIM(${col(c, alias)}), ',', ''), '$', ''), '%', ''), '+', ''), '(', ''), ')', '')`;
  // "(874)" / "$(874)" is an accounting negative.
  return `CASE WHEN ${d.glob(`TRIM(${col(c, alias)})`, "(*")} OR ${d.glob(`TRIM(${col(c, alias)})`, "$(*")} THEN -${d.real(bare)} ELSE ${d.real(bare)} END`;
}

/** Predicate: the column holds a usable number (or date). */
function hasNum(c: CatalogColumn, alias?: string): string {
  if (c.schema.type !== "text") return `${col(c, alias, false)} IS NOT NULL`;
  return `(${d.glob(col(c, alias), "*[0-9]*")} AND ${d.glob(`TRIM(${col(c, alias)})`, "[0-9$+.(-]*")})`;
}

/** Ordering expression: ISO text for dates, numbers otherwise. */
function orderExpr(c: CatalogColumn, alias?: string): string {
  if (c.schema.type === "date") return col(c, alias, false);
  if (!isNumericColumn(c) && isYearColumn(c)) return d.int(col(c, alias));
  return numExpr(c, alias);
}

function yearExpr(c: CatalogColumn, alias?: string): string {
  if (c.schema.type === "date") return d.int(`substr(${col(c, alias, false)}, 1, 4)`);
  if (isNumericColumn(c)) return numExpr(c, alias);
  return d.int(col(c, alias));
}

function bindingPredicate(b: RequiredBinding, catalog: TableCatalog, alias?: string): string {
  const c = catalog.columns[b.columnIndex]!;
  const name = quoteIdent(bindingColumn(c.schema));
  const ref = alias ? `${alias}.${name}` : name;
  return b.fuzzy ? `${ref} LIKE ${sqlString(`%${b.value}%`)}` : `${ref} = ${sqlString(b.value)}`;
}

function mentionPredicate(m: EntityMention, catalog: TableCatalog, alias?: string): string {
  const c = catalog.columns[m.columnIndex]!;
  const values = new Set(m.rows.map((r) => c.raw[r]));
  if (values.size > 1) return `${alias ? `${alias}.` : ""}${ROW} IN (${m.rows.join(", ")})`;
  return `${col(c, alias)} = ${sqlString(m.value)}`;
}

function sameBinding(m: EntityMention, b: RequiredBinding, catalog: TableCatalog): boolean {
  if (m.columnIndex !== b.columnIndex) return false;
  const v = catalog.columns[b.columnIndex]!.raw[m.rows[0]!] ?? m.value;
  return b.fuzzy ? v.toLowerCase().includes(b.value.toLowerCase()) : v.trim() === b.value.trim();
}

function conditionPredicates(a: QuestionAnalysis, catalog: TableCatalog, usable: Set<number> | undefined, alias?: string): { preds: string[]; columns: Set<number> } {
  const preds: string[] = [];
  const columns = new Set<number>();
  for (const cond of a.conditions) {
    if (cond.top) {
      // The rank column when there is one; else the table's own order (a ranked list).
      const rank = catalog.columns.find((t) => (!usable || usable.has(t.index)) && isRankColumn(t) && isNumericColumn(t));
      const ref = alias ? `${alias}.${ROW}` : ROW;
      preds.push(rank ? `${hasNum(rank, alias)} AND ${numExpr(rank, alias)} <= ${cond.value}` : `${ref} < ${cond.value + [...catalog.headerRows].length}`);
      if (rank) columns.add(rank.index);
      continue;
    }
    if (cond.place) {
      const rank = catalog.columns.find((t) => (!usable || usable.has(t.index)) && isRankColumn(t) && t.num.some((v) => v !== null));
      if (!rank) continue;
      preds.push(`${hasNum(rank, alias)} AND ${numExpr(rank, alias)} ${cond.op} ${cond.value}`);
      columns.add(rank.index);
      continue;
    }
    const c = cond.clock
      ? catalog.columns.find((t) => (!usable || usable.has(t.index)) && t.timeShare >= 0.5)
      : chooseConditionColumn(cond.hint, cond.value, catalog, { ...(usable ? { usable } : {}), ...(cond.percent ? { percent: true } : {}) });
    if (!c) continue;
    // "before september 2004" on a date column: the month (or date) bound already reads the year.
    if (c.schema.type === "date" && monthBound(a.normalized)?.year === String(cond.value)) continue;
    const yearLike = Number.isInteger(cond.value) && cond.value >= 1000 && cond.value <= 2100 && isYearColumn(c);
    const expr = yearLike ? yearExpr(c, alias) : numExpr(c, alias);
    preds.push(`${hasNum(c, alias)} AND ${expr} ${cond.op} ${cond.value}`);
    columns.add(c.index);
  }
  return { preds, columns };
}

/** "no role listed", "without a given area", "did not have a time": the named column is empty. */
function emptinessPredicates(a: QuestionAnalysis, catalog: TableCatalog, usable: Set<number> | undefined): { preds: string[]; columns: Set<number> } {
  const preds: string[] = [];
  const columns = new Set<number>();
  const re = /\b(?:no|zero|without|(?:does|did|do) not have|doesn't have|didn't have|not have|has no|had no|not listed (?:a|an|any)?|lacks?|missing)\s+(?:a |an |any |the )?(?:given |listed |recorded |known )?([a-z][a-z'-]*(?:\s+[a-z][a-z'-]*)?)/g;
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
    if (!best || columns.has(best.index)) continue;
    const blank = `TRIM(${col(best)}) IN ('', '-', '—', '–', 'n/a', 'N/A', 'none', 'None')`;
    // "no gold medals" on a column of counts: a 0 is as empty as a blank.
    preds.push(isNumericColumn(best) ? `(${blank} OR ${numExpr(best)} = 0)` : blank);
    columns.add(best.index);
  }
  return { preds, columns };
}

const MONTHS: readonly string[] = MONTH_NAMES;

/** The numeric column whose header best names the counted noun ("weeks at No. 1" for "how many weeks"). */
function countColumn(noun: string[], catalog: TableCatalog, usable: Set<number> | undefined, used: Set<number>): { column: CatalogColumn | undefined; score: number } {
  let column: CatalogColumn | undefined;
  let score = 0;
  for (const c of catalog.columns) {
    if ((usable && !usable.has(c.index)) || !isNumericColumn(c) || used.has(c.index)) continue;
    // Years are counted by rows, never summed or read as a count ("how many years …").
    if (holdsYears(c)) continue;
    const s = headerMatch(noun, c);
    if (s > score) {
      score = s;
      column = c;
    }
  }
  return { column, score };
}

/** Nouns that count a quantity, not rows: "how many units … in total" sums a column. */
const MEASURE_NOUNS = /^(units?|items?|pieces?|copies|packs?|boxes|crates|cases|bottles|bags|tons?|tonnes?|litres?|liters?|kilograms?|kg|pounds?|dollars?|euros?)$/;

/**
 * "what is the highest salary?", "what's the maximum amount of a sale?", "what is the best selling album?": the
 * column named by the noun phrase after the superlative — its last word that names a column exactly.
 */
function superlativeHead(q: string, catalog: TableCatalog, usable: Set<number> | undefined): CatalogColumn | undefined {
  const m = /^(?:what|how much|how many)\s+(?:is|was|are|were)\s+the\s+(?:most|highest|largest|biggest|greatest|top|best|maximum|max|longest|tallest|heaviest|least|lowest|smallest|minimum|min|shortest|worst|cheapest|fewest|latest|earliest|newest|oldest)\s+(?:(?:number|amount|count|total) of\s+(?:the\s+)?)?([a-z][a-z -]*?)(?:\s+(?:of|in|for|among|on|at|by|to|with|from|that|which|who|it|listed|recorded|shown|made|won|ever|per)\b.*)?\s*\??$/.exec(q);
  if (!m) return undefined;
  for (const w of m[1]!.trim().split(/[ -]+/).reverse()) {
    const named = catalog.columns.find((c) => (!usable || usable.has(c.index)) && headerMatch([w], c, false) >= 1.5);
    if (named) return named;
  }
  return undefined;
}

/** The numeric column one question word names best, whatever its position in the question. */
function bestSingleWordColumn(words: string[], catalog: TableCatalog, usable: Set<number> | undefined, used: Set<number>): { column: CatalogColumn | undefined; score: number } {
  return words.map((w) => countColumn([w], catalog, usable, used)).reduce((b, x) => (x.score > b.score ? x : b), { column: undefined, score: 0 });
}

/** "which crew had the longest winning streak?", "what movie was …": the answer is a row's cell, not a number. */
function asksForEntity(q: string): boolean {
  return /\b(which|who|whom|whose)\b/.test(q) || /\bwhat (?!(?:is|was|were|are|has|had|s)\b)[a-z]/.test(q);
}

/** "before september 2004", "after march 1, 2009" (a day makes the bound a date): a month bound, of the given month or any. */
function monthBound(q: string, month?: number): { before: boolean; word: string; day: string | undefined; year: string } | null {
  const m = new RegExp(`\\b(before|prior to|until|after|since|from) (${month === undefined ? MONTHS.join("|") : MONTHS[month]})(?:\\s+(\\d{1,2})(?:st|nd|rd|th)?,?)?\\s+(?:of\\s+)?(\\d{4})`).exec(q);
  if (!m) return null;
  return { before: ["before", "prior to", "until"].includes(m[1]!), word: m[1]!, day: m[3], year: m[4]! };
}

/**
 * Two frequent row conditions that name no cell: a month ("games in october", "before september
 * 2004") on a date column, and a finishing place ("placed first", "came in 2nd place") on a
 * position-like column (the place number is what the cell starts with: "1", "1st", "1st place").
 */
function monthAndPlacePredicates(a: QuestionAnalysis, catalog: TableCatalog, usable: Set<number> | undefined, mentions: EntityMention[]): { preds: string[]; columns: Set<number>; yearOfDate: boolean } {
  const preds: string[] = [];
  const columns = new Set<number>();
  const q = a.normalized;
  const ok = (c: CatalogColumn) => (!usable || usable.has(c.index)) && !mentions.some((m) => m.columnIndex === c.index);
  // (A month inside a mention, "july 10, 1939", is already a cell condition.)
  const month = MONTHS.findIndex((m) => new RegExp(`\\b${m}\\b`).test(q) && !(m === "may" && /\bmay (be|have|not)\b/.test(q)) && !mentions.some((x) => x.text.split(" ").includes(m)));
  if (month >= 0) {
    const dateCol = monthColumn(catalog, ok, month);
    if (dateCol) {
      const bound = monthBound(q, month);
      const mm = String(month + 1).padStart(2, "0");
      if (dateCol.schema.type === "date" && bound) {
        const y = bound.year;
        const day = bound.day ? `-${bound.day.padStart(2, "0")}` : "";
        const op = bound.before ? "<" : day && bound.word === "after" ? ">" : ">=";
        preds.push(`${col(dateCol, undefined, false)} IS NOT NULL AND substr(${col(dateCol, undefined, false)}, 1, ${day ? 10 : 7}) ${op} '${y}-${mm}${day}'`);
      } else if (!bound) {
        // "in september or november", "in july and august": rows of either month.
        const pair = new RegExp(`\\b(?<!between )(${MONTHS.join("|")}) (?:or|and) (${MONTHS.join("|")})\\b`).exec(q);
        const months = pair && [pair[1], pair[2]].includes(MONTHS[month]) ? [MONTHS.indexOf(pair[1]!), MONTHS.indexOf(pair[2]!)] : [month];
        const one = (i: number) => dateCol.schema.type === "date" ? `substr(${col(dateCol, undefined, false)}, 6, 2) = '${String(i + 1).padStart(2, "0")}'` : d.likeText(col(dateCol), `%${MONTHS[i]!.slice(0, 3)}%`);
        preds.push(months.length > 1 ? `(${months.map(one).join(" OR ")})` : one(month));
        // "in march 2023": the month of that year.
        const year = new RegExp(`\\b${MONTHS[month]} (?:of )?((?:1[89]|20)\\d\\d)\\b`).exec(q)?.[1];
        if (year && dateCol.schema.type === "date") preds.push(`substr(${col(dateCol, undefined, false)}, 1, 4) = '${year}'`);
      }
      if (preds.length > 0) columns.add(dateCol.index);
    }
  }
  let yearOfDate = false;
  // "who started in 2019?": a year that names no cell, on a column of full dates (a column of years holds it as a cell).
  const yearOnly = /\b(?:in|during|for|of)\s+(?:the\s+year\s+)?((?:1[89]|20)\d\d)\b(?!\s*[-–/])/.exec(q);
  if (yearOnly && !mentions.some((m) => m.text.split(" ").includes(yearOnly[1]!)) && !a.conditions.some((c) => c.value === Number(yearOnly[1])) && !MONTHS.some((m) => q.includes(`${m} ${yearOnly[1]}`))) {
    const dates = catalog.columns.filter((c) => ok(c) && c.schema.type === "date");
    const dateCol = dates.length === 1 ? dates[0] : namedDateColumn(a, catalog, usable, new Set(mentions.map((m) => m.columnIndex)));
    if (dateCol && dateCol.schema.type === "date" && !columns.has(dateCol.index)) {
      preds.push(`substr(${col(dateCol, undefined, false)}, 1, 4) = '${yearOnly[1]}'`);
      columns.add(dateCol.index);
      yearOfDate = true;
    }
  }
  // (An ordinal before another noun is not a place: "was the first season", "got the 2nd most votes".)
  const place = new RegExp(String.raw`\b(?:placed?|finish(?:ed)?|came(?: in)?|come(?: in)?|got|get|ranked|was) (?:in )?(?:the )?(${ORDINAL_PATTERN}|1st|2nd|3rd|[4-9]th|10th)\b(?=\s+(?:place|position|overall|in|at|on|for|with|and|or|out|of|to|by|during|twice|once|times?|called|named)\b|\s*[?.,!;]|\s*$)(?: place)?`).exec(q) ?? /\b(first|second|third|1st|2nd|3rd|[4-9]th) place\b/.exec(q);
  // ("above 5th place" is a place comparison, read with the conditions.)
  if (place && !a.conditions.some((c) => c.place)) {
    const word = place[1]!;
    const n = ordinalValue(word) ?? Number(word.replace(/\D/g, ""));
    const placeCol = catalog.columns.find((c) => ok(c) && isRankColumn(c) && c.num.some((v) => v === n));
    if (placeCol) {
      preds.push(`${d.int(`TRIM(${col(placeCol)})`)} = ${n} AND ${d.glob(`TRIM(${col(placeCol)})`, "[0-9]*")}`);
      columns.add(placeCol.index);
    }
  }
  return { preds, columns, yearOfDate };
}

const OUTCOMES: Record<"win" | "loss" | "draw", RegExp> = {
  win: /^(w|win|won|wins|winner|victory)$/,
  loss: /^(l|loss|lost|lose|defeat|defeated)$/,
  draw: /^(d|t|draw|drawn|tie|tied)$/,
};

/** A column of match outcomes ("W 24–7", "L", "Won", "Nominated"): most cells start with an outcome word. */
function outcomeColumn(catalog: TableCatalog, ok: (c: CatalogColumn) => boolean): CatalogColumn | undefined {
  const first = (v: string) => (/^[a-z]+/i.exec(v.trim())?.[0] ?? "").toLowerCase();
  return catalog.columns.find((c) => {
    if (!ok(c) || isNumericColumn(c)) return false;
    const cells = c.raw.filter((v) => v.trim() !== "");
    const outcome = cells.filter((v) => Object.values(OUTCOMES).some((re) => re.test(first(v))) || /^nominated$/i.test(first(v)));
    return cells.length >= 2 && outcome.length >= 0.6 * cells.length && cells.some((v) => OUTCOMES.win.test(first(v)));
  });
}

/**
 * "how many matches did the falcons win?", "number of losses": the rows whose outcome cell is a win
 * (loss, draw), when the table has an outcome column and no column is named by the outcome word
 * (a "Wins" column is read, not filtered). "did not win" selects the other rows.
 */
function outcomePredicates(a: QuestionAnalysis, catalog: TableCatalog, ok: (c: CatalogColumn) => boolean): { preds: string[]; columns: Set<number> } {
  const q = a.normalized;
  const m = /\b(win|wins|won|winning|victory|victories|beat|beaten|lose|loses|lost|losing|loss|losses|defeat|defeats|defeated|draw|draws|drew|drawn|tie|ties|tied)\b/.exec(q);
  if (!m) return { preds: [], columns: new Set() };
  const kind = /^(win|wins|won|winning|victory|victories|beat|beaten)$/.test(m[1]!) ? "win" : /^(draw|draws|drew|drawn|tie|ties|tied)$/.test(m[1]!) ? "draw" : "loss";
  if (catalog.columns.some((c) => isNumericColumn(c) && headerMatch([m[1]!], c, false) >= 1.5)) return { preds: [], columns: new Set() };
  const c = outcomeColumn(catalog, ok);
  if (!c) return { preds: [], columns: new Set() };
  const negated = /\b(not|n't|never|no|without)\s+(?:\w+\s+)?$/.test(q.slice(0, m.index));
  // The outcome words as the cells write them ("W", "Won"): the cell is the word, or the word then a non-letter.
  const tokens = [...new Set(c.raw.map((v) => /^[a-z]+/i.exec(v.trim())?.[0] ?? "").filter((t) => OUTCOMES[kind].test(t.toLowerCase())))];
  if (tokens.length === 0) return { preds: [], columns: new Set() };
  const any = tokens.map((t) => `${d.glob(`TRIM(${col(c)})`, t)} OR ${d.glob(`TRIM(${col(c)})`, `${t}[^A-Za-z]*`)}`).join(" OR ");
  return { preds: [negated ? `TRIM(${col(c)}) <> '' AND NOT (${any})` : `(${any})`], columns: new Set([c.index]) };
}

/** A column of years (not amounts that happen to fall in 1000–2100: "$1,200"). */
function holdsYears(c: CatalogColumn): boolean {
  return isYearColumn(c) && !c.raw.some((v) => /[$€£¥,]/.test(v));
}

/** A column of dates (typed, or text naming months) that a month condition or grouping reads. */
function monthColumn(catalog: TableCatalog, ok: (c: CatalogColumn) => boolean, month?: number): CatalogColumn | undefined {
  const names = month === undefined ? MONTHS : [MONTHS[month]!];
  const named = (v: string) => names.some((m) => new RegExp(`\\b${m.slice(0, 3)}`, "i").test(v));
  return catalog.columns.find((c) => ok(c) && (c.schema.type === "date" || c.raw.some(named)) && (c.schema.type === "date" || c.headerWords.some((h) => /^(date|month|day|time|held|played)$/.test(h))));
}

/** "which month had the most concerts?": the month (of a date column) on the most (fewest) rows. */
function monthFrequencyPlan(a: QuestionAnalysis, catalog: TableCatalog, usable: Set<number> | undefined, basePreds: string[], table: string): SqlPlan | null {
  if (!/\b(which|what) month\b/.test(a.normalized) || !a.sortDirection) return null;
  const c = monthColumn(catalog, (x) => !usable || usable.has(x.index));
  if (!c) return null;
  const cases = MONTHS.map((m, i) => {
    const name = sqlString(m[0]!.toUpperCase() + m.slice(1));
    return c.schema.type === "date" ? `WHEN substr(${col(c, undefined, false)}, 6, 2) = '${String(i + 1).padStart(2, "0")}' THEN ${name}` : `WHEN ${d.likeText(col(c), `%${m.slice(0, 3)}%`)} THEN ${name}`;
  });
  const month = `CASE ${cases.join(" ")} END`;
  const dir = a.sortDirection === "max" ? "DESC" : "ASC";
  return {
    sql: `SELECT ${month} FROM ${table}${where([...basePreds, `${month} IS NOT NULL`, ...summaryFilter(catalog)])} GROUP BY ${month} ORDER BY COUNT(*) ${dir}, MIN(${ROW}) LIMIT 1`,
    template: "group-count",
    targetColumn: c.schema.name,
  };
}

/** "were there more concerts in may or june?", "was april or july busier?": of two months, the one on more (fewer) rows. */
function monthChoicePlan(a: QuestionAnalysis, catalog: TableCatalog, usable: Set<number> | undefined, table: string): SqlPlan | null {
  const pair = new RegExp(`\\b(${MONTHS.join("|")}) or (${MONTHS.join("|")})\\b`).exec(a.normalized);
  const word = /\b(more|most|busier|busiest|fewer|less|least)\b/.exec(a.normalized);
  if (!pair || !word || /\bhow (many|much)\b/.test(a.normalized)) return null;
  const c = monthColumn(catalog, (x) => !usable || usable.has(x.index));
  if (!c) return null;
  const names = [pair[1]!, pair[2]!].map((m) => m[0]!.toUpperCase() + m.slice(1));
  const rows = [pair[1]!, pair[2]!].map((m) => {
    const i = MONTHS.indexOf(m);
    const pred = c.schema.type === "date" ? `substr(${col(c, undefined, false)}, 6, 2) = '${String(i + 1).padStart(2, "0")}'` : d.likeText(col(c), `%${m.slice(0, 3)}%`);
    return `(SELECT COUNT(*) FROM ${table}${where([pred, ...summaryFilter(catalog)])})`;
  });
  const op = /^(fewer|less|least)$/.test(word[1]!) ? "<" : ">";
  return {
    sql: `SELECT CASE WHEN ${rows[0]} ${op} ${rows[1]} THEN ${sqlString(names[0]!)} WHEN ${rows[1]} ${op} ${rows[0]} THEN ${sqlString(names[1]!)} END`,
    template: "choice",
    targetColumn: c.schema.name,
    options: names,
  };
}

/** Rows selected by every mention (intersection), for deciding between a value and a sum. */
function mentionRows(mentions: EntityMention[]): number[] | undefined {
  let rows: Set<number> | undefined;
  for (const m of mentions) rows = rows ? new Set(m.rows.filter((r) => rows!.has(r))) : new Set(m.rows);
  return rows ? [...rows] : undefined;
}

function summaryFilter(catalog: TableCatalog, alias?: string): string[] {
  if (catalog.summaryRows.size === 0) return [];
  const ref = alias ? `${alias}.${ROW}` : ROW;
  return [`${ref} NOT IN (${[...catalog.summaryRows].join(", ")})`];
}

function where(preds: string[]): string {
  return preds.length ? ` WHERE ${preds.join(" AND ")}` : "";
}

/** A mention that is only the literal of a numeric condition ("below 1.75" → "1 75"; "250,000,000" → "250 000 000"). */
function isConditionLiteral(text: string, a: QuestionAnalysis): boolean {
  // ("above 5th place": the place "5th" is compared, not selected.)
  const ordinal = /^(\d+)(st|nd|rd|th)$/.exec(text);
  if (ordinal) return a.conditions.some((c) => c.place && c.value === Number(ordinal[1]));
  if (!/^\d+( \d+)*$/.test(text)) return false;
  const readings = [Number(text.replace(/ /g, "")), Number(text.replace(" ", "."))];
  return a.conditions.some((c) => readings.includes(c.value));
}

/**
 * Mentions usable as filters: in usable columns, and not the numbers a condition already uses.
 * Mentions of the same column as another (stronger) mention are kept only when they name the
 * same row set (AND of two different values of one column finds nothing).
 */
function filterMentions(a: QuestionAnalysis, mentions: EntityMention[], usable: Set<number> | undefined): EntityMention[] {
  const conditionNumbers = new Set(a.conditions.map((c) => String(c.value)));
  const tokens = a.normalized.replace(/[^a-z0-9\u00c0-\u024f]+/g, " ").trim().split(" ");
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
      if (between.length === 1 && (between[0] === "and" || between[0] === "or") && o.value !== m.value && !/\b(each|same|between)\b/.test(a.normalized)) {
        out[i] = { ...o, rows: [...new Set([...o.rows, ...m.rows])].sort((p, q) => p - q) };
      }
      continue;
    }
    out.push(m);
  }
  return out;
}

/** Builds the SQL for a question over one table, or null when no template applies. */
export function planSql(input: SqlPlanInput): SqlPlan | null {
  const { catalog, usable } = input;
  let a = input.analysis;
  // "are there at least 12 riders in this table?": the row count compared with the number.
  const atLeast = /^(?:are|were) there (at least|more than|over|fewer than|less than|at most) (\d+) [a-z]/.exec(a.normalized);
  const bound = atLeast ? a.conditions.find((c) => c.value === Number(atLeast[2]) && !c.place && !c.top && !c.clock) : undefined;
  if (atLeast && bound) {
    const counted = planSql({ ...input, analysis: { ...a, operator: "count", answerType: "count", conditions: a.conditions.filter((c) => c !== bound) } });
    if (counted?.template === "count" && counted.sql.startsWith("SELECT COUNT(*) ")) {
      const op = { "at least": ">=", "more than": ">", over: ">", "fewer than": "<", "less than": "<", "at most": "<=" }[atLeast[1]!]!;
      return { sql: `SELECT CASE WHEN (${counted.sql}) ${op} ${bound.value} THEN 'yes' ELSE 'no' END`, template: "lookup", targetColumn: "" };
    }
  }
  // "who has the highest average?", "what was the average in 1997?" over an "Average" column: the word names
  // the column; an AVG() over it would average the averages.
  if (a.aggregate === "avg" && a.arithmetic === "average" && catalog.columns.some((c) => isNumericColumn(c) && c.headerWords.some((h) => /^(average|avg|mean)$/.test(h)) && (!usable || usable.has(c.index)))) {
    a = { ...analyzeQuestion(a.normalized, { averageIsColumn: true }), ...(a.grounding ? { grounding: a.grounding } : {}) };
    input = { ...input, analysis: a };
  }
  const bindings = (input.bindings ?? []).filter((b) => !usable || usable.has(b.columnIndex));
  const table = quoteIdent(catalog.schema.physical);
  // A binding that grounds the same value in another column replaces the mention (the binding is mandatory).
  input = {
    ...input,
    mentions: input.mentions.filter(
      (m) => !bindings.some((b) => b.columnIndex !== m.columnIndex && !b.fuzzy && normaliseText(b.value) === normaliseText(m.value)),
    ),
  };
  const opts = usable ? { usable } : {};

  // Financial-report tables (TAT-QA-like): a row label and year columns → value, change, % change, average, sum.
  const yearPlan = yearColumnsPlan(input, bindings, table);
  if (yearPlan) return yearPlan;

  // Comparisons of two named rows.
  if (a.comparison && (a.comparison.kind === "choice" || a.comparison.kind === "moreless" || a.comparison.kind === "difference")) {
    const pair = optionMentions(a, input.mentions, usable);
    if (pair) {
      const plan = a.comparison.kind === "choice" ? choiceByRows(input, pair[0], pair[1], bindings, table) ?? comparePlan(input, pair[0], pair[1], bindings, table) : comparePlan(input, pair[0], pair[1], bindings, table);
      if (plan) return plan;
    }
  }
  // "were there more concerts in may or june?": the month of the date column on more (fewer) rows.
  const monthChoice = monthChoicePlan(a, catalog, usable, table);
  if (monthChoice) return monthChoice;
  // "did the blue kettle come out in 2016 or 2017?", "which building is taller? the x or the y?"
  const orPair = !a.comparison ? adjacentOrPair(a, input.mentions, usable) : null;
  if (orPair) {
    const choice: QuestionAnalysis = { ...a, comparison: { kind: "choice", options: [orPair[0].text, orPair[1].text], direction: a.sortDirection ?? null } };
    const plan = choiceByRows({ ...input, analysis: choice }, orPair[0], orPair[1], bindings, table) ?? (superlativeWord(a.normalized) ? comparePlan({ ...input, analysis: choice }, orPair[0], orPair[1], bindings, table) : null);
    if (plan) return plan;
  }
  if (a.answerType === "yesno") {
    const plan = yesNoPlan(input, bindings, table);
    if (plan) return plan;
  }
  // "which hybrid has the same parent as the red comet?"
  const same = sameAsPlan(input, bindings, table);
  if (same) return same;

  const excluded = excludedMentions(a, input.mentions, usable, bindings, catalog);
  const bounds = a.position === "next" || a.position === "previous" ? [] : dateBounds(a, input.mentions, catalog, bindings);
  const rowBounds = a.operator === "count" ? listBounds(a, input.mentions.filter((m) => !excluded.includes(m) && !bounds.some((b) => b.mention === m)), catalog, bindings) : [];
  const filters = filterMentions(a, input.mentions.filter((m) => !excluded.includes(m) && !bounds.some((b) => b.mention === m) && !rowBounds.some((b) => b.mention === m)), usable);
  const cond = conditionPredicates(a, catalog, usable);
  for (const m of excluded) cond.preds.push(`${col(catalog.columns[m.columnIndex]!)} <> ${sqlString(m.value)}`);
  for (const b of bounds) {
    const c = catalog.columns[b.mention.columnIndex]!;
    cond.preds.push(`${col(c, undefined, false)} IS NOT NULL AND ${col(c, undefined, false)} ${b.op} (SELECT ${col(c, undefined, false)} FROM ${table} WHERE ${ROW} = ${b.mention.rows[0]!})`);
    cond.columns.add(c.index);
  }
  for (const b of rowBounds) cond.preds.push(`${ROW} ${b.op} ${b.op === "<" ? Math.min(...b.mention.rows) : Math.max(...b.mention.rows)}`);
  const empty = emptinessPredicates(a, catalog, usable);
  const when = monthAndPlacePredicates(a, catalog, usable, input.mentions);
  empty.preds.push(...when.preds);
  for (const c of when.columns) empty.columns.add(c);
  if (a.operator !== "compare") {
    const outcome = outcomePredicates(a, catalog, (c) => (!usable || usable.has(c.index)) && !input.mentions.some((m) => m.columnIndex === c.index));
    empty.preds.push(...outcome.preds);
    for (const c of outcome.columns) empty.columns.add(c);
  }
  cond.preds.push(...empty.preds);
  for (const c of empty.columns) cond.columns.add(c);
  const filterPreds: string[] = [];
  for (const m of filters) if (!bindings.some((b) => sameBinding(m, b, catalog))) filterPreds.push(mentionPredicate(m, catalog));
  for (const b of bindings) filterPreds.push(bindingPredicate(b, catalog));
  const basePreds = [...filterPreds, ...cond.preds];
  const used = new Set<number>([...filters.map((m) => m.columnIndex), ...cond.columns]);

  // "after oakdale, which village has the next largest area?": the next value of the named quantity
  // below (above) the named row's, not the next table row.
  const nextBest = /\bnext (highest|largest|biggest|greatest|most|longest|tallest|lowest|smallest|least|fewest|shortest)\b/.exec(a.normalized);
  if (nextBest && filters.length === 1) {
    const anchor = filters[0]!;
    const order = chooseOrderColumn(a, catalog, filters, { ...opts, avoid: new Set([anchor.columnIndex]) });
    const target = order && rankTargetColumns(a, catalog, filters, { ...opts, prefer: anchor.columnIndex, avoid: new Set([order.column.index]) })[0]?.column;
    if (order && order.score > 0.5 && target) {
      const down = !/^(lowest|smallest|least|fewest|shortest)$/.test(nextBest[1]!);
      const expr = orderExpr(order.column);
      const sub = `(SELECT ${expr} FROM ${table} WHERE ${mentionPredicate(anchor, catalog)} LIMIT 1)`;
      return {
        sql: `SELECT ${col(target)} FROM ${table}${where([hasNum(order.column), `${expr} ${down ? "<" : ">"} ${sub}`, ...cond.preds, ...summaryFilter(catalog)])} ORDER BY ${expr} ${down ? "DESC" : "ASC"}, ${ROW} LIMIT 1`,
        template: down ? "argmax" : "argmin",
        targetColumn: target.schema.name,
      };
    }
  }

  // next / previous row relative to a named row.
  if ((a.position === "next" || a.position === "previous") && filters.length > 0) {
    const anchor = filters[0]!;
    const target = rankTargetColumns(a, catalog, filters, { ...opts, prefer: anchor.columnIndex })[0]?.column;
    if (target) {
      const step = a.position === "next" ? "+ 1" : "- 1";
      const preds = [mentionPredicate(anchor, catalog, "a"), ...bindings.map((b) => bindingPredicate(b, catalog, b.columnIndex === anchor.columnIndex ? "a" : "a"))];
      const uniq = [...new Set(preds.filter((p, i) => !(i === 0 && bindings.some((b) => sameBinding(anchor, b, catalog)))))];
      return {
        sql: `SELECT b.${col(target)} FROM ${table} AS a JOIN ${table} AS b ON b.${ROW} = a.${ROW} ${step}${where(uniq)} ORDER BY a.${ROW} LIMIT 1`,
        template: a.position,
        targetColumn: target.schema.name,
      };
    }
  }

  // "how many straight weeks was lisbon the host?", "the most consecutive wins": the longest run of
  // adjacent table rows the conditions select (from the top: the first run), not all such rows. A count column
  // of a named row ("weeks at No. 1") still answers.
  if (/\b(consecutive(?:ly)?|in a row|straight|streak)\b/.test(a.normalized) && /\b(how many|most|longest|number of)\b/.test(a.normalized) && !asksForEntity(a.normalized) && basePreds.length > 0 && !(filterPreds.length > 0 && countColumn(a.countNoun.length ? a.countNoun : a.targetHints, catalog, usable, used).score >= 0.8)) {
    // (No window functions: the guard admits OVER only with PARTITION BY.) A run's length is its last row
    // minus the nearest row above it that the conditions do not select.
    const hit = `(${[...basePreds, ...summaryFilter(catalog)].join(" AND ")})`;
    const miss = (bound: string) => `SELECT ${bound} FROM ${table} AS b WHERE ${d.notTrue(hit)}`;
    const fromTop = /\b(from|starting (?:at|from)) the (top|start|beginning)\b/.test(a.normalized);
    const sql = fromTop
      ? `SELECT COALESCE((${miss(`MIN(${ROW})`)} AND b.${ROW} > a.${ROW}), (SELECT MAX(${ROW}) + 1 FROM ${table})) - a.${ROW} FROM ${table} AS a WHERE ${hit} ORDER BY a.${ROW} LIMIT 1`
      : `SELECT MAX(a.${ROW} - COALESCE((${miss(`MAX(${ROW})`)} AND b.${ROW} < a.${ROW}), -1)) FROM ${table} AS a WHERE ${hit}`;
    return { sql, template: "count", targetColumn: "" };
  }

  // Counting: rows, or a count column of a named row.
  if (a.operator === "count") {
    const noun = a.countNoun.length ? a.countNoun : a.targetHints;
    const { column: countCol, score: bestScore } = countColumn(noun, catalog, usable, used);
    // "how many countries have fewer medals than morocco?": rows beyond the named row's value.
    const than = /\b(more|less|fewer|higher|lower|larger|smaller|greater|bigger|longer|shorter|taller|older|younger|earlier|later|faster|slower|better|worse)\b[^?]*?\bthan\s+(?:the\s+)?(.+)$/.exec(a.normalized.replace(/[?.!]+$/, ""));
    const anchor = than ? filters.find((m) => ` ${than[2]} `.includes(` ${m.text} `)) : undefined;
    if (than && anchor && !countCol) {
      const order = chooseOrderColumn(a, catalog, filters, opts);
      if (order && order.score >= 0) {
        const bigger = /^(more|higher|larger|greater|bigger|longer|taller|later|older|better)$/.test(than[1]!);
        const dir = orderDirection(than[1], bigger ? "max" : "min", order.column);
        const others = filterPreds.filter((p) => p !== mentionPredicate(anchor, catalog));
        const expr = orderExpr(order.column);
        const sub = `(SELECT ${expr} FROM ${table} WHERE ${mentionPredicate(anchor, catalog)} LIMIT 1)`;
        return {
          sql: `SELECT COUNT(*) FROM ${table}${where([...others, ...cond.preds, hasNum(order.column), `${expr} ${dir === "max" ? ">" : "<"} ${sub}`, ...summaryFilter(catalog)])}`,
          template: "count",
          targetColumn: "",
        };
      }
    }
    if (countCol && bestScore >= 0.8 && filterPreds.length > 0) {
      const rows = mentionRows(filters);
      if (rows && rows.length > 1) {
        return { sql: `SELECT SUM(${numExpr(countCol)}) FROM ${table}${where([...basePreds, hasNum(countCol)])}`, template: "sum", targetColumn: countCol.schema.name };
      }
      return { sql: `SELECT ${col(countCol)} FROM ${table}${where(basePreds)}`, template: "count-column", targetColumn: countCol.schema.name };
    }
    if (/\b(different|distinct|unique)\b/.test(a.normalized)) {
      const ranked = rankTargetColumns({ ...a, targetHints: noun, answerType: "entity" }, catalog, filters, opts).filter((r) => !isNumericColumn(r.column));
      const c = ranked[0]?.column;
      if (c && headerMatch(noun, c) > 0) {
        return {
          sql: `SELECT COUNT(DISTINCT ${col(c)}) FROM ${table}${where([...basePreds, `TRIM(${col(c)}) <> ''`, ...summaryFilter(catalog)])}`,
          template: "count",
          targetColumn: c.schema.name,
        };
      }
    }
    // "how many units of kitchen products are in stock in total?": the counted noun names no column, another word does.
    const summed = countCol && bestScore >= 0.8 ? { column: countCol, score: bestScore } : a.aggregate === "sum" && MEASURE_NOUNS.test(noun[0] ?? "") ? bestSingleWordColumn(a.contentWords, catalog, usable, used) : undefined;
    if (a.aggregate === "sum" && summed?.column && summed.score >= (summed.column === countCol ? 0.8 : 1.5)) {
      return {
        sql: `SELECT SUM(${numExpr(summed.column)}) FROM ${table}${where([...basePreds, hasNum(summed.column), ...summaryFilter(catalog)])}`,
        template: "sum",
        targetColumn: summed.column.schema.name,
      };
    }
    return { sql: `SELECT COUNT(*) FROM ${table}${where([...basePreds, ...summaryFilter(catalog)])}`, template: "count", targetColumn: "" };
  }

  // Sum / average of a numeric column.
  if (a.operator === "aggregate" && a.aggregate) {
    // (A sum of years means nothing: "total years" counts rows.)
    const ranked = rankTargetColumns({ ...a, answerType: "number" }, catalog, filters, { ...opts, avoid: cond.columns }).filter((r) => isNumericColumn(r.column) && !(a.aggregate === "sum" && holdsYears(r.column)));
    const c = ranked[0]?.column;
    if (c) {
      const fn = a.aggregate === "avg" ? "AVG" : "SUM";
      return {
        sql: `SELECT ${fn}(${numExpr(c)}) FROM ${table}${where([...basePreds, hasNum(c), ...summaryFilter(catalog)])}`,
        template: a.aggregate,
        targetColumn: c.schema.name,
      };
    }
  }

  // Superlatives: argmax/argmin over an order column (ties kept), or the most frequent value.
  if (a.operator === "sort" && a.sortDirection && a.position !== "first" && a.position !== "last") {
    const byMonth = monthFrequencyPlan(a, catalog, usable, basePreds, table);
    if (byMonth) return byMonth;
    const order = chooseOrderColumn(a, catalog, filters, { ...opts, avoid: cond.columns });
    const dir = a.sortDirection === "max" ? "DESC" : "ASC";
    const sw = superlativeWord(a.normalized);
    // "most/least/fewest" with no column named: the most frequent value; other superlatives use the best numeric column.
    const frequency = sw === undefined || /^(most|least|fewest)$/.test(sw);
    // "which year had the most festivals?": "most" over a year or date column is a frequency, not the latest year.
    const yearOrder = order !== undefined && frequency && sw !== undefined && (holdsYears(order.column) || order.column.schema.type === "date");
    // "who earns the most?": a frequency over a column of distinct values (every count 1) means nothing;
    // a numeric column the question names, however weakly, is what it orders by.
    const key = frequency && order && order.score > 0 ? rankTargetColumns(a, catalog, filters, opts)[0]?.column : undefined;
    const degenerate = key !== undefined && !isNumericColumn(key) && key.distinct.size >= key.raw.length - catalog.summaryRows.size - catalog.headerRows.size && key.raw.length > 2;
    if (order && !yearOrder && (order.score > 0.5 || (!frequency && order.score >= 0) || degenerate)) {
      const direction = orderDirection(sw, a.sortDirection, order.column);
      // "what was the highest attendance?": the answer is the ordered value itself when the asked-about words
      // name the ordered column; in "what is the biggest sale amount?" (not "… the best selling album?") the head
      // noun after the superlative decides.
      const head = superlativeHead(a.normalized, catalog, usable);
      const asksValue = (a.answerType === "number" || a.answerType === "count" || /^(what|how)\b/.test(a.normalized)) && (head ? head === order.column : headerMatch(a.targetHints.slice(0, 2), order.column) >= 1.5);
      const target = asksValue ? order.column : rankTargetColumns(a, catalog, filters, { ...opts, avoid: new Set([order.column.index]) })[0]?.column;
      if (target) {
        const preds = [...basePreds, hasNum(order.column), ...summaryFilter(catalog)];
        const agg = direction === "max" ? "MAX" : "MIN";
        const sub = `(SELECT ${agg}(${orderExpr(order.column)}) FROM ${table}${where(preds)})`;
        return {
          sql: `SELECT ${col(target)} FROM ${table}${where([...preds, `${orderExpr(order.column)} = ${sub}`])} ORDER BY ${ROW}`,
          template: direction === "max" ? "argmax" : "argmin",
          targetColumn: target.schema.name,
        };
      }
    }
    const target = rankTargetColumns(a, catalog, filters, opts)[0]?.column;
    if (target) {
      return {
        sql: `SELECT ${col(target)} FROM ${table}${where([...basePreds, `TRIM(${col(target)}) <> ''`, ...summaryFilter(catalog)])} GROUP BY ${col(target)} ORDER BY COUNT(*) ${dir}, MIN(${ROW}) LIMIT 1`,
        template: "group-count",
        targetColumn: target.schema.name,
      };
    }
  }

  // First / last row (table order), optionally filtered.
  if (a.position === "first" || a.position === "last") {
    const target = rankTargetColumns(a, catalog, filters, { ...opts, avoid: cond.columns })[0]?.column;
    if (target) {
      const dir = a.position === "first" ? "ASC" : "DESC";
      // "the first year …" asks for the earliest year, whatever order the table lists its rows in
      // (but "listed first", "first in the table" ask for the table's order).
      const tableOrder = /\b(listed|list|table|chart|column|top|bottom)\b/.test(a.normalized);
      // "who started first?", "which product was released last?": a date or year column the question's
      // verb names orders the rows, whatever order the table lists them in.
      const dated = tableOrder || holdsYears(target) || target.schema.type === "date" ? undefined : namedDateColumn(a, catalog, usable, new Set([target.index, ...filters.map((m) => m.columnIndex)]));
      const clock = !tableOrder && (holdsYears(target) || target.schema.type === "date") ? target : dated;
      const order = clock ? `${orderExpr(clock)} ${dir}, ${ROW} ${dir}` : `${ROW} ${dir}`;
      return {
        sql: `SELECT ${col(target)} FROM ${table}${where([...basePreds, `TRIM(${col(target)}) <> ''`, ...(clock ? [hasNum(clock)] : []), ...summaryFilter(catalog)])} ORDER BY ${order} LIMIT 1`,
        template: a.position,
        targetColumn: target.schema.name,
      };
    }
  }

  // Lookup: the asked-about column of the rows the mentions and conditions select.
  const target = rankTargetColumns(a, catalog, filters, { ...opts, avoid: cond.columns })[0]?.column;
  if (!target) return null;
  if (basePreds.length === 0) return null;
  const preds = filters.length === 0 ? [...basePreds, ...summaryFilter(catalog)] : basePreds;
  // (The rows of a year, "who started in 2019?", are all the answer; a named row is one.)
  const one = (!a.listAnswer && !(filters.length === 0 && when.yearOfDate)) || /^(name|tell me|give me|list) (a|an|one|only one)\b|^what is (a|one)\b|\bthe only\b|\bonly one\b/.test(a.normalized) ? " LIMIT 1" : "";
  return { sql: `SELECT ${col(target)} FROM ${table}${where(preds)} ORDER BY ${ROW}${one}`, template: "lookup", targetColumn: target.schema.name, ...(one ? {} : { allRows: true }) };
}

/** The date or year column the question's words name ("started" → Start date), if exactly one does. */
function namedDateColumn(a: QuestionAnalysis, catalog: TableCatalog, usable: Set<number> | undefined, avoid: Set<number>): CatalogColumn | undefined {
  const named = catalog.columns.filter((c) => (!usable || usable.has(c.index)) && !avoid.has(c.index) && (c.schema.type === "date" || holdsYears(c)) && headerMatch(a.contentWords, c, false) >= 0.8);
  return named.length === 1 ? named[0] : undefined;
}

/** "other than X", "besides X", "aside from X", "except X": mentions to exclude rather than select. */
function excludedMentions(a: QuestionAnalysis, mentions: EntityMention[], usable: Set<number> | undefined, bindings: RequiredBinding[], catalog: TableCatalog): EntityMention[] {
  const q = a.normalized.replace(/[^a-z0-9\u00c0-\u024f]+/g, " ");
  return mentions.filter((m) => {
    if ((usable && !usable.has(m.columnIndex)) || bindings.some((b) => sameBinding(m, b, catalog))) return false;
    return new RegExp(`\\b(other than|besides|aside from|except|excluding|apart from|not counting|but not) (the )?${m.text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`).test(q);
  });
}

/** "released before july 1, 2002": a date the question names as a bound, not as the row to select. */
function dateBounds(a: QuestionAnalysis, mentions: EntityMention[], catalog: TableCatalog, bindings: RequiredBinding[]): Array<{ mention: EntityMention; op: string }> {
  const tokens = a.normalized.replace(/[^a-z0-9\u00c0-\u024f]+/g, " ").trim().split(" ");
  const out: Array<{ mention: EntityMention; op: string }> = [];
  for (const m of mentions) {
    if (catalog.columns[m.columnIndex]!.schema.type !== "date" || bindings.some((b) => sameBinding(m, b, catalog))) continue;
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
function listBounds(a: QuestionAnalysis, mentions: EntityMention[], catalog: TableCatalog, bindings: RequiredBinding[]): Array<{ mention: EntityMention; op: string }> {
  const tokens = a.normalized.replace(/[^a-z0-9\u00c0-\u024f]+/g, " ").trim().split(" ");
  const out: Array<{ mention: EntityMention; op: string }> = [];
  for (const m of mentions) {
    const c = catalog.columns[m.columnIndex]!;
    if (c.schema.type === "date" || isNumericColumn(c) || m.rows.length === 0 || bindings.some((b) => sameBinding(m, b, catalog))) continue;
    const w = /(?:^| )(before|prior to|after)$/.exec(tokens.slice(Math.max(0, m.start - 2), m.start).join(" "))?.[1];
    if (w) out.push({ mention: m, op: w === "after" ? ">" : "<" });
  }
  return out;
}

/** Two mentions of one column joined by "or" in the question ("2002 or 2003"). */
function adjacentOrPair(a: QuestionAnalysis, mentions: EntityMention[], usable: Set<number> | undefined): [EntityMention, EntityMention] | null {
  const tokens = a.normalized.replace(/[^a-z0-9\u00c0-\u024f]+/g, " ").trim().split(" ");
  const ok = mentions.filter((m) => !usable || usable.has(m.columnIndex));
  for (const m1 of ok) {
    for (const m2 of ok) {
      if (m1 === m2 || m1.columnIndex !== m2.columnIndex || m1.value === m2.value) continue;
      const between = tokens.slice(m1.end, m2.start).filter((t) => t !== "the");
      if (between.length === 1 && between[0] === "or") return [m1, m2];
    }
  }
  return null;
}

/** "Who has the same number of titles as norway?": rows sharing the named row's value, the named row excluded. */
function sameAsPlan(input: SqlPlanInput, bindings: RequiredBinding[], table: string): SqlPlan | null {
  const { analysis: a, catalog, usable } = input;
  const m = /\bsame ([a-z0-9' -]+?) as (?:the )?(.+?)(?:\?|$)/.exec(a.normalized) ?? /\bas many ([a-z0-9' -]+?) as (?:the )?(.+?)(?:\?|$)/.exec(a.normalized);
  if (!m) return null;
  const anchorText = ` ${m[2]!.replace(/[^a-z0-9\u00c0-\u024f]+/g, " ").trim()} `;
  const anchor = input.mentions.find((x) => anchorText.includes(` ${x.text} `) && (!usable || usable.has(x.columnIndex)));
  if (!anchor) return null;
  const words = m[1]!.split(" ").filter((w) => !/^(number|amount|of|the|a)$/.test(w));
  let attr: CatalogColumn | undefined;
  let best = 0.5;
  for (const c of catalog.columns) {
    if ((usable && !usable.has(c.index)) || c.index === anchor.columnIndex) continue;
    const sc = headerMatch(words, c);
    if (sc > best) {
      best = sc;
      attr = c;
    }
  }
  if (!attr) return null;
  // The answer is another row's entity: the anchor's column, unless the question names another one.
  const named = rankTargetColumns(a, catalog, [], { ...(usable ? { usable } : {}), avoid: new Set([attr.index]) })[0];
  const target = named && named.column.index !== anchor.columnIndex && headerMatch(a.targetHints, named.column) >= 1.5 ? named.column : catalog.columns[anchor.columnIndex]!;
  // Self-join: a = the named row (its bindings stay in the outer WHERE), b = the rows sharing its value.
  const preds = [bindings.some((b) => sameBinding(anchor, b, catalog)) ? "" : mentionPredicate(anchor, catalog, "a"), ...bindings.map((b) => bindingPredicate(b, catalog, "a"))].filter((p) => p !== "");
  return {
    sql: `SELECT b.${col(target)} FROM ${table} AS a JOIN ${table} AS b ON b.${col(attr)} = a.${col(attr)} AND b.${ROW} <> a.${ROW}${where([...preds, ...summaryFilter(catalog, "b")])} ORDER BY b.${ROW}`,
    template: "lookup",
    targetColumn: target.schema.name,
  };
}

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
  const label = input.mentions.find((m) => !yearColumnSet.has(m.columnIndex) && !catalog.columnYears.has(m.columnIndex) && (!usable || usable.has(m.columnIndex)));
  if (!label) return null;
  const preds = [bindings.some((b) => sameBinding(label, b, catalog)) ? "" : mentionPredicate(label, catalog), ...bindings.map((b) => bindingPredicate(b, catalog))].filter((p) => p !== "");
  const q = a.normalized;
  const sorted = [...yearCols].sort((x, y) => x.year - y.year);
  const earlier = numExpr(sorted[0]!.column);
  const later = numExpr(sorted[sorted.length - 1]!.column);
  let expr: string | undefined;
  let template: SqlTemplate = "lookup";
  if (/\bpercent(age)?\b|%/.test(q) && /\b(change|increase|decrease|growth|decline|grow|rise|fall|drop)\b/.test(q) && sorted.length >= 2) {
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
    return { sql: `SELECT ${col(sorted[0]!.column)} FROM ${table}${where(preds)} ORDER BY ${ROW} LIMIT 1`, template: "lookup", targetColumn: sorted[0]!.column.schema.name };
  }
  if (!expr) return null;
  return { sql: `SELECT ${expr} FROM ${table}${where(preds)} ORDER BY ${ROW} LIMIT 1`, template, targetColumn: "" };
}

/** The two mentions that name the options of a comparison ("A or B", "A … than B"). */
function optionMentions(a: QuestionAnalysis, mentions: EntityMention[], usable: Set<number> | undefined): [EntityMention, EntityMention] | null {
  const ok = mentions.filter((m) => !usable || usable.has(m.columnIndex));
  const options = a.comparison?.options ?? [];
  const inOption = (m: EntityMention, option: string) => {
    const o = ` ${option.toLowerCase().replace(/[^a-z0-9\u00c0-\u024f]+/g, " ").trim()} `;
    return o.includes(` ${m.text} `) || m.text.split(" ").every((w) => o.includes(` ${w} `));
  };
  if (options.length >= 2) {
    const first = ok.find((m) => inOption(m, options[0]!));
    const second = ok.find((m) => m !== first && inOption(m, options[1]!) && (!first || m.value !== first.value));
    if (first && second) return [first, second];
  }
  // Otherwise the last two mentions of one column.
  for (let i = ok.length - 1; i > 0; i--) {
    for (let j = i - 1; j >= 0; j--) {
      if (ok[i]!.columnIndex === ok[j]!.columnIndex && ok[i]!.value !== ok[j]!.value) return [ok[j]!, ok[i]!];
    }
  }
  return null;
}

/**
 * "Is marlow from denton or lyle?": two options of one column and another mention → the
 * option on the named row. "Were there more concerts in may or june?": no column to compare →
 * the option on more rows.
 */
function choiceByRows(input: SqlPlanInput, m1: EntityMention, m2: EntityMention, bindings: RequiredBinding[], table: string): SqlPlan | null {
  const { analysis: a, catalog, usable } = input;
  const others = input.mentions.filter((m) => m !== m1 && m !== m2 && m.columnIndex !== m1.columnIndex && (!usable || usable.has(m.columnIndex)));
  const c1 = catalog.columns[m1.columnIndex]!;
  const label = (m: EntityMention) => (m.kind === "exact" ? m.value : m.text);
  if (bindings.length > 0) {
    // Bound options: a = option 1's rows, b = option 2's rows, c = the rows the other mentions name;
    // every binding stays a plain equality of the outer WHERE on one alias.
    if (others.length === 0 || m1.columnIndex !== m2.columnIndex) return null;
    const preds = [mentionPredicate(m1, catalog, "a"), mentionPredicate(m2, catalog, "b"), ...others.map((o) => mentionPredicate(o, catalog, "c"))];
    for (const b of bindings) {
      if (sameBinding(m1, b, catalog)) preds[0] = bindingPredicate(b, catalog, "a");
      else if (sameBinding(m2, b, catalog)) preds[1] = bindingPredicate(b, catalog, "b");
      else {
        const i = others.findIndex((o) => sameBinding(o, b, catalog));
        if (i >= 0) preds[2 + i] = bindingPredicate(b, catalog, "c");
        else preds.push(bindingPredicate(b, catalog, "c"));
      }
    }
    return {
      sql: `SELECT CASE WHEN MAX(a.${ROW} = c.${ROW}) >= MAX(b.${ROW} = c.${ROW}) THEN ${sqlString(label(m1))} ELSE ${sqlString(label(m2))} END FROM ${table} AS a, ${table} AS b, ${table} AS c${where(preds)}`,
      template: "choice",
      targetColumn: c1.schema.name,
      options: [label(m1), label(m2)],
    };
  }
  if (others.length > 0 && m1.columnIndex === m2.columnIndex) {
    const preds = others.map((m) => mentionPredicate(m, catalog));
    return {
      sql: `SELECT CASE WHEN ${d.countTrue(mentionPredicate(m1, catalog))} >= ${d.countTrue(mentionPredicate(m2, catalog))} THEN ${sqlString(label(m1))} ELSE ${sqlString(label(m2))} END FROM ${table}${where(preds)}`,
      template: "choice",
      targetColumn: c1.schema.name,
      options: [label(m1), label(m2)],
    };
  }
  const order = chooseOrderColumn(a, catalog, [m1, m2], usable ? { usable } : {});
  const counting = /\b(more|most|fewer|less|least|busier|busiest|often)\b/.test(a.normalized) && (!order || order.score < 1) && (m1.rows.length > 1 || m2.rows.length > 1);
  if (!counting) return null;
  const cmp = /\b(fewer|less|least)\b/.test(a.normalized) ? "<=" : ">=";
  return {
    sql: `SELECT CASE WHEN ${d.countTrue(mentionPredicate(m1, catalog))} ${cmp} ${d.countTrue(mentionPredicate(m2, catalog))} THEN ${sqlString(label(m1))} ELSE ${sqlString(label(m2))} END FROM ${table}${where(summaryFilter(catalog))}`,
    template: "choice",
    targetColumn: c1.schema.name,
    options: [label(m1), label(m2)],
  };
}

/** Yes/no: "does the north ward have more area than the east ward?" compares; otherwise the mentions co-occur in a row. */
function yesNoPlan(input: SqlPlanInput, bindings: RequiredBinding[], table: string): SqlPlan | null {
  const { analysis: a, catalog, usable } = input;
  const ok = input.mentions.filter((m) => !usable || usable.has(m.columnIndex));
  const comparative = /\b(more|less|fewer|higher|lower|larger|smaller|greater|bigger|longer|shorter|taller|older|younger|earlier|later|faster|slower|better|worse)\b.*\bthan\b/.test(a.normalized);
  if (comparative) {
    const pair = optionMentions({ ...a, comparison: { kind: "moreless", options: [], direction: null } }, ok, usable);
    if (pair) {
      const plan = comparePlan({ ...input, analysis: { ...a, comparison: { kind: "moreless", options: [], direction: null } } }, pair[0], pair[1], bindings, table);
      if (plan) {
        let less = /\b(less|fewer|lower|smaller|shorter|younger|earlier|slower|worse)\b/.test(a.normalized);
        // "did ana ruiz have a better rank than omar costa?": on a rank or chart position a higher place is a smaller number.
        const c = catalog.columns.find((x) => x.schema.name === plan.targetColumn);
        const place = c && (isRankColumn(c) || c.headerWords.some((h) => /^(chart|charts|position|pos|place|peak|billboard)$/.test(h)));
        if (place && /\b(higher|lower|better|worse)\b/.test(a.normalized)) less = !less;
        return { ...plan, sql: plan.sql.replace(`THEN 'more' WHEN`, `THEN ${less ? "'no'" : "'yes'"} WHEN`).replace(`THEN 'less' ELSE 'same'`, `THEN ${less ? "'yes'" : "'no'"} ELSE 'no'`) };
      }
    }
  }
  const cols = new Set(ok.map((m) => m.columnIndex));
  if (ok.length < 2 || cols.size < 2) return null;
  const preds = ok.filter((m, i) => ok.findIndex((o) => o.columnIndex === m.columnIndex) === i).map((m) => mentionPredicate(m, catalog));
  for (const b of bindings) preds.push(bindingPredicate(b, catalog));
  return { sql: `SELECT CASE WHEN COUNT(*) > 0 THEN 'yes' ELSE 'no' END FROM ${table}${where([...new Set(preds)])}`, template: "lookup", targetColumn: "" };
}

function comparePlan(input: SqlPlanInput, m1: EntityMention, m2: EntityMention, bindings: RequiredBinding[], table: string): SqlPlan | null {
  const { analysis: a, catalog, usable } = input;
  const opts = usable ? { usable } : {};
  const avoid = new Set([m1.columnIndex, m2.columnIndex]);
  const preds = [mentionPredicate(m1, catalog, "a"), mentionPredicate(m2, catalog, "b")];
  for (const b of bindings) {
    if (sameBinding(m1, b, catalog)) preds[0] = bindingPredicate(b, catalog, "a");
    else if (sameBinding(m2, b, catalog)) preds[1] = bindingPredicate(b, catalog, "b");
    else preds.push(bindingPredicate(b, catalog, "a"));
  }
  const kind = a.comparison!.kind;
  const order = chooseOrderColumn(a, catalog, [m1, m2], { ...opts, avoid });
  // "how many more appearances on fuji tv than tbs?": values that name several rows each, and no amount
  // column named ("how many more performances" reads Performances), are compared by how many rows they name.
  const rowCounts = m1.rows.length > 1 || m2.rows.length > 1;
  if (kind === "difference" && m1.columnIndex === m2.columnIndex && rowCounts && bindings.length === 0 && !(order && headerMatch(a.contentWords, order.column, false) >= 1.5)) {
    return {
      sql: `SELECT ABS(${d.countTrue(mentionPredicate(m1, catalog))} - ${d.countTrue(mentionPredicate(m2, catalog))}) FROM ${table}${where(summaryFilter(catalog))}`,
      template: "difference",
      targetColumn: "",
    };
  }
  const byPosition = a.comparison?.direction !== null && /\b(first|earlier|before|sooner|last|later|after|recent)\b/.test(a.normalized);
  let ea: string;
  let eb: string;
  let targetColumn = "";
  if (order && (order.score > 0.3 || kind !== "choice") && !(byPosition && order.score < 1)) {
    ea = orderExpr(order.column, "a");
    eb = orderExpr(order.column, "b");
    targetColumn = order.column.schema.name;
  } else if (kind === "choice" && byPosition) {
    ea = `a.${ROW}`;
    eb = `b.${ROW}`;
  } else if (kind === "choice" && order) {
    ea = orderExpr(order.column, "a");
    eb = orderExpr(order.column, "b");
    targetColumn = order.column.schema.name;
  } else {
    return null;
  }
  const ca = catalog.columns[m1.columnIndex]!;
  const cb = catalog.columns[m2.columnIndex]!;
  const tail = ` FROM ${table} AS a, ${table} AS b${where(preds)} ORDER BY a.${ROW}, b.${ROW} LIMIT 1`;
  if (kind === "difference") {
    return { sql: `SELECT ABS(${ea} - ${eb})${tail}`, template: "difference", targetColumn };
  }
  if (kind === "moreless") {
    return { sql: `SELECT CASE WHEN ${ea} > ${eb} THEN 'more' WHEN ${ea} < ${eb} THEN 'less' ELSE 'same' END${tail}`, template: "moreless", targetColumn };
  }
  const direction = order && targetColumn !== "" ? orderDirection(superlativeWord(a.normalized), a.comparison!.direction ?? "max", order.column) : a.comparison!.direction;
  const pickA = direction === "min" ? "<=" : ">=";
  return {
    sql: `SELECT CASE WHEN ${ea} ${pickA} ${eb} THEN ${col(ca, "a")} ELSE ${col(cb, "b")} END${tail}`,
    template: "choice",
    targetColumn,
    options: [ca.raw[m1.rows[0]!] ?? m1.value, cb.raw[m2.rows[0]!] ?? m2.value],
  };
}

/** Thrown when no template fits the question over the allowed columns (the SQL loop fails closed). */
export class NoSqlTemplateError extends Error {
  constructor(subQuery: string) {
    super(`offline writeSql: no SQL template fits "${subQuery}" over the allowed columns; the route answers "not found"`);
    this.name = "NoSqlTemplateError";
  }
}

/** The table to write SQL for: the grounded table when in scope, else the one owning most allowed columns. */
function sqlTable(input: WriteSqlInput, analysis: QuestionAnalysis): TableSchema | undefined {
  const grounded = analysis.grounding?.tableId;
  const inScope = input.tables.find((t) => t.tableId === grounded && input.allowedColumns.some((c) => c.tableId === t.tableId));
  if (inScope) return inScope;
  // The question names its table: SQL over another table would answer a different question.
  if (analysis.grounding?.hinted) return undefined;
  const counts = new Map<string, number>();
  for (const c of input.allowedColumns) counts.set(c.tableId, (counts.get(c.tableId) ?? 0) + 1);
  const best = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  return input.tables.find((t) => t.tableId === best) ?? input.tables[0];
}

/**
 * The offline writeSql strategy: analysis (from the plan, or computed), mentions grounded in the
 * chosen table, the allowed columns C of that table and the required bindings V* → one template.
 * On a repair call the statement is rebuilt without the mentions that are not bindings (the first
 * statement's own filters are the usual reason for an empty result).
 */
export function createWriteSql(index: OpenedIndex): (input: WriteSqlInput) => Promise<string> {
  return async (input) => {
    const analysis = analysisOf(input.plan) ?? analyzeQuestion(input.subQuery);
    const schema = sqlTable(input, analysis);
    if (!schema) throw new NoSqlTemplateError(input.subQuery);
    const catalog = loadCatalog(index.db, schema);
    let mentions =
      analysis.grounding?.tableId === schema.tableId
        ? analysis.grounding.mentions
        : findMentions(input.subQuery, catalog, { avoidWords: askedWords(analysis) });
    const usable = new Set<number>();
    for (const c of input.allowedColumns) {
      if (c.tableId !== schema.tableId) continue;
      const i = schema.columns.findIndex((s) => s.name === c.column);
      if (i >= 0) usable.add(i);
    }
    const bindings: RequiredBinding[] = [];
    for (const b of input.bindings) {
      if (!isRequiredBinding(b) || (b.tableId !== null && b.tableId !== schema.tableId)) continue;
      const i = schema.columns.findIndex((s) => s.name === b.column);
      if (i >= 0) bindings.push({ columnIndex: i, value: b.matchedValue!, fuzzy: b.fallbackLevel === 2 });
    }
    if (input.repair) mentions = mentions.filter((m) => bindings.some((b) => sameBinding(m, b, catalog)));
    // The plan made at decomposition needs columns that C lacks: a plan over the rest would answer
    // another question, so fail closed and let the router try another route.
    const needed = analysis.grounding?.tableId === schema.tableId ? (analysis.grounding.columns ?? []) : [];
    const missing = needed.filter((name) => !usable.has(schema.columns.findIndex((c) => c.name === name)));
    if (missing.length > 0) throw new NoSqlTemplateError(`${input.subQuery}" (allowed columns lack ${missing.join(", ")}`);
    d = sqlFragments(input.dialect);
    let plan: SqlPlan | null;
    try {
      plan = planSql({ analysis, catalog, mentions, usable, bindings });
    } finally {
      d = SQLITE_FRAGMENTS;
    }
    if (!plan) throw new NoSqlTemplateError(input.subQuery);
    return plan.sql;
  };
}
