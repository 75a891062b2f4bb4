/**
 * begin: the first node of every run. A thread (Studio, `langgraph dev`, a reused thread_id) keeps
 * the channels of its previous run in its checkpoint; each run must start from its own input alone.
 * So every channel that is not an input starts again from its default — the append-only ones
 * (`steps`, `trace`, `failedRoutes`, `errors`) and the summed `usage` through `Overwrite`, bypassing
 * their reducers — and an optional input the run did not send (graph/state.ts InputSchema parses it
 * to "") is cleared instead of keeping the previous run's value.
 */
import { Overwrite } from "@langchain/langgraph";
import { InputAnnotation, StateAnnotation, type State, type Update } from "../graph/state.js";

/** Input fields that may be left out: "" (their parsed default) means "not sent". */
const OPTIONAL_INPUTS = ["question_id", "table_id"] as const;

/** Every non-input channel of the state at its default, as an update that overrides any reducer. */
export function freshRunChannels(): Update {
  const out: Record<string, unknown> = {};
  for (const [key, channel] of Object.entries(StateAnnotation.spec)) {
    if (key in InputAnnotation.spec) continue;
    const initial = (channel as { initialValueFactory?: () => unknown }).initialValueFactory;
    // Every state channel is declared with a default (graph/state.ts); one without could not be reset.
    if (typeof initial !== "function")
      throw new Error(`graph/state.ts: channel "${key}" needs a default so a new run can start it again`);
    out[key] = new Overwrite(initial());
  }
  return out as Update;
}

export async function begin(state: State): Promise<Update> {
  const update: Record<string, unknown> = { ...freshRunChannels() };
  for (const field of OPTIONAL_INPUTS) {
    const value = state[field];
    update[field] = typeof value === "string" && value.trim() !== "" ? value : undefined;
  }
  return update as Update;
}
