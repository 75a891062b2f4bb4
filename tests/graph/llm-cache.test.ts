import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LlmCache, llmCacheKey, stableLlmKey } from "../../graph/llm-cache.js";
import { closeResources } from "../../graph/resources.js";
import { answerQuestion } from "../../graph/answer.js";
import { buildExampleIndex, scriptedBackbone } from "../fixtures/example-index.js";
import { ScriptedChatModel, reply } from "../fixtures/scripted-model.js";

let index: { dir: string; cleanup(): void };
let tmp: string;
beforeAll(async () => {
  index = await buildExampleIndex();
  tmp = mkdtempSync(join(tmpdir(), "atr-cache-"));
});
afterAll(async () => {
  await closeResources();
  index?.cleanup();
  rmSync(tmp, { recursive: true, force: true });
});

describe("LLM reply cache", () => {
  it("keys on model, schema, prompt and parameters, independent of key order", () => {
    const a = llmCacheKey({ model: "m", schema: "verify", prompt: "p", params: { t: 0, m: "x" } });
    expect(llmCacheKey({ model: "m", schema: "verify", prompt: "p", params: { m: "x", t: 0 } })).toBe(a);
    expect(llmCacheKey({ model: "m2", schema: "verify", prompt: "p", params: { t: 0, m: "x" } })).not.toBe(a);
    expect(llmCacheKey({ model: "m", schema: "verify", prompt: "p!", params: { t: 0, m: "x" } })).not.toBe(a);
  });

  it("drops LangGraph's run-time entries and the API key from LangChain's llm string, whatever commas the values hold", () => {
    const key = [
      '_type:"openai"',
      'apiKey:"sk-1"',
      'executionInfo:{"checkpointId":"1f1","nodeAttempt":1}',
      'model:"m"',
      'response_format:{"json_schema":{"name":"verify","description":"a, b: c"}}',
      "signal:{}",
      "temperature:0",
      "writer:undefined",
    ].join(",");
    expect(stableLlmKey(key)).toBe(
      '_type:"openai",model:"m",response_format:{"json_schema":{"name":"verify","description":"a, b: c"}},temperature:0',
    );
    expect(stableLlmKey(key.replace("1f1", "2a2").replace("sk-1", "sk-2"))).toBe(stableLlmKey(key));
  });

  it("persists replies on disk", () => {
    const path = join(tmp, "unit.sqlite");
    const parts = { model: "m", schema: "fuse", prompt: "p", params: {} };
    const c1 = new LlmCache(path);
    c1.set(parts, { answer: "42" });
    c1.close();
    const c2 = new LlmCache(path);
    expect(c2.get(parts)).toEqual({ answer: "42" });
    expect(c2.get({ ...parts, prompt: "q" })).toBeUndefined();
    expect(c2.size()).toBe(1);
    c2.close();
  });

  it("a rerun through the graph costs no LLM call and reproduces the answer and trace", async () => {
    const llmCachePath = join(tmp, "graph.sqlite");
    const q = { question: "What is the name of Fenwick City's stadium?", table_id: "clubs" };
    const first = new ScriptedChatModel([reply.decompose(q.question), reply.text("Station Field"), reply.verify(1)]);
    const backbone = scriptedBackbone(first);
    const configurable = {
      indexPath: index.dir,
      backbone,
      llmCachePath,
      routerType: "fixed" as const,
      forceRoute: "TEXT" as const,
    };
    const r1 = await answerQuestion(q, { configurable });
    expect(r1.answer).toBe("Station Field");
    expect(r1.usage.llmCalls).toBe(3);

    await closeResources(); // forget the cached chat model; the cache file stays
    const second = new ScriptedChatModel([]); // nothing queued: any real call would fail
    scriptedBackbone(second, backbone);
    const r2 = await answerQuestion(q, { configurable });
    expect(second.calls).toHaveLength(0);
    expect(r2.usage.llmCalls).toBe(0);
    expect(r2.answer).toBe(r1.answer);
    expect(r2.trace).toEqual(r1.trace);
  });
});
