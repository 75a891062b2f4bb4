/**
 * synthesize (reference §2.5): the final answer. With `finalSynthesis` and ≥ 2 accepted steps the
 * synthesis strategy combines the accepted steps; its output is validated (our fix, §15.14): an
 * invalid string ("not found", "none", "") never wins over a valid best answer. Otherwise: the best
 * answer if valid, else the last valid accepted answer, else — our change, `plausibleFallback`
 * (DESIGN.md "does better") — the plausible answer of the latest step that has one, marked
 * unverified, else "not found".
 *
 * With the learned offline verifier every attempt carries P(correct): when every sub-query asks the
 * question itself (the offline decomposer, or no decomposition), the final answer is the question's
 * candidate with the highest P over all its attempts (DESIGN.md "Learned verifier"), verified when
 * the verifier accepted it or, every route having been tried, the ranker's P of that answer reached
 * the threshold (nodes/offline/answer-ranker.ts).
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { ensureConfiguration } from "../graph/configuration.js";
import type { State, TraceDecision, Update } from "../graph/state.js";
import { NOT_FOUND, isValidAnswer } from "./answer-validity.js";
import { metered, type NodeResources } from "./node-resources.js";
import { noteFailure } from "./usage-meter.js";
import { provenanceOfAnswer } from "./provenance.js";
import { cleanAnswer } from "./prompted/strategies.js";
import type { Provenance, Step } from "./types.js";
import { answerModel, thresholdFor } from "./offline/answer-model.js";
import { chooseAnswer, type Ranker } from "./offline/answer-ranker.js";
import { normaliseAnswerText } from "../text/normalise.js";

/** The answer without synthesis: best answer, else the last valid accepted answer, else "not found". */
export function fallbackAnswer(bestAnswer: string, steps: readonly Step[]): string {
  if (isValidAnswer(bestAnswer)) return bestAnswer.trim();
  const accepted = steps.filter((s) => !s.failed);
  for (let i = accepted.length - 1; i >= 0; i--) {
    if (isValidAnswer(accepted[i]!.answer)) return accepted[i]!.answer.trim();
  }
  return NOT_FOUND;
}

/** A sub-query without its trailing notes ("(columns: …)", "(about: …)"), for spotting retries. */
function questionOf(subQuery: string): string {
  return subQuery
    .replace(/(\s*\([a-z]+:[^)]*\))+\s*$/i, "")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

/**
 * The plausible (verdict 0.5) answer of the latest failed step that has a valid one, if any. A step
 * that asks an earlier step's question again (a retry, e.g. the offline decomposer's retry on the
 * passages, not a new hop) is a fallback, as re-routes are: the earliest asking keeps its candidate.
 */
export function plausibleAnswer(steps: readonly Step[]): string | undefined {
  const candidate = (s: Step) => (s.failed && isValidAnswer(s.plausibleAnswer) ? s.plausibleAnswer.trim() : undefined);
  for (let i = steps.length - 1; i >= 0; i--) {
    if (candidate(steps[i]!) === undefined) continue;
    const asked = questionOf(steps[i]!.subQuery);
    const first = steps.slice(0, i + 1).find((s) => candidate(s) !== undefined && questionOf(s.subQuery) === asked);
    return candidate(first ?? steps[i]!);
  }
  return undefined;
}

/**
 * The final answer without synthesis and whether a verifier accepted it: the accepted answer
 * (fallbackAnswer) always wins; with `plausibleFallback` a plausible answer replaces "not found".
 */
export function finalAnswer(
  bestAnswer: string,
  steps: readonly Step[],
  plausibleFallback: boolean,
): { answer: string; verified: boolean } {
  const accepted = fallbackAnswer(bestAnswer, steps);
  if (accepted !== NOT_FOUND) return { answer: accepted, verified: true };
  const plausible = plausibleFallback ? plausibleAnswer(steps) : undefined;
  return plausible !== undefined ? { answer: plausible, verified: false } : { answer: NOT_FOUND, verified: false };
}

/**
 * The final answer among the question's attempts that carry P(correct) (the learned offline
 * verifier, nodes/offline/answer-ranker.ts `chooseAnswer`): the accepted one, else the learned
 * ranker's choice (accepted at its P ≥ `threshold`), else the highest-P one no check contradicted;
 * undefined when no attempt carries P.
 */
export function bestScoredCandidate(
  trace: readonly TraceDecision[],
  ranker?: Ranker,
  threshold = 1,
  margin = ALTERNATIVE_MARGIN,
): { answer: string; pCorrect: number; verified: boolean; provenance?: Provenance } | undefined {
  const d = chooseWithAlternatives(
    trace.filter((t) => t.p_correct !== undefined && t.features),
    ranker,
    threshold,
    margin,
  );
  if (!d) return undefined;
  return {
    answer: d.produced_answer.trim(),
    pCorrect: Math.round(d.p * 1000) / 1000,
    verified: d.accepted,
    ...(d.provenance ? { provenance: d.provenance } : {}),
  };
}

/**
 * How much higher an alternative SQL candidate's P(correct) must be than the attempts' choice to
 * replace it (scripts/sql-candidates.ts sweeps it on a training split's traced run).
 */
export const ALTERNATIVE_MARGIN = 0.3;

/**
 * The chosen trace row among scored ones, with its P: chooseAnswer over the attempts (alternatives
 * aside, so the ranker sees the attempts it was trained on); when that choice is not accepted, the
 * highest-P alternative SQL candidate no check contradicted replaces it if its P is higher by
 * more than `margin`. `accepted` of the returned row says whether it is verified.
 */
export function chooseWithAlternatives(
  scored: readonly TraceDecision[],
  ranker: Ranker | undefined,
  threshold: number,
  margin: number,
): (TraceDecision & { p: number }) | undefined {
  const main = scored.filter((d) => !d.alternative);
  const attempts = main.map((d) => ({
    answer: d.produced_answer,
    route: d.effective_route,
    subQuery: d.sub_query,
    verdict: d.verdict,
    p: d.p_correct!,
    features: d.features!,
  }));
  const choice = chooseAnswer(attempts, ranker, threshold);
  const chosen = choice ? { ...main[choice.index]!, accepted: choice.verified, p: choice.p } : undefined;
  if (chosen?.accepted) return chosen;
  let best: TraceDecision | undefined;
  for (const d of scored)
    if (
      d.alternative &&
      d.verdict !== 0 &&
      isValidAnswer(d.produced_answer) &&
      (!best || d.p_correct! > best.p_correct!)
    )
      best = d;
  // (The chosen answer's P is the best of the attempts that found it: the ranker names its first one.)
  const chosenP = chosen
    ? Math.max(
        ...main
          .filter((d) => normaliseAnswerText(d.produced_answer) === normaliseAnswerText(chosen.produced_answer))
          .map((d) => d.p_correct!),
      )
    : 0;
  if (best && (!chosen || best.p_correct! > chosenP + margin))
    return { ...best, accepted: best.verdict === 1, p: best.p_correct! };
  return chosen;
}

/** The model's threshold for the question: its kind of index shows in every scored attempt's features (thresholdFor). */
function questionThreshold(model: ReturnType<typeof answerModel>, trace: readonly TraceDecision[]): number {
  if (!model) return 1;
  return thresholdFor(model, trace.find((d) => d.p_correct !== undefined && d.features)?.features ?? {});
}

export async function synthesize(state: State, config: RunnableConfig, resources: NodeResources): Promise<Update> {
  return metered("synthesize", async (meter) => {
    const c = ensureConfiguration(config);
    const accepted = state.steps.filter((s) => !s.failed);
    const model = c.decomposerBackbone === "offline" || c.noDecomposition ? answerModel() : undefined;
    const scored =
      model !== undefined
        ? bestScoredCandidate(state.trace, model?.ranker, c.acceptThreshold ?? questionThreshold(model, state.trace))
        : undefined;
    if (scored && (scored.verified || c.plausibleFallback)) {
      return {
        answer: scored.answer,
        answerVerified: scored.verified,
        answerProvenance: scored.provenance ? [scored.provenance] : [],
      };
    }
    const fallback = finalAnswer(state.bestAnswer, state.steps, c.plausibleFallback);
    if (c.finalSynthesis && accepted.length >= 2) {
      const strategies = await resources.strategies(c, "main", meter);
      try {
        const answer = cleanAnswer(await strategies.synthesize({ question: state.question, steps: accepted }));
        if (isValidAnswer(answer))
          return {
            answer,
            answerVerified: true,
            answerProvenance: provenanceOfAnswer(
              answer,
              true,
              state.trace,
              accepted.map((s) => s.subQuery),
            ),
          };
      } catch (error) {
        noteFailure(meter, "synthesis failed (fallback answer)", error); // the fallback below answers
      }
    }
    return {
      answer: fallback.answer,
      answerVerified: fallback.verified,
      answerProvenance: provenanceOfAnswer(fallback.answer, fallback.verified, state.trace),
    };
  });
}
