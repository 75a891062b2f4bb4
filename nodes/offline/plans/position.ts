/**
 * Row-position plans: the row after (before) a named row in table order, and the first (last) row —
 * by the table's order, or by a date or year column the question names.
 */
import { headerMatch, isIdentifierColumn, isNumericColumn, isOwnNumberColumn, rankTargetColumns } from "../columns.js";
import type { CatalogColumn, TableCatalog } from "../table-catalog.js";
import { stem } from "../../../text/stem.js";
import {
  ROW,
  bindingPredicate,
  blankCell,
  col,
  hasNum,
  holdsYears,
  mentionPredicate,
  namedDateColumn,
  orderExpr,
  sameBinding,
  summaryFilter,
  where,
} from "./sql-parts.js";
import type { PlanContext, PlanGenerator } from "./types.js";
import { placed, questionTokens } from "./mention-places.js";
import type { EntityMention } from "../mentions.js";
import { normaliseText } from "../../../text/normalise.js";
import { FIRST_POSITION_WORD, LAST_POSITION_WORD, PLACE_ORDINAL } from "../analysis.js";
import { orderKey } from "../row-order.js";
import { SUPERLATIVE_PATTERN } from "../../../text/lexicons.js";

/** The words of the analysis's next/previous positions. */
const ADJACENT_WORD =
  /\b(?:next|following|after|succeeding|subsequent|below|previous|preceding|prior|before|above|preceded)\b/;

/** The words of a normalised span, found whole in a question (not inside a longer word). */
function wholeWords(span: string): RegExp {
  return new RegExp(`(?<![a-z0-9])${span.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![a-z0-9])`);
}

/** The steps in time from each row to the next of a column of years or dates: 1 forward, -1 back (no step: none). */
function timeMoves(c: CatalogColumn): number[] {
  const keys = c.raw.map((v) => orderKey(v, true)).filter((k) => k !== undefined);
  return keys
    .slice(1)
    .map((k, i) => Math.sign(k - keys[i]!))
    .filter((d) => d !== 0);
}

/**
 * The table's one column of years or dates (none in `avoid`), and the share of its steps between rows that go
 * back in time (0: listed oldest first, 1: newest first); undefined when the table has no such column or several.
 */
function timeColumn(
  catalog: PlanContext["catalog"],
  usable: Set<number> | undefined,
  avoid: Set<number>,
): { column: CatalogColumn; back: number } | undefined {
  const times = catalog.columns.filter(
    (c) => (!usable || usable.has(c.index)) && !avoid.has(c.index) && (holdsYears(c) || c.schema.type === "date"),
  );
  if (times.length !== 1) return undefined;
  const moves = timeMoves(times[0]!);
  return { column: times[0]!, back: moves.length === 0 ? 0 : moves.filter((d) => d < 0).length / moves.length };
}

/**
 * Whether a time column's rows go forward and back in time alike: listed in another order than time's (a list in
 * time with a stray row or two is still in time).
 */
function isUnordered(c: CatalogColumn): boolean {
  const moves = timeMoves(c);
  const back = moves.filter((d) => d < 0).length / moves.length;
  return moves.length >= 3 && back >= 0.25 && back <= 0.75;
}

/** Words that place a row in the table's layout ("listed after", "the row above"), not in time. */
const LAYOUT_WORD = /\b(?:listed|list|table|chart|row|column|above|below|beside|next to|comes?)\b/;

/** "Next to A" beside no word of order in time or in a race: the cell beside A's ("next to last" is a place). */
const SAME_ROW_NEXT_TO =
  /^(?!.*\b(?:after|before|previous|preceding|following|finish(?:ed|es)?|serve[ds]?|came|comes?|order)\b).*\bnext to (?!(?:last|each other|the last)\b)/;

/** The words that name the row a next (previous) row is counted from: "after X", "previous to X". */
const FROM_WORD = /^(?:after|before|following|preceding|prior|previous)$/;

/**
 * The named row of "the next X after A" and the values the next row must hold: the first value after the position
 * word is the named row ("who was the next mayor from the Green party after A?"), with the values right after it
 * that qualify it ("after A in 2010"); the others select the next row ("the next Green mayor"). Without a value
 * after the position word, the first value is the named row and the others are left to it.
 */
function adjacentAnchor(
  normalized: string,
  filters: readonly EntityMention[],
): { anchor: EntityMention; others: EntityMention[] } {
  const tokens = questionTokens(normalized);
  const spans = new Map(filters.map((m) => [m, placed(m, tokens)] as const));
  const word = tokens.findIndex(
    (t, i) => FROM_WORD.test(t) && (!/^(?:prior|previous)$/.test(t) || tokens[i + 1] === "to"),
  );
  const after = filters
    .filter((m) => word >= 0 && (spans.get(m)?.start ?? -1) > word)
    .sort((x, y) => spans.get(x)!.start - spans.get(y)!.start)[0];
  if (!after) return { anchor: filters[0]!, others: [] };
  // ("after A in 2010", "after the June 2010 issue of B": a value within two words of the named row's qualifies it.)
  const attached = [after];
  for (let grew = true; grew;) {
    grew = false;
    for (const m of filters) {
      const at = spans.get(m);
      if (!at || attached.includes(m)) continue;
      if (attached.some((x) => at.start >= spans.get(x)!.end && at.start - spans.get(x)!.end <= 2)) {
        attached.push(m);
        grew = true;
      }
    }
  }
  // The values before the position word select the next row ("the next Green mayor after A"); so do those after
  // the named row when the question opens with it ("previous to A, which Green mayor …"); elsewhere those after
  // the named row speak of it ("after A won it in 2010"). (A number that is no year is a measure's: "6 seconds
  // before A".)
  const leading = word <= 1;
  // ("before A won it in 2010, who …": the opening clause is the named row's.)
  const comma = normalized.indexOf(",");
  const clauseEnd = leading && comma > 0 ? questionTokens(normalized.slice(0, comma)).length : -1;
  const others = filters.filter((m) => {
    const at = spans.get(m);
    return (
      at !== undefined &&
      !attached.includes(m) &&
      at.start >= clauseEnd &&
      m.kind === "exact" &&
      m.columnIndex !== after.columnIndex &&
      (leading || at.end <= word) &&
      (!/^[\d.,:]+$/.test(m.text.replace(/ /g, "")) || /^(?:1[0-9]|20)\d\d$/.test(m.text))
    );
  });
  return { anchor: after, others };
}

/** The asked-about column of the row just after (before) the named row. */
export const positionAdjacent: PlanGenerator = {
  name: "position.adjacent",
  // ("who hosted After Hours?": a word of a cell the question names whole is no position; nor of a header:
  // "when is Ana's next check?" of a "Next Check" column.)
  applies: ({ analysis: a, input, catalog }) =>
    (a.position === "next" || a.position === "previous") &&
    ADJACENT_WORD.test(
      catalog.columns
        .flatMap((c) => {
          // (The header's adjacent word with the word after it: "next service" of "Next Service Due".)
          const w = normaliseText(c.schema.name).split(" ");
          return w.flatMap((x, i) => (i + 1 < w.length && ADJACENT_WORD.test(x) ? [`${x} ${w[i + 1]}`] : []));
        })
        .reduce(
          (q, h) => q.replace(wholeWords(h), " "),
          input.mentions
            .filter((m) => m.kind === "exact")
            .reduce((q, m) => q.replace(wholeWords(m.text), " "), a.normalized),
        ),
    ),
  build: (ctx) => {
    const { analysis: a, catalog, bindings, table, opts } = ctx;
    const { filters } = ctx.rows();
    if (filters.length === 0) return null;
    const { anchor, others } = adjacentAnchor(a.normalized, filters);
    // ("next to A, which X has the most Y?": the others' extreme, A aside — superlative.order's.)
    if (/^next to\b/.test(a.normalized) && a.sortDirection !== null) return null;
    const target = rankTargetColumns(a, catalog, filters, { ...opts, prefer: anchor.columnIndex })[ctx.targetRank]
      ?.column;
    if (!target) return null;
    // "what date is next to A?", "the position listed next to squad #3": another column's cell beside A's, in its
    // row; next to a value of the asked column itself ("which winner is next to A?") is the neighbouring row.
    if (SAME_ROW_NEXT_TO.test(a.normalized) && target.index !== anchor.columnIndex) {
      const preds = [mentionPredicate(anchor, catalog), ...bindings.map((b) => bindingPredicate(b, catalog))];
      return {
        sql: `SELECT ${col(target)} FROM ${table}${where([...new Set(preds)])} ORDER BY ${ROW} LIMIT 1`,
        template: "lookup",
        targetColumn: target.schema.name,
      };
    }
    const preds = [mentionPredicate(anchor, catalog, "a"), ...bindings.map((b) => bindingPredicate(b, catalog, "a"))];
    const uniq = [
      ...new Set(preds.filter((p, i) => !(i === 0 && bindings.some((b) => sameBinding(anchor, b, catalog))))),
    ];
    // The nearest row after (before) the named one that has something to give: a vacancy ("n/a", a dash) is no
    // row of the list, and "the next launch date after May 4" asked of the dates' own column is the next other
    // date, not the named row's twin.
    // (With required bindings the SQL guard wants b tied to the bound rows by an equality: the adjacent row.)
    // ("who won the year before X?" of a roll of winners listed newest first: the row after X in the table.)
    const newestFirst =
      !LAYOUT_WORD.test(a.normalized) && (timeColumn(catalog, ctx.usable, new Set())?.back ?? 0) >= 0.75;
    const after = (a.position === "next") !== newestFirst;
    const given = [
      ...others.map((m) => mentionPredicate(m, catalog, "b")),
      `NOT ${blankCell(target, "b")}`,
      ...(target.index === anchor.columnIndex ? [`b.${col(target)} <> a.${col(target)}`] : []),
    ];
    // ("what is due next after the phone bill?" of bills listed in no order of their Due date: the nearest later
    // date of the column the question names, not the next row.)
    const dated =
      bindings.length === 0 && !LAYOUT_WORD.test(a.normalized)
        ? namedDateColumn(a, catalog, ctx.usable, new Set([anchor.columnIndex]))
        : undefined;
    // (Time orders the rows only when the named row's time is its own: "ordered on 11 May, the previous ship?" of
    // several ships ordered that day is the row above.)
    const key = (r: number) => orderKey(dated!.raw[r] ?? "", true);
    const own =
      dated !== undefined &&
      anchor.rows.length === 1 &&
      key(anchor.rows[0]!) !== undefined &&
      dated.raw.every((_, r) => r === anchor.rows[0] || key(r) !== key(anchor.rows[0]!));
    if (dated && own && isUnordered(dated)) {
      const next = a.position === "next";
      return {
        sql: `SELECT b.${col(target)} FROM ${table} AS a JOIN ${table} AS b ON ${orderExpr(dated, "b")} ${next ? ">" : "<"} ${orderExpr(dated, "a")}${where([...uniq, ...given])} ORDER BY ${orderExpr(dated, "b")}${next ? "" : " DESC"}, b.${ROW}${next ? "" : " DESC"} LIMIT 1`,
        template: a.position!,
        targetColumn: target.schema.name,
      };
    }
    const join =
      bindings.length > 0 ? `b.${ROW} = a.${ROW} ${after ? "+" : "-"} 1` : `b.${ROW} ${after ? ">" : "<"} a.${ROW}`;
    return {
      sql: `SELECT b.${col(target)} FROM ${table} AS a JOIN ${table} AS b ON ${join}${where(bindings.length > 0 ? uniq : [...uniq, ...given])} ORDER BY a.${ROW}, b.${ROW}${after ? "" : " DESC"} LIMIT 1`,
      template: a.position!,
      targetColumn: target.schema.name,
    };
  },
};

/** Header words of what a contest is won by, the most of it: votes, points, a score. */
const WON_BY = /^(?:votes?|points?|pts|score)$/;
/** Header words of a part of a race's time, which wins nothing: "Split 1", "Lap", "Pace". */
const PART_OF_RACE = /^(?:split|splits|lap|laps|pace|leg|stage|segment|interval)$/;

/** What a contest is won by, and its winning end: the most votes, or the least time. */
interface ContestMeasure {
  column: CatalogColumn;
  /** SQL order of the winner first. */
  order: "DESC" | "ASC";
}

/**
 * "who won the election?": the row with the most of the one measure a contest is won by, when the table has
 * one (its rows need not be in finishing order); else undefined.
 */
function winningMeasure(ctx: PlanContext): ContestMeasure | undefined {
  if (ctx.analysis.position !== "first" || !/\b(?:won|winner|winning)\b/.test(ctx.analysis.normalized)) return;
  return contestMeasure(ctx);
}

/**
 * The one numeric column a contest is won by (Votes, Points, Score), else a race's one finishing time (the
 * fastest wins; no split or lap), or undefined.
 */
function contestMeasure(ctx: PlanContext): ContestMeasure | undefined {
  const usable = ctx.catalog.columns.filter((c) => !ctx.usable || ctx.usable.has(c.index));
  const measures = usable.filter((c) => isNumericColumn(c) && c.headerWords.some((h) => WON_BY.test(h)));
  if (measures.length > 0) return measures.length === 1 ? { column: measures[0]!, order: "DESC" } : undefined;
  const times = usable.filter((c) => c.timeShare >= 0.5 && !c.headerWords.some((h) => PART_OF_RACE.test(h)));
  return times.length === 1 ? { column: times[0]!, order: "ASC" } : undefined;
}

/** The words of the analysis's first/last positions. */
const POSITION_WORD = new RegExp(`${FIRST_POSITION_WORD.source}|${LAST_POSITION_WORD.source}`);
/** Words of a first (last) that is a finishing place or a rank, not a time. */
const PLACE_ORDER =
  /\b(?:place|placed|placing|finish|finished|finishing|came|come|rank|ranked|position|top|bottom|won|win|wins|winning|winner|seed|seeded)\b|\b(?:first|last) names?\b/;
/** A superlative beside the first (last): "the biggest opening since 2002" orders by its measure, not by time. */
const SUPERLATIVE_WORD = new RegExp(`\\b(?:${SUPERLATIVE_PATTERN})\\b`);
/** Superlatives of time itself, which do order by time. */
const TIME_SUPERLATIVE = /\b(?:earliest|latest|newest)\b/g;

/**
 * "trails last hiked in 2022" of a "Last Hiked" column, "the first term of the Greens" of a "First term" column:
 * the position word and the word after it are a header's words, and a time follows or a named row is asked of —
 * a condition on that column or a cell of it, not the table's first or last row ("the plates first issued", with
 * neither, still orders by First Issued).
 */
function positionWordInHeader(q: string, catalog: TableCatalog, rowNamed: boolean): boolean {
  for (const m of q.matchAll(
    /\b(first|last) ([a-z]+)( (?:in|on|before|after|since|during|between) (?:\d|the \d|[a-z]+ \d))?/g,
  )) {
    const words = [m[1]!, stem(m[2]!)];
    if ((m[3] !== undefined || rowNamed) && catalog.columns.some((c) => words.every((w) => c.headerWords.includes(w))))
      return true;
  }
  return false;
}

/** The asked-about column of the first (last) selected row. */
export const positionFirstLast: PlanGenerator = {
  name: "position.first-last",
  // ("rooms on the first floor": a position word a mention holds selects rows, it orders none.)
  applies: ({ analysis: a, input, catalog }) =>
    (a.position === "first" || a.position === "last") &&
    !positionWordInHeader(a.normalized, catalog, input.mentions.length > 0) &&
    // (A finishing place, "finish 1st", is the analysis's own reason for a first row.)
    !(
      POSITION_WORD.test(a.normalized.replace(PLACE_ORDINAL, " ")) &&
      !POSITION_WORD.test(
        input.mentions
          .filter((m) => m.kind === "exact")
          .reduce((q, m) => q.replace(wholeWords(m.text), " "), a.normalized.replace(PLACE_ORDINAL, " ")),
      )
    ),
  build: (ctx) => {
    const { analysis: a, catalog, usable, table, opts } = ctx;
    const { filters, cond, basePreds } = ctx.rows();
    const ranked = rankTargetColumns(a, catalog, filters, { ...opts, avoid: cond.columns }).map((r) => r.column);
    // "who applied first?": a person, ordered by the date the verb names ("Applied"), is not that date.
    const dateLike = (c: CatalogColumn) => holdsYears(c) || c.schema.type === "date";
    // ("most recent intake", "what shipped last": the row, ordered by the date its noun or verb names; a date is
    // the answer only when asked for.)
    const asksDate =
      a.answerType === "date" ||
      a.answerType === "year" ||
      /\b(when|date|day|year|time|month|birthdate|birthday|born|dob)\b/.test(a.normalized);
    // (A column that is itself the row's label — "Season", "Year", "Election" — stays the answer.)
    const dateOfRow = (c: CatalogColumn) =>
      dateLike(c) && c.headerWords.some((h) => /^(date|dated|day|dob|on|at|in|out)$/.test(h));
    const rowOf = a.answerType === "person" || (!asksDate && ranked[0] !== undefined && dateOfRow(ranked[0]));
    // (Of a row, its Name rather than its record number.)
    const rows = ranked.filter((c) => !dateLike(c));
    const name = rows.find((c) => c.headerWords.includes("name"));
    const rowLabels = rows[0] && isIdentifierColumn(rows[0]) && name ? [name, ...rows.filter((c) => c !== name)] : rows;
    const target = (rowOf ? rowLabels : ranked)[ctx.targetRank];
    if (!target) return null;
    const dir = a.position === "first" ? "ASC" : "DESC";
    // "the first year …" asks for the earliest year, whatever order the table lists its rows in
    // (but "listed first", "first in the table" ask for the table's order).
    const tableOrder = /\b(listed|list|table|chart|column|top|bottom)\b/.test(a.normalized);
    // "who started first?", "which product was released last?": a date or year column the question's
    // verb names orders the rows, whatever order the table lists them in.
    const avoid = new Set([target.index, ...filters.map((m) => m.columnIndex)]);
    // ("the most recent review": with one date column, that date orders the rows, whatever their order.)
    const onlyDate = () => {
      const dates = catalog.columns.filter(
        (c) => (!usable || usable.has(c.index)) && !avoid.has(c.index) && c.schema.type === "date",
      );
      return /\b(?:most recent|latest|newest)\b/.test(a.normalized) && dates.length === 1 ? dates[0] : undefined;
    };
    // ("which flight leaves first?": the times of day its verb names, "Departure" 06:30, order the rows.)
    const namedClock = () => {
      const clocks = catalog.columns.filter(
        (c) =>
          (!usable || usable.has(c.index)) &&
          !avoid.has(c.index) &&
          c.timeShare >= 0.8 &&
          a.contentWords.some((w) => headerMatch([w], c, false) >= 0.8),
      );
      return clocks.length === 1 ? clocks[0] : undefined;
    };
    // ("what was her first film?" of a filmography listed newest first: the table's one column of years or dates
    // orders its rows in time when the table does not list them in that order; a place or a listing keeps the table's.)
    const timeOrder = () => {
      if (PLACE_ORDER.test(a.normalized) || SUPERLATIVE_WORD.test(a.normalized.replace(TIME_SUPERLATIVE, " ")))
        return undefined;
      // (A table listed in time but for a slip — a typed year, two days swapped — keeps its own order.)
      const time = timeColumn(catalog, usable, avoid);
      return time && time.back >= 0.25 ? time.column : undefined;
    };
    const dated =
      tableOrder || holdsYears(target) || target.schema.type === "date"
        ? undefined
        : (namedDateColumn(a, catalog, usable, avoid) ?? onlyDate() ?? namedClock() ?? timeOrder());
    const clock = !tableOrder && (holdsYears(target) || target.schema.type === "date") ? target : dated;
    const winning = clock || tableOrder ? undefined : winningMeasure(ctx);
    // ("what was the winning time?": the measure itself is asked, read at the winner too.)
    if (winning) {
      const preds = [...basePreds, `TRIM(${col(target)}) <> ''`, hasNum(winning.column), ...summaryFilter(catalog)];
      return {
        sql: `SELECT ${col(target)} FROM ${table}${where(preds)} ORDER BY ${orderExpr(winning.column)} ${winning.order}, ${ROW} LIMIT 1`,
        template: "first",
        targetColumn: target.schema.name,
      };
    }
    const order = clock ? `${orderExpr(clock)} ${dir}, ${ROW} ${dir}` : `${ROW} ${dir}`;
    // ("who sat the exam first?": everyone on the first day; a year is no day, so rows in the same year are not tied.)
    if (dated && dated.schema.type === "date") {
      const preds = [...basePreds, `TRIM(${col(target)}) <> ''`, hasNum(dated), ...summaryFilter(catalog)];
      const extreme = `(SELECT ${dir === "ASC" ? "MIN" : "MAX"}(${orderExpr(dated)}) FROM ${table}${where(preds)})`;
      return {
        sql: `SELECT ${col(target)} FROM ${table}${where([...preds, `${orderExpr(dated)} = ${extreme}`])} ORDER BY ${ROW}`,
        template: a.position as "first" | "last",
        targetColumn: target.schema.name,
      };
    }
    return {
      sql: `SELECT ${col(target)} FROM ${table}${where([...basePreds, `TRIM(${col(target)}) <> ''`, ...(clock ? [hasNum(clock)] : []), ...summaryFilter(catalog)])} ORDER BY ${order} LIMIT 1`,
      template: a.position as "first" | "last",
      targetColumn: target.schema.name,
    };
  },
};

/** Header words of a finishing place: Rank, Pos, Place. */
const PLACE_HEADER = /^(?:rank|ranking|pos|position|place|placing)$/;

/**
 * "who came third?": the row in that finishing place — by a numeric place column when the table has one, else by
 * the one measure a contest is won by (Votes, Points), else the table's order (results are listed as they finished).
 */
export const positionPlace: PlanGenerator = {
  name: "position.place",
  applies: ({ analysis: a }) => a.finishingPlace !== undefined,
  build: (ctx) => {
    const { analysis: a, catalog, usable, table, opts } = ctx;
    const place = a.finishingPlace!;
    const { filters, cond, basePreds } = ctx.rows();
    // (A numbered list's own numbers, "#" 1, 2, 3 …, are its places too.)
    const placeColumn = catalog.columns.find(
      (c) =>
        (!usable || usable.has(c.index)) &&
        isNumericColumn(c) &&
        (c.headerWords.some((h) => PLACE_HEADER.test(h)) || isOwnNumberColumn(c)),
    );
    const measure = placeColumn ? undefined : contestMeasure(ctx);
    const target = rankTargetColumns(a, catalog, filters, { ...opts, avoid: cond.columns })
      .map((r) => r.column)
      .filter((c) => c !== placeColumn && c !== measure?.column && !holdsYears(c) && c.schema.type !== "date")[
      ctx.targetRank
    ];
    if (!target) return null;
    const preds = [...basePreds, `TRIM(${col(target)}) <> ''`, ...summaryFilter(catalog)];
    // (The place may have selected the rows already: "in second place" of a Pos column, "second" of a numbered
    // list's row. Rows sharing a place are all in it.)
    const placed = (placeColumn && cond.columns.has(placeColumn.index)) || cond.preds.some((p) => p.includes(ROW));
    if (placed || placeColumn)
      return {
        sql: `SELECT ${col(target)} FROM ${table}${where([...preds, ...(placed ? [] : [hasNum(placeColumn!), `${orderExpr(placeColumn!)} = ${place}`])])} ORDER BY ${ROW}`,
        template: "place",
        targetColumn: target.schema.name,
      };
    const order = measure ? `${orderExpr(measure.column)} ${measure.order}, ${ROW}` : ROW;
    return {
      sql: `SELECT ${col(target)} FROM ${table}${where([...preds, ...(measure ? [hasNum(measure.column)] : [])])} ORDER BY ${order} LIMIT 1 OFFSET ${place - 1}`,
      template: "place",
      targetColumn: target.schema.name,
    };
  },
};
