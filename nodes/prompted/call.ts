/**
 * One structured LLM call: prompt → the model's structured-output runnable → zod validation, with
 * one repair retry when the reply is missing or invalid, and usage counting (replies replayed from
 * the cache count as cache hits). Transport retries, the per-call time limit and the reply cache
 * belong to the model (graph/model-factory.ts), so they are the same for every LLM use.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { Runnable } from "@langchain/core/runnables";
import type { z } from "zod";
import { REPAIR_NOTE, fillPrompt } from "../prompts.js";
import { REPLY_SCHEMAS, type ReplyName, type ReplyOf } from "./schemas.js";
import { markNoted, type UsageMeter } from "../usage-meter.js";

/**
 * Key in a reply message's `response_metadata` that marks a reply replayed from the reply cache
 * (graph/llm-cache.ts sets it): such a reply is counted as a cache hit, not as an LLM call.
 */
export const CACHED_REPLY_FLAG = "atr_cached_reply";

/** True for a reply message replayed from the reply cache. */
export function isCachedReply(message: unknown): boolean {
  const meta = (message as { response_metadata?: Record<string, unknown> } | undefined)?.response_metadata;
  return meta?.[CACHED_REPLY_FLAG] === true;
}

/** A reply with its raw message, as `withStructuredOutput(schema, { includeRaw: true })` returns it. */
export interface RawStructuredReply {
  parsed: unknown;
  raw?: BaseMessage & { usage_metadata?: { input_tokens?: number; output_tokens?: number } };
}

/**
 * A chat model as graph/model-factory.ts builds it: `structured(schema, name)` is its
 * `withStructuredOutput(schema, { name, includeRaw: true })` with the backbone's retry policy,
 * per-call time limit and reply cache already applied.
 */
export interface StructuredModel {
  structured(schema: z.ZodTypeAny, name: string): Runnable<BaseMessage[], RawStructuredReply>;
}

export interface StructuredCallOptions {
  model: StructuredModel;
  /** Backbone string, for traces and error notes. */
  modelId: string;
  usage?: UsageMeter;
}

export class StructuredReplyError extends Error {
  constructor(name: string, problem: string) {
    super(`nodes/prompted: the model's "${name}" reply was invalid twice (${problem})`);
    this.name = "StructuredReplyError";
  }
}

async function invokeOnce(
  options: StructuredCallOptions,
  name: ReplyName,
  prompt: string,
): Promise<RawStructuredReply> {
  const schema = REPLY_SCHEMAS[name] as z.ZodTypeAny;
  return options.model.structured(schema, name).invoke([new HumanMessage(prompt)]);
}

/**
 * Calls the model for reply `name`; returns the zod-validated reply or throws (StructuredReplyError
 * after the repair retry, or the transport error after the retry policy). A failure is also noted
 * in the usage meter so that the fail-closed result is explained in the state's `errors`.
 */
export async function callStructured<N extends ReplyName>(
  options: StructuredCallOptions,
  name: N,
  prompt: string,
): Promise<ReplyOf<N>> {
  try {
    return await callOnceWithRepair(options, name, prompt);
  } catch (error) {
    if (options.usage) {
      options.usage.errors.push(
        `${name} (${options.modelId}): ${error instanceof Error ? error.message : String(error)}`.slice(0, 500),
      );
      markNoted(error);
    }
    throw error;
  }
}

async function callOnceWithRepair<N extends ReplyName>(
  options: StructuredCallOptions,
  name: N,
  prompt: string,
): Promise<ReplyOf<N>> {
  const schema = REPLY_SCHEMAS[name] as z.ZodTypeAny;
  let problem = "";
  for (let attempt = 0; attempt < 2; attempt++) {
    const text = attempt === 0 ? prompt : `${prompt}\n\n${fillPrompt(REPAIR_NOTE, { problem })}`;
    let parsed: unknown;
    try {
      const out = await invokeOnce(options, name, text);
      parsed = out.parsed;
      if (options.usage && isCachedReply(out.raw)) options.usage.cacheHits++;
      else if (options.usage) {
        options.usage.llmCalls++;
        options.usage.inputTokens += out.raw?.usage_metadata?.input_tokens ?? 0;
        options.usage.outputTokens += out.raw?.usage_metadata?.output_tokens ?? 0;
      }
    } catch (error) {
      if (options.usage) options.usage.llmCalls++;
      // Output parsing failures get the repair retry; transport errors (already retried) do not.
      if (!/parse|json|schema|tool/i.test(String((error as Error)?.message ?? ""))) throw error;
      problem = `it was not valid JSON for the required fields (${(error as Error).message.slice(0, 200)})`;
      continue;
    }
    const ok = schema.safeParse(parsed);
    if (ok.success) {
      return ok.data as ReplyOf<N>;
    }
    problem = ok.error.issues.map((i) => `${i.path.join(".") || "reply"}: ${i.message}`).join("; ");
  }
  throw new StructuredReplyError(name, problem);
}
