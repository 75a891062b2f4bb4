/**
 * The per-node-call usage meter every node fills (graph/resources.ts's strategies count LLM calls
 * and tokens into it, nodes note the failures they fail closed on) and `metered`
 * (nodes/node-resources.ts) turns into the state's `usage` and `errors`.
 */

/** Mutable per-node-call counter the calling node turns into a state usage update. */
export interface UsageMeter {
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  cacheHits: number;
  /** LLM calls that failed for good and other errors the node failed closed on (noteFailure); shown in the state's `errors`. */
  errors: string[];
}

export function newUsageMeter(): UsageMeter {
  return { llmCalls: 0, inputTokens: 0, outputTokens: 0, cacheHits: 0, errors: [] };
}

/** Errors already written into a meter (by the structured call), so that the failing-closed caller does not repeat them. */
const notedErrors = new WeakSet<object>();

/** Marks an error as already noted in a meter. */
export function markNoted(error: unknown): void {
  if (typeof error === "object" && error !== null) notedErrors.add(error);
}

/**
 * Notes a failure a node fails closed on (a strategy or retrieval error) in the meter, so the
 * fallback answer is explained in the state's `errors`; an error callStructured already noted is
 * not repeated.
 */
export function noteFailure(meter: UsageMeter | undefined, what: string, error: unknown): void {
  if (!meter) return;
  if (typeof error === "object" && error !== null && notedErrors.has(error)) return;
  meter.errors.push(`${what}: ${error instanceof Error ? error.message : String(error)}`.slice(0, 500));
}
