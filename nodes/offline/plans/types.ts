/** The types the SQL plan generators share (nodes/offline/plans/registry.ts runs them). */
import type { QuestionAnalysis } from "../analysis.js";
import type { EntityMention } from "../mentions.js";
import type { TableCatalog } from "../table-catalog.js";

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
  | "place"
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

/** The rows a question selects: mention filters, bindings and stated conditions, as SQL predicates. */
export interface RowSelection {
  /** Mentions that select rows (not excluded, not bounds). */
  filters: EntityMention[];
  /** Condition predicates (numbers, emptiness, months, places, outcomes, exclusions, bounds) and the columns they read. */
  cond: { preds: string[]; columns: Set<number> };
  /** Mention and binding predicates. */
  filterPreds: string[];
  /** filterPreds then cond.preds: the WHERE of a plan over the selected rows. */
  basePreds: string[];
  /** Columns the selection reads (a target column should be another). */
  used: Set<number>;
  /** A bare year on a column of full dates selected the rows ("who started in 2019?"). */
  yearOfDate: boolean;
  /** A period (a year, a month, a range of months) selects the rows on a date column. */
  period: boolean;
}

/** What every plan generator sees: the input after the shared preparation, and the row selection (computed once, on demand). */
export interface PlanContext {
  input: SqlPlanInput;
  analysis: QuestionAnalysis;
  catalog: TableCatalog;
  usable: Set<number> | undefined;
  /** Bindings of usable columns. */
  bindings: RequiredBinding[];
  /** The quoted physical table name. */
  table: string;
  opts: { usable?: Set<number> };
  /** Which of the ranked target columns a generator answers with: 0 = the best match, 1 = the next best (an alternative candidate). */
  targetRank: number;
  rows(): RowSelection;
  /** Plans another input through the whole registry (the first plan), for generators built on another plan. */
  replan(input: SqlPlanInput): SqlPlan | null;
}

/**
 * A named family member of the SQL plans: `applies` is a cheap test of the question's analysis and
 * table; `build` writes the statement, or null when the table lacks what it needs.
 */
export interface PlanGenerator {
  name: string;
  applies(ctx: PlanContext): boolean;
  build(ctx: PlanContext): SqlPlan | null;
}

/** A plan with the name of the generator that built it and the target-column rank it used. */
export interface NamedPlan extends SqlPlan {
  generator: string;
  targetRank: number;
  /** The answer column holds years (of any digits: a city founded in 977), so a 3-digit answer is a year. */
  targetYears?: boolean;
  /** The answer column holds text and the question spells its whole header: its cells answer whatever the wording. */
  targetSpelledText?: boolean;
}
