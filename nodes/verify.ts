/**
 * verify (reference §8.4, §2.4, §2.3 steps 6–8): judges the current attempt, records the trace
 * row, appends a rejected attempt to H, and finishes the sub-query when the attempt was accepted or
 * no attempt is left.
 *
 * Our changes (DESIGN.md "does better"): the verifier also sees the original question; the
 * grounding demotion accepts numbers computed from the evidence; the stop controller also requires a
 * valid answer.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { ensureConfiguration } from "../graph/configuration.js";
import type { Attempt, State, TraceDecision, Update } from "../graph/state.js";
import { isValidAnswer } from "./answer-validity.js";
import { finishSubQuery } from "./finish-sub-query.js";
import { stopAfterAttempt } from "./routers/stop-policy.js";
import { judge, traceDecision, type Judgement } from "./judge.js";
import { metered, type NodeResources } from "./node-resources.js";
import type { UsageMeter } from "./usage-meter.js";
import type { Strategies } from "./strategies.js";
import type { FailedRouteRecord, Verdict } from "./types.js";

/**
 * The sub-query's plausible candidate after this attempt: kept from an earlier attempt (re-routes
 * are fallbacks), else this attempt's answer when valid with verdict 0.5; attempt 1 starts afresh.
 */
export function plausibleAfter(state: Pick<State, "plausibleAnswer">, attempt: Attempt, verdict: Verdict): string {
  const earlier = attempt.number > 1 ? state.plausibleAnswer : "";
  if (earlier !== "") return earlier;
  return verdict === 0.5 && isValidAnswer(attempt.answer) ? attempt.answer.trim() : "";
}

/**
 * The reading's other candidates (Attempt.readerCandidates), each judged like the attempt's answer —
 * only by a verifier that scores P(correct), so that the final answer can be any of them
 * (synthesize.ts chooseWithAlternatives); an LLM verifier is not called once per candidate. When the
 * answer was not accepted and a candidate was, the accepted candidate becomes the attempt's answer.
 */
export async function judgeReaderCandidates(
  strategies: Pick<Strategies, "verify">,
  input: {
    question: string;
    state: State;
    attempt: Attempt;
    judgement: Judgement;
    acceptThreshold?: number;
    verifierFeatures?: "all";
  },
  meter?: UsageMeter,
): Promise<{ attempt: Attempt; judgement: Judgement; others: Array<{ attempt: Attempt; judgement: Judgement }> }> {
  const { attempt, judgement } = input;
  const candidates = attempt.readerCandidates ?? [];
  if (candidates.length === 0 || judgement.pCorrect === undefined) return { attempt, judgement, others: [] };
  const judged: Array<{ attempt: Attempt; judgement: Judgement }> = [{ attempt, judgement }];
  for (const alt of candidates) {
    const candidate: Attempt = {
      ...attempt,
      answer: alt.answer,
      readerFeatures: alt.features,
      readerCandidates: [],
      ...(attempt.provenance ? { provenance: { ...attempt.provenance, cells: [], passages: [] } } : {}),
    };
    judged.push({ attempt: candidate, judgement: await judge(strategies, { ...input, attempt: candidate }, meter) });
  }
  const promoted =
    judgement.verdict === 1
      ? 0
      : Math.max(
          0,
          judged.findIndex((j) => j.judgement.verdict === 1),
        );
  const [first] = judged.splice(promoted, 1);
  return { attempt: { ...first!.attempt, readerCandidates: candidates }, judgement: first!.judgement, others: judged };
}

/**
 * The trace rows of an attempt's alternative SQL candidates: each judged like an attempt (same
 * route, its own statement, result and plan), marked `alternative`. They are candidates for the final
 * answer (synthesize), never the sub-query's control flow.
 */
export async function judgeSqlAlternatives(
  strategies: Pick<Strategies, "verify">,
  state: State,
  attempt: Attempt,
  acceptThreshold: number | undefined,
  meter?: UsageMeter,
  verifierFeatures?: "all",
): Promise<TraceDecision[]> {
  const rows: TraceDecision[] = [];
  const alternatives = attempt.sqlAlternatives ?? [];
  for (const alt of alternatives) {
    const candidate: Attempt = {
      ...attempt,
      answer: alt.answer,
      sql: alt.sql,
      sqlResult: alt.sqlResult,
      sqlPlan: alt.plan,
      sqlAlternatives: [],
      // (the route's own statement's answer: `attempt` may be a reading's promoted candidate)
      sqlSiblingAnswers: [
        (state.attempt ?? attempt).answer,
        ...alternatives.filter((a) => a !== alt).map((a) => a.answer),
      ],
    };
    const j = await judge(
      strategies,
      {
        question: state.question,
        state,
        attempt: candidate,
        ...(acceptThreshold !== undefined ? { acceptThreshold } : {}),
        ...(verifierFeatures ? { verifierFeatures } : {}),
      },
      meter,
    );
    const { provenance: _provenance, ...withoutProvenance } = candidate;
    rows.push({ ...traceDecision(state, withoutProvenance, j.verdict, j.reason, j), alternative: true });
  }
  return rows;
}

export async function verify(state: State, config: RunnableConfig, resources: NodeResources): Promise<Update> {
  return metered("verify", async (meter) => {
    const c = ensureConfiguration(config);
    if (!state.attempt || !state.plan)
      throw new Error("nodes/verify.ts: no attempt to verify (a route node must run first)");
    const strategies = await resources.strategies(c, "verifier", meter);
    const threshold = c.acceptThreshold !== undefined ? { acceptThreshold: c.acceptThreshold } : {};
    const all = c.verifierFeatures === "all" ? ({ verifierFeatures: "all" } as const) : {};
    const input = { question: state.question, state, attempt: state.attempt, ...threshold, ...all };
    const first = await judge(strategies, input, meter);
    const best = await judgeReaderCandidates(strategies, { ...input, judgement: first }, meter);
    const { attempt, judgement } = best;
    const { verdict, reason } = judgement;
    const judged: Attempt = {
      ...attempt,
      verdict,
      reason,
      ...(judgement.pCorrect !== undefined ? { pCorrect: judgement.pCorrect } : {}),
    };
    const plausibleAnswer = plausibleAfter(state, judged, verdict);
    const sqlAlternatives = await judgeSqlAlternatives(
      strategies,
      state,
      attempt,
      c.acceptThreshold,
      meter,
      all.verifierFeatures,
    );
    const readerCandidates = best.others.map((o, i) => ({
      ...traceDecision(state, o.attempt, o.judgement.verdict, o.judgement.reason, o.judgement),
      candidate: i + 2,
    }));
    const others = [...sqlAlternatives, ...readerCandidates];
    const rows = [traceDecision(state, judged, verdict, reason, judgement), ...others];
    const update: Update = { attempt: judged, plausibleAnswer, trace: others.length > 0 ? rows : rows[0] };
    const current: State = { ...state, plausibleAnswer };
    if (verdict === 1) return { ...update, ...finishSubQuery(current, judged, true) };
    const maxAttempts = state.limits?.maxAttempts ?? 4;
    if (maxAttempts <= 1) return { ...update, ...finishSubQuery(current, judged, false) }; // no escalation: H untouched
    const record: FailedRouteRecord = {
      subQuery: state.plan.subQuery,
      requestedRoute: attempt.requestedRoute,
      effectiveRoute: attempt.effectiveRoute,
      valueLinkerAttempted: attempt.valueLinkerAttempted,
      verdict,
      step: state.failedRoutes.length + 1,
    };
    if (attempt.number >= maxAttempts) {
      // out of attempts: the stop policy may also skip the next sub-query (over the trace with this attempt's rows)
      const policy = stopAfterAttempt([...state.trace, ...rows], c);
      return { ...update, failedRoutes: record, ...finishSubQuery(current, judged, false, policy) };
    }
    return { ...update, failedRoutes: record };
  });
}
