/**
 * Fixed router (reference §5.4). `route` returns the forced route. Re-selection with the "standard"
 * chain returns the other three routes in the order HYBRID, SQL, RETRIEVE, TEXT (minus the forced
 * one), then TEXT; without a chain it returns the forced route again. The reference kept the chain
 * position in a counter on a router shared by threads (§15.18); here it is the number of
 * re-selections already made for this sub-query, taken from state.
 */
import type { Route } from "../types.js";

const STANDARD_CHAIN: readonly Route[] = ["HYBRID", "SQL", "RETRIEVE", "TEXT"];

export function fixedReselect(forceRoute: Route, chain: "standard" | undefined, reselectIndex: number): Route {
  if (chain !== "standard") return forceRoute;
  const order = STANDARD_CHAIN.filter((r) => r !== forceRoute);
  return order[reselectIndex] ?? "TEXT";
}
