/**
 * The prompted strategies over a real @langchain/ollama chat model talking to a local stand-in for
 * the Ollama API (/api/chat, streamed NDJSON, JSON-schema `format`): structured output, usage,
 * temperature 0.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildLlm } from "../../graph/model-factory.js";
import { newUsageMeter } from "../../nodes/usage-meter.js";
import { PromptedStrategies } from "../../nodes/prompted/strategies.js";
import { plan } from "../fixtures/plans.js";
import { startJsonService } from "../retrievers/sql-fixtures.js";

interface OllamaChat {
  model: string;
  format?: { properties?: Record<string, unknown> };
  options?: { temperature?: number };
  messages: Array<{ content: string }>;
}

let reply: unknown = {};
let service: Awaited<ReturnType<typeof startJsonService>>;

/** The Ollama API answers /api/chat as NDJSON: one message chunk, then the final chunk with counts. */
function ndjson(body: OllamaChat): string {
  const created_at = new Date(0).toISOString();
  const chunk = {
    model: body.model,
    created_at,
    message: { role: "assistant", content: JSON.stringify(reply) },
    done: false,
  };
  const done = {
    model: body.model,
    created_at,
    message: { role: "assistant", content: "" },
    done: true,
    done_reason: "stop",
    prompt_eval_count: 50,
    eval_count: 6,
  };
  return `${JSON.stringify(chunk)}\n${JSON.stringify(done)}\n`;
}

beforeAll(async () => {
  service = await startJsonService((_url, body) => ({ status: 200, text: ndjson(body as OllamaChat) }));
});

afterAll(async () => {
  await service.close();
});

describe("Ollama backbone", () => {
  it("returns schema-validated replies with usage, at temperature 0", async () => {
    const model = await buildLlm("ollama/llama3.1", {
      env: { ollamaBaseUrl: service.base },
      timeoutMs: 5000,
      maxRetries: 1,
    });
    const usage = newUsageMeter();
    const strategies = new PromptedStrategies({ model, modelId: "ollama/llama3.1", usage });
    reply = { verdict: 0.5, reason: "indirect" };
    const v = await strategies.verify({
      question: "Q",
      subQuery: "q",
      plan: plan(),
      route: "TEXT",
      answer: "A",
      evidence: "A",
      sqlResult: "",
    });
    expect(v).toEqual({ verdict: 0.5, reason: "indirect" });
    const sent = service.seen.at(-1)!.body as OllamaChat;
    expect(service.seen.at(-1)!.url).toBe("/api/chat");
    expect(sent.model).toBe("llama3.1");
    expect(sent.options?.temperature).toBe(0);
    expect(Object.keys(sent.format?.properties ?? {}).sort()).toEqual(["reason", "verdict"]);
    expect(sent.messages.at(-1)!.content).toContain("<candidate_answer>A</candidate_answer>");
    expect(usage).toMatchObject({ llmCalls: 1, inputTokens: 50, outputTokens: 6 });
  });
});
