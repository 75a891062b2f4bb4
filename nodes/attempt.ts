/** Builds the `attempt` update of a primitive node (reference §2.4 step 1). */
import type { Attempt, State } from "../graph/state.js";
import type { Provenance, Route } from "./types.js";

/** What a route knows of its answer's evidence; the attempt adds sub-query, attempt number and route. */
export type RouteProvenance = Partial<Omit<Provenance, "subQuery" | "attempt" | "route">>;

export function makeAttempt(
  state: State,
  requestedRoute: Route,
  fields: Partial<Omit<Attempt, "number" | "requestedRoute" | "verdict" | "reason" | "provenance">> & {
    answer: string;
    provenance?: RouteProvenance;
  },
): Attempt {
  const number = (state.attempt?.number ?? 0) + 1;
  const effectiveRoute = fields.effectiveRoute ?? requestedRoute;
  return {
    number,
    requestedRoute,
    effectiveRoute,
    answer: fields.answer,
    evidence: fields.evidence ?? "",
    sqlResult: fields.sqlResult ?? "",
    sql: fields.sql ?? "",
    ...(fields.sqlRefusals && fields.sqlRefusals.length > 0 ? { sqlRefusals: fields.sqlRefusals } : {}),
    ...(fields.sqlPlan ? { sqlPlan: fields.sqlPlan } : {}),
    ...(fields.readerFeatures ? { readerFeatures: fields.readerFeatures } : {}),
    ...(fields.sqlAlternatives && fields.sqlAlternatives.length > 0 ? { sqlAlternatives: fields.sqlAlternatives } : {}),
    ...(fields.readerCandidates && fields.readerCandidates.length > 0
      ? { readerCandidates: fields.readerCandidates }
      : {}),
    valueLinkerAttempted: fields.valueLinkerAttempted ?? false,
    linkedValues: fields.linkedValues ?? [],
    verdict: null,
    reason: "",
    provenance: {
      subQuery: state.plan?.subQuery ?? state.question,
      attempt: number,
      route: effectiveRoute,
      tables: fields.provenance?.tables ?? [],
      cells: fields.provenance?.cells ?? [],
      ...(fields.provenance?.sql ? { sql: fields.provenance.sql } : {}),
      passages: fields.provenance?.passages ?? [],
    },
  };
}
