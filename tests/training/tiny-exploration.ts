/**
 * A tiny exploration run of this test suite's own: one question whose first sub-query was tried on
 * every route (SQL, TEXT, RETRIEVE, HYBRID in that order), each attempt traced with its answer and
 * the order features it had in that order.
 */
import type { Route } from "../../nodes/types.js";

export const SUB = "Which harbour did the ferry leave from?";

/** One traced attempt of the exploration run, with the stale order features it had there. */
export function row(route: Route, attempt: number, answer: string) {
  const valued = answer !== "not found";
  return {
    question_id: "q1",
    sub_query: SUB,
    expected_operator: "lookup",
    required_modalities: "both",
    entity_mentions: ["ferry"],
    need_global_table_view: false,
    uncertainty: 0,
    schema: null,
    has_schema: false,
    history_H: [],
    route,
    requested_route: route,
    effective_route: route,
    value_linker_attempted: false,
    attempt,
    verdict: 0.5 as const,
    accepted: false,
    produced_answer: answer,
    reason: "",
    // exploration order SQL, TEXT, RETRIEVE, HYBRID: stale attempt numbers and agreement
    ...(valued
      ? {
          p_correct: 0.1,
          features: { bias: 1, [`route=${route}`]: 1, [`attempt=${attempt}`]: 1, "agree=0": 1, grounded: 1 },
        }
      : {}),
  };
}

export const decisions = [
  row("SQL", 1, "Northgate"),
  row("TEXT", 2, "Eastport"),
  row("RETRIEVE", 3, "not found"),
  row("HYBRID", 4, "Northgate"),
];

/** The exploration record of `decisions` with a WTQ-style gold answer. */
export function explorationRecord(gold: string, rows = decisions) {
  return {
    question_id: "q1",
    question: SUB,
    answer: [gold],
    atr_trace: { question_id: "q1", verifier_decisions: rows },
  };
}
