/**
 * synthesize (reference §2.5): the final answer. With `finalSynthesis` and ≥ 2 accepted steps the
 * synthesis strategy combines the accepted steps; its output is validated (our fix, §15.14): an
 * invalid string ("not found", "none", "") never wins over a valid best answer. Otherwise: the best
 * answer if valid, else the last valid accepted answer, else "not found".
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { ensureConfiguration } from "../graph/configuration.js";
import type { State, Update } from "../graph/state.js";
import { NOT_FOUND, isValidAnswer } from "./answer-validity.js";
import { metered, type NodeResources } from "./node-resources.js";
import { cleanAnswer } from "./prompted/strategies.js";
import type { Step } from "./types.js";

/** The answer without synthesis: best answer, else the last valid accepted answer, else "not found". */
export function fallbackAnswer(bestAnswer: string, steps: readonly Step[]): string {
  if (isValidAnswer(bestAnswer)) return bestAnswer.trim();
  const accepted = steps.filter((s) => !s.failed);
  for (let i = accepted.length - 1; i >= 0; i--) {
    if (isValidAnswer(accepted[i]!.answer)) return accepted[i]!.answer.trim();
  }
  return NOT_FOUND;
}

export async function synthesize(state: State, config: RunnableConfig, resources: NodeResources): Promise<Update> {
  return metered("synthesize", async (meter) => {
    const c = ensureConfiguration(config);
    const accepted = state.steps.filter((s) => !s.failed);
    const fallback = fallbackAnswer(state.bestAnswer, state.steps);
    if (c.finalSynthesis && accepted.length >= 2) {
      const strategies = await resources.strategies(c, "main", meter);
      try {
        const answer = cleanAnswer(await strategies.synthesize({ question: state.question, steps: accepted }));
        if (isValidAnswer(answer)) return { answer };
      } catch {
        // synthesis failed: the fallback below answers
      }
    }
    return { answer: fallback };
  });
}
