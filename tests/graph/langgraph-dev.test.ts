/**
 * The graph served by `langgraph dev` (langgraph.json → ./graph/graph.ts:graph) answers an example
 * question over the HTTP API, on the default offline backbone (no network, no credentials); the
 * questions of one thread do not leak into each other; a run without `recursion_limit` gets the
 * graph's own default. The server runs in its own process group, killed as a whole afterwards.
 * For the run that uses every iteration, the decomposer and verifier talk to a local stand-in
 * OpenAI-compatible server (never TERMINATE, always reject); the routes stay offline.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLES, buildExampleIndex } from "../fixtures/example-index.js";

const ROOT = resolve(EXAMPLES, "..");

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once("error", rej);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
  });
}

async function waitForOk(base: string, server: ChildProcess, log: () => string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`langgraph dev exited (${server.exitCode}):\n${log()}`);
    try {
      const r = await fetch(`${base}/ok`);
      if (r.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`langgraph dev did not answer /ok within ${ms} ms:\n${log()}`);
}

async function post(base: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const r = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${path} → HTTP ${r.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

interface Example {
  question_id: string;
  question: string;
  table_id: string;
  answer: string[];
}

function examples(): Example[] {
  return readFileSync(join(EXAMPLES, "questions.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Example);
}

/** A chat-completions stand-in: decompose always plans a new sub-query, verify always rejects. */
function startStandInLlm(): Promise<{ server: Server; url: string; calls: Record<string, number> }> {
  const calls: Record<string, number> = {};
  const server = createHttpServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += String(d)));
    req.on("end", () => {
      const json = JSON.parse(body) as {
        model: string;
        stream?: boolean;
        response_format?: { json_schema?: { name?: string } };
      };
      const name = json.response_format?.json_schema?.name ?? "";
      calls[name] = (calls[name] ?? 0) + 1;
      const content =
        name === "decompose"
          ? {
              sub_query: `Which club was founded in ${1850 + calls[name]!}?`,
              required_modalities: "table",
              expected_operator: "lookup",
              need_global_table_view: "no",
              entity_mentions: [],
              uncertainty: 0.9,
            }
          : name === "verify"
            ? { verdict: 0, reason: "not supported by the evidence" }
            : undefined;
      if (content && json.stream) {
        // The server runs the graph under streamEvents, so the chat model streams (server-sent events).
        const chunk = (delta: object, usage?: object) =>
          `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", created: 0, model: json.model, choices: usage ? [] : [{ index: 0, delta, finish_reason: null }], ...(usage ? { usage } : {}) })}\n\n`;
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(
          chunk({ role: "assistant", content: JSON.stringify(content) }) +
            chunk({}, { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }) +
            "data: [DONE]\n\n",
        );
        return;
      }
      res.writeHead(content ? 200 : 400, { "content-type": "application/json" });
      res.end(
        JSON.stringify(
          content
            ? {
                id: "x",
                object: "chat.completion",
                created: 0,
                model: json.model,
                choices: [
                  { index: 0, finish_reason: "stop", message: { role: "assistant", content: JSON.stringify(content) } },
                ],
                usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
              }
            : { error: { message: `the stand-in answers decompose and verify only, not ${name}` } },
        ),
      );
    });
  });
  return new Promise((res) =>
    server.listen(0, "127.0.0.1", () =>
      res({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`, calls }),
    ),
  );
}

describe("langgraph dev HTTP API", () => {
  let server: ChildProcess | undefined;
  let output = "";
  let base = "";
  let index: { dir: string; cleanup(): void };
  let llm: Awaited<ReturnType<typeof startStandInLlm>>;

  beforeAll(async () => {
    index = await buildExampleIndex();
    llm = await startStandInLlm();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = { ...process.env, BROWSER: "none", OPENAI_BASE_URL: llm.url };
    for (const name of Object.keys(env)) if (/^(LANGSMITH|LANGCHAIN)_/.test(name)) delete env[name];
    server = spawn(
      "npx",
      ["langgraphjs", "dev", "--no-browser", "--host", "127.0.0.1", "--port", String(port), "--no-reload"],
      {
        cwd: ROOT,
        env,
        detached: true, // own process group: the CLI spawns tsx and node children
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    server.stdout?.on("data", (d) => (output += String(d)));
    server.stderr?.on("data", (d) => (output += String(d)));
    await waitForOk(base, server, () => output.slice(-3000), 90_000);
  }, 120_000);

  afterAll(async () => {
    if (server?.pid !== undefined && server.exitCode === null) {
      const group = -server.pid;
      try {
        process.kill(group, "SIGTERM");
      } catch {
        // already gone
      }
      const until = Date.now() + 5000;
      while (Date.now() < until) {
        try {
          process.kill(group, 0);
        } catch {
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      try {
        process.kill(group, "SIGKILL");
      } catch {
        // exited on SIGTERM
      }
    }
    index?.cleanup();
    await new Promise<void>((r) => (llm ? llm.server.close(() => r()) : r()));
  });

  it("serves the atr graph with its input and configuration schemas", async () => {
    const r = await fetch(`${base}/assistants/atr/schemas`);
    const schemas = (await r.json()) as {
      input_schema?: { properties?: object };
      config_schema?: { properties?: object };
    };
    expect(Object.keys(schemas.input_schema?.properties ?? {})).toEqual(
      expect.arrayContaining(["question", "table_id"]),
    );
    expect(Object.keys(schemas.config_schema?.properties ?? {})).toEqual(
      expect.arrayContaining(["indexPath", "backbone", "maxIter", "failureScope"]),
    );
  });

  it("answers an example question through a thread run", async () => {
    const example = examples().find((q) => q.question_id === "ex-02")!;
    const thread = await post(base, "/threads", {});
    const values = await post(base, `/threads/${String(thread.thread_id)}/runs/wait`, {
      assistant_id: "atr",
      input: { question: example.question, table_id: example.table_id },
      config: { configurable: { indexPath: index.dir }, recursion_limit: 80 },
    });
    expect(values.answer).toBe(example.answer[0]);
    expect((values.trace as unknown[]).length).toBeGreaterThan(0);
    // Studio shows the state: the answer's evidence is a channel of it.
    const [evidence] = values.answerProvenance as Array<{
      tables: string[];
      cells: Array<{ row: number; column: string; value: string }>;
      sql?: { query: string; rows: number[] };
    }>;
    expect(evidence!.tables).toEqual(["clubs"]);
    expect(evidence!.cells).toContainEqual({ tableId: "clubs", row: 3, column: "Manager", value: "Oskar Lind" });
    expect(evidence!.sql?.rows).toEqual([3]);
  }, 60_000);

  it("streams one update per node, in the loop's order", async () => {
    const thread = await post(base, "/threads", {});
    const r = await fetch(`${base}/threads/${String(thread.thread_id)}/runs/stream`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        assistant_id: "atr",
        input: { question: "How many clubs were founded before 1900?", table_id: "clubs" },
        config: { configurable: { indexPath: index.dir }, recursion_limit: 80 },
        stream_mode: ["updates"],
      }),
    });
    const text = await r.text();
    const nodes = text
      .split("\n")
      .filter((l) => l.startsWith("data: {"))
      .map((l) => Object.keys(JSON.parse(l.slice(6)) as object)[0])
      .filter((n): n is string => n !== undefined && n !== "run_id");
    expect(nodes.slice(0, 4)).toEqual(["begin", "decompose", "gather", "route"]);
    expect(["TEXT", "RETRIEVE", "SQL", "HYBRID"]).toContain(nodes[4]);
    expect(nodes[5]).toBe("verify");
    expect(nodes.at(-1)).toBe("synthesize");
  }, 60_000);

  it("the 21 example questions on one thread, every other one without its hint, answer as separate runs do", async () => {
    const config = { configurable: { indexPath: index.dir }, recursion_limit: 80 };
    const inputs = examples().map((q, i) =>
      i % 2 === 0
        ? { question: q.question, question_id: q.question_id, table_id: q.table_id }
        : { question: q.question },
    );
    const shared = String((await post(base, "/threads", {})).thread_id);
    const summary = (v: Record<string, unknown>) => ({
      table_id: v.table_id,
      question_id: v.question_id,
      answer: v.answer,
      answerVerified: v.answerVerified,
      answerProvenance: v.answerProvenance,
      steps: v.steps,
      decisions: (v.trace as Array<Record<string, unknown>>).map((d) => [
        d.sub_query,
        d.requested_route,
        d.effective_route,
        d.verdict,
        d.produced_answer,
      ]),
      failedRoutes: v.failedRoutes,
      iteration: v.iteration,
      llmCalls: (v.usage as { llmCalls: number }).llmCalls,
    });
    for (const input of inputs) {
      const onThread = await post(base, `/threads/${shared}/runs/wait`, { assistant_id: "atr", input, config });
      const alone = await post(base, `/threads/${String((await post(base, "/threads", {})).thread_id)}/runs/wait`, {
        assistant_id: "atr",
        input,
        config,
      });
      expect(summary(onThread), input.question).toEqual(summary(alone));
      expect(onThread.table_id).toBe("table_id" in input ? input.table_id : undefined);
    }
  }, 240_000);

  it("a run without recursion_limit gets the graph's default, enough for every iteration and attempt", async () => {
    const configurable = {
      indexPath: index.dir,
      decomposerBackbone: "openai/stand-in",
      verifierBackbone: "openai/stand-in",
      failureScope: "subquery",
    };
    const input = { question: "Which club was founded first?", table_id: "clubs" };
    const thread = String((await post(base, "/threads", {})).thread_id);
    const values = await post(base, `/threads/${thread}/runs/wait`, {
      assistant_id: "atr",
      input,
      config: { configurable },
    });
    // The stand-in answered every decompose and verify call (the offline routes may fail on these sub-queries).
    expect((values.errors as string[]).filter((e) => /^(decompose|verify):/.test(e))).toEqual([]);
    expect(values.iteration).toBe(5);
    const decisions = values.trace as Array<{ attempt: number; accepted: boolean }>;
    expect(decisions.length).toBe(20); // 5 sub-queries × 4 attempts, all rejected
    expect(decisions.every((d) => !d.accepted)).toBe(true);
    expect(values.answer).toBe("not found");
    // The same run under LangGraph's bare default of 25 supersteps stops half-way.
    const cut = String((await post(base, "/threads", {})).thread_id);
    const stopped = await post(base, `/threads/${cut}/runs/wait`, {
      assistant_id: "atr",
      input,
      config: { configurable, recursion_limit: 25 },
    });
    expect(JSON.stringify(stopped)).toMatch(/Recursion limit/i);
  }, 120_000);
});

describe("langgraph dev refusals (issue 10 §6, §10)", () => {
  let server: ChildProcess | undefined;
  let output = "";
  let base = "";
  let index: { dir: string; cleanup(): void };

  beforeAll(async () => {
    index = await buildExampleIndex();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = { ...process.env, BROWSER: "none" };
    for (const name of Object.keys(env)) if (/^(LANGSMITH|LANGCHAIN)_/.test(name)) delete env[name];
    server = spawn(
      "npx",
      ["langgraphjs", "dev", "--no-browser", "--host", "127.0.0.1", "--port", String(port), "--no-reload"],
      {
        cwd: ROOT,
        env,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    server.stdout?.on("data", (d) => (output += String(d)));
    server.stderr?.on("data", (d) => (output += String(d)));
    await waitForOk(base, server, () => output.slice(-3000), 90_000);
  }, 120_000);

  afterAll(async () => {
    if (server?.pid !== undefined && server.exitCode === null) {
      try {
        process.kill(-server.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    index?.cleanup();
  });

  async function wait(
    input: Record<string, unknown>,
    configurable: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const thread = await post(base, "/threads", {});
    return post(base, `/threads/${String(thread.thread_id)}/runs/wait`, {
      assistant_id: "atr",
      input,
      config: { configurable, recursion_limit: 80 },
    });
  }

  it("an unknown configurable key fails the run naming it; the platform's own keys do not", async () => {
    const bad = await wait({ question: "Who manages Dunmere FC?" }, { indexPath: index.dir, max_iter: 3 });
    expect(JSON.stringify(bad)).toContain("unknown configuration key max_iter (did you mean maxIter?)");
    const good = await wait(
      { question: "Who manages Dunmere FC?", table_id: "clubs" },
      { indexPath: index.dir, maxIter: 3 },
    );
    expect(good.answer).toBe("Oskar Lind");
  }, 60_000);

  it("a 10 MB question is refused at once and the server stays responsive", async () => {
    const started = Date.now();
    const pending = wait({ question: "x".repeat(10_000_000) }, { indexPath: index.dir });
    // /ok answers while the big request is in flight.
    await new Promise((r) => setTimeout(r, 200));
    const ok = await fetch(`${base}/ok`);
    expect(ok.ok).toBe(true);
    const refused = await pending;
    expect(JSON.stringify(refused)).toContain("question is 10000000 characters long, over the limit of 4000");
    expect(Date.now() - started).toBeLessThan(30_000);
    const after = await wait({ question: "Who manages Dunmere FC?", table_id: "clubs" }, { indexPath: index.dir });
    expect(after.answer).toBe("Oskar Lind");
  }, 90_000);
});
