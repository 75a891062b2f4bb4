/**
 * The ATR agent as a LangGraph.js state machine (DESIGN.md "One question's way through the graph"):
 *
 *   START → begin ─cascade→ offline_tier ─accepted→ END  (graph/cascade.ts; not accepted → decompose)
 *   START → begin → decompose ─TERMINATE→ synthesize → END
 *           decompose → gather → route → TEXT | RETRIEVE | SQL | HYBRID → verify
 *           verify ─rejected, attempts left→ route ─same route again→ (sub-query ends)
 *           (sub-query ends) ─stop or maxIter→ synthesize, else → decompose
 *
 * Control flow lives in the pure edge functions below; nodes only compute updates. Resources are
 * bound here (graph/resources.ts), so nodes stay testable with fakes. Compiled without a
 * checkpointer: `langgraph dev` and callers that want persistence provide one. The compiled graph
 * carries a default `recursionLimit` that fits the default loop bounds (`withConfig`; the LangGraph
 * server and Studio keep it when a run sends no `recursion_limit`); `answerQuestion` sets the one its
 * configuration needs (`recursionLimitFor`).
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { END, START, StateGraph, type BaseCheckpointSaver } from "@langchain/langgraph";
import { begin } from "../nodes/begin.js";
import { decompose, isTerminate } from "../nodes/decompose.js";
import { gather } from "../nodes/gather.js";
import { hybrid } from "../nodes/hybrid.js";
import type { NodeResources } from "../nodes/node-resources.js";
import { retrieve } from "../nodes/retrieve.js";
import { route } from "../nodes/route.js";
import { sql } from "../nodes/sql.js";
import { synthesize } from "../nodes/synthesize.js";
import { text } from "../nodes/text.js";
import type { Route } from "../nodes/types.js";
import { verify } from "../nodes/verify.js";
import {
  ConfigurableSchema,
  effectiveMaxIter,
  ensureConfiguration,
  maxAttempts,
  type Configuration,
} from "./configuration.js";
import { checkQuestionLength } from "./question-limit.js";
import { afterOfflineTier, OFFLINE_TIER, offlineTier, startOf, type TierGraph } from "./cascade.js";
import { processResources } from "./resources.js";
import { InputAnnotation, InputSchema, StateAnnotation, type State } from "./state.js";

export const GRAPH_NAME = "ATR";

/**
 * Supersteps one question can take: begin (and the cascade's offline tier), then per iteration
 * decompose + gather + route, then per attempt a primitive, verify and a re-selecting route; plus
 * synthesize and a margin.
 */
export function recursionLimitFor(c: Configuration): number {
  return 1 + effectiveMaxIter(c) * (3 + 3 * maxAttempts(c)) + 5 + (c.cascade ? 1 : 0);
}

/** The compiled graph's default: enough for the default configuration (maxIter 5, 4 attempts) → 81. */
export const DEFAULT_RECURSION_LIMIT = recursionLimitFor(ensureConfiguration({}));

/** After a finished sub-query: stop (accepted, valid, certain) or out of iterations → synthesize. */
export function afterSubQuery(state: Pick<State, "stop" | "iteration" | "limits">): "decompose" | "synthesize" {
  if (state.stop) return "synthesize";
  if (state.iteration >= (state.limits?.maxIter ?? 1)) return "synthesize";
  return "decompose";
}

/** TERMINATE ends the loop; any other sub-query gathers its documents. */
export function afterDecompose(state: Pick<State, "plan">): "gather" | "synthesize" {
  return isTerminate(state.plan) ? "synthesize" : "gather";
}

/** The chosen primitive, or — when re-selection ended the sub-query — the next iteration's edge. */
export function afterRoute(
  state: Pick<State, "nextRoute" | "subQueryDone" | "stop" | "iteration" | "limits">,
): Route | "decompose" | "synthesize" {
  if (state.subQueryDone || state.nextRoute === null) return afterSubQuery(state);
  return state.nextRoute;
}

/** A rejected attempt with attempts left re-routes; a finished sub-query continues the loop. */
export function afterVerify(
  state: Pick<State, "subQueryDone" | "stop" | "iteration" | "limits">,
): "route" | "decompose" | "synthesize" {
  return state.subQueryDone ? afterSubQuery(state) : "route";
}

type NodeFn = (state: State, config: RunnableConfig, resources: NodeResources) => Promise<unknown>;

/** decompose behind the question-length limit, so every entry point (CLI, langgraph dev, a script) refuses an over-long question before any work. */
const boundedDecompose: NodeFn = async (state, config, resources) => {
  checkQuestionLength(state.question, ensureConfiguration(config));
  return decompose(state, config, resources);
};

/** Builds and compiles the graph over the given resources (tests may pass fakes), optionally with a checkpointer. */
export function buildGraph(
  resources: NodeResources = processResources,
  options: { checkpointer?: BaseCheckpointSaver } = {},
) {
  const bind = (fn: NodeFn) => (state: State, config: RunnableConfig) =>
    fn(state, config, resources) as Promise<typeof StateAnnotation.Update>;
  // The input is the zod InputSchema at run time (so the server can show its JSON schema in Studio);
  // its channels equal InputAnnotation's, which is what the types are built from.
  const input = InputSchema as unknown as typeof InputAnnotation;
  // The cascade's offline tier runs this same graph (built once, on first use) with cascade off.
  let tierGraph: TierGraph | undefined;
  const runOfflineTier = (state: State, config: RunnableConfig): Promise<typeof StateAnnotation.Update> =>
    offlineTier(state, config, (tierGraph ??= buildTierGraph(resources)), resources);
  const builder = new StateGraph({ stateSchema: StateAnnotation, input }, ConfigurableSchema)
    .addNode("begin", begin)
    .addNode("decompose", bind(boundedDecompose))
    .addNode("gather", bind(gather))
    .addNode("route", bind(route))
    .addNode("TEXT", bind(text))
    .addNode("RETRIEVE", bind(retrieve))
    .addNode("SQL", bind(sql))
    .addNode("HYBRID", bind(hybrid))
    .addNode("verify", bind(verify))
    .addNode("synthesize", bind(synthesize))
    .addNode(OFFLINE_TIER, runOfflineTier)
    .addEdge(START, "begin")
    .addConditionalEdges("begin", startOf, [OFFLINE_TIER, "decompose"])
    .addConditionalEdges(OFFLINE_TIER, afterOfflineTier, [END, "decompose"])
    .addConditionalEdges("decompose", afterDecompose, ["gather", "synthesize"])
    .addEdge("gather", "route")
    .addConditionalEdges("route", afterRoute, ["TEXT", "RETRIEVE", "SQL", "HYBRID", "decompose", "synthesize"])
    .addEdge("TEXT", "verify")
    .addEdge("RETRIEVE", "verify")
    .addEdge("SQL", "verify")
    .addEdge("HYBRID", "verify")
    .addConditionalEdges("verify", afterVerify, ["route", "decompose", "synthesize"])
    .addEdge("synthesize", END);
  const compiled = builder.compile(options.checkpointer ? { checkpointer: options.checkpointer } : {});
  compiled.name = GRAPH_NAME;
  return compiled.withConfig({ recursionLimit: DEFAULT_RECURSION_LIMIT });
}

/** The graph the offline tier runs (a separate name, so buildGraph's type does not depend on itself). */
const buildTierGraph = (resources: NodeResources): TierGraph => buildGraph(resources) as unknown as TierGraph;

/** The ATR graph over the process-wide resources (langgraph.json: `./graph/graph.ts:graph`). */
export const graph = buildGraph();
