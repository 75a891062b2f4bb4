/**
 * The TEXT reading over the selected chunks and its provenance: the TEXT node's answer, and the
 * answer of RETRIEVE/HYBRID when the value linker reroutes them (nodes/linked-route.ts).
 */
import type { State } from "../graph/state.js";
import { NOT_FOUND } from "./answer-validity.js";
import type { RouteProvenance } from "./attempt.js";
import { noteFailure, type UsageMeter } from "./usage-meter.js";
import { passageSentences, tablesMentioning } from "./provenance.js";
import type { Strategies } from "./strategies.js";

/**
 * The TEXT reading, also used when the value linker reroutes RETRIEVE/HYBRID. A strategy error
 * fails closed to "not found" and is noted in `meter`.
 */
export async function readTextAnswer(
  strategies: Pick<Strategies, "readText">,
  state: State,
  meter?: UsageMeter,
): Promise<string> {
  try {
    const answer = await strategies.readText({
      question: state.question,
      subQuery: state.plan!.subQuery,
      plan: state.plan!,
      evidence: state.textEvidence,
    });
    return typeof answer === "string" ? answer.trim() : NOT_FOUND;
  } catch (error) {
    noteFailure(meter, "readText failed (not found)", error);
    return NOT_FOUND;
  }
}

/** What a TEXT answer was read from: the selected chunks that hold it. */
export function textProvenance(answer: string, state: Pick<State, "chunks">): RouteProvenance {
  return { tables: tablesMentioning(answer, state.chunks), passages: passageSentences(answer, state.chunks) };
}
