/**
 * The prompted strategies over a real @langchain/ollama chat model talking to a local stand-in for
 * the Ollama API (/api/chat, streamed NDJSON, JSON-schema `format`): structured output, usage,
 * temperature 0.
 */
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChatModel, structuredMethodFor, withRetries } from "../../graph/backbones.js";
import { newUsageMeter } from "../../nodes/prompted/call.js";
import { PromptedStrategies } from "../../nodes/prompted/strategies.js";
import { plan } from "../fixtures/plans.js";

interface Seen {
  model: string;
  temperature?: number;
  formatKeys: string[];
  prompt: string;
}

const seen: Seen[] = [];
let reply: unknown = {};
let server: Server;
let baseUrl = "";

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += String(d)));
    req.on("end", () => {
      const json = JSON.parse(body) as {
        model: string;
        format?: { properties?: Record<string, unknown> };
        options?: { temperature?: number };
        messages: Array<{ content: string }>;
      };
      seen.push({
        model: json.model,
        temperature: json.options?.temperature,
        formatKeys: Object.keys(json.format?.properties ?? {}),
        prompt: json.messages.at(-1)?.content ?? "",
      });
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      const created_at = new Date(0).toISOString();
      res.write(`${JSON.stringify({ model: json.model, created_at, message: { role: "assistant", content: JSON.stringify(reply) }, done: false })}\n`);
      res.end(
        `${JSON.stringify({ model: json.model, created_at, message: { role: "assistant", content: "" }, done: true, done_reason: "stop", prompt_eval_count: 50, eval_count: 6 })}\n`,
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

describe("Ollama backbone", () => {
  it("returns schema-validated replies with usage, at temperature 0", async () => {
    const model = await createChatModel("ollama/llama3.1", { env: { ollamaBaseUrl: baseUrl }, timeoutMs: 5000 });
    const usage = newUsageMeter();
    const method = structuredMethodFor("ollama");
    const strategies = new PromptedStrategies({
      model,
      modelId: "ollama/llama3.1",
      ...(method ? { method } : {}),
      timeoutMs: 5000,
      retry: (fn) => withRetries(fn, { maxRetries: 1, baseDelayMs: 5 }),
      usage,
    });
    reply = { verdict: 0.5, reason: "indirect" };
    const v = await strategies.verify({ question: "Q", subQuery: "q", plan: plan(), route: "TEXT", answer: "A", evidence: "A", sqlResult: "" });
    expect(v).toEqual({ verdict: 0.5, reason: "indirect" });
    expect(seen.at(-1)).toMatchObject({ model: "llama3.1", temperature: 0 });
    expect(seen.at(-1)!.formatKeys.sort()).toEqual(["reason", "verdict"]);
    expect(seen.at(-1)!.prompt).toContain("<candidate_answer>A</candidate_answer>");
    expect(usage).toMatchObject({ llmCalls: 1, inputTokens: 50, outputTokens: 6 });
  });
});
