/**
 * The one model factory for every LLM use — the prompted strategies (graph/resources.ts), the
 * baselines (`atr run --baseline`) and the LLM judge (`atr score --judge_backbone`) — so they share
 * one policy:
 * - retries: LangChain's `Runnable.withRetry` (exponential backoff with jitter, p-retry under the
 *   hood) with `stopAfterAttempt = maxRetries + 1` and `isRetryableError` (graph/backbones.ts) as the
 *   failure filter: 429, 408, 5xx, timeouts and dropped connections are retried, anything else
 *   (400, 401, a reply that does not parse) fails at once; providers themselves retry nothing;
 * - a time limit per attempt (`llmTimeoutMs`), bound on the model so each retry gets a fresh one;
 * - the SQLite reply cache (`llmCachePath`) set as the model's LangChain `BaseCache`
 *   (graph/llm-cache.ts `LlmReplyCache`), read and written inside `generate` for plain and
 *   structured calls alike. A model built with a sampling temperature (> 0) gets no cache: a cache
 *   would replay its first sample for every later one.
 */
import type { BaseLanguageModelInput } from "@langchain/core/language_models/base";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import type { Runnable } from "@langchain/core/runnables";
import type { z } from "zod";
import type { RawStructuredReply, StructuredModel } from "../nodes/prompted/call.js";
import { createChatModel, isRetryableError, parseBackbone, structuredMethodFor } from "./backbones.js";
import type { BackboneEnv } from "./backbone-env.js";
import { LlmCache, LlmReplyCache } from "./llm-cache.js";

/** A chat runnable: messages in, a reply message out (what the baselines and the judge call). */
export type ChatRunnable = Runnable<BaseLanguageModelInput, BaseMessage>;

export interface ModelPolicy {
  /** Time limit of one attempt (ms): `llmTimeoutMs`. */
  timeoutMs: number;
  /** Retries after the first attempt: `llmMaxRetries`. */
  maxRetries: number;
  /** The reply cache (`llmCachePath` opened), or none. */
  cache?: LlmCache;
}

export interface ModelSettings extends ModelPolicy {
  env: BackboneEnv;
  /** Sampling temperature instead of the provider default (0); > 0 disables the cache. */
  temperature?: number;
}

/** A built model: the chat runnable and structured output, both under the policy. */
export interface Llm extends StructuredModel {
  /** The backbone string. */
  readonly id: string;
  /** The provider's chat model (its `cache` is the reply cache when there is one). */
  readonly model: BaseChatModel;
  /** Plain chat with retries and the per-attempt time limit. */
  readonly chat: ChatRunnable;
}

/** `withRetry` options of the policy: stop after maxRetries + 1 attempts, retry only retryable errors. */
export function retryOptions(maxRetries: number): {
  stopAfterAttempt: number;
  onFailedAttempt: (error: unknown) => void;
} {
  return {
    stopAfterAttempt: maxRetries + 1,
    // Throwing here ends p-retry's loop with this error: the failure filter.
    onFailedAttempt: (error) => {
      if (!isRetryableError(error)) throw error;
    },
  };
}

/**
 * Puts any chat model (a provider's or a test double) under the policy. The cache must be the
 * model's own (`model.cache`, consulted inside `generate`): `buildLlm` passes it to the provider's
 * constructor, because some providers (ChatOpenAI) rebuild themselves from their constructor
 * fields in `withConfig` / `withStructuredOutput`; a model built elsewhere gets it set here.
 */
export function wrapChatModel(model: BaseChatModel, id: string, policy: ModelPolicy): Llm {
  if (policy.cache && !(model.cache instanceof LlmReplyCache)) model.cache = new LlmReplyCache(policy.cache, id);
  const method = structuredMethodFor(parseBackbone(id).provider);
  const retry = retryOptions(policy.maxRetries);
  const timeout = { timeout: policy.timeoutMs };
  const structuredCache = new Map<string, Runnable<BaseMessage[], RawStructuredReply>>();
  return {
    id,
    model,
    chat: (model.withConfig(timeout) as unknown as ChatRunnable).withRetry(retry),
    structured(schema: z.ZodTypeAny, name: string) {
      let runnable = structuredCache.get(name);
      if (!runnable) {
        const structured = model.withStructuredOutput(schema, {
          name,
          includeRaw: true,
          ...(method ? { method } : {}),
        });
        runnable = (structured.withConfig(timeout) as unknown as Runnable<BaseMessage[], RawStructuredReply>).withRetry(
          retry,
        );
        structuredCache.set(name, runnable);
      }
      return runnable;
    },
  };
}

/** Builds the model of a backbone string (not "offline") under the policy. */
export async function buildLlm(spec: string, settings: ModelSettings): Promise<Llm> {
  const sampling = settings.temperature !== undefined && settings.temperature > 0;
  const cache = settings.cache && !sampling ? settings.cache : undefined;
  const model = await createChatModel(spec, {
    env: settings.env,
    timeoutMs: settings.timeoutMs,
    ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
    ...(cache ? { cache: new LlmReplyCache(cache, spec) } : {}),
  });
  return wrapChatModel(model, spec, {
    timeoutMs: settings.timeoutMs,
    maxRetries: settings.maxRetries,
    ...(cache ? { cache } : {}),
  });
}
