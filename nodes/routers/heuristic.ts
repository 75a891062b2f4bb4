/**
 * Heuristic router (reference §5.1, the CLI default): the first matching rule wins. Rule 1.5 of the
 * reference is disabled there by default and is not carried over.
 */
import { AGGREGATE_LIKE } from "../strategies.js";
import type { Route, SubQueryPlan } from "../types.js";
import { ROUTES } from "../types.js";

export function heuristicRoute(plan: SubQueryPlan, hasSchema: boolean, failed: ReadonlySet<Route>): Route {
  const hasEntities = plan.entityMentions.length > 0;
  const aggregateLike = AGGREGATE_LIKE.has(plan.expectedOperator);
  const global = plan.needGlobalTableView;
  if ((plan.requiredModalities === "text" || (!hasSchema && !hasEntities)) && !failed.has("TEXT")) return "TEXT";
  if (hasSchema && hasEntities && !failed.has("HYBRID")) return "HYBRID";
  if (aggregateLike && hasSchema && !global && !failed.has("SQL")) return "SQL";
  if (hasEntities && !failed.has("RETRIEVE") && (failed.has("HYBRID") || failed.has("SQL") || !hasSchema)) {
    return "RETRIEVE";
  }
  if (hasSchema && !failed.has("SQL")) return "SQL";
  return firstNotFailed(ROUTES, failed);
}

/** The first route of `order` not in `failed`; TEXT when all failed. */
export function firstNotFailed(order: readonly Route[], failed: ReadonlySet<Route>): Route {
  return order.find((r) => !failed.has(r)) ?? "TEXT";
}
