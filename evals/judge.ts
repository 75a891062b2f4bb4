/**
 * The optional LLM judge of the paper's metric set (reference §12.1): one chat call per question
 * with the question, the gold answer and the prediction; a binary score parsed from `[[0|1]]`, else
 * `rating: 0|1`, else a bare 0/1; anything else is unparsable and the row is left out of the judge
 * mean (and counted: the report shows n). Off by default; `--judge_backbone provider/model` turns it on
 * (`atr score`, with `--llm_cache_path`, `--llm_timeout_ms`, `--llm_max_retries` as for `atr run`).
 */
import type { ChatRunnable } from "../graph/model-factory.js";
import { fillPrompt } from "../nodes/prompts.js";
import type { Judge } from "./score.js";

export const JUDGE_PROMPT_VERSION = "atr-judge-2026-11-29.1";

const LENIENT = `You grade an answer to a question against the gold answer.
Score 1 if the answer is correct: it states the gold answer (or an equivalent form: same number,
same entity, same date) without contradicting it, and invents nothing that contradicts the question.
Score 0 otherwise (wrong, missing, "not found", or only partly right for a multi-part gold answer).
<question>{question}</question>
<gold_answer>{gold}</gold_answer>
<answer>{prediction}</answer>
Reply with a one-sentence reason, then the score as [[1]] or [[0]].`;

const STRICT = `You grade an answer to a question against the gold answer, strictly.
Score 1 only if: the answer is semantically equivalent to the gold answer; it adds no extra claims;
numbers agree within 1% with the same sign and unit/scale; for a gold answer with several parts,
every part is present; the answer is a standalone match, not a longer text that merely contains it.
Score 0 otherwise.
<question>{question}</question>
<gold_answer>{gold}</gold_answer>
<answer>{prediction}</answer>
Reply with a one-sentence reason, then the score as [[1]] or [[0]].`;

/** The score in a judge reply, or undefined. */
export function parseJudgeScore(reply: string): number | undefined {
  const bracket = /\[\[\s*([01])\s*\]\]/.exec(reply);
  if (bracket) return Number(bracket[1]);
  const rating = /rating\s*[:=]\s*([01])\b/i.exec(reply);
  if (rating) return Number(rating[1]);
  const bare = /^\s*([01])\s*$/.exec(reply);
  return bare ? Number(bare[1]) : undefined;
}

/** The values with the prompt's own block tags removed, so a prediction cannot close its block. */
function untagged(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).map(([k, v]) => [k, v.replace(/<\/?(question|gold_answer|answer)>/gi, "")]),
  );
}

function replyText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content.map((c) => (typeof c === "string" ? c : ((c as { text?: string }).text ?? ""))).join("");
  return String(content ?? "");
}

/**
 * A judge over `model`: build it with graph/model-factory.ts (`(await buildLlm(…)).chat`) for the
 * shared retries, time limit and reply cache; a rerun with the cache asks the model nothing.
 */
export function createJudge(model: ChatRunnable, options: { strict?: boolean } = {}): Judge {
  const template = options.strict ? STRICT : LENIENT;
  return async (question, gold, prediction) => {
    const reply = await model.invoke([["human", fillPrompt(template, untagged({ question, gold, prediction }))]], {
      runName: "atr:judge",
      metadata: { judge_prompt_version: JUDGE_PROMPT_VERSION, strict: Boolean(options.strict) },
    });
    return parseJudgeScore(replyText(reply.content));
  };
}
