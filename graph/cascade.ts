/**
 * The offline-first cascade (`cascade`, docs/CASCADE.md). With it on, a question first runs through
 * the whole ATR graph with every step on the offline backbone (the offline tier: decompose, route,
 * link, SQL, read, verify — no model call). When that run's answer is verifier-accepted
 * (`answerVerified`: it comes from an attempt with verdict 1), it is final: the record says
 * `tier: "offline"` and no LLM is called. Otherwise the prompted tier (graph/findings-tier.ts)
 * answers from what the offline attempts found in one call, accepted by the grounding check and the
 * offline verifier or by one verifier call (`tier: "findings"`); only when it finds nothing or its
 * answer is judged wrong does the question run again with the configured backbones, the decomposer
 * seeing the findings — each attempt's sub-query, route, linked values, SQL and result, candidate
 * answer and verdict — as history (`priorFindings`, `tier: "llm"`).
 *
 * Acceptance is read from the verdict interface only (verdict 1 = accepted), so a better offline
 * verifier (e.g. a calibrated P(correct) with a threshold) makes the cascade cheaper without any
 * change here.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { END, Overwrite } from "@langchain/langgraph";
import type { NodeResources } from "../nodes/node-resources.js";
import type { Attempt, State, Update } from "./state.js";
import { nodeUsage, sumUsage } from "./state.js";
import { OFFLINE_BACKBONE, parseBackbone } from "./backbones.js";
import { ConfigurationError, ensureConfiguration, type Configuration } from "./configuration.js";
import { answerFromFindings, oneLine as clean, type SeenAttempt } from "./findings-tier.js";

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

/** After the offline tier: an answer of the offline or the prompted tier ends the run; "llm" goes on to the LLM loop. */
export function afterOfflineTier(state: Pick<State, "tier">): typeof END | "decompose" {
  return state.tier === "offline" || state.tier === "findings" ? END : "decompose";
}

/** True when every component runs on the offline backbone (then there is no second tier). */
export function allOffline(c: Pick<Configuration, "backbone" | "decomposerBackbone" | "verifierBackbone">): boolean {
  return [c.backbone, c.decomposerBackbone, c.verifierBackbone].every(
    (b) => parseBackbone(b).provider === OFFLINE_BACKBONE,
  );
}

/** The configuration of the offline tier: the run's own, every component on the offline backbone, no cascade. */
export function offlineTierConfiguration(c: Configuration): Configuration {
  return {
    ...c,
    backbone: OFFLINE_BACKBONE,
    decomposerBackbone: OFFLINE_BACKBONE,
    verifierBackbone: OFFLINE_BACKBONE,
    cascade: false,
  };
}

/** One attempt of the offline tier with the verdict its verifier gave. */
export interface OfflineAttempt {
  subQuery: string;
  attempt: Attempt;
  verdict: number;
  reason: string;
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
      lines.push(
        `  linked values: ${linked.map((v) => `"${clean(v.entity, 80)}" = ${v.tableId ?? "?"}.${clean(v.column, 60)} "${clean(v.matchedValue!, 80)}"`).join("; ")}`,
      );
    }
    if (a.attempt.sql)
      lines.push(`  SQL: ${clean(a.attempt.sql, 400)} → ${clean(a.attempt.sqlResult || "(no rows)", RESULT_LIMIT)}`);
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
 * Runs the offline tier, then (unaccepted) the prompted tier, and returns the update: the whole
 * accepted offline result (tier "offline"), the prompted tier's answer (tier "findings"), or the
 * findings for the LLM loop (tier "llm"). The offline tier's time is counted as node
 * `offline_tier` in `usage`, the prompted tier's calls as `findings_answer` / `findings_verify`.
 */
export async function offlineTier(
  state: State,
  config: RunnableConfig,
  inner: TierGraph,
  resources: NodeResources,
): Promise<Update> {
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
  const found = await answerFromFindings(state.question, c, tier, final, seen, resources);
  const total = sumUsage(usage, found.usage);
  const errors = found.errors.length ? { errors: found.errors } : {};
  if (found.status !== "handed_on") {
    const verified = found.status === "accepted";
    return {
      tier: "findings",
      priorFindings: "",
      answer: found.answer,
      answerVerified: verified,
      answerProvenance: found.provenance,
      bestAnswer: verified ? found.answer : final.bestAnswer,
      plan: final.plan,
      iteration: final.iteration,
      steps: new Overwrite(final.steps),
      trace: new Overwrite(found.decision ? [...final.trace, found.decision] : final.trace),
      failedRoutes: new Overwrite(final.failedRoutes),
      errors: new Overwrite([...final.errors, ...found.errors]),
      usage: new Overwrite(total),
    } as Update;
  }
  return {
    tier: "llm",
    answerVerified: false,
    priorFindings: `${formatFindings(attempts)}${found.note ? `\n${found.note}` : ""}`,
    usage: total,
    ...errors,
  };
}
