/**
 * The channels of one question's run through the ATR graph (reference §2.1, §2.4, §9.2). Everything
 * here is plain, serialisable data so Studio and checkpointers can show it; heavy resources (the
 * opened index, chat models) are reached through the configuration, never stored in state.
 *
 * Overwrite channels are bare `Annotation<T>`; the accumulating ones (`failedRoutes`, `steps`,
 * `trace`, `usage`) have the named reducers exported below.
 *
 * A thread may carry several questions one after another: each run starts from its own input alone.
 * The input schema gives every optional field a default, so a field a run does not send is written
 * too (and cleared by nodes/begin.ts) instead of keeping the previous run's value; begin starts
 * every other channel again from its default (the append channels included).
 */
import { Annotation } from "@langchain/langgraph";
import { z } from "zod";
import type { DocChunk, TableSchema } from "../indexing/types.js";
import type {
  AnswerCandidate,
  FailedRouteRecord,
  LinkedValue,
  Provenance,
  Route,
  Step,
  SubQueryPlan,
  Verdict,
} from "../nodes/types.js";
import type { SqlCandidate } from "../nodes/strategies.js";

/** LLM usage and time of one node (or summed over nodes). */
export interface UsageCounts {
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** Wall-clock milliseconds. */
  ms: number;
}

/** Summed usage: totals plus the same counts per node name. */
export interface Usage extends UsageCounts {
  byNode: Record<string, UsageCounts>;
}

/** One execution attempt of a primitive for the current sub-query (reference §2.4). */
export interface Attempt {
  /** 1-based within the sub-query. */
  number: number;
  requestedRoute: Route;
  /** Differs from requestedRoute only when the value linker forced TEXT inside RETRIEVE/HYBRID. */
  effectiveRoute: Route;
  answer: string;
  /** Route evidence (schema/cell/row blocks); "" for TEXT. */
  evidence: string;
  /** The SQL execution result string ("" when no SQL ran). */
  sqlResult: string;
  /** The SQL that produced sqlResult ("" when none). */
  sql: string;
  /** Why the SQL guard refused statements of this attempt, why the writer wrote none, or the pre-check's refusal; absent when none. */
  sqlRefusals?: string[];
  /** Requested RETRIEVE/HYBRID with the linker enabled and ≥ 1 entity mention. */
  valueLinkerAttempted: boolean;
  linkedValues: LinkedValue[];
  /** Set by verify. */
  verdict: Verdict | null;
  reason: string;
  /** The learned verifier's P(correct) of this answer (set by verify; absent for other verifiers). */
  pCorrect?: number;
  /** The evidence of this attempt's answer: table, rows and cells, SQL and its rows, passage sentences. */
  provenance?: Provenance;
  /** The SQL plan behind `sql`, when the writer named it. */
  sqlPlan?: Omit<SqlCandidate, "sql">;
  /** Other SQL candidates of this attempt (other plans, other target columns) with their answers; verify judges and traces each. */
  sqlAlternatives?: SqlAlternative[];
  /** For an alternative SQL candidate being judged: the answers of the attempt's other SQL candidates (its own statement's first). */
  sqlSiblingAnswers?: string[];
  /** The reader's features of `answer` (Strategies.readTextCandidates / readRowsCandidates). */
  readerFeatures?: Record<string, number>;
  /** The reading's other candidates, best first; verify judges and traces each (row `candidate` 2..). */
  readerCandidates?: AnswerCandidate[];
}

/** An SQL candidate that ran beside an attempt's own statement, with the answer fused from its result. */
export interface SqlAlternative {
  answer: string;
  sql: string;
  sqlResult: string;
  plan: Omit<SqlCandidate, "sql">;
}

/** One row of `atr_trace.verifier_decisions` (reference §9.2; field names as the reference). */
export interface TraceDecision {
  question_id: string;
  sub_query: string;
  expected_operator: string;
  required_modalities: string;
  entity_mentions: string[];
  need_global_table_view: boolean;
  uncertainty: number;
  schema: TableSchema | null;
  has_schema: boolean;
  /** H before this attempt's failure was added. */
  history_H: FailedRouteRecord[];
  route: Route;
  requested_route: Route;
  effective_route: Route;
  value_linker_attempted: boolean;
  attempt: number;
  verdict: Verdict;
  accepted: boolean;
  produced_answer: string;
  /** Our additions: the verifier's reason, the SQL that ran, and the statements the guard refused, when any. */
  reason?: string;
  sql?: string;
  /** Statements the SQL guard refused in this attempt with its reasons ("<sql> → <reasons>"), and writer failures. */
  sql_refused?: string[];
  /** The learned verifier's P(correct) and the named features it scored (absent for other verifiers). */
  p_correct?: number;
  features?: Record<string, number>;
  /** The attempt's provenance (nodes/provenance.ts). */
  provenance?: Provenance;
  /** The SQL plan generator behind the answer, when the writer named it. */
  sql_plan?: string;
  /** True for an alternative SQL candidate of the attempt (not the statement the route answered with). */
  alternative?: boolean;
  /** 2.. for another candidate of the same attempt's reading (the attempt's own answer has none). */
  candidate?: number;
}

/** Which tier of the cascade answered (graph/cascade.ts). */
export type AnswerTier = "offline" | "findings" | "llm";

/** The loop bounds, copied from the configuration when the run starts so edges stay pure. */
export interface Limits {
  maxIter: number;
  maxAttempts: number;
  verifierThreshold: number;
}

/** Append reducer for list channels: accepts one item or a list; `undefined` appends nothing. */
export function appendItems<T>(left: T[], right: T | T[] | undefined): T[] {
  if (right === undefined) return left;
  return left.concat(Array.isArray(right) ? right : [right]);
}

export function emptyUsage(): Usage {
  return { llmCalls: 0, inputTokens: 0, outputTokens: 0, ms: 0, byNode: {} };
}

/** Summing reducer for `usage`: totals and per-node counts add up. */
export function sumUsage(left: Usage, right: Usage | undefined): Usage {
  if (!right) return left;
  const byNode: Record<string, UsageCounts> = { ...left.byNode };
  for (const [node, counts] of Object.entries(right.byNode ?? {})) {
    const prev = byNode[node] ?? { llmCalls: 0, inputTokens: 0, outputTokens: 0, ms: 0 };
    byNode[node] = {
      llmCalls: prev.llmCalls + counts.llmCalls,
      inputTokens: prev.inputTokens + counts.inputTokens,
      outputTokens: prev.outputTokens + counts.outputTokens,
      ms: prev.ms + counts.ms,
    };
  }
  return {
    llmCalls: left.llmCalls + (right.llmCalls ?? 0),
    inputTokens: left.inputTokens + (right.inputTokens ?? 0),
    outputTokens: left.outputTokens + (right.outputTokens ?? 0),
    ms: left.ms + (right.ms ?? 0),
    byNode,
  };
}

/** Usage of one node call, as an update for the summing reducer. */
export function nodeUsage(node: string, counts: UsageCounts): Usage {
  return { ...counts, byNode: { [node]: { ...counts } } };
}

/**
 * What a caller sends, as zod: the graph's input schema, so Studio and the server's
 * /assistants/{id}/schemas show a form for it (the channels themselves are InputAnnotation's).
 */
export const InputSchema = z.object({
  question: z.string().min(1).describe("The question text"),
  // The defaults matter on a thread: a field left out is written as "" (then cleared by begin), never kept from the previous run.
  question_id: z.string().optional().default("").describe("Id for logs and the trace (default: the question text)"),
  table_id: z
    .string()
    .optional()
    .default("")
    .describe("Known source-table hint (file stem), held constant across compared runs; none when empty"),
});

/** What a caller sends. */
export const InputAnnotation = Annotation.Root({
  /** The question text. */
  question: Annotation<string>,
  /** Id for logs and the trace (falls back to the question text). */
  question_id: Annotation<string | undefined>,
  /** Known source-table hint (file stem); a real input held constant across compared runs. */
  table_id: Annotation<string | undefined>,
});

export const StateAnnotation = Annotation.Root({
  ...InputAnnotation.spec,
  /** Loop bounds for this run (set by the first decompose). */
  limits: Annotation<Limits | null>({ reducer: (_l, r) => r, default: () => null }),
  /** Decomposition iterations started so far (t of Algorithm 1). */
  iteration: Annotation<number>({ reducer: (_l, r) => r, default: () => 0 }),
  /** Optional schema preview block for the decomposer (§2.2); "" when off or unavailable. */
  schemaPreview: Annotation<string>({ reducer: (_l, r) => r, default: () => "" }),
  /** The current sub-query and its metadata (§3.2); subQuery "TERMINATE" ends the loop. */
  plan: Annotation<SubQueryPlan | null>({ reducer: (_l, r) => r, default: () => null }),
  /** The 5 selected document chunks for the current sub-query (§4.6). */
  chunks: Annotation<DocChunk[]>({ reducer: (_l, r) => r, default: () => [] }),
  /** Restored schema: the table of the first selected table chunk, or null (§2.3 step 3). */
  schema: Annotation<TableSchema | null>({ reducer: (_l, r) => r, default: () => null }),
  /** The selected chunks rendered as `[Source: file]` blocks (text evidence of §2.4). */
  textEvidence: Annotation<string>({ reducer: (_l, r) => r, default: () => "" }),
  /** The route the next attempt executes (null once the sub-query is finished). */
  nextRoute: Annotation<Route | null>({ reducer: (_l, r) => r, default: () => null }),
  /** The current (latest) execution attempt of the current sub-query. */
  attempt: Annotation<Attempt | null>({ reducer: (_l, r) => r, default: () => null }),
  /** True once the current sub-query has its result (accepted, out of attempts, or re-route refused). */
  subQueryDone: Annotation<boolean>({ reducer: (_l, r) => r, default: () => false }),
  /** c_exec of the finished sub-query: 1 accepted, 0.5 rejected with an answer, 0 empty. */
  cExec: Annotation<number>({ reducer: (_l, r) => r, default: () => 0 }),
  /** Stop controller result for the finished sub-query (accepted, valid, uncertainty < threshold). */
  stop: Annotation<boolean>({ reducer: (_l, r) => r, default: () => false }),
  /**
   * The current sub-query's plausible candidate: the first valid answer of its attempts with verdict
   * 0.5 ("" none). Set by verify (reset at attempt 1), copied into the finished Step.
   */
  plausibleAnswer: Annotation<string>({ reducer: (_l, r) => r, default: () => "" }),
  /** Last verified, valid sub-answer ("" until one exists). */
  bestAnswer: Annotation<string>({ reducer: (_l, r) => r, default: () => "" }),
  /** Consecutive unverified steps (reset by a verified step); drives the decomposer's recovery hint. */
  consecutiveFailures: Annotation<number>({ reducer: (_l, r) => r, default: () => 0 }),
  /** History H: one record per rejected execution attempt, question-wide, in order. */
  failedRoutes: Annotation<FailedRouteRecord[], FailedRouteRecord | FailedRouteRecord[] | undefined>({
    reducer: appendItems,
    default: () => [],
  }),
  /** Intermediate steps z: one per finished sub-query. */
  steps: Annotation<Step[], Step | Step[] | undefined>({ reducer: appendItems, default: () => [] }),
  /** Verifier decisions, one per executed attempt (§9.2). */
  trace: Annotation<TraceDecision[], TraceDecision | TraceDecision[] | undefined>({
    reducer: appendItems,
    default: () => [],
  }),
  /** Failures a node fell back on: LLM calls that failed for good, strategy, retrieval and SQL service errors ("<node>: <what> (<fallback>): <message>"). */
  errors: Annotation<string[], string | string[] | undefined>({ reducer: appendItems, default: () => [] }),
  /** Summed LLM calls, tokens and milliseconds, in total and per node. */
  usage: Annotation<Usage, Usage | undefined>({ reducer: sumUsage, default: emptyUsage }),
  /** The final answer: an answer or "not found" (set by synthesize). */
  answer: Annotation<string>({ reducer: (_l, r) => r, default: () => "" }),
  /** True when the final answer comes from verifier-accepted steps; false for a plausible fallback or "not found". */
  answerVerified: Annotation<boolean>({ reducer: (_l, r) => r, default: () => false }),
  /** With `cascade`: the tier that answered — "offline" (accepted offline, no LLM call), "findings" (the one-call prompted tier, graph/findings-tier.ts) or "llm"; null without it. */
  tier: Annotation<AnswerTier | null>({ reducer: (_l, r) => r, default: () => null }),
  /** With `cascade`, after an unaccepted offline tier: what it found (graph/cascade.ts), shown to the decomposer. */
  priorFindings: Annotation<string>({ reducer: (_l, r) => r, default: () => "" }),
  /** The evidence of the final answer: the provenance of the attempt(s) that produced it ([] for "not found"). */
  answerProvenance: Annotation<Provenance[]>({ reducer: (_l, r) => r, default: () => [] }),
});

export type State = typeof StateAnnotation.State;
export type Update = typeof StateAnnotation.Update;
export type Input = typeof InputAnnotation.State;
