/**
 * LLM router (reference §5.2): the strategy's reply is parsed by picking the first of HYBRID,
 * RETRIEVE, SQL, TEXT (in that order) that occurs in the upper-cased reply and is not failed. A call
 * error or no match falls back to the first non-failed of RETRIEVE, SQL, HYBRID, TEXT.
 */
import { noteFailure, type UsageMeter } from "../usage-meter.js";
import type { Strategies, RouteProfile } from "../strategies.js";
import type { Route } from "../types.js";
import { firstNotFailed } from "./heuristic.js";

const PARSE_ORDER: readonly Route[] = ["HYBRID", "RETRIEVE", "SQL", "TEXT"];
const FALLBACK_ORDER: readonly Route[] = ["RETRIEVE", "SQL", "HYBRID", "TEXT"];

export function parseRouteReply(reply: string, failed: ReadonlySet<Route>): Route | null {
  const upper = reply.toUpperCase();
  return PARSE_ORDER.find((r) => upper.includes(r) && !failed.has(r)) ?? null;
}

/** A failing chooser falls to the first route not failed (noted in `meter`). */
export async function llmRoute(strategies: Strategies, profile: RouteProfile, meter?: UsageMeter): Promise<Route> {
  const failed = new Set(profile.failedRoutes);
  try {
    const reply = await strategies.chooseRoute(profile);
    return parseRouteReply(reply, failed) ?? firstNotFailed(FALLBACK_ORDER, failed);
  } catch (error) {
    noteFailure(meter, "chooseRoute failed (first route not failed)", error);
    return firstNotFailed(FALLBACK_ORDER, failed);
  }
}
