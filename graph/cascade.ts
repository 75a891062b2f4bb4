/**
 * The offline-first cascade (`cascade`, docs/CASCADE.md). With it on, a question first runs through
 * the whole ATR graph with every step on the offline backbone (the offline tier: decompose, route,
 * link, SQL, read, verify — no model call). When that run's answer is verifier-accepted
 * (`answerVerified`: it comes from an attempt with verdict 1), it is final: the record says
 * `tier: "offline"` and no LLM is called. Otherwise:
 * 1. candidate check — when the offline tier produced an answer (its plausible fallback), the
 *    configured verifier backbone judges that answer on the evidence the offline attempt had (the
 *    same `judge` as the verify node, grounding check included): one LLM call; verdict 1 makes it
 *    the final, verified answer (`tier: "llm"`, its decision appended to the trace);
 * 2. otherwise the question runs again with the configured backbones (`backbone`,
 *    `decomposerBackbone`, `verifierBackbone` as set), and the decomposer sees what the offline tier
 *    found — each attempt's sub-query, route, linked values, SQL and result, candidate answer and
 *    verdict, and the candidate check's verdict — as history (`priorFindings`); `tier: "llm"`.
 *
 * Acceptance is read from the verdict interface only (verdict 1 = accepted), so a better offline
 * verifier (e.g. a calibrated P(correct) with a threshold) makes the cascade cheaper without any
 * change here.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { END, Overwrite } from "@langchain/langgraph";
import { isValidAnswer } from "../nodes/answer-validity.js";
import type { NodeResources } from "../nodes/node-resources.js";
import { newUsageMeter } from "../nodes/usage-meter.js";
import type { SubQueryPlan } from "../nodes/types.js";
import { judge, traceDecision } from "../nodes/verify.js";
import type { TableSchema } from "../indexing/types.js";
import type { Attempt, State, Update } from "./state.js";
import { nodeUsage, sumUsage } from "./state.js";
import { OFFLINE_BACKBONE, parseBackbone } from "./backbones.js";
import { ConfigurationError, ensureConfiguration, type Configuration } from "./configuration.js";

/** Node name of the offline tier in the graph. */
export const OFFLINE_TIER = "offline_tier";

/** Characters of findings shown to the decomposer (attempts are cut, never split mid-line). */
const FINDINGS_LIMIT = 3000;
/** Characters of one SQL result in the findings. */
const RESULT_LIMIT = 300;

/** What the offline tier runs: a compiled ATR graph (streamed, so every attempt is seen). */
export interface TierGraph {
  stream(input: Record<string, unknown>, config: Record<string, unknown>): Promise<AsyncIterable<unknown>>;
}

/** START edge: the offline tier first when the cascade is on. */
export function startOf(_state: unknown, config?: RunnableConfig): typeof OFFLINE_TIER | "decompose" {
  return ensureConfiguration(config).cascade ? OFFLINE_TIER : "decompose";
}

/** After the offline tier: a verified answer (offline, or by the candidate check) ends the run; anything else goes to the LLM tier. */
export function afterOfflineTier(state: Pick<State, "answerVerified">): typeof END | "decompose" {
  return state.answerVerified ? END : "decompose";
}

/** True when every component runs on the offline backbone (then there is no second tier). */
export function allOffline(c: Pick<Configuration, "backbone" | "decomposerBackbone" | "verifierBackbone">): boolean {
  return [c.backbone, c.decomposerBackbone, c.verifierBackbone].every((b) => parseBackbone(b).provider === OFFLINE_BACKBONE);
}

/** The configuration of the offline tier: the run's own, every component on the offline backbone, no cascade. */
export function offlineTierConfiguration(c: Configuration): Configuration {
  return { ...c, backbone: OFFLINE_BACKBONE, decomposerBackbone: OFFLINE_BACKBONE, verifierBackbone: OFFLINE_BACKBONE, cascade: false };
}

/** Untrusted text (cells, passages, produced answers) in a findings line: one line, no tags, bounded. */
function clean(text: string, limit = 200): string {
  const one = text.replace(/<\/?[A-Za-z_][\w-]*>/g, " ").replace(/\s+/g, " ").trim();
  return one.length > limit ? `${one.slice(0, limit)}…` : one;
}

/** One attempt of the offline tier with the verdict its verifier gave. */
export interface OfflineAttempt {
  subQuery: string;
  attempt: Attempt;
  verdict: number;
  reason: string;
}

/** An attempt as the offline tier's stream showed it, with the sub-query context it ran in. */
interface SeenAttempt {
  attempt: Attempt;
  plan: SubQueryPlan | null;
  textEvidence: string;
  schema: TableSchema | null;
}

/** The decomposer's view of the offline attempts: route, linked values, SQL and result, answer, verdict. */
export function formatFindings(attempts: readonly OfflineAttempt[]): string {
  const blocks = attempts.map((a, i) => {
    const lines = [
      `Attempt ${i + 1}: sub-query "${clean(a.subQuery)}" via ${a.attempt.effectiveRoute}` +
        ` → answer "${clean(a.attempt.answer || "not found")}" (verdict ${a.verdict}${a.reason ? `: ${clean(a.reason, 120)}` : ""})`,
    ];
    const linked = a.attempt.linkedValues.filter((v) => v.matchedValue !== null);
    if (linked.length > 0) {
      lines.push(`  linked values: ${linked.map((v) => `"${clean(v.entity, 80)}" = ${v.tableId ?? "?"}.${clean(v.column, 60)} "${clean(v.matchedValue!, 80)}"`).join("; ")}`);
    }
    if (a.attempt.sql) lines.push(`  SQL: ${clean(a.attempt.sql, 400)} → ${clean(a.attempt.sqlResult || "(no rows)", RESULT_LIMIT)}`);
    return lines.join("\n");
  });
  const out: string[] = [];
  let used = 0;
  for (const block of blocks) {
    if (used + block.length > FINDINGS_LIMIT) {
      out.push(`(${blocks.length - out.length} more attempts not shown)`);
      break;
    }
    out.push(block);
    used += block.length + 1;
  }
  return out.join("\n") || "(it made no attempt)";
}

/**
 * Runs the offline tier and returns the update: the whole accepted result (tier "offline"), or
 * the findings for the LLM tier (tier "llm"). The offline tier's time is counted as node
 * `offline_tier` in `usage`.
 */
export async function offlineTier(state: State, config: RunnableConfig, inner: TierGraph, resources?: NodeResources): Promise<Update> {
  const c = ensureConfiguration(config);
  if (allOffline(c)) {
    throw new ConfigurationError(
      "cascade needs an LLM tier: set backbone (or decomposerBackbone / verifierBackbone) to a provider/model, or turn cascade off",
    );
  }
  const started = performance.now();
  const tier = offlineTierConfiguration(c);
  const input: Record<string, unknown> = { question: state.question };
  if (state.question_id !== undefined) input.question_id = state.question_id;
  if (state.table_id) input.table_id = state.table_id;
  // `context` too: LangGraph 1.x's context wins over configurable (graph/configuration.ts).
  const runConfig: Record<string, unknown> = {
    configurable: tier,
    context: tier,
    recursionLimit: (config.recursionLimit ?? 100) as number,
    ...(config.callbacks ? { callbacks: config.callbacks } : {}),
    ...(config.signal ? { signal: config.signal } : {}),
    runName: OFFLINE_TIER,
    streamMode: ["updates", "values"],
  };
  const seen: SeenAttempt[] = [];
  let context: Omit<SeenAttempt, "attempt"> = { plan: null, textEvidence: "", schema: null };
  let final: State | undefined;
  for await (const chunk of await inner.stream(input, runConfig)) {
    const [mode, data] = chunk as [string, Record<string, unknown>];
    if (mode === "values") {
      final = data as unknown as State;
      continue;
    }
    for (const [node, raw] of Object.entries(data ?? {})) {
      const update = (raw ?? {}) as Partial<Pick<State, "attempt" | "plan" | "textEvidence" | "schema">>;
      if (update.plan !== undefined) context = { ...context, plan: update.plan };
      if (update.textEvidence !== undefined) context = { ...context, textEvidence: update.textEvidence };
      if (update.schema !== undefined) context = { ...context, schema: update.schema };
      // Primitive nodes produce the attempt; verify re-emits it with its verdict.
      // begin's update resets `attempt` (an Overwrite of null), verify's re-states the judged one.
      if (update.attempt && node !== "verify" && node !== "begin") seen.push({ ...context, attempt: update.attempt });
    }
  }
  if (!final) throw new Error("graph/cascade.ts: the offline tier produced no state");
  const ms = Math.round((performance.now() - started) * 1000) / 1000;
  const usage = nodeUsage(OFFLINE_TIER, {
    llmCalls: final.usage.llmCalls,
    inputTokens: final.usage.inputTokens,
    outputTokens: final.usage.outputTokens,
    ms,
  });
  if (final.answerVerified) {
    // The offline run is the answer: its channels replace this run's (they start empty here).
    return {
      tier: "offline",
      priorFindings: "",
      answer: final.answer,
      answerVerified: true,
      answerProvenance: final.answerProvenance ?? [],
      bestAnswer: final.bestAnswer,
      plan: final.plan,
      iteration: final.iteration,
      steps: new Overwrite(final.steps),
      trace: new Overwrite(final.trace),
      failedRoutes: new Overwrite(final.failedRoutes),
      errors: new Overwrite(final.errors),
      usage: new Overwrite(usage),
    } as Update;
  }
  const decisions = final.trace;
  const attempts: OfflineAttempt[] = seen.map((s, i) => ({
    subQuery: decisions[i]?.sub_query ?? s.plan?.subQuery ?? "",
    attempt: s.attempt,
    verdict: decisions[i]?.verdict ?? 0.5,
    reason: decisions[i]?.reason ?? "",
  }));
  const check = resources ? await checkCandidate(state, c, final, seen, resources) : undefined;
  const total = check ? sumUsage(usage, check.usage) : usage;
  if (check?.accepted) {
    return {
      tier: "llm",
      priorFindings: "",
      answer: final.answer,
      answerVerified: true,
      answerProvenance: final.answerProvenance ?? [],
      bestAnswer: final.answer,
      plan: check.accepted.plan,
      iteration: final.iteration,
      steps: new Overwrite(final.steps),
      trace: new Overwrite([...final.trace, check.accepted.decision]),
      failedRoutes: new Overwrite(final.failedRoutes),
      errors: new Overwrite([...final.errors, ...check.errors]),
      usage: new Overwrite(total),
    } as Update;
  }
  const note = check?.rejected ? `\nCandidate check: the verifier judged the offline answer "${clean(final.answer)}" ${check.rejected}.` : "";
  return { tier: "llm", answerVerified: false, priorFindings: `${formatFindings(attempts)}${note}`, usage: total, ...(check?.errors.length ? { errors: check.errors } : {}) };
}

/** Node name of the candidate check in `usage`. */
export const CANDIDATE_CHECK = "candidate_check";

/**
 * Step 1 of the LLM tier: the configured verifier judges the offline tier's answer on the evidence
 * of the attempt that produced it (its earliest attempt with that answer). None without an answer.
 */
async function checkCandidate(
  state: State,
  c: Configuration,
  final: State,
  seen: readonly SeenAttempt[],
  resources: NodeResources,
): Promise<{ accepted?: { plan: SubQueryPlan; decision: ReturnType<typeof traceDecision> }; rejected?: string; usage: ReturnType<typeof nodeUsage>; errors: string[] } | undefined> {
  const answer = final.answer.trim();
  if (!isValidAnswer(answer)) return undefined;
  const source = seen.find((s) => s.attempt.answer.trim() === answer && s.plan);
  if (!source?.plan) return undefined;
  const meter = newUsageMeter();
  const started = performance.now();
  const strategies = await resources.strategies(c, "verifier", meter);
  const context = { ...final, plan: source.plan, textEvidence: source.textEvidence, schema: source.schema } as State;
  const judged = await judge(strategies, { question: state.question, state: context, attempt: source.attempt }, meter);
  const usage = nodeUsage(CANDIDATE_CHECK, {
    llmCalls: meter.llmCalls,
    inputTokens: meter.inputTokens,
    outputTokens: meter.outputTokens,
    ms: Math.round((performance.now() - started) * 1000) / 1000,
  });
  const errors = meter.errors.map((e) => `${CANDIDATE_CHECK}: ${e}`);
  if (judged.verdict === 1) {
    const attempt = { ...source.attempt, verdict: 1 as const, reason: judged.reason };
    return { accepted: { plan: source.plan, decision: traceDecision(context, attempt, 1, `${CANDIDATE_CHECK}: ${judged.reason}`) }, usage, errors };
  }
  return { rejected: `${judged.verdict}${judged.reason ? ` (${clean(judged.reason, 120)})` : ""}`, usage, errors };
}
