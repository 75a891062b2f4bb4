/**
 * TEXT (reference §6.1): one reading call over the 5 selected chunks. A strategy error reads as
 * "not found". No SQL result, no route evidence. Provenance: the passage sentences (and table
 * chunks) of the selected chunks that hold the answer.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { ensureConfiguration } from "../graph/configuration.js";
import type { State, Update } from "../graph/state.js";
import { makeAttempt } from "./attempt.js";
import { metered, type NodeResources } from "./node-resources.js";
import { readTextAnswer, textProvenance } from "./text-answer.js";

export async function text(state: State, config: RunnableConfig, resources: NodeResources): Promise<Update> {
  return metered("TEXT", async (meter) => {
    const c = ensureConfiguration(config);
    const strategies = await resources.strategies(c, "main", meter);
    const reading = await readTextAnswer(strategies, state, meter, c);
    return { attempt: makeAttempt(state, "TEXT", { ...reading, provenance: textProvenance(reading.answer, state) }) };
  });
}
