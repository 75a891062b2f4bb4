/**
 * route (reference §5, §2.4 step 8): picks the route of the next attempt. On the first attempt of a
 * sub-query it calls the router's policy; after a rejection it re-selects with the updated H and the
 * rejected attempt's effective route. When re-selection returns that same route, the sub-query ends
 * (rejected) here; so does the question when the learned stop policy expects no later route to change
 * the answer (nodes/routers/stop-policy.ts). With the learned route order, another untried route may
 * come before the heuristic's re-selection (nodes/routers/next-route.ts).
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { ensureConfiguration } from "../graph/configuration.js";
import type { State, Update } from "../graph/state.js";
import { metered, type NodeResources } from "./node-resources.js";
import { selectRoute } from "./routers/index.js";
import { finishSubQuery } from "./finish-sub-query.js";
import { stopAfterAttempt } from "./routers/stop-policy.js";
import { nextRouteAfterAttempt } from "./routers/next-route.js";
import { failedSet } from "./routers/failed-set.js";
import { ROUTES } from "./types.js";

export async function route(state: State, config: RunnableConfig, resources: NodeResources): Promise<Update> {
  return metered("route", async (meter) => {
    const c = ensureConfiguration(config);
    if (!state.plan) throw new Error("nodes/route.ts: no sub-query in state (decompose must run first)");
    const strategies = await resources.strategies(c, "main", meter);
    const settings = {
      routerType: c.routerType,
      forceRoute: c.forceRoute,
      fixedEscalateChain: c.fixedEscalateChain,
      routerModelPath: c.routerModelPath,
    };
    const previous = state.attempt;
    // after a rejected attempt: the stop policy may end re-routing here (the trace holds that attempt's rows)
    const policy = previous ? stopAfterAttempt(state.trace, c) : undefined;
    if (previous && policy?.stop) return finishSubQuery(state, previous, false, policy);
    const input = {
      plan: state.plan,
      schema: state.schema,
      history: state.failedRoutes,
      failureScope: c.failureScope,
      reselectIndex: previous ? previous.number - 1 : 0,
      ...(previous ? { currentRoute: previous.effectiveRoute } : {}),
    };
    const next = await selectRoute(input, settings, strategies, meter);
    if (previous && next === previous.effectiveRoute) return finishSubQuery(state, previous, false);
    if (!previous) return { nextRoute: next };
    // the learned route order may take another untried route first (nodes/routers/next-route.ts)
    const failed = failedSet(state.failedRoutes, state.plan.subQuery, c.failureScope);
    const untried = ROUTES.filter((r) => !failed.has(r));
    const order = nextRouteAfterAttempt(state.trace, next, untried, c);
    return { nextRoute: order?.route ?? next };
  });
}
