/**
 * One entry point for every router type. A router is a pure function of (sub-query plan, restored
 * schema, history H, configuration) — nothing is kept between calls, so concurrent questions never
 * share mutable router state (reference §15.18). Re-selection re-runs the policy with the updated H
 * (reference §5), except the fixed router's chain.
 *
 * The learned router plugs in through `LearnedRouterPolicy`: a module at nodes/routers/learned.ts
 * exporting `createLearnedRouter(modelPath)` is loaded on first use.
 */
import type { FailureScope, RouterType } from "../../graph/configuration.js";
import type { TableSchema } from "../../indexing/types.js";
import type { UsageMeter } from "../usage-meter.js";
import type { RouteProfile, Strategies } from "../strategies.js";
import type { FailedRouteRecord, Route, SubQueryPlan } from "../types.js";
import { failedSet, scopedHistory } from "./failed-set.js";
import { historyFeature, schemaFeature } from "./features.js";
import { fixedReselect } from "./fixed.js";
import { heuristicRoute } from "./heuristic.js";
import { llmRoute } from "./llm.js";

export interface RouterInput {
  plan: SubQueryPlan;
  schema: TableSchema | null;
  history: readonly FailedRouteRecord[];
  failureScope: FailureScope;
  /** Set on re-selection: the effective route of the rejected attempt. */
  currentRoute?: Route;
  /** Re-selections already made for this sub-query (0 on the first re-selection). */
  reselectIndex: number;
}

export interface RouterSettings {
  routerType: RouterType;
  forceRoute?: Route;
  fixedEscalateChain?: "standard";
  routerModelPath?: string;
}

/** A learned policy: returns the classes ordered by descending score; masking is applied here. */
export interface LearnedRouterPolicy {
  rank(input: RouterInput): Promise<Route[]>;
}

export class RouterError extends Error {
  constructor(message: string) {
    super(`nodes/routers: ${message}`);
    this.name = "RouterError";
  }
}

/** The profile the LLM router prompt shows (§5.2). */
export function routeProfile(input: RouterInput): RouteProfile {
  const failed = failedSet(input.history, input.plan.subQuery, input.failureScope);
  return {
    subQuery: input.plan.subQuery,
    plan: input.plan,
    hasSchema: input.schema !== null,
    schemaFeature: schemaFeature(input.schema),
    failedRoutes: [...failed].sort(),
    historyFeature: historyFeature(scopedHistory(input.history, input.plan.subQuery, input.failureScope)),
  };
}

type LearnedLoader = (modelPath: string) => Promise<LearnedRouterPolicy>;
let learnedLoader: LearnedLoader | undefined;
/** Loaded policies by model path: the model (an ONNX session) is opened once per process. */
const learnedPolicies = new Map<string, Promise<LearnedRouterPolicy>>();

/** Registers the learned router implementation (done by nodes/routers/learned.ts or by tests). */
export function registerLearnedRouter(loader: LearnedLoader): void {
  learnedLoader = loader;
  learnedPolicies.clear();
}

async function learnedPolicy(modelPath: string | undefined): Promise<LearnedRouterPolicy> {
  if (!modelPath) throw new RouterError("routerType learned needs routerModelPath (--router_model_path DIR)");
  let policy = learnedPolicies.get(modelPath);
  if (!policy) {
    policy = loadLearnedPolicy(modelPath);
    learnedPolicies.set(modelPath, policy);
    policy.catch(() => learnedPolicies.delete(modelPath));
  }
  return policy;
}

async function loadLearnedPolicy(modelPath: string): Promise<LearnedRouterPolicy> {
  // Imported on first use: the ONNX runtime is loaded only by runs that route with the learned model.
  learnedLoader ??= (await import("./learned.js")).createLearnedRouter;
  return learnedLoader(modelPath);
}

/** Picks the route for a first attempt or a re-selection. */
export async function selectRoute(
  input: RouterInput,
  settings: RouterSettings,
  strategies: Strategies,
  meter?: UsageMeter,
): Promise<Route> {
  const failed = failedSet(input.history, input.plan.subQuery, input.failureScope);
  switch (settings.routerType) {
    case "heuristic":
      return heuristicRoute(input.plan, input.schema !== null, failed);
    case "llm":
      return llmRoute(strategies, routeProfile(input), meter);
    case "fixed": {
      if (!settings.forceRoute) throw new RouterError("routerType fixed needs forceRoute");
      if (input.currentRoute === undefined) return settings.forceRoute;
      return fixedReselect(settings.forceRoute, settings.fixedEscalateChain, input.reselectIndex);
    }
    case "learned": {
      const policy = await learnedPolicy(settings.routerModelPath);
      const ranked = await policy.rank(input);
      return ranked.find((r) => !failed.has(r)) ?? "TEXT";
    }
  }
}
