/**
 * What one output record says about how it was answered: the first requested route, the first
 * effective route, the final route (of the attempt whose answer was accepted last), attempts and
 * escalations, LLM calls, tokens and latency. Read from `atr_trace` (reference §9.2) when the run
 * had --emit_trace, else from the compact `atr_stats` every record carries.
 */

export interface RouteSummary {
  firstRequested: string;
  firstEffective: string;
  /** Effective route of the last accepted attempt; "none accepted" when every attempt was rejected. */
  final: string;
  attempts: number | undefined;
  escalations: number | undefined;
  llmCalls: number | undefined;
  tokens: number | undefined;
  latencyMs: number | undefined;
}

const UNKNOWN = "unknown";

function asNumber(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

export function routeSummary(record: Record<string, unknown>): RouteSummary {
  const stats = (record.atr_stats && typeof record.atr_stats === "object" ? record.atr_stats : {}) as Record<
    string,
    unknown
  >;
  const trace = (record.atr_trace && typeof record.atr_trace === "object" ? record.atr_trace : undefined) as
    Record<string, unknown> | undefined;
  const summary: RouteSummary = {
    firstRequested: UNKNOWN,
    firstEffective: UNKNOWN,
    final: UNKNOWN,
    attempts: undefined,
    escalations: undefined,
    llmCalls: asNumber(stats.llm_calls),
    tokens: asNumber(stats.tokens),
    latencyMs: asNumber(stats.latency_ms),
  };
  // (Alternative SQL plans are traced beside their attempt; they are candidates, not attempts.)
  const decisions = Array.isArray(trace?.verifier_decisions)
    ? (trace!.verifier_decisions as Array<Record<string, unknown>>).filter((d) => d.alternative !== true)
    : undefined;
  if (decisions) {
    summary.attempts = decisions.length;
    summary.escalations = asNumber(trace!.n_escalations) ?? decisions.filter((d) => d.accepted !== true).length;
    if (decisions.length === 0) {
      summary.firstRequested = summary.firstEffective = summary.final = "no attempt";
      return summary;
    }
    const first = decisions[0]!;
    summary.firstRequested = str(first.requested_route) ?? str(first.route) ?? UNKNOWN;
    summary.firstEffective = str(first.effective_route) ?? str(first.route) ?? UNKNOWN;
    const accepted = decisions.filter((d) => d.accepted === true);
    const last = accepted[accepted.length - 1];
    summary.final = last ? (str(last.effective_route) ?? str(last.route) ?? UNKNOWN) : "none accepted";
    return summary;
  }
  // Without a trace: the route facts the runner kept in `atr_stats`.
  if (typeof stats.first_requested_route === "string") {
    summary.firstRequested = stats.first_requested_route;
    summary.firstEffective = str(stats.first_effective_route) ?? UNKNOWN;
    summary.final = str(stats.final_route) ?? UNKNOWN;
    summary.attempts = asNumber(stats.attempts);
    summary.escalations = asNumber(stats.escalations);
    return summary;
  }
  // Else `atr_stats.routes` as graph/answer.ts reports them: [{ subQuery, requested[], effective[] }].
  const routes = Array.isArray(stats.routes) ? (stats.routes as Array<Record<string, unknown>>) : [];
  const requested = routes.flatMap((r) => (Array.isArray(r?.requested) ? (r.requested as string[]) : []));
  const effective = routes.flatMap((r) => (Array.isArray(r?.effective) ? (r.effective as string[]) : []));
  if (requested.length > 0) {
    summary.firstRequested = requested[0]!;
    summary.firstEffective = effective[0] ?? UNKNOWN;
    summary.final = effective[effective.length - 1] ?? UNKNOWN;
    summary.attempts = requested.length;
  }
  return summary;
}
