/**
 * Domain types of the ATR loop (reference §2–§8), shared by nodes, graph state and the offline
 * strategies. Field names are camelCase versions of the reference's.
 */

export const ROUTES = ["TEXT", "RETRIEVE", "SQL", "HYBRID"] as const;
export type Route = (typeof ROUTES)[number];

export const MODALITIES = ["text", "table", "both"] as const;
export type Modality = (typeof MODALITIES)[number];

export const OPERATORS = ["lookup", "filter", "count", "compare", "aggregate", "sort", "arithmetic"] as const;
export type Operator = (typeof OPERATORS)[number];

/** The decomposer's output for one step (reference §3.2). */
export interface SubQueryPlan {
  /** Next self-contained question, or exactly "TERMINATE". */
  subQuery: string;
  requiredModalities: Modality;
  expectedOperator: Operator;
  needGlobalTableView: boolean;
  entityMentions: string[];
  /** How much of the original question remains unanswered after this step (0..1). */
  uncertainty: number;
  /**
   * Extra, strategy-specific analysis carried with the sub-query (the offline backbone puts its
   * question analysis here: aggregate kind, sort direction, target column hints…). JSON only.
   */
  analysis?: Record<string, unknown>;
}

/** One entry of the intermediate-step list z (reference §2.1). */
export interface Step {
  subQuery: string;
  /** The produced answer, or "not found". */
  answer: string;
  /** True when the step was not verified. */
  failed: boolean;
  /**
   * Failed steps only: the first valid answer of this sub-query's attempts that the verifier called
   * plausible (verdict 0.5, never 0) — the candidate of `plausibleFallback`. Absent when none.
   */
  plausibleAnswer?: string;
  /** Why the stop policy ended re-routing (and the question) after this step's last attempt; absent otherwise. */
  stoppedBy?: string;
}

/** One record of the failure history H: a rejected execution attempt (reference §2.4). */
export interface FailedRouteRecord {
  subQuery: string;
  requestedRoute: Route;
  effectiveRoute: Route;
  valueLinkerAttempted: boolean;
  verdict: number;
  /** 1-based position in H. */
  step: number;
}

/** Value-linker output for one entity (reference §6.4); defined beside the SQL guard that reads it. */
export type { LinkedValue } from "../retrievers/types.js";

/** Verifier verdict (reference §8.4): only exactly 0, 0.5 or 1. */
export type Verdict = 0 | 0.5 | 1;

/** One table cell an answer was read from: 0-based row number (View 4 rowIdx = SQL `_row`), logical column, original text. */
export interface ProvenanceCell {
  tableId: string;
  row: number;
  column: string;
  value: string;
}

/** The SQL behind an answer: the statement that ran, what it returned, and which rows it read. */
export interface SqlProvenance {
  query: string;
  /** The first result rows (at most PROVENANCE_RESULT_ROWS) and how many there were. */
  resultRows: Array<Record<string, unknown>>;
  resultRowCount: number;
  /** Logical columns the statement reads, "tableId.column". */
  columns: string[];
  /** Row numbers it read (returned rows, or the rows an aggregate went over), at most PROVENANCE_ROWS, and their count. */
  rows: number[];
  rowCount: number;
  /** Why the row numbers are missing, when they are (joins, set operations, an execution error). */
  rowsUnavailable?: string;
}

/** A passage sentence that holds the answer. */
export interface ProvenancePassage {
  /** Passage id (the record id, or `<file>#<n>`); the file name for text without one. */
  id: string;
  file: string;
  sentence: string;
}

/** The evidence of one attempt's answer, recorded by the route that produced it. */
export interface Provenance {
  subQuery: string;
  attempt: number;
  route: Route;
  /** Tables the answer was read from. */
  tables: string[];
  /** Cells used (at most PROVENANCE_CELLS). */
  cells: ProvenanceCell[];
  sql?: SqlProvenance;
  passages: ProvenancePassage[];
}

/** One candidate answer of a reading, with the named features a ranker scores it by (`rc:…`). */
export interface AnswerCandidate {
  answer: string;
  features: Record<string, number>;
}
