/**
 * Offline replacement of the LLM router (reference §5.2): the teacher's ordered rules applied
 * deterministically to the route profile, never returning a route that already failed.
 *   TEXT if modality text or (no schema and no entities); SQL if aggregate-like with schema and no
 *   entities; HYBRID if aggregate-like with entities; RETRIEVE if aggregate-like with entities and
 *   HYBRID failed; RETRIEVE if lookup/filter with entities; SQL if schema; else TEXT.
 */
import { AGGREGATE_LIKE, type RouteProfile } from "../strategies.js";
import type { Route } from "../types.js";

/** The teacher's route for a profile. Pure. */
export function teacherRoute(profile: RouteProfile): Route {
  const failed = new Set(profile.failedRoutes);
  const ok = (r: Route) => !failed.has(r);
  const plan = profile.plan;
  const entities = plan.entityMentions.length > 0;
  const aggregate = AGGREGATE_LIKE.has(plan.expectedOperator);
  const wanted: Route[] = [];
  if (plan.requiredModalities === "text" || (!profile.hasSchema && !entities)) wanted.push("TEXT");
  if (aggregate && profile.hasSchema && !entities) wanted.push("SQL");
  if (aggregate && entities) wanted.push("HYBRID", "RETRIEVE");
  if (!aggregate && entities) wanted.push("RETRIEVE");
  if (profile.hasSchema) wanted.push("SQL");
  wanted.push("TEXT");
  for (const r of wanted) if (ok(r)) return r;
  // Reference fallback order when every preferred route failed.
  for (const r of ["RETRIEVE", "SQL", "HYBRID", "TEXT"] as const) if (ok(r)) return r;
  return "TEXT";
}

export async function chooseRoute(profile: RouteProfile): Promise<string> {
  return teacherRoute(profile);
}
