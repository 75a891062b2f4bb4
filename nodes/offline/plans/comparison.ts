/**
 * Comparison plans: two named rows (which of A or B, more or less, the difference), two months
 * compared by their rows, "A or B" options of one column, yes/no questions, and "the same X as A".
 * Every binding stays an equality of the outer WHERE (self-joins keep that true for two-row plans).
 */
import { analyzeQuestion, type QuestionAnalysis } from "../analysis.js";
import {
  chooseOrderColumn,
  headerMatch,
  isNumericColumn,
  isRankColumn,
  orderDirection,
  rankTargetColumns,
  superlativeWord,
} from "../columns.js";
import type { EntityMention } from "../mentions.js";
import type { CatalogColumn, TableCatalog } from "../table-catalog.js";
import {
  MONTHS,
  ROW,
  bindingPredicate,
  col,
  hasNum,
  holdsYears,
  mentionPredicate,
  mentionRows,
  monthColumn,
  namedDateColumn,
  numExpr,
  orderExpr,
  sameBinding,
  sqlString,
  summaryFilter,
  where,
} from "./sql-parts.js";
import type { PlanContext, PlanGenerator, RequiredBinding, SqlPlan, SqlPlanInput } from "./types.js";
import { measureCue } from "../../../text/column-words.js";
import { wordsOf } from "../../../text/tokenise.js";
import { quarterAsTyped } from "../../../text/typed-words.js";
import { sqlFragmentsInUse as d } from "../sql-dialect.js";

/** "were there more concerts in may or june?", "was april or july busier?": of two months, the one on more (fewer) rows. */
function monthChoicePlan(
  a: QuestionAnalysis,
  catalog: TableCatalog,
  usable: Set<number> | undefined,
  table: string,
): SqlPlan | null {
  const pair = new RegExp(`\\b(${MONTHS.join("|")}) or (${MONTHS.join("|")})\\b`).exec(a.normalized);
  const word = /\b(more|most|busier|busiest|fewer|less|least)\b/.exec(a.normalized);
  if (!pair || !word || /\bhow (many|much)\b/.test(a.normalized)) return null;
  const c = monthColumn(catalog, (x) => !usable || usable.has(x.index));
  if (!c) return null;
  const names = [pair[1]!, pair[2]!].map((m) => m[0]!.toUpperCase() + m.slice(1));
  const rows = [pair[1]!, pair[2]!].map((m) => {
    const i = MONTHS.indexOf(m);
    const pred =
      c.schema.type === "date"
        ? `substr(${col(c, undefined, false)}, 6, 2) = '${String(i + 1).padStart(2, "0")}'`
        : d().likeText(col(c), `%${m.slice(0, 3)}%`);
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

/** Two mentions of one column joined by "or" in the question ("2002 or 2003"). */
function adjacentOrPair(
  a: QuestionAnalysis,
  mentions: EntityMention[],
  usable: Set<number> | undefined,
): [EntityMention, EntityMention] | null {
  const tokens = a.normalized
    .replace(/[^a-z0-9\u00c0-\u024f]+/g, " ")
    .trim()
    .split(" ");
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

/** The two mentions that name the options of a comparison ("A or B", "A … than B"). */
function optionMentions(
  a: QuestionAnalysis,
  mentions: EntityMention[],
  usable: Set<number> | undefined,
): [EntityMention, EntityMention] | null {
  const ok = mentions.filter((m) => !usable || usable.has(m.columnIndex));
  const options = a.comparison?.options ?? [];
  const inOption = (m: EntityMention, option: string) => {
    const o = ` ${option
      .toLowerCase()
      .replace(/[^a-z0-9\u00c0-\u024f]+/g, " ")
      .trim()} `;
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

/** Header words of a chart position or place, where a smaller number ranks higher. */
const PLACE_HEADER = /^(chart|charts|position|pos|place|peak|billboard)$/;

/** A comparative adjective or adverb: "better", "higher", "longer", "earlier". */
const COMPARATIVE =
  /\b(?:better|worse|higher|lower|greater|larger|bigger|smaller|longer|shorter|older|younger|earlier|later|faster|slower|heavier|lighter|taller|cheaper|dearer|warmer|colder|hotter)\b/;

/**
 * "Is marlow from denton or lyle?": two options of one column and another mention → the
 * option on the named row. "Were there more concerts in may or june?": no column to compare →
 * the option on more rows.
 */
function choiceByRows(
  input: SqlPlanInput,
  m1: EntityMention,
  m2: EntityMention,
  bindings: RequiredBinding[],
  table: string,
): SqlPlan | null {
  const { analysis: a, catalog, usable } = input;
  const others = input.mentions.filter(
    (m) => m !== m1 && m !== m2 && m.columnIndex !== m1.columnIndex && (!usable || usable.has(m.columnIndex)),
  );
  const c1 = catalog.columns[m1.columnIndex]!;
  const label = (m: EntityMention) => (m.kind === "exact" ? m.value : m.text);
  if (bindings.length > 0) {
    // Bound options: a = option 1's rows, b = option 2's rows, c = the rows the other mentions name;
    // every binding stays a plain equality of the outer WHERE on one alias.
    if (others.length === 0 || m1.columnIndex !== m2.columnIndex) return null;
    const preds = [
      mentionPredicate(m1, catalog, "a"),
      mentionPredicate(m2, catalog, "b"),
      ...others.map((o) => mentionPredicate(o, catalog, "c")),
    ];
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
  const countingWord = /\b(more|most|fewer|less|least|busier|busiest|often)\b/.test(a.normalized);
  if (others.length > 0 && m1.columnIndex === m2.columnIndex) {
    const preds = others.map((m) => mentionPredicate(m, catalog));
    const has1 = d().countTrue(mentionPredicate(m1, catalog));
    const has2 = d().countTrue(mentionPredicate(m2, catalog));
    const byRows = `CASE WHEN ${has1} >= ${has2} THEN ${sqlString(label(m1))} ELSE ${sqlString(label(m2))} END`;
    // ("who scored better in maths, Beth or Chen?": where both options have rows among the other mentions' rows,
    // the better value of the column a comparative orders by decides; where one has none, being there does:
    // "which opened in 1990, the mill or the dock?".)
    const order =
      !countingWord && COMPARATIVE.test(a.normalized)
        ? chooseOrderColumn(a, catalog, [m1, m2, ...others], usable ? { usable } : {})
        : undefined;
    if (order) {
      const direction = orderDirection(superlativeWord(a.normalized), a.comparison?.direction ?? "max", order.column);
      const best = direction === "min" ? "MIN" : "MAX";
      const value = (m: EntityMention) =>
        `${best}(CASE WHEN ${mentionPredicate(m, catalog)} THEN ${orderExpr(order.column)} END)`;
      const byValue = `CASE WHEN ${value(m1)} ${direction === "min" ? "<=" : ">="} ${value(m2)} THEN ${sqlString(label(m1))} ELSE ${sqlString(label(m2))} END`;
      return {
        sql: `SELECT CASE WHEN ${has1} > 0 AND ${has2} > 0 THEN ${byValue} ELSE ${byRows} END FROM ${table}${where(preds)}`,
        template: "choice",
        targetColumn: order.column.schema.name,
        options: [label(m1), label(m2)],
      };
    }
    return {
      sql: `SELECT CASE WHEN ${d().countTrue(mentionPredicate(m1, catalog))} >= ${d().countTrue(mentionPredicate(m2, catalog))} THEN ${sqlString(label(m1))} ELSE ${sqlString(label(m2))} END FROM ${table}${where(preds)}`,
      template: "choice",
      targetColumn: c1.schema.name,
      options: [label(m1), label(m2)],
    };
  }
  const order = chooseOrderColumn(a, catalog, [m1, m2], usable ? { usable } : {});
  const counting = countingWord && (!order || order.score < 1) && (m1.rows.length > 1 || m2.rows.length > 1);
  if (!counting) return null;
  const cmp = /\b(fewer|less|least)\b/.test(a.normalized) ? "<=" : ">=";
  return {
    sql: `SELECT CASE WHEN ${d().countTrue(mentionPredicate(m1, catalog))} ${cmp} ${d().countTrue(mentionPredicate(m2, catalog))} THEN ${sqlString(label(m1))} ELSE ${sqlString(label(m2))} END FROM ${table}${where(summaryFilter(catalog))}`,
    template: "choice",
    targetColumn: c1.schema.name,
    options: [label(m1), label(m2)],
  };
}

/** Yes/no: "does the north ward have more area than the east ward?" compares; otherwise the mentions co-occur in a row. */
function yesNoPlan(input: SqlPlanInput, bindings: RequiredBinding[], table: string): SqlPlan | null {
  const { analysis: a, catalog, usable } = input;
  const ok = input.mentions.filter((m) => !usable || usable.has(m.columnIndex));
  const comparative =
    /\b(more|less|fewer|higher|lower|larger|smaller|greater|bigger|longer|shorter|taller|older|younger|earlier|later|faster|slower|better|worse)\b.*\bthan\b/.test(
      a.normalized,
    );
  if (comparative) {
    const pair = optionMentions({ ...a, comparison: { kind: "moreless", options: [], direction: null } }, ok, usable);
    if (pair) {
      const plan = comparePlan(
        { ...input, analysis: { ...a, comparison: { kind: "moreless", options: [], direction: null } } },
        pair[0],
        pair[1],
        bindings,
        table,
      );
      if (plan) {
        let less = /\b(less|fewer|lower|smaller|shorter|younger|earlier|slower|worse)\b/.test(a.normalized);
        // "did ana ruiz have a better rank than omar costa?": on a rank or chart position a higher place is a smaller number.
        const c = catalog.columns.find((x) => x.schema.name === plan.targetColumn);
        const place = c && (isRankColumn(c) || c.headerWords.some((h) => PLACE_HEADER.test(h)));
        if (place && /\b(higher|lower|better|worse)\b/.test(a.normalized)) less = !less;
        return {
          ...plan,
          sql: plan.sql
            .replace(`THEN 'more' WHEN`, `THEN ${less ? "'no'" : "'yes'"} WHEN`)
            .replace(`THEN 'less' ELSE 'same'`, `THEN ${less ? "'yes'" : "'no'"} ELSE 'no'`),
        };
      }
    }
  }
  const cols = new Set(ok.map((m) => m.columnIndex));
  if (ok.length < 2 || cols.size < 2) return null;
  const preds = ok
    .filter((m, i) => ok.findIndex((o) => o.columnIndex === m.columnIndex) === i)
    .map((m) => mentionPredicate(m, catalog));
  for (const b of bindings) preds.push(bindingPredicate(b, catalog));
  return {
    sql: `SELECT CASE WHEN COUNT(*) > 0 THEN 'yes' ELSE 'no' END FROM ${table}${where([...new Set(preds)])}`,
    template: "lookup",
    targetColumn: "",
  };
}

function comparePlan(
  input: SqlPlanInput,
  m1: EntityMention,
  m2: EntityMention,
  bindings: RequiredBinding[],
  table: string,
): SqlPlan | null {
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
  if (
    kind === "difference" &&
    m1.columnIndex === m2.columnIndex &&
    rowCounts &&
    bindings.length === 0 &&
    measureCue(a.normalized) !== "much" &&
    !(order && headerMatch(a.contentWords, order.column, false) >= 1.5)
  ) {
    return {
      sql: `SELECT ABS(${d().countTrue(mentionPredicate(m1, catalog))} - ${d().countTrue(mentionPredicate(m2, catalog))}) FROM ${table}${where(summaryFilter(catalog))}`,
      template: "difference",
      targetColumn: "",
    };
  }
  // ("how much more did Ravi spend than Jonas?" of several expenses each: "how much" asks for amounts, their
  // totals' difference.)
  if (
    kind === "difference" &&
    m1.columnIndex === m2.columnIndex &&
    rowCounts &&
    bindings.length === 0 &&
    measureCue(a.normalized) === "much" &&
    order &&
    isNumericColumn(order.column)
  ) {
    const total = (m: EntityMention) =>
      `SUM(CASE WHEN ${mentionPredicate(m, catalog)} THEN ${numExpr(order.column)} END)`;
    return {
      sql: `SELECT ${d().number2(`ABS(${total(m1)} - ${total(m2)})`)} FROM ${table}${where(summaryFilter(catalog))}`,
      template: "difference",
      targetColumn: order.column.schema.name,
    };
  }
  const words = a.comparison?.words;
  if (kind === "moreless" && words && words[0] !== "higher")
    return orderWordsPlan(input, preds, table, words, order && order.score >= 1 ? order.column : undefined, avoid);
  const byPosition =
    a.comparison?.direction !== null && /\b(first|earlier|before|sooner|last|later|after|recent)\b/.test(a.normalized);
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
    const [more, less] = words ?? ["more", "less"];
    return {
      sql: `SELECT CASE WHEN ${ea} > ${eb} THEN '${more}' WHEN ${ea} < ${eb} THEN '${less}' ELSE 'same' END${tail}`,
      template: "moreless",
      targetColumn,
    };
  }
  const direction =
    order && targetColumn !== ""
      ? orderDirection(superlativeWord(a.normalized), a.comparison!.direction ?? "max", order.column)
      : a.comparison!.direction;
  const pickA = direction === "min" ? "<=" : ">=";
  return {
    sql: `SELECT CASE WHEN ${ea} ${pickA} ${eb} THEN ${col(ca, "a")} ELSE ${col(cb, "b")} END${tail}`,
    template: "choice",
    targetColumn,
    options: [ca.raw[m1.rows[0]!] ?? m1.value, cb.raw[m2.rows[0]!] ?? m2.value],
  };
}

/**
 * "Is A listed above or below B?", "did A sail before or after B?": the first word when A comes first. Before/after
 * read a date or year column (the one the question names, else the table's only one), above/below a value the
 * question names (larger is above, but a smaller rank or place); otherwise, and on a tie, the table's own order.
 */
function orderWordsPlan(
  input: SqlPlanInput,
  preds: string[],
  table: string,
  words: [string, string],
  named: CatalogColumn | undefined,
  avoid: Set<number>,
): SqlPlan {
  const { analysis: a, catalog, usable } = input;
  let by: CatalogColumn | undefined;
  let firstIsSmaller = true;
  if (words[0] === "above") {
    by = named && isNumericColumn(named) ? named : undefined;
    firstIsSmaller = by !== undefined && (isRankColumn(by) || by.headerWords.some((h) => PLACE_HEADER.test(h)));
  } else {
    const dated = catalog.columns.filter(
      (c) => (!usable || usable.has(c.index)) && !avoid.has(c.index) && (c.schema.type === "date" || holdsYears(c)),
    );
    by = namedDateColumn(a, catalog, usable, avoid) ?? (dated.length === 1 ? dated[0] : undefined);
  }
  const [lt, gt] = firstIsSmaller ? ["<", ">"] : [">", "<"];
  const byValue = by
    ? `WHEN ${orderExpr(by, "a")} ${lt} ${orderExpr(by, "b")} THEN '${words[0]}' WHEN ${orderExpr(by, "a")} ${gt} ${orderExpr(by, "b")} THEN '${words[1]}' `
    : "";
  return {
    sql: `SELECT CASE ${byValue}WHEN a.${ROW} < b.${ROW} THEN '${words[0]}' ELSE '${words[1]}' END FROM ${table} AS a, ${table} AS b${where(preds)} ORDER BY a.${ROW}, b.${ROW} LIMIT 1`,
    template: "moreless",
    targetColumn: by?.schema.name ?? "",
  };
}

/** Templates whose answer is a computed number. */
const NUMBER_TEMPLATES = new Set(["count", "count-column", "sum", "avg", "difference"]);

/**
 * "Is the ferry's speed above or below 20 knots?", "are there more or less than 8 ferries?": the value asked on its
 * own (the analysis's question, the number no row), compared with the number; a place or an ordinal is above when
 * it is smaller.
 */
export const comparisonValueLiteral: PlanGenerator = {
  name: "comparison.value-literal",
  applies: ({ analysis: a }) => a.comparison?.literal !== undefined && a.comparison.words !== undefined,
  build: (ctx) => {
    const { literal, words } = ctx.analysis.comparison!;
    const { value, ordinal, question } = literal!;
    const mentions = ctx.input.mentions.filter(
      (m) => !m.text.split(" ").some((w) => Number(w.replace(/(?:st|nd|rd|th)$/, "")) === value),
    );
    const plan = ctx.replan({ ...ctx.input, analysis: analyzeQuestion(question), mentions });
    if (!plan) return null;
    const target = ctx.catalog.columns.find((c) => c.schema.name === plan.targetColumn);
    if (!NUMBER_TEMPLATES.has(plan.template) && !(target && isNumericColumn(target))) return null;
    const place =
      words![0] === "above" &&
      (ordinal ||
        (target !== undefined && (isRankColumn(target) || target.headerWords.some((h) => PLACE_HEADER.test(h)))));
    const [larger, smaller] = place ? [words![1], words![0]] : words!;
    const x = d().real(`REPLACE(REPLACE(REPLACE(TRIM((${plan.sql})), ',', ''), '$', ''), '%', '')`);
    return {
      sql: `SELECT CASE WHEN ${x} > ${value} THEN '${larger}' WHEN ${x} < ${value} THEN '${smaller}' ELSE 'same' END`,
      template: "moreless",
      targetColumn: plan.targetColumn,
    };
  },
};

/** Two named rows compared: which of them, more or less, the difference. */
export const comparisonTwoRows: PlanGenerator = {
  name: "comparison.two-rows",
  applies: ({ analysis: a }) =>
    a.comparison !== null &&
    (a.comparison.kind === "choice" || a.comparison.kind === "moreless" || a.comparison.kind === "difference"),
  build: (ctx) => {
    const { analysis: a, input, usable, bindings, table } = ctx;
    const pair = optionMentions(a, input.mentions, usable);
    if (!pair) return null;
    if (a.comparison!.kind === "choice")
      return (
        choiceByRows(input, pair[0], pair[1], bindings, table) ?? comparePlan(input, pair[0], pair[1], bindings, table)
      );
    return comparePlan(input, pair[0], pair[1], bindings, table);
  },
};

/** Of two months, the one on more (fewer) rows of the date column. */
export const comparisonMonths: PlanGenerator = {
  name: "comparison.months",
  applies: ({ analysis: a }) => / or /.test(a.normalized),
  build: ({ analysis: a, catalog, usable, table }) => monthChoicePlan(a, catalog, usable, table),
};

/**
 * Two values of one column joined by "or" in a question with no comparison of its own, or in a choice
 * whose options did not both name a row (comparisonTwoRows found no pair).
 */
export const comparisonOrPair: PlanGenerator = {
  name: "comparison.or-pair",
  applies: ({ analysis: a }) => (!a.comparison || a.comparison.kind === "choice") && / or /.test(a.normalized),
  build: (ctx) => {
    const { analysis: a, input, usable, bindings, table } = ctx;
    const orPair = adjacentOrPair(a, input.mentions, usable);
    if (!orPair) return null;
    const choice: QuestionAnalysis = {
      ...a,
      comparison: { kind: "choice", options: [orPair[0].text, orPair[1].text], direction: a.sortDirection ?? null },
    };
    return (
      choiceByRows({ ...input, analysis: choice }, orPair[0], orPair[1], bindings, table) ??
      (superlativeWord(a.normalized)
        ? comparePlan({ ...input, analysis: choice }, orPair[0], orPair[1], bindings, table)
        : null)
    );
  },
};

/** The options of "more silver or bronze", "fewer wins or losses" (two words or pairs of words after the comparison word). */
const COLUMN_PAIR = /\b(?:more|fewer|less|most|least|higher|lower|greater)\s+(\w+(?: \w+)?)\s+or\s+(\w+(?: \w+)?)\b/;

/**
 * "Were there more wins or losses?", "did peru win more silver or bronze?", "which is higher, the
 * rent or the deposit?", "did East sell more in Q1 or Q2?": two options that name numeric columns → the column
 * whose total (the named row's value) is larger (smaller), answered with its header. "What is the difference
 * between North's Q1 and Q4 sales?": the two columns' values apart.
 */
function columnChoicePlan(ctx: PlanContext): SqlPlan | null {
  const { analysis: a, catalog, table, usable } = ctx;
  const asked = quarterAsTyped(a.normalized);
  const kind = a.comparison?.kind;
  const options =
    (kind === "choice" || kind === "difference") && a.comparison!.options.length === 2
      ? a.comparison!.options.map(quarterAsTyped)
      : (COLUMN_PAIR.exec(asked)?.slice(1, 3) ?? []);
  if (options.length !== 2) return null;
  const { filters, basePreds } = ctx.rows();
  // (An option's words that name the row are not the column's: "north's q1".)
  const rowWords = new Set(filters.flatMap((m) => m.text.split(" ")));
  const named = options.map((o) => {
    const words = wordsOf(o).filter((w) => w !== "the" && w !== "s" && !rowWords.has(w));
    const best = catalog.columns
      .filter((c) => isNumericColumn(c) && (!usable || usable.has(c.index)))
      .map((c) => ({ c, score: headerMatch(words, c) }))
      .sort((x, y) => y.score - x.score)[0];
    return best && best.score >= 1.5 ? best.c : undefined;
  });
  const [ca, cb] = named;
  if (!ca || !cb || ca === cb) return null;
  // An option that is only a row's cells is a row (comparisonTwoRows, comparisonOrPair).
  if (filters.some((m) => options.some((o) => wordsOf(o).join(" ") === m.text))) return null;
  const value = (c: CatalogColumn) => (filters.length > 0 ? `MAX(${numExpr(c)})` : `SUM(${numExpr(c)})`);
  const from = ` FROM ${table}${where([...basePreds, ...summaryFilter(catalog)])}`;
  if (kind === "difference") {
    // (Of one named row: "North's Q1 and Q4".)
    if (mentionRows(filters)?.length !== 1) return null;
    return { sql: `SELECT ABS(${value(ca)} - ${value(cb)})${from}`, template: "difference", targetColumn: "" };
  }
  const pick = /\b(fewer|less|least|lower|smaller)\b/.test(a.normalized) ? "<" : ">";
  // (The header as a word: "McCain%" → McCain, "Rent (EUR)" → Rent.)
  const labels = [ca, cb].map((c) =>
    sqlString(c.schema.name.replace(/\s*\([^)]*\)\s*$/, "").replace(/[^\p{L}\p{N}]+$/u, "") || c.schema.name),
  );
  return {
    sql: `SELECT CASE WHEN ${value(ca)} ${pick} ${value(cb)} THEN ${labels[0]} WHEN ${value(cb)} ${pick} ${value(ca)} THEN ${labels[1]} ELSE 'same' END${from}`,
    template: "choice",
    targetColumn: "",
    options: [ca.schema.name, cb.schema.name],
  };
}

/** Of two numeric columns the question names as options, the larger (smaller) one, or their difference in a named row. */
export const comparisonColumns: PlanGenerator = {
  name: "comparison.columns",
  applies: ({ analysis: a }) => / or /.test(a.normalized) || a.comparison?.kind === "difference",
  build: columnChoicePlan,
};

/** A yes/no question: a comparison of two named rows, else whether the named values share a row. */
export const comparisonYesNo: PlanGenerator = {
  name: "comparison.yes-no",
  applies: ({ analysis: a }) => a.answerType === "yesno",
  build: ({ input, bindings, table }) => yesNoPlan(input, bindings, table),
};

/** "above average", "less than the average": the comparison with a column's mean, and its side. */
const VS_AVERAGE =
  /\b(above|over|higher than|more than|greater than|better than|below|under|lower than|less than|fewer than|worse than) (?:the )?(?:class |overall |group |team )?(?:average|mean)\b/;

/**
 * "which students scored above average in maths?", "how many staff earn less than the average salary?": the
 * rows whose value of the named column is beyond the column's mean over the whole table, listed by the asked
 * column or counted.
 */
export const comparisonVsAverage: PlanGenerator = {
  name: "comparison.vs-average",
  applies: ({ analysis: a }) => VS_AVERAGE.test(a.normalized),
  build: (ctx) => {
    const { analysis: a, catalog, table, opts } = ctx;
    const { filters, basePreds, cond } = ctx.rows();
    const side = VS_AVERAGE.exec(a.normalized)![1]!;
    const order = chooseOrderColumn(a, catalog, filters, { ...opts, avoid: cond.columns });
    if (!order || order.score <= 0 || !isNumericColumn(order.column)) return null;
    const c = order.column;
    const expr = orderExpr(c);
    const above = /^(above|over|higher|more|greater|better)\b/.test(side);
    const mean = `(SELECT AVG(${expr}) FROM ${table}${where([hasNum(c), ...summaryFilter(catalog)])})`;
    const preds = [...basePreds, hasNum(c), `${expr} ${above ? ">" : "<"} ${mean}`, ...summaryFilter(catalog)];
    return listOrCount(ctx, preds, [c]);
  },
};

/** The rows `preds` select: counted for "how many", else listed by the asked column (not one of `compared`). */
function listOrCount(ctx: PlanContext, preds: string[], compared: CatalogColumn[]): SqlPlan | null {
  const { analysis: a, catalog, table, opts } = ctx;
  if (/^how many\b/.test(a.normalized) || a.operator === "count")
    return { sql: `SELECT COUNT(*) FROM ${table}${where(preds)}`, template: "count", targetColumn: "" };
  const avoid = new Set(compared.map((c) => c.index));
  const target = rankTargetColumns(a, catalog, ctx.rows().filters, { ...opts, avoid })[ctx.targetRank]?.column;
  if (!target) return null;
  return {
    sql: `SELECT ${col(target)} FROM ${table}${where(preds)} ORDER BY ${ROW}`,
    template: "lookup",
    targetColumn: target.schema.name,
  };
}

/** The numeric column a short phrase names strongly ("english", "assists"), if exactly one. */
function namedNumericColumn(words: string[], ctx: PlanContext): CatalogColumn | undefined {
  const named = ctx.catalog.columns.filter(
    (c) =>
      (!ctx.usable || ctx.usable.has(c.index)) &&
      isNumericColumn(c) &&
      words.some((w) => headerMatch([w], c, false) >= 1.5),
  );
  return named.length === 1 ? named[0] : undefined;
}

/**
 * "who did better in English than in Maths?", "who has more assists than goals?": the rows whose value of one
 * named column is beyond their own value of another, listed by the asked column or counted (a closing "in
 * Statistics" selects the rows, as a mention does).
 */
export const comparisonRowColumns: PlanGenerator = {
  name: "comparison.row-columns",
  applies: ({ analysis: a }) => /\bthan\b/.test(a.normalized) && a.conditions.length === 0,
  build: (ctx) => {
    const { analysis: a, catalog } = ctx;
    const m =
      /\b(more|higher|better|greater|larger|bigger|less|lower|worse|fewer|smaller) (?:(?:in|on|for|at) )?(?:the )?([a-z]+(?: [a-z]+)?) than (?:(?:in|on|for|at) )?(?:the )?([a-z]+(?: [a-z]+)?)(?: (?:in|for|at|during|of) [a-z0-9 ]+)?$/.exec(
        a.normalized.replace(/[?.!]+$/, ""),
      );
    if (!m) return null;
    const [left, right] = [namedNumericColumn(m[2]!.split(" "), ctx), namedNumericColumn(m[3]!.split(" "), ctx)];
    if (!left || !right || left === right) return null;
    const { basePreds } = ctx.rows();
    const op = /^(more|higher|better|greater|larger|bigger)$/.test(m[1]!) ? ">" : "<";
    const preds = [
      ...basePreds,
      hasNum(left),
      hasNum(right),
      `${orderExpr(left)} ${op} ${orderExpr(right)}`,
      ...summaryFilter(catalog),
    ];
    return listOrCount(ctx, preds, [left, right]);
  },
};
