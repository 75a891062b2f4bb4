/**
 * scripts/serve-durable.ts against a real PostgreSQL server: the graph served over LangGraph's HTTP
 * API with its threads in PostgreSQL. A thread is created and run, the server is stopped and started
 * again (a new process), and the thread — its metadata, its state, its history — is read back from
 * the new server, which then continues it with a streamed run.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import pg from "pg";
import { buildExampleIndex } from "../fixtures/example-index.js";
import { describePg, PG_URL } from "../fixtures/pg-server.js";
import { ROOT } from "../fixtures/spawn-atr.js";

interface Server {
  child: ChildProcess;
  base: string;
}

/** Starts the server on a free port (port 0; the address is read from its first line). */
function startServer(schema: string): Promise<Server> {
  const clean = { ...process.env };
  for (const k of Object.keys(clean)) if (/^(LANGSMITH|LANGCHAIN)_/.test(k)) delete clean[k];
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(ROOT, "scripts", "serve-durable.ts"), "--checkpointer", PG_URL, "--port", "0"],
    { cwd: ROOT, env: { ...clean, ATR_THREAD_SCHEMA: schema }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let log = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve-durable did not start within 60 s:\n${log}`)), 60_000);
    child.stdout!.on("data", (d) => (log += String(d)));
    child.stderr!.on("data", (d) => {
      log += String(d);
      const m = /serve-durable: (http:\/\/[\d.]+:\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve({ child, base: m[1]! });
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve-durable exited (${code}):\n${log}`));
    });
  });
}

async function stopServer(server: Server): Promise<number | null> {
  if (server.child.exitCode !== null) return server.child.exitCode;
  const exited = new Promise<number | null>((r) => server.child.once("exit", (code) => r(code)));
  server.child.kill("SIGTERM");
  return exited;
}

async function call(base: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const r = await fetch(`${base}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${path} → HTTP ${r.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

describePg("serve-durable: threads in PostgreSQL survive a server restart", () => {
  let index: { dir: string; cleanup(): void };
  const schema = `atr_threads_serve_${process.pid}`;
  let server: Server | undefined;
  beforeAll(async () => {
    index = await buildExampleIndex();
  }, 60_000);
  afterAll(async () => {
    if (server) await stopServer(server);
    index?.cleanup();
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });

  it("runs on a thread, restarts, reads the thread back and continues it", async () => {
    const config = { configurable: { indexPath: index.dir }, recursion_limit: 80 };
    server = await startServer(schema);
    expect(await call(server.base, "GET", "/ok")).toEqual({ ok: true });
    const thread = await call(server.base, "POST", "/threads", { metadata: { owner: "test" } });
    const id = String(thread.thread_id);
    const first = await call(server.base, "POST", `/threads/${id}/runs/wait`, {
      assistant_id: "atr",
      input: { question: "Who manages Dunmere FC?" },
      config,
    });
    expect(first.answer).toBe("Oskar Lind");
    const historyBefore = (await fetch(`${server.base}/threads/${id}/history`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ limit: 1000 }),
    }).then((r) => r.json())) as unknown[];
    expect(historyBefore.length).toBeGreaterThan(1);

    expect(await stopServer(server)).toBe(0);
    server = await startServer(schema);

    // the new process knows the thread (record in <schema>.threads) and its state (PostgresSaver)
    const back = await call(server.base, "GET", `/threads/${id}`);
    expect(back.metadata).toMatchObject({ owner: "test", graph_id: "atr" });
    const state = await call(server.base, "GET", `/threads/${id}/state`);
    expect((state.values as Record<string, unknown>).answer).toBe("Oskar Lind");
    expect((state.values as Record<string, unknown>).question).toBe("Who manages Dunmere FC?");

    // …and continues it: a streamed run (the SDK's runs.stream) adds its checkpoints to the same thread
    const streamed = await fetch(`${server.base}/threads/${id}/runs/stream`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        assistant_id: "atr",
        input: { question: "What is the population of Brookhaven?" },
        config,
        stream_mode: ["updates"],
      }),
    }).then((r) => r.text());
    expect(streamed).toContain("event: updates");
    const after = await call(server.base, "GET", `/threads/${id}/state`);
    expect((after.values as Record<string, unknown>).answer).toBe("212,000");
    const history = (await fetch(`${server.base}/threads/${id}/history`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ limit: 1000 }),
    }).then((r) => r.json())) as Array<{ values: { question?: string } }>;
    expect(history.length).toBeGreaterThan(historyBefore.length);
    expect(history.map((h) => h.values.question)).toContain("Who manages Dunmere FC?");

    const search = (await fetch(`${server.base}/threads/search`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ metadata: { owner: "test" } }),
    }).then((r) => r.json())) as Array<{ thread_id: string }>;
    expect(search.map((t) => t.thread_id)).toEqual([id]);
  }, 300_000);
});
