import { RunnableLambda } from "@langchain/core/runnables";
import { retryOptions } from "../../graph/model-factory.js";
import { describe, expect, it } from "vitest";
import {
  BackboneError,
  createChatModel,
  isRetryableError,
  parseBackbone,
  registerProvider,
  structuredMethodFor,
  temperatureFor,
} from "../../graph/backbones.js";
import { readBackboneEnv } from "../../graph/backbone-env.js";
import { ScriptedChatModel } from "../fixtures/scripted-model.js";

const settings = { env: {}, timeoutMs: 1000 };

describe("backbone strings", () => {
  it("parses provider/model and offline", () => {
    expect(parseBackbone("vertexai/gemini-2.5-flash")).toEqual({ provider: "vertexai", model: "gemini-2.5-flash" });
    expect(parseBackbone("openai/org/model-7b")).toEqual({ provider: "openai", model: "org/model-7b" });
    expect(parseBackbone("offline").provider).toBe("offline");
    expect(() => parseBackbone("gemini")).toThrow(/provider\/model/);
  });

  it("decodes at temperature 0 except reasoning models (§16 decoding)", () => {
    expect(temperatureFor("gemini-2.5-flash")).toBe(0);
    expect(temperatureFor("Qwen3.5")).toBe(0);
    expect(temperatureFor("gpt-5.2")).toBeUndefined();
    expect(structuredMethodFor("openai")).toBe("jsonSchema");
  });

  it("names both Vertex credential variables when none is set", async () => {
    await expect(createChatModel("vertexai/gemini-2.5-flash", settings)).rejects.toThrow(
      /VERTEXAI_CREDENTIALS_PATH or GOOGLE_APPLICATION_CREDENTIALS/,
    );
    await expect(
      createChatModel("vertexai/gemini-2.5-flash", {
        ...settings,
        env: { vertexaiCredentialsPath: "/nonexistent.json" },
      }),
    ).rejects.toThrow(/cannot read/);
  });

  it("builds OpenAI-compatible and Ollama models without network; refuses a missing key", async () => {
    await expect(createChatModel("openai/gpt-4o-mini", settings)).rejects.toThrow(/OPENAI_API_KEY/);
    const local = await createChatModel("openai/qwen", {
      ...settings,
      env: { openaiBaseUrl: "http://127.0.0.1:9/v1" },
    });
    expect(local._llmType()).toBe("openai");
    const ollama = await createChatModel("ollama/llama3.1", settings);
    expect(ollama._llmType()).toBe("ollama");
    await expect(createChatModel("nope/x", settings)).rejects.toBeInstanceOf(BackboneError);
    await expect(createChatModel("offline", settings)).rejects.toThrow(/offline/);
  });

  it("registers extra providers", async () => {
    const model = new ScriptedChatModel();
    registerProvider("custom-test", () => model);
    expect(await createChatModel("custom-test/anything", settings)).toBe(model);
    expect(() => registerProvider("offline", () => model)).toThrow(/reserved/);
  });

  it("reads credentials from the environment in one place", () => {
    expect(readBackboneEnv({ OPENAI_BASE_URL: " http://x/v1 ", OPENAI_API_KEY: "" })).toMatchObject({
      openaiBaseUrl: "http://x/v1",
      openaiApiKey: undefined,
    });
  });
});

describe("retries", () => {
  const err = (status: number) => Object.assign(new Error(`HTTP ${status}`), { status });

  it("retries 429, 5xx and timeouts but not other 4xx", () => {
    expect(isRetryableError(err(429))).toBe(true);
    expect(isRetryableError(err(503))).toBe(true);
    expect(isRetryableError(Object.assign(new Error("x"), { code: "ETIMEDOUT" }))).toBe(true);
    expect(isRetryableError(new Error("Request timed out"))).toBe(true);
    expect(isRetryableError(err(400))).toBe(false);
    expect(isRetryableError(err(401))).toBe(false);
  });

  it("the factory's withRetry policy retries retryable errors up to maxRetries, others not at all", async () => {
    let calls = 0;
    const flaky = (fail: (n: number) => Error | undefined) =>
      RunnableLambda.from(async () => {
        calls++;
        const e = fail(calls);
        if (e) throw e;
        return "ok";
      });
    expect(
      await flaky((n) => (n < 2 ? err(429) : undefined))
        .withRetry(retryOptions(3))
        .invoke(null),
    ).toBe("ok");
    expect(calls).toBe(2);
    calls = 0;
    await expect(
      flaky(() => err(500))
        .withRetry(retryOptions(1))
        .invoke(null),
    ).rejects.toThrow(/500/);
    expect(calls).toBe(2);
    calls = 0;
    await expect(
      flaky(() => err(400))
        .withRetry(retryOptions(5))
        .invoke(null),
    ).rejects.toThrow(/400/);
    expect(calls).toBe(1);
  });
});
