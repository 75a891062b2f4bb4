/**
 * One structured LLM call: prompt → `withStructuredOutput(schema)` → zod validation, with one repair
 * retry when the reply is missing or invalid, an optional reply cache, a per-call timeout, an
 * injected retry policy (graph/backbones.ts `withRetries`) and usage counting.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage } from "@langchain/core/messages";
import type { z } from "zod";
import { REPAIR_NOTE, fillPrompt } from "../prompts.js";
import { REPLY_SCHEMAS, type ReplyName, type ReplyOf } from "./schemas.js";

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

/** Errors callStructured already wrote into a meter, so that the failing-closed caller does not repeat them. */
const notedErrors = new WeakSet<object>();

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

export interface ReplyCacheParts {
  model: string;
  schema: string;
  prompt: string;
  params: Record<string, unknown>;
}

/** What graph/llm-cache.ts provides. */
export interface ReplyCache {
  get(parts: ReplyCacheParts): unknown | undefined;
  set(parts: ReplyCacheParts, value: unknown): void;
}

export interface StructuredCallOptions {
  model: BaseChatModel;
  /** Backbone string, for cache keys and traces. */
  modelId: string;
  method?: "functionCalling" | "jsonSchema";
  timeoutMs: number;
  retry: <T>(fn: () => Promise<T>) => Promise<T>;
  cache?: ReplyCache;
  usage?: UsageMeter;
}

export class StructuredReplyError extends Error {
  constructor(name: string, problem: string) {
    super(`nodes/prompted: the model's "${name}" reply was invalid twice (${problem})`);
    this.name = "StructuredReplyError";
  }
}

interface RawMessage {
  usage_metadata?: { input_tokens?: number; output_tokens?: number };
}

async function invokeOnce(
  options: StructuredCallOptions,
  name: ReplyName,
  prompt: string,
): Promise<{ parsed: unknown; raw?: RawMessage }> {
  const schema = REPLY_SCHEMAS[name] as z.ZodTypeAny;
  const runnable = options.model.withStructuredOutput(schema, {
    name,
    includeRaw: true,
    ...(options.method ? { method: options.method } : {}),
  });
  const out = (await options.retry(() => runnable.invoke([new HumanMessage(prompt)], { timeout: options.timeoutMs }))) as {
    parsed: unknown;
    raw?: RawMessage;
  };
  return out;
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
      options.usage.errors.push(`${name} (${options.modelId}): ${error instanceof Error ? error.message : String(error)}`.slice(0, 500));
      if (typeof error === "object" && error !== null) notedErrors.add(error);
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
  const parts: ReplyCacheParts = { model: options.modelId, schema: name, prompt, params: { temperature: 0, method: options.method ?? "default" } };
  const cached = options.cache?.get(parts);
  if (cached !== undefined) {
    const ok = schema.safeParse(cached);
    if (ok.success) {
      if (options.usage) options.usage.cacheHits++;
      return ok.data as ReplyOf<N>;
    }
  }
  let problem = "";
  for (let attempt = 0; attempt < 2; attempt++) {
    const text = attempt === 0 ? prompt : `${prompt}\n\n${fillPrompt(REPAIR_NOTE, { problem })}`;
    let parsed: unknown;
    try {
      const out = await invokeOnce(options, name, text);
      parsed = out.parsed;
      if (options.usage) {
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
      options.cache?.set(parts, ok.data);
      return ok.data as ReplyOf<N>;
    }
    problem = ok.error.issues.map((i) => `${i.path.join(".") || "reply"}: ${i.message}`).join("; ");
  }
  throw new StructuredReplyError(name, problem);
}
