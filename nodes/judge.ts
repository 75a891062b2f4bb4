/**
 * Judging one attempt (reference §8.4) and its trace row: the verifier strategy's verdict, validated
 * to 0 / 0.5 / 1, with the grounding demotion of a 1 whose answer is not in the evidence. Used by
 * the verify node and by the cascade's prompted tier (graph/findings-tier.ts).
 */
import type { Attempt, State, TraceDecision } from "../graph/state.js";
import { NOT_FOUND } from "./answer-validity.js";
import { isGrounded } from "./grounding.js";
import { noteFailure, type UsageMeter } from "./usage-meter.js";
import type { Strategies } from "./strategies.js";
import type { Verdict } from "./types.js";

/** Non-empty parts of [text evidence, route evidence, SQL result], blank-line separated. */
export function verifierEvidence(textEvidence: string, routeEvidence: string, sqlResult: string): string {
  return [textEvidence, routeEvidence, sqlResult].filter((p) => p.trim() !== "").join("\n\n");
}

/** A strategy verdict validated to exactly 0, 0.5 or 1 (anything else → 0.5). */
export function validVerdict(value: unknown): Verdict {
  return value === 0 || value === 0.5 || value === 1 ? value : 0.5;
}

export interface Judgement {
  verdict: Verdict;
  reason: string;
  /** The learned verifier's P(correct) and its features, when the verifier is one. */
  pCorrect?: number;
  features?: Record<string, number>;
  /** True when the LLM said 1 but the grounding check demoted it. */
  demoted: boolean;
}

/** The verdict for an answer: 0.5 without a call for empty/"not found"; 0.5 on errors; grounding demotion. */
export async function judge(
  strategies: Pick<Strategies, "verify">,
  input: { question: string; state: State; attempt: Attempt; acceptThreshold?: number; verifierFeatures?: "all" },
  meter?: UsageMeter,
): Promise<Judgement> {
  const { attempt, state } = input;
  const answer = attempt.answer.trim();
  if (answer === "" || answer.toLowerCase() === NOT_FOUND) {
    return { verdict: 0.5, reason: "no answer produced", demoted: false };
  }
  const evidence = verifierEvidence(state.textEvidence, attempt.evidence, attempt.sqlResult);
  let verdict: Verdict = 0.5;
  let reason = "";
  let learned: Pick<Judgement, "pCorrect" | "features"> = {};
  try {
    const out = await strategies.verify({
      question: input.question,
      subQuery: state.plan?.subQuery ?? input.question,
      plan: state.plan!,
      route: attempt.effectiveRoute,
      answer,
      evidence,
      sqlResult: attempt.sqlResult,
      ...(attempt.sql ? { sql: attempt.sql } : {}),
      ...(attempt.sqlPlan ? { sqlPlan: attempt.sqlPlan } : {}),
      requestedRoute: attempt.requestedRoute,
      attempt: attempt.number,
      // (An attempt's alternative SQL candidates and a reading's other candidates are not other
      // attempts: they do not count as agreement.)
      earlier: state.trace
        .filter((d) => !d.alternative && d.candidate === undefined)
        .map((d) => ({ route: d.effective_route, answer: d.produced_answer, subQuery: d.sub_query })),
      ...(input.acceptThreshold !== undefined ? { acceptThreshold: input.acceptThreshold } : {}),
      ...(input.verifierFeatures ? { verifierFeatures: input.verifierFeatures } : {}),
      ...(attempt.readerFeatures ? { readerFeatures: attempt.readerFeatures } : {}),
      ...sqlSiblings(attempt),
    });
    verdict = validVerdict(out?.verdict);
    reason = typeof out?.reason === "string" ? out.reason : "";
    learned = {
      ...(typeof out?.pCorrect === "number" && Number.isFinite(out.pCorrect) ? { pCorrect: out.pCorrect } : {}),
      ...(out?.features ? { features: out.features } : {}),
    };
  } catch (error) {
    noteFailure(meter, "verifier failed (verdict 0.5)", error);
    return { verdict: 0.5, reason: `verifier failed: ${(error as Error)?.message ?? String(error)}`, demoted: false };
  }
  if (verdict === 1 && !isGrounded(answer, evidence)) {
    return {
      verdict: 0.5,
      reason: `${reason} [demoted: answer not grounded in the evidence]`.trim(),
      demoted: true,
      ...learned,
    };
  }
  return { verdict, reason, demoted: false, ...learned };
}

/** The trace row (reference §9.2) of a judged attempt. */
/** The answers of the attempt's other SQL candidates, for the verifier's agreement features (none without them). */
function sqlSiblings(attempt: Attempt): { sqlSiblingAnswers?: string[] } {
  const answers = attempt.sqlSiblingAnswers ?? attempt.sqlAlternatives?.map((a) => a.answer) ?? [];
  return answers.length > 0 ? { sqlSiblingAnswers: answers } : {};
}

export function traceDecision(
  state: State,
  attempt: Attempt,
  verdict: Verdict,
  reason: string,
  learned: Pick<Judgement, "pCorrect" | "features"> = {},
): TraceDecision {
  const plan = state.plan!;
  return {
    question_id: state.question_id ?? state.question,
    sub_query: plan.subQuery,
    expected_operator: plan.expectedOperator,
    required_modalities: plan.requiredModalities,
    entity_mentions: plan.entityMentions,
    need_global_table_view: plan.needGlobalTableView,
    uncertainty: plan.uncertainty,
    schema: state.schema,
    has_schema: state.schema !== null,
    history_H: [...state.failedRoutes],
    route: attempt.effectiveRoute,
    requested_route: attempt.requestedRoute,
    effective_route: attempt.effectiveRoute,
    value_linker_attempted: attempt.valueLinkerAttempted,
    attempt: attempt.number,
    verdict,
    accepted: verdict === 1,
    produced_answer: attempt.answer,
    reason,
    ...(attempt.sql ? { sql: attempt.sql } : {}),
    ...(attempt.sqlRefusals ? { sql_refused: attempt.sqlRefusals } : {}),
    ...(learned.pCorrect !== undefined ? { p_correct: learned.pCorrect } : {}),
    ...(learned.features ? { features: learned.features } : {}),
    ...(attempt.provenance ? { provenance: attempt.provenance } : {}),
    ...(attempt.sqlPlan ? { sql_plan: attempt.sqlPlan.name } : {}),
  };
}
