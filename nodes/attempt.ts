/** Builds the `attempt` update of a primitive node (reference §2.4 step 1). */
import type { Attempt, State } from "../graph/state.js";
import type { Route } from "./types.js";

export function makeAttempt(
  state: State,
  requestedRoute: Route,
  fields: Partial<Omit<Attempt, "number" | "requestedRoute" | "verdict" | "reason">> & { answer: string },
): Attempt {
  return {
    number: (state.attempt?.number ?? 0) + 1,
    requestedRoute,
    effectiveRoute: fields.effectiveRoute ?? requestedRoute,
    answer: fields.answer,
    evidence: fields.evidence ?? "",
    sqlResult: fields.sqlResult ?? "",
    sql: fields.sql ?? "",
    ...(fields.sqlRefusals && fields.sqlRefusals.length > 0 ? { sqlRefusals: fields.sqlRefusals } : {}),
    valueLinkerAttempted: fields.valueLinkerAttempted ?? false,
    linkedValues: fields.linkedValues ?? [],
    verdict: null,
    reason: "",
  };
}
