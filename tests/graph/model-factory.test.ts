/**
 * The one model factory (graph/model-factory.ts) under the baselines and the LLM judge, against a
 * local stand-in for an OpenAI-compatible server (/v1/chat/completions): a 429 is retried, a 400 is
 * not, and a rerun over the SQLite reply cache sends the server no request at all.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBaseline } from "../../evals/baselines/baselines.js";
import { createJudge } from "../../evals/judge.js";
import { LlmCache } from "../../graph/llm-cache.js";
import { buildLlm, type ModelSettings } from "../../graph/model-factory.js";
import type { IndexSearch } from "../../retrievers/types.js";
import { startJsonService } from "../retrievers/sql-fixtures.js";

/** What the server answers next: a status code, or a reply text (200). Empty queue = 500. */
const queue: Array<number | string> = [];
let service: Awaited<ReturnType<typeof startJsonService>>;
let tmp: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), "atr-factory-"));
  service = await startJsonService((_url, body) => {
    const next = queue.shift();
    if (typeof next !== "string") {
      return {
        status: next ?? 500,
        text: JSON.stringify({ error: { message: next ? `status ${next}` : "nothing queued" } }),
      };
    }
    const model = (body as { model: string }).model;
    return {
      status: 200,
      text: JSON.stringify({
        id: "x",
        object: "chat.completion",
        created: 0,
        model,
        choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: next } }],
        usage: { prompt_tokens: 40, completion_tokens: 6, total_tokens: 46 },
      }),
    };
  });
});

afterAll(async () => {
  await service.close();
  rmSync(tmp, { recursive: true, force: true });
});

const settings = (extra: Partial<ModelSettings> = {}): ModelSettings => ({
  env: { openaiBaseUrl: `${service.base}/v1` },
  timeoutMs: 5000,
  maxRetries: 2,
  ...extra,
});

const noSearch = {} as IndexSearch; // naive_llm closed book retrieves nothing
const call = { configurable: {}, runName: "naive:test" };
const question = { question: "Who manages Dunmere FC?" };

describe("model factory: retries", () => {
  it("naive_llm: a 429 then a reply is retried and counted as one call", async () => {
    const before = service.seen.length;
    queue.push(429, "It is in the club list.\n<Answer>: Oskar Lind");
    const model = (await buildLlm("openai/local-model", settings())).chat;
    const out = await createBaseline("naive_llm", { search: noSearch, model })(question, call);
    expect(out.answer).toBe("Oskar Lind");
    expect(service.seen.length - before).toBe(2);
    expect(out.usage).toMatchObject({ llmCalls: 1, inputTokens: 40, outputTokens: 6 });
    expect(service.seen.at(-1)!.body).toMatchObject({ model: "local-model", temperature: 0 });
  });

  it("the judge: a 429 then a reply is retried; a 400 is not", async () => {
    const judge = createJudge((await buildLlm("openai/local-model", settings())).chat);
    let before = service.seen.length;
    queue.push(429, "Same person. [[1]]");
    expect(await judge("Who manages Dunmere FC?", "Oskar Lind", "Oskar Lind")).toBe(1);
    expect(service.seen.length - before).toBe(2);

    before = service.seen.length;
    queue.push(400);
    await expect(judge("Who?", "Oskar Lind", "Lind")).rejects.toThrow(/400/);
    expect(service.seen.length - before).toBe(1);
  });

  it("gives up after maxRetries retryable failures", async () => {
    const before = service.seen.length;
    queue.push(503, 503);
    const judge = createJudge((await buildLlm("openai/local-model", settings({ maxRetries: 1 }))).chat);
    await expect(judge("Who?", "a", "a")).rejects.toThrow(/503/);
    expect(service.seen.length - before).toBe(2);
  });
});

describe("model factory: the reply cache", () => {
  it("a rerun of a baseline and of the judge over the cache sends no request and gives the same results", async () => {
    const path = join(tmp, "replies.sqlite");
    const run = async () => {
      const cache = new LlmCache(path);
      try {
        const model = (await buildLlm("openai/local-model", settings({ cache }))).chat;
        const baseline = await createBaseline("naive_llm", { search: noSearch, model })(question, call);
        const score = await createJudge(model)("Who manages Dunmere FC?", "Oskar Lind", baseline.answer);
        return { answer: baseline.answer, calls: (baseline.usage as { llmCalls: number }).llmCalls, score };
      } finally {
        cache.close();
      }
    };
    let before = service.seen.length;
    queue.push("<Answer>: Oskar Lind", "Same person. [[1]]");
    const first = await run();
    expect(first).toEqual({ answer: "Oskar Lind", calls: 1, score: 1 });
    expect(service.seen.length - before).toBe(2);

    before = service.seen.length;
    const second = await run(); // nothing queued: a request would get a 500
    expect(service.seen.length - before).toBe(0);
    expect(second).toEqual({ answer: "Oskar Lind", calls: 0, score: 1 });
  });

  it("a sampling model (temperature > 0) is not cached", async () => {
    const cache = new LlmCache(join(tmp, "sampling.sqlite"));
    const sampler = await buildLlm("openai/local-model", settings({ cache, temperature: 0.7 }));
    expect(sampler.model.cache).toBeUndefined();
    const before = service.seen.length;
    queue.push("<Answer>: A", "<Answer>: B");
    const out = await createBaseline(
      "naive_rag_sc",
      { search: { documents: async () => [] } as unknown as IndexSearch, model: sampler.chat },
      { samples: 2 },
    )(question, call);
    expect(service.seen.length - before).toBe(2);
    expect(out.trace).toMatchObject({ candidates: ["A", "B"] });
    expect(service.seen.at(-1)!.body).toMatchObject({ temperature: 0.7 });
    cache.close();
  });
});
