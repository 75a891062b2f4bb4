/**
 * The prompted strategies over a real @langchain/openai chat model talking to a local
 * OpenAI-compatible server (a stand-in for vLLM / LM Studio, on 127.0.0.1): JSON-schema structured
 * output, token usage, retries on 429/5xx, one whole question through the graph, and a rerun of it
 * over the reply cache that sends no request.
 */
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerQuestion } from "../../graph/answer.js";
import { buildLlm } from "../../graph/model-factory.js";
import { closeResources } from "../../graph/resources.js";
import { newUsageMeter } from "../../nodes/usage-meter.js";
import { PromptedStrategies } from "../../nodes/prompted/strategies.js";
import { useExampleIndex } from "../fixtures/example-index.js";
import { plan } from "../fixtures/plans.js";

interface Request {
  model: string;
  schemaName: string;
  prompt: string;
  temperature?: number;
}

/** Replies by structured-output name; a number queued instead is answered as that HTTP status ("hang": no reply for 3 s). */
const queue: Array<{ name: string; content: unknown } | number | "hang"> = [];
const requests: Request[] = [];
let server: Server;
let baseUrl = "";

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += String(d)));
    req.on("end", () => {
      const json = JSON.parse(body) as {
        model: string;
        temperature?: number;
        messages: Array<{ content: string }>;
        response_format?: { json_schema?: { name?: string } };
      };
      const schemaName = json.response_format?.json_schema?.name ?? "";
      requests.push({
        model: json.model,
        schemaName,
        prompt: json.messages.at(-1)?.content ?? "",
        temperature: json.temperature,
      });
      const next = queue.shift();
      if (next === "hang") {
        const timer = setTimeout(() => res.end(), 3000);
        res.on("close", () => clearTimeout(timer));
        return;
      }
      if (typeof next === "number" || next === undefined) {
        res.writeHead(typeof next === "number" ? next : 500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: next === undefined ? "nothing queued" : `status ${next}` } }));
        return;
      }
      if (next.name !== schemaName) {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `expected ${next.name}, got ${schemaName}` } }));
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: "x",
          object: "chat.completion",
          created: 0,
          model: json.model,
          choices: [
            { index: 0, finish_reason: "stop", message: { role: "assistant", content: JSON.stringify(next.content) } },
          ],
          usage: { prompt_tokens: 100, completion_tokens: 7, total_tokens: 107 },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
});

afterAll(async () => {
  await closeResources();
  await new Promise<void>((r) => server.close(() => r()));
});

const index = useExampleIndex();

describe("OpenAI-compatible server", () => {
  it("structured replies, usage, temperature 0 and retries on 429/503", async () => {
    const model = await buildLlm("openai/local-model", {
      env: { openaiBaseUrl: baseUrl },
      timeoutMs: 5000,
      maxRetries: 3,
    });
    const usage = newUsageMeter();
    const strategies = new PromptedStrategies({ model, modelId: "openai/local-model", usage });
    queue.push(429, 503, { name: "verify", content: { verdict: 1, reason: "supported by row 7" } });
    const v = await strategies.verify({
      question: "Q",
      subQuery: "q",
      plan: plan(),
      route: "SQL",
      answer: "A",
      evidence: "A",
      sqlResult: "",
    });
    expect(v).toEqual({ verdict: 1, reason: "supported by row 7" });
    expect(requests.slice(-3).map((r) => r.schemaName)).toEqual(["verify", "verify", "verify"]);
    expect(requests.at(-1)).toMatchObject({ model: "local-model", temperature: 0 });
    expect(usage).toMatchObject({ llmCalls: 1, inputTokens: 100, outputTokens: 7 });

    queue.push({
      name: "decompose",
      content: {
        sub_query: "Who manages Dunmere FC?",
        required_modalities: "table",
        expected_operator: "lookup",
        need_global_table_view: "no",
        entity_mentions: ["Dunmere FC"],
        uncertainty: 0,
      },
    });
    const p = await strategies.decompose({
      question: "Who manages Dunmere FC?",
      history: [],
      consecutiveFailures: 0,
      schemaPreview: "",
    });
    expect(p).toMatchObject({
      subQuery: "Who manages Dunmere FC?",
      requiredModalities: "table",
      entityMentions: ["Dunmere FC"],
    });
  });

  it("a call that outlives llmTimeoutMs is aborted and retried", async () => {
    const model = await buildLlm("openai/local-model", {
      env: { openaiBaseUrl: baseUrl },
      timeoutMs: 200,
      maxRetries: 1,
    });
    const strategies = new PromptedStrategies({ model, modelId: "m" });
    const before = requests.length;
    queue.push("hang", { name: "read_text", content: { answer: "Station Field" } });
    const started = Date.now();
    expect(await strategies.readText({ question: "Q", subQuery: "q", plan: plan(), evidence: "" })).toBe(
      "Station Field",
    );
    expect(requests.length - before).toBe(2);
    expect(Date.now() - started).toBeLessThan(4000); // 200 ms limit + one backoff (1–2 s)
  });

  it("a 400 is not retried", async () => {
    const model = await buildLlm("openai/local-model", {
      env: { openaiBaseUrl: baseUrl },
      timeoutMs: 5000,
      maxRetries: 3,
    });
    const strategies = new PromptedStrategies({ model, modelId: "m" });
    const before = requests.length;
    queue.push({ name: "fuse", content: { answer: "x" } }); // the server answers 400: wrong name
    await expect(strategies.readText({ question: "Q", subQuery: "q", plan: plan(), evidence: "" })).rejects.toThrow();
    expect(requests.length - before).toBe(1);
    queue.length = 0;
  });

  it("answers a question through the graph with backbone openai/<model> and OPENAI_BASE_URL", async () => {
    const saved = process.env.OPENAI_BASE_URL;
    process.env.OPENAI_BASE_URL = baseUrl;
    try {
      queue.push(
        {
          name: "decompose",
          content: {
            sub_query: "Who manages Dunmere FC?",
            required_modalities: "table",
            expected_operator: "lookup",
            need_global_table_view: "no",
            entity_mentions: ["Dunmere FC"],
            uncertainty: 0,
          },
        },
        { name: "link_value", content: { matched_value: "Dunmere FC", matched_column: "Club", confidence: 1 } },
        { name: "write_sql", content: { sql: "SELECT manager FROM clubs WHERE club = 'Dunmere FC'" } },
        { name: "verify", content: { verdict: 1, reason: "the SQL result names the manager" } },
      );
      const r = await answerQuestion(
        { question: "Who manages Dunmere FC?", table_id: "clubs" },
        { configurable: { indexPath: index.dir, backbone: "openai/local-model", schemaTopK: 6 } },
      );
      expect(r.answer).toBe("Oskar Lind");
      expect(r.routes).toEqual([{ subQuery: "Who manages Dunmere FC?", requested: ["HYBRID"], effective: ["HYBRID"] }]);
      expect(r.usage.llmCalls).toBe(4);
      expect(r.usage.inputTokens).toBe(400);
      expect(r.usage.byNode.HYBRID!.llmCalls).toBe(2);
      expect(queue).toHaveLength(0);
    } finally {
      if (saved === undefined) delete process.env.OPENAI_BASE_URL;
      else process.env.OPENAI_BASE_URL = saved;
    }
  });

  it("a rerun of the graph over llmCachePath sends the server no request (structured output through ChatOpenAI)", async () => {
    const saved = process.env.OPENAI_BASE_URL;
    process.env.OPENAI_BASE_URL = baseUrl;
    const llmCachePath = join(mkdtempSync(join(tmpdir(), "atr-oa-cache-")), "replies.sqlite");
    const configurable = {
      indexPath: index.dir,
      backbone: "openai/local-model",
      llmCachePath,
      routerType: "fixed" as const,
      forceRoute: "TEXT" as const,
    };
    const q = { question: "What is the name of Fenwick City's stadium?", table_id: "clubs" };
    try {
      queue.push(
        {
          name: "decompose",
          content: {
            sub_query: q.question,
            required_modalities: "text",
            expected_operator: "lookup",
            need_global_table_view: "no",
            entity_mentions: [],
            uncertainty: 0,
          },
        },
        { name: "read_text", content: { answer: "Station Field" } },
        { name: "verify", content: { verdict: 1, reason: "the passage names it" } },
      );
      let before = requests.length;
      const first = await answerQuestion(q, { configurable });
      expect(first.answer).toBe("Station Field");
      expect(requests.length - before).toBe(3);
      expect(first.usage.llmCalls).toBe(3);

      await closeResources(); // new models; only the cache file stays
      before = requests.length;
      const second = await answerQuestion(q, { configurable });
      expect(requests.length - before).toBe(0);
      expect(second.usage.llmCalls).toBe(0);
      expect(second.answer).toBe(first.answer);
      expect(second.trace).toEqual(first.trace);
    } finally {
      if (saved === undefined) delete process.env.OPENAI_BASE_URL;
      else process.env.OPENAI_BASE_URL = saved;
    }
  });
});
