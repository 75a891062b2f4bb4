/**
 * Counting plans: a yes/no bound on the row count ("are there at least 5 …?"), the longest run of
 * adjacent selected rows ("how many consecutive …"), rows beyond a named row's value, the items of a
 * named row's list cell, a count column of a named row, distinct values, a summed quantity, and the
 * selected rows' count.
 */
import {
  chooseOrderColumn,
  headerMatch,
  isHeaderModifier,
  isIdentifierColumn,
  isNumericColumn,
  isOwnNumberColumn,
  isYearColumn,
  orderDirection,
  rankTargetColumns,
} from "../columns.js";
import type { CatalogColumn, TableCatalog } from "../table-catalog.js";
import {
  ROW,
  col,
  hasNum,
  holdsYears,
  isSequence,
  mentionPredicate,
  mentionRows,
  numExpr,
  orderExpr,
  summaryFilter,
  where,
} from "./sql-parts.js";
import { LEFT_OVER, type NumericCondition } from "../analysis.js";
import type { PlanContext, PlanGenerator, SqlPlan } from "./types.js";
import type { EntityMention } from "../mentions.js";
import { sqlFragmentsInUse as d } from "../sql-dialect.js";
import { stem } from "../../../text/stem.js";
import { normaliseText } from "../../../text/normalise.js";
import { MONEY_HEADER_WORDS, QUANTITY_HEADERS } from "../../../text/column-words.js";
import {
  minutesPerTimeUnit,
  PEOPLE_NOUNS,
  monthNumber,
  nounPattern,
  singularForms,
  WEEKDAYS,
} from "../../../text/lexicons.js";

/**
 * The numeric column whose header best names the counted noun ("weeks at No. 1" for "how many weeks"); of columns
 * the noun names alike, the one the question's other words name too ("goals conceded" of GF and GA: GA).
 */
export function countColumn(
  noun: string[],
  catalog: TableCatalog,
  usable: Set<number> | undefined,
  used: Set<number>,
  others: readonly string[] = [],
): { column: CatalogColumn | undefined; score: number } {
  let column: CatalogColumn | undefined;
  let score = 0;
  let tie = 0;
  for (const c of catalog.columns) {
    if ((usable && !usable.has(c.index)) || !isNumericColumn(c) || used.has(c.index)) continue;
    // Years are counted by rows, never summed or read as a count ("how many years …").
    // (Nor clock times: "how many women finished" does not add up finish times.)
    // (Nor record numbers: "how many urgent tickets" counts rows, it does not add up "Ticket #".)
    // (Nor the rows' own numbers: "how many rooms are available?" counts rooms, it does not add up 101 + 201.)
    // (Nor dates: "how many days did it rain?" counts the rainy days' rows.)
    if (
      holdsYears(c) ||
      c.timeShare >= 0.5 ||
      c.schema.type === "date" ||
      isIdentifierColumn(c) ||
      isOwnNumberColumn(c)
    )
      continue;
    const s = headerMatch(noun, c);
    // ("how many sales did Sam make?" counts a ledger's rows, though "sales" is related to its Amount: a word only
    // related to a sum of money counts no money.)
    if (s > score && s < 1 && isMoney(c)) continue;
    const t =
      s > 0 && others.length > 0
        ? headerMatch(
            others.filter((w) => !noun.includes(w)),
            c,
          )
        : 0;
    if (s > score || (s === score && s > 0 && t > tie)) {
      score = s;
      column = c;
      tie = t;
    }
  }
  return { column, score };
}

/** A column of money: currency in its cells, or a header that says so ("Amount", "Revenue"). */
function isMoney(c: CatalogColumn): boolean {
  const filled = c.raw.filter((v) => v.trim() !== "");
  return (
    // (Not "Total": a total of medals is a count.)
    c.headerWords.some((h) => h !== "total" && MONEY_HEADER_WORDS.includes(h)) ||
    filled.filter((v) => /[$€£¥]/.test(v)).length >= 0.5 * filled.length
  );
}

/** Nouns that count a quantity, not rows: "how many units … in total" sums a column. */
const MEASURE_NOUNS =
  /^(units?|items?|pieces?|copies|packs?|boxes|crates|cases|bottles|bags|tons?|tonnes?|litres?|liters?|kilograms?|kg|pounds?|dollars?|euros?|goals|points|runs)$/;

/** Verbs of trade whose counted items are units ("how many lamps did we sell?"). */
const TRADE_VERB = /\b(?:sell|sold|buy|bought|order|ordered|ship|shipped|deliver|delivered|stock|stocked)\b/;

/** The counted noun is the item a mention names ("lamps" of a Lamp row), not what a row is. */
function nounIsValueOf(noun: readonly string[], filters: readonly EntityMention[]): boolean {
  return noun.length > 0 && noun.every((w) => filters.some((m) => m.text.split(" ").some((t) => stem(t) === stem(w))));
}

/** The one numeric column whose header says it holds an amount of things (text/column-words.ts QUANTITY_HEADERS), if exactly one. */
export function quantityColumn(
  catalog: TableCatalog,
  usable: Set<number> | undefined,
  used: Set<number>,
): CatalogColumn | undefined {
  const found = catalog.columns.filter(
    (c) =>
      (!usable || usable.has(c.index)) &&
      !used.has(c.index) &&
      isNumericColumn(c) &&
      !holdsYears(c) &&
      // ("unit cost" is a cost: a modifier word does not make a quantity.)
      c.headerWords.some((h, i) => QUANTITY_HEADERS.has(h) && !isHeaderModifier(c, i)),
  );
  return found.length === 1 ? found[0] : undefined;
}

/** The numeric column one question word names best, whatever its position in the question. */
function bestSingleWordColumn(
  words: string[],
  catalog: TableCatalog,
  usable: Set<number> | undefined,
  used: Set<number>,
): { column: CatalogColumn | undefined; score: number } {
  return words
    .map((w) => countColumn([w], catalog, usable, used))
    .reduce((b, x) => (x.score > b.score ? x : b), { column: undefined, score: 0 });
}

/** "which crew had the longest winning streak?", "what movie was …": the answer is a row's cell, not a number. */
export function asksForEntity(q: string): boolean {
  return /\b(which|who|whom|whose)\b/.test(q) || /\bwhat (?!(?:is|was|were|are|has|had|s)\b)[a-z]/.test(q);
}

/**
 * The question's rows counted (the `bound` condition left out) and the count compared with the bound, as
 * yes or no; null when the question's rows are not a plain count.
 */
export function countAgainstBound(
  ctx: PlanContext,
  bound: NumericCondition,
  op: NumericCondition["op"] = bound.op,
): SqlPlan | null {
  const a = ctx.analysis;
  const counted = ctx.replan({
    ...ctx.input,
    analysis: { ...a, operator: "count", answerType: "count", conditions: a.conditions.filter((c) => c !== bound) },
  });
  if (counted?.template !== "count" || !counted.sql.startsWith("SELECT COUNT(*) ")) return null;
  return {
    sql: `SELECT CASE WHEN (${counted.sql}) ${op} ${bound.value} THEN 'yes' ELSE 'no' END`,
    template: "lookup",
    targetColumn: "",
  };
}

/** "are there at least 12 riders?": the row count compared with the number, as yes or no. */
export const countAtLeast: PlanGenerator = {
  name: "count.at-least",
  applies: ({ analysis: a }) =>
    /^(?:are|were) there (at least|more than|over|fewer than|less than|at most) (\d+) [a-z]/.test(a.normalized),
  build: (ctx) => {
    const a = ctx.analysis;
    const atLeast = /^(?:are|were) there (at least|more than|over|fewer than|less than|at most) (\d+) [a-z]/.exec(
      a.normalized,
    )!;
    const bound = a.conditions.find((c) => c.value === Number(atLeast[2]) && !c.place && !c.top && !c.clock);
    if (!bound) return null;
    const op = { "at least": ">=", "more than": ">", over: ">", "fewer than": "<", "less than": "<", "at most": "<=" }[
      atLeast[1]!
    ]! as NumericCondition["op"];
    return countAgainstBound(ctx, bound, op);
  },
};

function countNoun(ctx: PlanContext): string[] {
  // "how many times …" counts events: "times" names no column (not a Time column).
  if (/^times?$/.test(ctx.analysis.countNoun[0] ?? "")) return ctx.analysis.countNoun.slice(1);
  const noun = ctx.analysis.countNoun.length ? ctx.analysis.countNoun : ctx.analysis.targetHints;
  // ("number of sold out concerts": words of a yes/no header the mentions select are no counted noun.)
  const flagged = new Set(
    ctx.input.mentions.filter((m) => m.text.includes(" ") && m.kind === "exact").flatMap((m) => m.text.split(" ")),
  );
  // ("how many away games did Rovers play?": a modifier naming the column a mention binds is that condition.)
  const bound = new Set(ctx.input.mentions.flatMap((m) => ctx.catalog.columns[m.columnIndex]!.headerWords));
  // ("how many rainy days?": an adjective linked to the value it is made from, Rain, is that condition too; a value
  // as written, "how many plumbing items?", may still say which quantity is meant.)
  const linked = new Set(
    ctx.input.mentions.filter((m) => m.kind === "exact" && normaliseText(m.value) !== m.text).map((m) => m.text),
  );
  const kept = noun.filter(
    (w, i) =>
      !flagged.has(w) &&
      !(noun.length === 2 && i === 0 && bound.has(stem(w))) &&
      !(i < noun.length - 1 && linked.has(w)),
  );
  return kept.length > 0 ? kept : noun;
}

/**
 * "how many straight weeks …", "the most consecutive wins": the longest run of adjacent table rows the
 * conditions select (from the top: the first run), not all such rows. A count column of a named row
 * ("weeks at No. 1") still answers.
 */
export const countConsecutive: PlanGenerator = {
  name: "count.consecutive",
  applies: ({ analysis: a }) =>
    /\b(consecutive(?:ly)?|in a row|straight|streak)\b/.test(a.normalized) &&
    /\b(how many|most|longest|number of)\b/.test(a.normalized) &&
    !asksForEntity(a.normalized),
  build: (ctx) => {
    const { analysis: a, catalog, usable, table } = ctx;
    const { basePreds, filterPreds, used } = ctx.rows();
    if (
      basePreds.length === 0 ||
      (filterPreds.length > 0 && countColumn(countNoun(ctx), catalog, usable, used).score >= 0.8)
    )
      return null;
    // (No window functions: the guard admits OVER only with PARTITION BY.) A run's length is its last row
    // minus the nearest row above it that the conditions do not select.
    const hit = `(${[...basePreds, ...summaryFilter(catalog)].join(" AND ")})`;
    const miss = (bound: string) => `SELECT ${bound} FROM ${table} AS b WHERE ${d().notTrue(hit)}`;
    const fromTop = /\b(from|starting (?:at|from)) the (top|start|beginning)\b/.test(a.normalized);
    const sql = fromTop
      ? `SELECT COALESCE((${miss(`MIN(${ROW})`)} AND b.${ROW} > a.${ROW}), (SELECT MAX(${ROW}) + 1 FROM ${table})) - a.${ROW} FROM ${table} AS a WHERE ${hit} ORDER BY a.${ROW} LIMIT 1`
      : `SELECT MAX(a.${ROW} - COALESCE((${miss(`MAX(${ROW})`)} AND b.${ROW} < a.${ROW}), -1)) FROM ${table} AS a WHERE ${hit}`;
    return { sql, template: "count", targetColumn: "" };
  },
};

const isCount = ({ analysis: a }: PlanContext) => a.operator === "count";
const DISTINCT_WORDS = /\b(different|distinct|unique|represented|(?:kinds|types|sorts) of)\b/;

/**
 * "… fewer medals than X", "… earns less than X": the predicate of the rows beyond the named row's value on
 * the column the comparison orders by (the other conditions kept), with the named row's mention; null when
 * the question compares with no named row.
 */
export function beyondRow(ctx: PlanContext): { anchor: EntityMention; preds: string[] } | null {
  const { analysis: a, catalog, table, opts } = ctx;
  const { filters, filterPreds, cond } = ctx.rows();
  const than =
    /\b(more|less|fewer|higher|lower|larger|smaller|greater|bigger|longer|shorter|taller|older|younger|earlier|later|faster|slower|better|worse)\b[^?]*?\bthan\s+(?:the\s+)?(.+)$/.exec(
      a.normalized.replace(/[?.!]+$/, ""),
    );
  // (The named row follows "than" within two words, no number between: "more than 1,000,000 … from Punjab"
  // names no row to exceed.)
  const anchor = than
    ? filters.find((m) => {
        const at = ` ${than[2]} `.indexOf(` ${m.text} `);
        const before = at < 0 ? "" : than[2]!.slice(0, at);
        return at >= 0 && !/\d/.test(before) && before.split(" ").filter((w) => w !== "").length <= 2;
      })
    : undefined;
  if (!than || !anchor) return null;
  const order = chooseOrderColumn(a, catalog, filters, opts);
  if (!order || order.score < 0) return null;
  const bigger = /^(more|higher|larger|greater|bigger|longer|taller|later|older|better)$/.test(than[1]!);
  const dir = orderDirection(than[1], bigger ? "max" : "min", order.column);
  const others = filterPreds.filter((p) => p !== mentionPredicate(anchor, catalog));
  const expr = orderExpr(order.column);
  const sub = `(SELECT ${expr} FROM ${table} WHERE ${mentionPredicate(anchor, catalog)} LIMIT 1)`;
  return {
    anchor,
    preds: [
      ...others,
      ...cond.preds,
      hasNum(order.column),
      `${expr} ${dir === "max" ? ">" : "<"} ${sub}`,
      ...summaryFilter(catalog),
    ],
  };
}

/** "how many countries have fewer medals than X?": rows beyond the named row's value. */
export const countBeyondRow: PlanGenerator = {
  name: "count.beyond-row",
  applies: (ctx) => isCount(ctx) && /\bthan\b/.test(ctx.analysis.normalized),
  build: (ctx) => {
    const { catalog, usable, table } = ctx;
    if (countColumn(countNoun(ctx), catalog, usable, ctx.rows().used).column) return null;
    const beyond = beyondRow(ctx);
    return beyond
      ? { sql: `SELECT COUNT(*) FROM ${table}${where(beyond.preds)}`, template: "count", targetColumn: "" }
      : null;
  },
};

/**
 * "who earns less than Ben?", "which cities are bigger than Lyon?", "name the players who scored more than X": the
 * rows beyond the named row's value,
 * answered by the named row's own column (the others of its kind).
 */
export const listBeyondRow: PlanGenerator = {
  name: "comparison.beyond-row",
  applies: ({ analysis: a }) => /^(?:who|which|what|name|list)\b/.test(a.normalized) && /\bthan\b/.test(a.normalized),
  build: (ctx) => {
    const beyond = beyondRow(ctx);
    if (!beyond) return null;
    const c = ctx.catalog.columns[beyond.anchor.columnIndex]!;
    // (A numeric anchor column is a value, not a row's name: "more than 40" is a bound.)
    if (isNumericColumn(c)) return null;
    return {
      sql: `SELECT ${col(c)} FROM ${ctx.table}${where(beyond.preds)} ORDER BY ${ROW}`,
      template: "lookup",
      targetColumn: c.schema.name,
    };
  },
};

/** The noun spells a header of two or more words whole ("new signups" of "New Signups"). */
function spellsHeader(noun: string[], c: CatalogColumn): boolean {
  const words = new Set(noun.map(stem));
  return c.headerWords.length >= 2 && c.headerWords.every((h) => words.has(h));
}

/**
 * The key column's value fixes the other column's: every value the key holds on two or more rows (at least
 * two such values) has one value of the other column ("Course" → "Credits"), so the other column is an
 * attribute of the key's thing.
 */
function determines(key: CatalogColumn | undefined, other: CatalogColumn): boolean {
  if (!key || key === other || isNumericColumn(key)) return false;
  let groups = 0;
  for (const rows of key.distinct.values()) {
    if (rows.length < 2) continue;
    if (new Set(rows.map((r) => other.raw[r])).size > 1) return false;
    groups += 1;
  }
  return groups >= 2;
}

/** A header's head word: the word before "of" ("Duration of strike" → duration), else the last word. */
function headWord(c: CatalogColumn): string {
  const of = c.headerWords.indexOf("of");
  return (of > 0 ? c.headerWords[of - 1] : c.headerWords[c.headerWords.length - 1]) ?? "";
}

/** The counted noun is the table's own row noun ("how many orders …" of an orders table counts rows). */
function nounIsRowNoun(ctx: PlanContext): boolean {
  // (The head of the table's name: "tickets" are no row of concert_ticket_sales.csv, a sale is.)
  const head = ctx.catalog.columns[0]?.tableWords?.filter((w) => !/^\d+$/.test(w)).at(-1);
  return head !== undefined && countNoun(ctx).some((w) => stem(w) === head);
}

/** Another column's header opens with the counted noun ("Reading Type", "Order Date"): the rows are those things. */
function describedThings(ctx: PlanContext, counted: CatalogColumn): boolean {
  const noun = countNoun(ctx).map(stem);
  return ctx.catalog.columns.some(
    (c) => c !== counted && !isNumericColumn(c) && c.headerWords.length >= 2 && noun.includes(c.headerWords[0]!),
  );
}

/**
 * "how many pains au chocolat were baked this week?": when the counted things are a value of the table, a
 * passive verb that a quantity column's header spells ("Qty Baked") names what is added up. ("how many
 * events were held" counts rows; "how many guards were picked" does not add up a "Pick" column.)
 */
const PASSIVE_COUNT = /^how many (?!times\b).+? (?:were|was|got) ([a-z]{3,}(?:ed|en)|sold|made|held)\b/;

function passiveQuantityVerb(ctx: PlanContext, asked: string, filters: readonly EntityMention[]): string | undefined {
  const verb = PASSIVE_COUNT.exec(asked)?.[1];
  if (!verb) return undefined;
  const valued = countNoun(ctx).some((w) =>
    filters.some((m) =>
      m.text
        .toLowerCase()
        .split(" ")
        .some((t) => stem(t) === stem(w) || singularForms(w).includes(t)),
    ),
  );
  const spelled = ctx.catalog.columns.some(
    (c) => c.headerWords.some((h) => QUANTITY_HEADERS.has(h)) && c.headerWords.includes(stem(verb)),
  );
  return valued && spelled ? verb : undefined;
}

/** The counted noun is neither the table's rows nor named by any column ("tickets" of a table of screenings). */
function unnamedThings(ctx: PlanContext): boolean {
  const noun = countNoun(ctx);
  return (
    noun.length > 0 &&
    !nounIsRowNoun(ctx) &&
    ctx.catalog.columns.every((c) => headerMatch(noun, c, false) < 1.5) &&
    !ctx.input.mentions.some((m) => noun.some((w) => m.text.toLowerCase().split(" ").includes(w)))
  );
}

/** The one numeric column, of no money, year or record numbers, whose header is the verb and another word ("Seats Sold"). */
function passiveColumn(ctx: PlanContext, verb: string): CatalogColumn | undefined {
  const found = ctx.catalog.columns.filter(
    (c) =>
      (!ctx.usable || ctx.usable.has(c.index)) &&
      isNumericColumn(c) &&
      c.headerWords.length >= 2 &&
      c.headerWords.includes(stem(verb)) &&
      !holdsYears(c) &&
      c.timeShare < 0.5 &&
      !isIdentifierColumn(c) &&
      !isMoney(c),
  );
  return found.length === 1 ? found[0] : undefined;
}

/**
 * "how many students are enrolled in X?": a numeric column whose whole header is the passive verb
 * ("Enrolled") holds how many there are of each row; a year column ("Drafted") does not.
 */
function participleColumn(ctx: PlanContext, asked: string): CatalogColumn | undefined {
  const verb = /^how many (?!times\b).+? (?:are|is|were|was|got) ([a-z]{3,}(?:ed|en)|sold|made|held)\b/.exec(
    asked,
  )?.[1];
  if (!verb) return undefined;
  return ctx.catalog.columns.find(
    (c) =>
      (!ctx.usable || ctx.usable.has(c.index)) &&
      normaliseText(c.schema.name) === verb &&
      isNumericColumn(c) &&
      !isYearColumn(c),
  );
}

/** A column of the rows' own keys: record numbers, or codes one per row under a key's header ("PO #": PO-24001; not "# of votes"). */
function isRecordKey(c: CatalogColumn): boolean {
  if (isIdentifierColumn(c)) return true;
  const filled = c.raw.filter((v) => v.trim() !== "").length;
  return filled > 2 && c.distinct.size === filled && /\w\s*#$|\b(?:id|no|ref|code)\.?$/i.test(c.schema.name);
}

/** Separators of a list written in one cell: "Ada, Ben and Cy", "north; east". */
const LIST_SEPARATOR = /,|;| and | & /;

/**
 * "how many counties does X represent?", "how many skills does Ana have?": the named row's cell under the
 * column the counted noun spells holds a list ("Adams, Brown and Clay"); its items are counted. (A
 * separator counted in SQL: ", and" is one; a cell without one is no list, and the plan does not apply.)
 */
export const countListItems: PlanGenerator = {
  name: "count.list-items",
  applies: isCount,
  build: (ctx) => {
    const { catalog, usable, table } = ctx;
    const { filters, filterPreds, basePreds, used } = ctx.rows();
    const noun = countNoun(ctx);
    const rows = mentionRows(filters);
    // ("how many of the winners …" counts rows; a numeric column the noun names is count.column's.)
    if (
      noun.length === 0 ||
      filterPreds.length === 0 ||
      rows?.length !== 1 ||
      /\bhow many of\b/.test(ctx.analysis.normalized) ||
      countColumn(noun, catalog, usable, used).score >= 0.8
    )
      return null;
    const c = catalog.columns.find(
      (x) =>
        (!usable || usable.has(x.index)) &&
        !isNumericColumn(x) &&
        !filters.some((m) => m.columnIndex === x.index) &&
        headerMatch(noun, x, false) >= 1.5,
    );
    // (A list of year ranges, "1990–93, 2001", is not counted by its separators.)
    const value = c?.raw[rows[0]!] ?? "";
    if (!c || !LIST_SEPARATOR.test(value) || /\d\s*[–—-]\s*\d/.test(value)) return null;
    const cell = `REPLACE(${col(c)}, ', and ', ', ')`;
    const count = (sep: string) => `(LENGTH(${cell}) - LENGTH(REPLACE(${cell}, '${sep}', ''))) / ${sep.length}`;
    return {
      sql: `SELECT 1 + ${[",", ";", " and ", " & "].map(count).join(" + ")} FROM ${table}${where(basePreds)}`,
      template: "count-column",
      targetColumn: c.schema.name,
    };
  },
};

/** Every row together: "how many goals did the team score?", "… did we get?", "how many goals were scored?". */
const COLLECTIVE_SUBJECT =
  /^how many [a-z ]+ (?:(?:did|have|has) (?:the (?:team|club|squad|side|group|class|company)|we|they|everyone|all of them) [a-z]+\b|(?:were|was) (?:[a-z]+ed|[a-z]+en|won|got|made|sold|held)\??$)/;

/** "how many gold medals did X win?": the count column of the named rows (summed over several). */
/** Header words of how often something is done: "Water every (days)", "Frequency", "Interval". */
const INTERVAL_HEADER = /^(?:every|frequency|interval|often|cadence)$/;

export const countColumnOfRow: PlanGenerator = {
  name: "count.column",
  applies: isCount,
  build: (ctx) => {
    const { catalog, usable, table } = ctx;
    const { filters, filterPreds, basePreds, used } = ctx.rows();
    // ("how often do I water the basil?" of a "Water every (days)" column: the named row's interval is how often.)
    if (/^how often\b/.test(ctx.analysis.normalized) && mentionRows(filters)?.length === 1) {
      const interval = catalog.columns.find(
        (c) =>
          (!usable || usable.has(c.index)) && !used.has(c.index) && c.headerWords.some((h) => INTERVAL_HEADER.test(h)),
      );
      if (interval)
        return {
          sql: `SELECT ${col(interval)} FROM ${table}${where(basePreds)} ORDER BY ${ROW} LIMIT 1`,
          template: "lookup",
          targetColumn: interval.schema.name,
        };
    }
    // ("how many POs did X raise?": the rows' own record numbers name the rows, which are counted.)
    // (A short plural is its singular too: "POs" of "PO #".)
    const head = countNoun(ctx)
      .at(-1)
      ?.replace(/^([a-z]{2,3})s$/, "$1");
    if (head && catalog.columns.some((c) => isRecordKey(c) && headerMatch([head], c, false) >= 1.5)) return null;
    // ("how many lamps did we sell?" of a sales log with a Qty column: the counted noun is the item a mention
    // names, so its units are added up, not its rows.)
    const units = TRADE_VERB.test(ctx.analysis.normalized) && nounIsValueOf(countNoun(ctx), filters);
    const quantity = units ? quantityColumn(catalog, usable, used) : undefined;
    if (quantity)
      return {
        sql: `SELECT SUM(${numExpr(quantity)}) FROM ${table}${where([...basePreds, hasNum(quantity), ...summaryFilter(catalog)])}`,
        template: "sum",
        targetColumn: quantity.schema.name,
      };
    let { column: countCol, score } = countColumn(countNoun(ctx), catalog, usable, used, ctx.analysis.contentWords);
    // ("how many A grades were there?" of Grade and Score: the noun spells a column of words, whose rows are
    // counted; a number column it is only related to holds no count of them.)
    if (
      countCol &&
      score < 1.5 &&
      catalog.columns.some(
        (c) => (!usable || usable.has(c.index)) && !isNumericColumn(c) && headerMatch(countNoun(ctx), c, false) >= 1.5,
      )
    )
      [countCol, score] = [undefined, 0];
    // ("harbour counts" over seal_counts.csv: the row noun counts rows, though "count" may name a tally.)
    // ("how many readings were estimated?" beside "Reading Type": a header that describes the noun's things names the
    // rows, the related "Usage (kWh)" is no count of them.)
    if (
      countCol &&
      (nounIsRowNoun(ctx) || describedThings(ctx, countCol)) &&
      !spellsHeader(countNoun(ctx), countCol) &&
      headerMatch(countNoun(ctx), countCol, false) < 1.5
    )
      [countCol, score] = [undefined, 0];
    // "how many games has X won?": the noun names no column, the closing verb after the named row does (won → W).
    // ("goals scored by X", a search fragment: its participle.)
    const asked = ctx.analysis.normalized.replace(/[?.!]+$/, "");
    // (The day or month the clause closes on: it may name a column itself, "Tue" of a timesheet.)
    let period: string | undefined;
    // ("how many bagels did we sell on Tuesday in total?": the verb ends the clause; a day, a place or "in total" follows.)
    const clause = asked
      .replace(/ (?:in total|in all|altogether|overall|combined)$/, "")
      // (So does a date: "… did we sell on february 4, 2025", "… on 2025-02-04".)
      .replace(/ (?:on|in|during) ([a-z0-9 ,/-]*\d[a-z0-9 ,/-]*)$/, (tail, when: string) =>
        /^\d{4}-\d\d(?:-\d\d)?$/.test(when) || when.split(/[ ,]+/).some((w) => monthNumber(w) !== undefined)
          ? ""
          : tail,
      )
      .replace(/ (?:on|in|at|during|over|across|this|last) (?:the )?([a-z]+)$/, (tail, word: string) => {
        const when = (WEEKDAYS as readonly string[]).includes(word) || monthNumber(word) !== undefined;
        if (when) period = word;
        return when || filters.some((m) => m.text === word || m.text === word.replace(/s$/, "")) ? "" : tail;
      });
    const verbAt = (text: string) =>
      // (Not a place's word after its preposition: "did Rovers play at home"; nor an adverb of place: "… play away".)
      /^how many (?!times\b)[a-z]+(?: [a-z]+)? (?:has|have|had|did|does|do|can|could|will) .+ (?<!\b(?:at|in|on|to|for|from|with|by|of|against|during|over|under) )(?!(?:away|home|abroad|overseas|again|together|alone)$)([a-z]{3,})$/.exec(
        text,
      )?.[1];
    // (Only a verb that closes the question outranks the counted noun's column.)
    const closingVerb = clause === asked ? verbAt(asked) : undefined;
    const verb =
      verbAt(clause) ??
      /^(?:the )?[a-z]+s ([a-z]{3,}(?:ed|en)|won|made|sold|held) by\b/.exec(asked)?.[1] ??
      passiveQuantityVerb(ctx, asked, filters);
    // ("how many games has X won?" of "Games Played" and "Wins": the noun's column says another verb, the verb's
    // column is the one.)
    const otherVerb =
      countCol !== undefined &&
      verb !== undefined &&
      normaliseText(countCol.schema.name)
        .split(" ")
        .some((w) => /[a-z]{3}ed$/.test(w) && stem(w) !== stem(verb));
    // ("how many hours has Raj spent?" of "Estimate (h)" and "Spent (h)": the verb spells one header whole, the
    // noun's unit names both.)
    const spelledVerb =
      countCol !== undefined && closingVerb !== undefined && headerMatch([closingVerb], countCol, false) === 0
        ? countColumn([closingVerb], catalog, usable, used)
        : undefined;
    if (spelledVerb?.column && spelledVerb.score >= 1.5) ({ column: countCol, score } = spelledVerb);
    else if (
      (!countCol || score < 0.8 || otherVerb) &&
      verb &&
      !filters.some((m) => m.text.toLowerCase().split(" ").includes(verb))
    ) {
      const named = countColumn([verb], catalog, usable, used);
      if (!otherVerb || (named.column && named.score >= 0.8)) ({ column: countCol, score } = named);
    }
    // ("the total number of vacation days requested": a closing participle is the noun's verb, not part of it.)
    const [participleNoun, closing] = [countNoun(ctx).slice(0, -1), countNoun(ctx).at(-1) ?? ""];
    if ((!countCol || score < 0.8) && participleNoun.length > 0 && /^[a-z]{3,}ed$/.test(closing)) {
      const named = countColumn(participleNoun, catalog, usable, used, ctx.analysis.contentWords);
      if (named.column && named.score >= 0.8) ({ column: countCol, score } = named);
    }
    // ("how many people attended Ana's talks?" of an Attendees column: people and their verb both name one count of
    // them, read on the named rows; not "how many customers ordered a lamp?", whose people name no Qty.)
    const peopleVerb = PEOPLE_VERB.exec(ctx.analysis.normalized);
    if ((!countCol || score < 0.8) && peopleVerb) {
      const [people, verb] = [peopleVerb[1]!, peopleVerb[2]!];
      const byPeople = countColumn([people], catalog, usable, used);
      const byVerb = countColumn([verb], catalog, usable, used);
      if (byPeople.column && byPeople.column === byVerb.column && byPeople.score >= 0.8 && byVerb.score >= 0.5)
        ({ column: countCol, score } = byPeople);
    }
    // ("how many tickets were sold across the festival?": a header of the verb holds them, added up over the rows.)
    const passiveVerb = PASSIVE_COUNT.exec(asked)?.[1];
    const passive =
      passiveVerb !== undefined && basePreds.length === 0 && unnamedThings(ctx)
        ? passiveColumn(ctx, passiveVerb)
        : undefined;
    const participle = !countCol || score < 1.5 ? (passive ?? participleColumn(ctx, asked)) : undefined;
    if (participle) {
      // (Over every row, or the rows a condition selects: added up.)
      if (filterPreds.length === 0)
        return {
          sql: `SELECT SUM(${numExpr(participle)}) FROM ${table}${where([...basePreds, hasNum(participle), ...summaryFilter(catalog)])}`,
          template: "sum",
          targetColumn: participle.schema.name,
        };
      [countCol, score] = [participle, 1.5];
    }
    // "how many times has X visited?" of one row: a column the verb spells (Visits) holds it; over several
    // rows ("how many times did X win?" of a table of winners) the rows are counted.
    // ("how many times was Dina late?": an adjective after "was" names a tally column too, Late.)
    const timesVerb =
      /^how many times (?:has|have|had|did|does|do|was|were|is|are) .+? ([a-z]{3,})(?: this year| so far)?$/.exec(
        ctx.analysis.normalized.replace(/[?.!]+$/, ""),
      )?.[1];
    if ((!countCol || score < 0.8) && timesVerb && mentionRows(filters)?.length === 1) {
      const spelled = countColumn([timesVerb], catalog, usable, used);
      if (spelled.score >= 1.5) ({ column: countCol, score } = spelled);
    }
    // ("how many hours did Ana work on Tuesday?" of a timesheet with a column per day: the day's column.)
    if ((!countCol || score < 0.8) && period !== undefined) {
      const day = countColumn([period], catalog, usable, used);
      if (day.column && day.score >= 1.5) ({ column: countCol, score } = day);
    }
    if (!countCol || score < 0.8) return null;
    // ("how many nations have no gold?": a measure at zero, or above it, is a condition on the rows,
    // which are counted; it names no row whose count column to read.)
    if (filters.length > 0 && filters.every((m) => m.positive !== undefined)) return null;
    // "how many new customers did we get in 2024?": the counted noun spells a numeric column and only
    // conditions (a period, a bound) select the rows: their values are added up, the rows are not counted.
    if (filterPreds.length === 0) {
      // (The noun before any number: "how many stays under 3 nights" counts stays.)
      const head = countNoun(ctx).slice(
        0,
        Math.max(
          0,
          countNoun(ctx).findIndex((w) => /^\d/.test(w)),
        ) || undefined,
      );
      const named = countColumn(head, catalog, usable, used);
      if (
        !named.column ||
        named.column !== countCol ||
        named.score < 1.5 ||
        // (With no condition at all, only a header the noun spells whole, or a question about everyone: "how many
        // yellow cards did the team get?" adds up Yellow Cards.)
        (basePreds.length === 0 &&
          !spellsHeader(head, named.column) &&
          !COLLECTIVE_SUBJECT.test(ctx.analysis.normalized)) ||
        (nounIsRowNoun(ctx) && !spellsHeader(head, named.column)) ||
        // (The noun is the column's head word — "customers" of "New Customers", not "strikes" of "Duration of
        // strike" — and the column holds amounts, not the rows' sequence numbers: "how many games" never adds up "Game".)
        stem(head[head.length - 1] ?? "") !== headWord(named.column) ||
        isSequence(named.column)
      )
        return null;
      return {
        sql: `SELECT SUM(${numExpr(countCol)}) FROM ${table}${where([...basePreds, hasNum(countCol), ...summaryFilter(catalog)])}`,
        template: "sum",
        targetColumn: countCol.schema.name,
      };
    }
    const rows = mentionRows(filters);
    // ("how many credits is Art worth?" of enrolments: every row of a course holds its credits, one value, not
    // a sum; "how many credits is Ana taking?" adds up hers.)
    // (Not a total asked for, nor a key of numbers: tied ranks share their medals by being tied.)
    const attribute =
      filters.length === 1 &&
      !/\b(?:total|in all|altogether|combined|times)\b/.test(ctx.analysis.normalized) &&
      determines(catalog.columns[filters[0]!.columnIndex], countCol);
    if (rows && rows.length > 1 && !attribute)
      return {
        sql: `SELECT SUM(${numExpr(countCol)}) FROM ${table}${where([...basePreds, hasNum(countCol)])}`,
        template: "sum",
        targetColumn: countCol.schema.name,
      };
    return {
      // (The attribute once: every selected row holds the same value.)
      sql: `SELECT ${col(countCol)} FROM ${table}${where(basePreds)}${attribute ? ` ORDER BY ${ROW} LIMIT 1` : ""}`,
      template: "count-column",
      targetColumn: countCol.schema.name,
    };
  },
};

/** A noun for people ("players", "staff"): rows of a table, never a quantity in a column. */
const PEOPLE_NOUN = new RegExp(`^(?:${nounPattern(PEOPLE_NOUNS)})$`);

/** "how many students got an A?", "how many customers ordered a lamp?": people, and the verb of what they did. */
const PEOPLE_VERB = new RegExp(
  `^how many (${nounPattern(PEOPLE_NOUNS)}) (?!(?:in|at|on|of|for|with|from|by|per)\\b)([a-z]{2,})`,
);

/**
 * "how many loaves were baked?" over a "Qty Baked" column: the verb after "were" is the last word of a quantity
 * column's header, so the loaves are that column's units, not the different loaves or the rows. Not a one-word
 * header ("Founded", "Pick": a year or a number of the row), a column of years, times or ranks, nor one the
 * question sets a condition on; people are counted as rows ("how many guests were seated").
 */
function quantityTheVerbNames(ctx: PlanContext): CatalogColumn | undefined {
  const { analysis: a, catalog, usable } = ctx;
  const m = /^how many (\w+) (?:are|were|is|was) ([a-z]{3,})/.exec(a.normalized);
  if (!m || /^times?$/.test(m[1]!) || PEOPLE_NOUN.test(m[1]!)) return undefined;
  const verb = stem(m[2]!);
  const conditioned = new Set([...ctx.rows().used]);
  const quantities = catalog.columns.filter(
    (c) =>
      (!usable || usable.has(c.index)) &&
      !conditioned.has(c.index) &&
      c.headerWords.length >= 2 &&
      c.headerWords.at(-1) === verb &&
      !c.headerWords.some((h) => /^(?:year|date|day|month|time|rank|no|number)$/.test(h) || minutesPerTimeUnit(h)) &&
      isNumericColumn(c) &&
      !isIdentifierColumn(c) &&
      !holdsYears(c) &&
      c.schema.type !== "date",
  );
  return quantities.length === 1 ? quantities[0] : undefined;
}

/** "how many different X …": distinct non-empty values of the column the counted noun names. */
export const countDistinct: PlanGenerator = {
  name: "count.distinct",
  // ("how many kinds of plant": the different plants; "how many departments are there?" over an
  // employees table, "how many customers do we have?" over orders, "how many meters are on the green
  // tariff?" over meter readings, "how many students got an A?" over enrolments: the counted noun
  // names a column whose values repeat.)
  applies: (ctx) =>
    isCount(ctx) &&
    (DISTINCT_WORDS.test(ctx.analysis.normalized) ||
      (ctx.analysis.conditions.length === 0 &&
        // ("how many categories?": the noun alone asks the same.)
        ((/^how many \w+(?: (?:are|were|is|have|had|do (?:we|you|i) have)\b|\W*$)/.test(ctx.analysis.normalized) &&
          !quantityTheVerbNames(ctx)) ||
          // (People before any verb: one person on several rows is one; "how many plants in bed 5" may be two
          // of a kind.)
          PEOPLE_VERB.test(ctx.analysis.normalized)))),
  build: (ctx) => {
    const { analysis: a, catalog, table, opts } = ctx;
    const { filters, basePreds } = ctx.rows();
    const noun = countNoun(ctx);
    const ranked = rankTargetColumns({ ...a, targetHints: noun, answerType: "entity" }, catalog, filters, opts).filter(
      (r) => !isNumericColumn(r.column),
    );
    const c = ranked[ctx.targetRank]?.column;
    if (!c || headerMatch(noun, c) <= 0) return null;
    if (!DISTINCT_WORDS.test(a.normalized)) {
      // Without "different": only when the table's name says what a row is and the noun is something
      // else ("departments" of employees.csv), named outright by a column whose values repeat. (With no
      // row noun, "how many albums are there?" counts the rows, as people count a list.)
      // (What a row is is the head of the table's name: a reading of meter_readings.csv, not a meter.)
      const rowNoun = (c.tableWords ?? []).filter((w) => !/^\d+$/.test(w)).at(-1);
      const rows = c.raw.length - catalog.summaryRows.size - catalog.headerRows.size;
      if (
        rowNoun === undefined ||
        noun.some((w) => w === rowNoun || stem(w) === rowNoun) ||
        // (A header word that is also in the table's name is only a modifier to headerMatch: "Meter ID".)
        (headerMatch(noun, c) < 1.5 && c.headerWords[0] !== stem(noun.at(-1) ?? "")) ||
        c.distinct.size >= rows ||
        // ("how many meters are on the green tariff" over meter_readings.csv: the meters among the green rows.)
        filters.some((m) => m.columnIndex === c.index)
      )
        return null;
    }
    return {
      sql: `SELECT COUNT(DISTINCT ${col(c)}) FROM ${table}${where([...basePreds, `TRIM(${col(c)}) <> ''`, ...summaryFilter(catalog)])}`,
      template: "count",
      targetColumn: c.schema.name,
    };
  },
};

/** "how many units … in total": the sum of the quantity column (the counted noun, or another word, names it). */
export const countSum: PlanGenerator = {
  name: "count.sum",
  applies: (ctx) => isCount(ctx) && (ctx.analysis.aggregate === "sum" || quantityTheVerbNames(ctx) !== undefined),
  build: (ctx) => {
    const { analysis: a, catalog, usable, table } = ctx;
    const { basePreds, used, filterPreds, filters } = ctx.rows();
    const noun = countNoun(ctx);
    // (The verb names the column before the noun does: "how many pieces were sold" of Qty Made and Qty Sold.)
    const byPassive = quantityTheVerbNames(ctx);
    if (byPassive)
      return {
        sql: `SELECT SUM(${numExpr(byPassive)}) FROM ${table}${where([...basePreds, hasNum(byPassive), ...summaryFilter(catalog)])}`,
        template: "sum",
        targetColumn: byPassive.schema.name,
      };
    if (a.aggregate !== "sum") return null;
    const { column: countCol, score } = countColumn(noun, catalog, usable, used);
    // (A count column of a named row is count.column's.)
    if (countCol && score >= 0.8 && filterPreds.length > 0) return null;
    // "how many hinges are there in total?": the counted noun is a value of the table (an item), not
    // the row noun, so the rows are summed over their quantity column.
    // "how many times were X's songs played in total?": "times" counts events; the verb names the summed column.
    if (/^times?$/.test(a.countNoun[0] ?? "")) {
      const named = bestSingleWordColumn(
        a.contentWords.filter((w) => !/^times?$/.test(w)),
        catalog,
        usable,
        used,
      );
      if (named.column && named.score >= 1.5)
        return {
          sql: `SELECT SUM(${numExpr(named.column)}) FROM ${table}${where([...basePreds, hasNum(named.column), ...summaryFilter(catalog)])}`,
          template: "sum",
          targetColumn: named.column.schema.name,
        };
    }
    const nounIsValue = nounIsValueOf(noun, filters);
    // "how many desk lamps are in stock?" of a Desk lamp row: its stock, not whether it has some (the "some in
    // stock" condition of analysis.ts stockAsNumber is for a noun that counts rows).
    const some = nounIsValue ? a.conditions.find((c) => c.named && c.op === ">" && c.value === 0) : undefined;
    const stock =
      some &&
      catalog.columns.find(
        (c) => (!usable || usable.has(c.index)) && isNumericColumn(c) && headerMatch(some.hint, c) >= 0.8,
      );
    // (Of rows, "how many teams are left?" counts them.)
    if (
      !nounIsValue &&
      LEFT_OVER.test(a.normalized) &&
      !/\b(?:total|combined|altogether|in all|sum)\b/.test(a.normalized)
    )
      return null;
    if (stock)
      return {
        sql: `SELECT SUM(${numExpr(stock)}) FROM ${table}${where([...ctx.rows().filterPreds, hasNum(stock)])}`,
        template: "sum",
        targetColumn: stock.schema.name,
      };
    // "how many birds were seen altogether?" over bird_sightings.csv (Qty): the noun names no column and is
    // not what a row is (the head of the table's name, "sightings"), so the rows' quantities are summed.
    const rowNoun = catalog.columns[0]?.tableWords?.filter((w) => !/^\d+$/.test(w)).at(-1);
    const notRows =
      rowNoun !== undefined &&
      noun.length > 0 &&
      !(countCol && score >= 0.8) &&
      noun.every((w) => stem(w) !== stem(rowNoun));
    // (People are no quantity of a column that counts things: "how many English players do we have?" of a squad's
    // Number; a verb may still name their column, "how many guests can the hotel sleep?")
    const people = PEOPLE_NOUN.test(noun.at(-1) ?? "");
    const quantity = nounIsValue || (notRows && !people) ? quantityColumn(catalog, usable, used) : undefined;
    // ("how many guests can the hotel sleep in total?": the closing verb spells the column, Sleeps.)
    const verb =
      notRows && !quantity
        ? /^how many [a-z ]+? (?:can|could|will|did|do|does) .+ ([a-z]{3,})(?: in total| altogether| in all| overall)\??$/.exec(
            a.normalized,
          )?.[1]
        : undefined;
    const byVerb = verb ? countColumn([verb], catalog, usable, used) : undefined;
    const summed =
      countCol && score >= 0.8
        ? { column: countCol, score }
        : MEASURE_NOUNS.test(noun[0] ?? "")
          ? bestSingleWordColumn(a.contentWords, catalog, usable, used)
          : quantity
            ? { column: quantity, score: 1.5 }
            : byVerb;
    if (!summed?.column || summed.score < (summed.column === countCol ? 0.8 : 1.5)) return null;
    return {
      sql: `SELECT SUM(${numExpr(summed.column)}) FROM ${table}${where([...basePreds, hasNum(summed.column), ...summaryFilter(catalog)])}`,
      template: "sum",
      targetColumn: summed.column.schema.name,
    };
  },
};

/** The number of selected rows. */
export const countRows: PlanGenerator = {
  name: "count.rows",
  applies: isCount,
  build: (ctx) => ({
    sql: `SELECT COUNT(*) FROM ${ctx.table}${where([...ctx.rows().basePreds, ...summaryFilter(ctx.catalog)])}`,
    template: "count",
    targetColumn: "",
  }),
};
