/**
 * Chat models from `"provider/model"` backbone strings, and which errors are worth retrying.
 *
 * - `vertexai/<model>` (e.g. the paper's `vertexai/gemini-2.5-flash`): @langchain/google-vertexai with
 *   a service-account file from VERTEXAI_CREDENTIALS_PATH or GOOGLE_APPLICATION_CREDENTIALS.
 * - `openai/<model>`: @langchain/openai; OPENAI_BASE_URL points it at vLLM, LM Studio or any
 *   OpenAI-compatible server (then OPENAI_API_KEY may be omitted).
 * - `ollama/<model>`: @langchain/ollama at OLLAMA_BASE_URL (default http://127.0.0.1:11434).
 * - `offline`: no chat model at all — the deterministic strategies (nodes/offline/).
 *
 * Credentials arrive as a `BackboneEnv` read by graph/backbone-env.ts (the one place reading them
 * from the environment). Models are built with temperature 0 (none for reasoning models, which reject it)
 * and no provider-side retries: graph/model-factory.ts puts every model under one policy (LangChain
 * `withRetry` filtered by `isRetryableError` below, a per-attempt time limit, the reply cache).
 * Extra providers (or test models) can be added with `registerProvider`.
 */
import type { BaseCache } from "@langchain/core/caches";
import { readFileSync } from "node:fs";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BackboneEnv } from "./backbone-env.js";

export const OFFLINE_BACKBONE = "offline";

export interface ChatModelSettings {
  env: BackboneEnv;
  /** Per-call time limit (ms). */
  timeoutMs: number;
  /** Sampling temperature instead of the model's default (0, none for reasoning models). */
  temperature?: number;
  /** LangChain cache given to the constructor (graph/model-factory.ts passes the reply cache). */
  cache?: BaseCache;
}

export type ChatModelFactory = (model: string, settings: ChatModelSettings) => BaseChatModel | Promise<BaseChatModel>;

export class BackboneError extends Error {
  constructor(message: string) {
    super(`graph/backbones.ts: ${message}`);
    this.name = "BackboneError";
  }
}

export interface BackboneSpec {
  provider: string;
  model: string;
}

/** Splits `"provider/model"`; the model part may itself contain slashes (`openai/org/model`). */
export function parseBackbone(spec: string): BackboneSpec {
  const s = spec.trim();
  if (s === OFFLINE_BACKBONE) return { provider: OFFLINE_BACKBONE, model: "" };
  const slash = s.indexOf("/");
  if (slash <= 0 || slash === s.length - 1) {
    throw new BackboneError(
      `backbone "${spec}" is not "provider/model" (e.g. vertexai/gemini-2.5-flash, openai/gpt-4o-mini, ollama/llama3.1) or "offline"`,
    );
  }
  return { provider: s.slice(0, slash).toLowerCase(), model: s.slice(slash + 1) };
}

/** Reasoning models (gpt-5*, o1/o3/o4) take no temperature; every other model gets 0. */
export function temperatureFor(model: string): number | undefined {
  return /^(gpt-5|o[134](-|$))/i.test(model) ? undefined : 0;
}

/** Structured-output method per provider (JSON-schema decoding is the most widely served). */
export function structuredMethodFor(provider: string): "functionCalling" | "jsonSchema" | undefined {
  if (provider === "openai" || provider === "ollama") return "jsonSchema";
  return undefined; // provider default (function calling for Gemini)
}

function vertexCredentials(env: BackboneEnv): { keyFilename: string; projectId?: string } {
  const keyFilename = env.vertexaiCredentialsPath ?? env.googleApplicationCredentials;
  if (!keyFilename) {
    throw new BackboneError(
      "vertexai backbones need a service-account JSON file: set VERTEXAI_CREDENTIALS_PATH or GOOGLE_APPLICATION_CREDENTIALS to its path",
    );
  }
  let projectId = env.vertexaiProject;
  try {
    const parsed = JSON.parse(readFileSync(keyFilename, "utf8")) as { project_id?: string };
    projectId ??= parsed.project_id;
  } catch (error) {
    throw new BackboneError(
      `cannot read the Vertex AI credentials file ${keyFilename} (from VERTEXAI_CREDENTIALS_PATH or GOOGLE_APPLICATION_CREDENTIALS): ${(error as Error).message}`,
    );
  }
  return { keyFilename, projectId };
}

const providers = new Map<string, ChatModelFactory>([
  [
    "vertexai",
    async (model, { env, temperature, cache }) => {
      const { ChatVertexAI } = await import("@langchain/google-vertexai");
      const { keyFilename, projectId } = vertexCredentials(env);
      return new ChatVertexAI({
        model,
        temperature: temperature ?? temperatureFor(model),
        maxRetries: 0,
        cache,
        location: env.vertexaiLocation ?? "us-central1",
        authOptions: { keyFilename, projectId, scopes: ["https://www.googleapis.com/auth/cloud-platform"] },
      });
    },
  ],
  [
    "openai",
    async (model, { env, timeoutMs, temperature, cache }) => {
      const { ChatOpenAI } = await import("@langchain/openai");
      if (!env.openaiApiKey && !env.openaiBaseUrl) {
        throw new BackboneError(
          "openai backbones need OPENAI_API_KEY (or OPENAI_BASE_URL for a local OpenAI-compatible server)",
        );
      }
      return new ChatOpenAI({
        model,
        temperature: temperature ?? temperatureFor(model),
        maxRetries: 0,
        timeout: timeoutMs,
        cache,
        apiKey: env.openaiApiKey ?? "not-needed",
        configuration: env.openaiBaseUrl ? { baseURL: env.openaiBaseUrl } : undefined,
      });
    },
  ],
  [
    "ollama",
    async (model, { env, temperature, cache }) => {
      const { ChatOllama } = await import("@langchain/ollama");
      return new ChatOllama({
        model,
        temperature: temperature ?? 0,
        cache,
        baseUrl: env.ollamaBaseUrl ?? "http://127.0.0.1:11434",
      });
    },
  ],
]);

/** Adds (or replaces) a provider: `registerProvider("scripted", …)` makes `scripted/<name>` a backbone. */
export function registerProvider(name: string, factory: ChatModelFactory): void {
  if (name === OFFLINE_BACKBONE)
    throw new BackboneError(`"${OFFLINE_BACKBONE}" is reserved for the deterministic strategies`);
  providers.set(name.toLowerCase(), factory);
}

export function knownProviders(): string[] {
  return [...providers.keys()];
}

/** Builds the chat model of a backbone string (not "offline"). */
export async function createChatModel(spec: string, settings: ChatModelSettings): Promise<BaseChatModel> {
  const { provider, model } = parseBackbone(spec);
  if (provider === OFFLINE_BACKBONE) throw new BackboneError('"offline" has no chat model; use the offline strategies');
  const factory = providers.get(provider);
  if (!factory) {
    throw new BackboneError(
      `unknown provider "${provider}" in backbone "${spec}"; known: offline, ${knownProviders().join(", ")}`,
    );
  }
  return factory(model, settings);
}

// ---------------------------------------------------------------------------------------------
// Retries (graph/model-factory.ts applies them)

/** 429, 5xx, timeouts and dropped connections are worth retrying; everything else is not. */
export function isRetryableError(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const e = error as {
    status?: unknown;
    statusCode?: unknown;
    code?: unknown;
    name?: unknown;
    message?: unknown;
    response?: { status?: unknown };
  };
  const status = Number(e.status ?? e.statusCode ?? e.response?.status);
  if (status === 429 || status === 408 || (status >= 500 && status < 600)) return true;
  if (Number.isFinite(status) && status >= 400) return false;
  const code = String(e.code ?? "");
  if (
    ["ETIMEDOUT", "ECONNRESET", "ECONNREFUSED", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT", "ECONNABORTED"].includes(code)
  )
    return true;
  const name = String(e.name ?? "");
  if (/Timeout|AbortError|APIConnectionError/i.test(name)) return true;
  return /timed? ?out|rate limit|temporarily unavailable|overloaded/i.test(String(e.message ?? ""));
}
