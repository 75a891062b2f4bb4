/**
 * `answerQuestion`: one question through the graph, for the CLI and the batch runner. Sets an
 * explicit recursionLimit computed from the loop bounds, tags the run with the full configuration
 * and prompt versions (LangSmith metadata), and returns the answer with the §9.2 trace, summed usage
 * and the routes requested/taken per sub-query.
 */
import { CallbackManager, type Callbacks } from "@langchain/core/callbacks/manager";
import { CONSTRAINED_SQL_PROMPT_VERSION } from "../nodes/constrained-sql.js";
import { PROMPTS_VERSION } from "../nodes/prompts.js";
import type { Provenance, Route, Step } from "../nodes/types.js";
import { ensureConfiguration, type ConfigurableInput, type Configuration } from "./configuration.js";
import { checkQuestionLength } from "./question-limit.js";
import { graph as defaultGraph, recursionLimitFor } from "./graph.js";
import { RetrievalRecorder, type RetrievalRecord } from "./retrieval-trace.js";
import type { AnswerTier, State, TraceDecision, Usage } from "./state.js";

export interface QuestionInput {
  question: string;
  question_id?: string;
  table_id?: string;
}

export interface AnswerOptions {
  configurable?: ConfigurableInput;
  runName?: string;
  tags?: string[];
  metadata?: Record<string, unknown>;
  callbacks?: Callbacks;
  /** Another compiled ATR graph (tests build one over fake resources). */
  graph?: GraphLike;
  signal?: AbortSignal;
  /** Called after every node with its state update (the run is streamed instead of invoked). */
  onNodeUpdate?: (node: string, update: Record<string, unknown>) => void;
  /**
   * Record the retriever runs for `trace.retrievals` (default true). False when nobody reads them
   * (`atr run` without --emit_trace): the recorder is a callback handler, and with one attached
   * LangChain starts and ends a callback run for every node, edge and retriever call — about a
   * tenth of a WTQ question's CPU (docs/BENCHMARKS.md "Per-question cost").
   */
  recordRetrievals?: boolean;
}

interface GraphLike {
  invoke(input: QuestionInput, config: Record<string, unknown>): Promise<unknown>;
  stream?(input: QuestionInput, config: Record<string, unknown>): Promise<AsyncIterable<unknown>>;
}

/** `atr_trace` of reference §9.2. */
export interface AtrTrace {
  question_id: string;
  verifier_decisions: TraceDecision[];
  /** Decisions not accepted. */
  n_escalations: number;
  final_answer: string;
  /** The retriever runs of the question, in order (graph/retrieval-trace.ts); absent when none ran. */
  retrievals?: RetrievalRecord[];
  /** Why the learned stop policy ended re-routing before every route ran (nodes/routers/stop-policy.ts); absent when it did not. */
  stopped_by?: string;
}

export interface SubQueryRoutes {
  subQuery: string;
  requested: Route[];
  effective: Route[];
}

export interface AnswerResult {
  answer: string;
  /** True when the answer comes from verifier-accepted steps; false for a plausible fallback or "not found". */
  answerVerified: boolean;
  trace: AtrTrace;
  usage: Usage;
  routes: SubQueryRoutes[];
  /** The intermediate steps z. */
  steps: Step[];
  /** With `cascade`: which tier answered ("offline": accepted offline, no LLM call; "findings": the one-call prompted tier; "llm"). Absent without it. */
  tier?: AnswerTier;
  /** LLM calls that failed for good (their steps failed closed), "<node>: <reply> (<model>): <message>". */
  errors: string[];
  /**
   * Every distinct non-empty answer of the run in the oracle verifier's order (§2.5): final, best,
   * each step's, each attempt's produced answer.
   */
  candidates: string[];
  /** The evidence of the answer: the provenance of the attempt(s) that produced it ([] for "not found"). */
  provenance: Provenance[];
}

/** The oracle verifier's candidates: final answer, best answer, z answers, produced answers; distinct, non-empty. */
export function answerCandidates(state: Pick<State, "answer" | "bestAnswer" | "steps" | "trace">): string[] {
  const all = [
    state.answer,
    state.bestAnswer,
    ...state.steps.map((s) => s.answer),
    ...state.trace.map((d) => d.produced_answer),
  ];
  return [...new Set(all.filter((a): a is string => typeof a === "string" && a.trim() !== ""))];
}

/** Consecutive decisions of one sub-query grouped, in order (alternative SQL plans are candidates of their attempt, not routes). */
export function routesOf(decisions: readonly TraceDecision[]): SubQueryRoutes[] {
  const out: SubQueryRoutes[] = [];
  let current: SubQueryRoutes | undefined;
  for (const d of decisions) {
    if (d.alternative) continue;
    if (!current || current.subQuery !== d.sub_query || d.attempt === 1) {
      current = { subQuery: d.sub_query, requested: [], effective: [] };
      out.push(current);
    }
    current.requested.push(d.requested_route);
    current.effective.push(d.effective_route);
  }
  return out;
}

export function traceOf(
  state: Pick<State, "question" | "question_id" | "trace" | "answer"> & Partial<Pick<State, "steps">>,
): AtrTrace {
  const stopped = state.steps?.find((s) => s.stoppedBy)?.stoppedBy;
  return {
    question_id: state.question_id ?? state.question,
    verifier_decisions: state.trace,
    n_escalations: state.trace.filter((d) => !d.accepted).length,
    final_answer: state.answer,
    ...(stopped ? { stopped_by: stopped } : {}),
  };
}

/** Run metadata: every configuration value plus the prompt versions, under `config` (as the batch runner's). */
export function runMetadata(c: Configuration): Record<string, unknown> {
  // One key holding the whole configuration: LangChain copies a run's metadata into every child run
  // key by key, each copy spreading the whole object again (quadratic in the number of keys), and a
  // question makes hundreds of child runs (nodes, retrievers): ~60 top-level keys cost 14 % of a WTQ run's CPU.
  return {
    config: { ...c, promptsVersion: PROMPTS_VERSION, constrainedSqlPromptVersion: CONSTRAINED_SQL_PROMPT_VERSION },
  };
}

/** Streams "updates" (reported per node) and "values" (the last one is the final state). */
async function streamRun(
  g: GraphLike,
  input: QuestionInput,
  config: Record<string, unknown>,
  onNodeUpdate: (node: string, update: Record<string, unknown>) => void,
): Promise<State> {
  if (!g.stream) throw new Error("graph/answer.ts: onNodeUpdate needs a graph with stream()");
  let last: State | undefined;
  for await (const chunk of await g.stream(input, { ...config, streamMode: ["updates", "values"] })) {
    const [mode, data] = chunk as [string, Record<string, unknown>];
    if (mode === "values") last = data as unknown as State;
    else
      for (const [node, update] of Object.entries(data ?? {}))
        onNodeUpdate(node, (update ?? {}) as Record<string, unknown>);
  }
  if (!last) throw new Error("graph/answer.ts: the run produced no state");
  return last;
}

/** The caller's callbacks plus one handler. */
function withHandler(callbacks: Callbacks | undefined, handler: RetrievalRecorder): Callbacks {
  if (callbacks instanceof CallbackManager) return callbacks.copy([handler]);
  return [...(callbacks ?? []), handler];
}

export async function answerQuestion(input: QuestionInput, options: AnswerOptions = {}): Promise<AnswerResult> {
  const configurable = options.configurable ?? {};
  const c = ensureConfiguration({ configurable: configurable as Record<string, unknown> });
  checkQuestionLength(input.question, c);
  const runInput: QuestionInput = { question: input.question };
  if (input.question_id !== undefined) runInput.question_id = input.question_id;
  if (input.table_id !== undefined && input.table_id !== "") runInput.table_id = input.table_id;
  const g: GraphLike = options.graph ?? (defaultGraph as unknown as GraphLike);
  const recorder = options.recordRetrievals === false ? undefined : new RetrievalRecorder();
  const callbacks = recorder ? withHandler(options.callbacks, recorder) : options.callbacks;
  const config: Record<string, unknown> = {
    configurable,
    recursionLimit: recursionLimitFor(c),
    ...(options.runName ? { runName: options.runName } : {}),
    ...(options.tags ? { tags: options.tags } : {}),
    metadata: { ...runMetadata(c), ...(options.metadata ?? {}) },
    ...(callbacks ? { callbacks } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const state = options.onNodeUpdate
    ? await streamRun(g, runInput, config, options.onNodeUpdate)
    : ((await g.invoke(runInput, config)) as State);
  return {
    answer: state.answer,
    answerVerified: state.answerVerified === true,
    trace: { ...traceOf(state), ...(recorder && recorder.records.length > 0 ? { retrievals: recorder.records } : {}) },
    usage: state.usage,
    routes: routesOf(state.trace),
    steps: state.steps,
    ...(state.tier ? { tier: state.tier } : {}),
    errors: state.errors ?? [],
    candidates: answerCandidates(state),
    provenance: state.answerProvenance ?? [],
  };
}
