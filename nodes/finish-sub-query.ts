/** The end of a sub-query, shared by verify (accepted or out of attempts) and route (no route left). */
import type { Attempt, State, Update } from "../graph/state.js";
import { NOT_FOUND, isValidAnswer } from "./answer-validity.js";
import type { StopDecision } from "./routers/stop-policy.js";

/**
 * Ends the current sub-query with its last attempt (§2.3 steps 6–8): c_exec, the z entry, best
 * answer, consecutive failures and the stop controller. With `policy` (the learned stop policy's
 * decision after this unaccepted attempt, nodes/routers/stop-policy.ts) saying stop, the question
 * stops too (no further route, no further sub-query) and the step records why.
 */
export function finishSubQuery(state: State, attempt: Attempt, accepted: boolean, policy?: StopDecision): Update {
  const answer = attempt.answer.trim();
  const cExec = accepted ? 1 : answer === "" ? 0 : 0.5;
  const verified = cExec === 1 && isValidAnswer(answer);
  const threshold = state.limits?.verifierThreshold ?? 0.1;
  const uncertainty = state.plan?.uncertainty ?? 1;
  const plausible =
    !verified && isValidAnswer(state.plausibleAnswer) ? { plausibleAnswer: state.plausibleAnswer.trim() } : {};
  return {
    steps: {
      subQuery: state.plan?.subQuery ?? state.question,
      answer: answer === "" ? NOT_FOUND : answer,
      failed: !verified,
      ...plausible,
      ...(policy?.stop ? { stoppedBy: policy.reason } : {}),
    },
    bestAnswer: verified ? answer : state.bestAnswer,
    consecutiveFailures: verified ? 0 : state.consecutiveFailures + 1,
    cExec,
    stop: (verified && uncertainty < threshold) || (!verified && policy?.stop === true),
    subQueryDone: true,
    nextRoute: null,
  };
}
