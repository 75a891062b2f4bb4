/**
 * The SQL plan registry: every plan generator of the offline NL→SQL, in one ordered list. The first
 * generator whose `applies` holds and whose `build` returns a plan is the plan (`firstPlan`); the
 * order is the precedence (a question naming two rows is compared before it is looked up).
 * `planCandidates` returns several: the plan of every applicable generator, then the same
 * generators answering with the next-best target column — each named, for the verifier to rank.
 *
 * To add a generator: write it in the file of its family (or a new file here), then put it in
 * PLAN_GENERATORS before the generators it must win over.
 */
import { quoteIdent } from "../../../indexing/sql-store.js";
import { analyzeQuestion } from "../analysis.js";
import { headerMatch, isNumericColumn, isYearColumn } from "../columns.js";
import { stem } from "../../../text/stem.js";
import { normaliseText } from "../../../text/normalise.js";
import { STOP_WORDS } from "../../../text/stop-words.js";
import { SUPERLATIVE_PATTERN } from "../../../text/lexicons.js";
import {
  aggregateColumn,
  aggregateMedian,
  aggregatePerGroup,
  aggregateShare,
  aggregateSpread,
  aggregateStockValue,
} from "./aggregate.js";
import {
  comparisonColumns,
  comparisonMonths,
  comparisonOrPair,
  comparisonRowColumns,
  comparisonTwoRows,
  comparisonValueLiteral,
  comparisonVsAverage,
  comparisonYesNo,
} from "./comparison.js";
import { rowSelection } from "./conditions.js";
import { countRepeated, lookupRowsPerValue } from "./repeated.js";
import { comparisonOverColumn } from "./over-column.js";
import { comparisonSameAs, countSameAs, yesNoSame } from "./same-as.js";
import { aggregateScoreMargin } from "./score-margin.js";
import { aggregateRangeSpan } from "./range-span.js";
import { aggregateRowSpan } from "./row-span.js";
import { aggregateTimeApart } from "./time-apart.js";
import { aggregateEndsApart } from "./ends-apart.js";
import { mentionRows } from "./sql-parts.js";
import {
  countAtLeast,
  countBeyondRow,
  countColumnOfRow,
  countConsecutive,
  countListItems,
  countDistinct,
  countRows,
  countSum,
  listBeyondRow,
} from "./count.js";
import { lookupAllValues, lookupRows } from "./lookup.js";
import { positionAdjacent, positionFirstLast, positionPlace } from "./position.js";
import { reportTableYears } from "./report-table.js";
import {
  superlativeFrequency,
  superlativeGroupAverage,
  superlativeGroupTotal,
  superlativeMonth,
  superlativeNextBest,
  superlativeOrder,
  superlativeYear,
} from "./superlative.js";
import { yesNoAnyRow, yesNoChange, yesNoCondition, yesNoSuperlative } from "./yes-no.js";
import { rowColumnsExtreme, rowColumnsTotal } from "./row-columns.js";
import type { NamedPlan, PlanContext, PlanGenerator, RowSelection, SqlPlanInput } from "./types.js";

const SUPERLATIVE_WORD = new RegExp(`\\b(?:${SUPERLATIVE_PATTERN})\\b`);

/** Every plan generator, in precedence order. */
export const PLAN_GENERATORS: readonly PlanGenerator[] = [
  countAtLeast,
  reportTableYears,
  aggregateShare,
  aggregateSpread,
  aggregateEndsApart,
  aggregateMedian,
  aggregateStockValue,
  aggregateScoreMargin,
  aggregateRangeSpan,
  aggregateRowSpan,
  aggregateTimeApart,
  comparisonValueLiteral,
  comparisonOverColumn,
  comparisonTwoRows,
  comparisonMonths,
  comparisonOrPair,
  comparisonColumns,
  comparisonVsAverage,
  comparisonRowColumns,
  rowColumnsExtreme,
  rowColumnsTotal,
  aggregatePerGroup,
  yesNoSame,
  yesNoCondition,
  yesNoSuperlative,
  yesNoAnyRow,
  yesNoChange,
  comparisonYesNo,
  comparisonSameAs,
  countSameAs,
  superlativeNextBest,
  positionAdjacent,
  countRepeated,
  lookupRowsPerValue,
  countConsecutive,
  countBeyondRow,
  listBeyondRow,
  countListItems,
  countColumnOfRow,
  countDistinct,
  countSum,
  countRows,
  superlativeGroupAverage,
  aggregateColumn,
  superlativeMonth,
  superlativeYear,
  superlativeGroupTotal,
  superlativeOrder,
  superlativeFrequency,
  positionFirstLast,
  positionPlace,
  lookupAllValues,
  lookupRows,
];

/** The shared preparation of every generator's input: an "Average" column named, bindings, mentions a binding replaces. */
export function planContext(input: SqlPlanInput, targetRank = 0, shared?: PlanContext): PlanContext {
  // (Another target rank over the same input: the same preparation and row selection.)
  if (shared) return { ...shared, targetRank };
  const { catalog, usable } = input;
  let a = input.analysis;
  // "who has the highest average?" over an "Average" column: the word names the column; an AVG() over
  // it would average the averages.
  // (Not "average rating" beside an "Avg Stay (min)" column: with no row named, no bound and no extreme
  // asked, the word is the operation.)
  const averaged = /\b(?:average|avg|mean) ([a-z]+)/.exec(a.normalized)?.[1];
  if (
    a.aggregate === "avg" &&
    a.arithmetic === "average" &&
    // (A named row: "Ana's average"; the rows of a category, "the average rating of furniture", are averaged.)
    ((input.mentions.length > 0 && (mentionRows(input.mentions)?.length ?? 0) <= 1) ||
      a.conditions.length > 0 ||
      a.sortDirection !== null ||
      SUPERLATIVE_WORD.test(a.normalized)) &&
    catalog.columns.some(
      (c) =>
        isNumericColumn(c) &&
        c.headerWords.some((h) => /^(average|avg|mean)$/.test(h)) &&
        (!usable || usable.has(c.index)) &&
        // ("the average price" beside an "avg_rating" column still averages the prices.)
        (c.headerWords.length === 1 ||
          averaged === undefined ||
          STOP_WORDS.has(averaged) ||
          headerMatch([averaged], c, false) >= 1.2),
    )
  ) {
    a = {
      ...analyzeQuestion(a.normalized, { averageIsColumn: true }),
      ...(a.grounding ? { grounding: a.grounding } : {}),
    };
  }
  // "what was X's total?", "X's total score" over a "Total" column: the named row's Total, not a sum.
  if (
    a.operator === "aggregate" &&
    a.aggregate === "sum" &&
    input.mentions.length > 0 &&
    /'s total\b(?! (?:of|number|amount)\b)|\btotal (?:score|points)\b/.test(a.normalized) &&
    catalog.columns.some(
      (c) => isNumericColumn(c) && c.headerWords.includes("total") && (!usable || usable.has(c.index)),
    )
  ) {
    a = {
      ...a,
      operator: "lookup",
      aggregate: null,
      answerType: "number",
      targetHints: ["total", ...a.targetHints.filter((w) => w !== "total")],
    };
  }
  const bindings = (input.bindings ?? []).filter((b) => !usable || usable.has(b.columnIndex));
  // A binding that grounds the same value in another column replaces the mention (the binding is mandatory).
  const mentions = input.mentions.filter(
    (m) =>
      !bindings.some(
        (b) => b.columnIndex !== m.columnIndex && !b.fuzzy && normaliseText(b.value) === normaliseText(m.value),
      ),
  );
  const prepared: SqlPlanInput = { ...input, analysis: a, mentions };
  let selection: RowSelection | undefined;
  const ctx: PlanContext = {
    input: prepared,
    analysis: a,
    catalog,
    usable,
    bindings,
    table: quoteIdent(catalog.schema.physical),
    opts: usable ? { usable } : {},
    targetRank,
    rows: () => (selection ??= rowSelection(ctx)),
    replan: (other) => firstPlan(other),
  };
  return ctx;
}

/**
 * What the plan's answer column says of the answer's kind: `targetYears` when it holds years (isYearColumn),
 * `targetSpelledText` when it holds text and the question spells its whole header ("what shirt size …" of Shirt
 * size: "XL" answers it, though "size" asks for a number elsewhere).
 */
function targetFacts(ctx: PlanContext, targetColumn: string): { targetYears?: true; targetSpelledText?: true } {
  const c = ctx.catalog.columns.find((x) => x.schema.name === targetColumn);
  if (!c) return {};
  if (isYearColumn(c) && c.schema.type !== "date") return { targetYears: true };
  const said = new Set(ctx.analysis.normalized.split(" ").map(stem));
  return !isNumericColumn(c) && c.headerWords.length > 0 && c.headerWords.every((h) => said.has(h))
    ? { targetSpelledText: true }
    : {};
}

/** The first plan of the ordered list, or null when no generator fits the question over the allowed columns. */
export function firstPlan(
  input: SqlPlanInput,
  generators: readonly PlanGenerator[] = PLAN_GENERATORS,
): NamedPlan | null {
  const ctx = planContext(input);
  for (const g of generators) {
    if (!g.applies(ctx)) continue;
    const plan = g.build(ctx);
    if (plan) return { ...plan, generator: g.name, targetRank: 0, ...targetFacts(ctx, plan.targetColumn) };
  }
  return null;
}

/**
 * Up to `cap` plans with distinct statements: the first plan, the other applicable generators'
 * plans (in list order), then the applicable generators answering with their next-best target
 * column. The first element is `firstPlan`'s.
 */
export function planCandidates(
  input: SqlPlanInput,
  cap = 4,
  generators: readonly PlanGenerator[] = PLAN_GENERATORS,
): NamedPlan[] {
  const out: NamedPlan[] = [];
  const seen = new Set<string>();
  const add = (plan: NamedPlan) => {
    if (out.length >= cap || seen.has(plan.sql)) return;
    seen.add(plan.sql);
    out.push(plan);
  };
  const first = planContext(input);
  for (const targetRank of [0, 1]) {
    const ctx = targetRank === 0 ? first : planContext(input, targetRank, first);
    for (const g of generators) {
      if (out.length >= cap) return out;
      if (!g.applies(ctx)) continue;
      const plan = g.build(ctx);
      if (plan) add({ ...plan, generator: g.name, targetRank, ...targetFacts(ctx, plan.targetColumn) });
    }
  }
  return out;
}
