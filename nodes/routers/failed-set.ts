/**
 * Which routes are masked, and how far the value linker's fallback ladder has advanced, given the
 * failure history H (reference §5 "Failed set", §6.4 "Ladder state").
 *
 * `failureScope` decides what part of H counts: "question" (the released code: every record of the
 * question) or "subquery" (the older atr/ code and its tests: only records of the current sub-query).
 */
import type { FailureScope } from "../../graph/configuration.js";
import type { FailedRouteRecord, Route } from "../types.js";

/** The records of H that count for `subQuery` under `scope`. */
export function scopedHistory(
  history: readonly FailedRouteRecord[],
  subQuery: string,
  scope: FailureScope,
): FailedRouteRecord[] {
  return scope === "question" ? [...history] : history.filter((r) => r.subQuery === subQuery);
}

/** Routes that failed (by effective route), upper-cased. */
export function failedSet(history: readonly FailedRouteRecord[], subQuery: string, scope: FailureScope): Set<Route> {
  return new Set(scopedHistory(history, subQuery, scope).map((r) => r.effectiveRoute.toUpperCase() as Route));
}

/** Number of earlier attempts that actually ran the value linker (the ladder's `prior`). */
export function priorLinkerAttempts(
  history: readonly FailedRouteRecord[],
  subQuery: string,
  scope: FailureScope,
): number {
  return scopedHistory(history, subQuery, scope).filter((r) => r.valueLinkerAttempted).length;
}

/** True when TEXT already failed anywhere in the question (always question-wide, as both versions). */
export function textFailed(history: readonly FailedRouteRecord[]): boolean {
  return history.some((r) => r.effectiveRoute === "TEXT");
}
