/**
 * `npm run serve:durable -- --checkpointer postgres://USER@HOST:5432/DB [--host 127.0.0.1] [--port 2024]
 *   [--schema atr_threads]` — serves the ATR graph over LangGraph's HTTP API with its threads in
 * PostgreSQL, so a thread (its metadata, every checkpoint of its runs) survives a server restart.
 *
 * Why not `langgraph dev`: the dev server of @langchain/langgraph-api 1.5.1 replaces a graph's
 * checkpointer with its own (graph/load.mjs `getGraph`: `compiled.checkpointer = checkpointer`, an
 * in-memory saver flushed to .langgraph_api/), and langgraph.json has no checkpointer key; a
 * PostgreSQL-backed server is only LangGraph Platform's licensed image (`langgraph up`). This script
 * uses the same package's embeddable server (`createEmbedServer`, experimental), which takes a
 * checkpointer and a thread store: the graph is graph/durable.ts's (PostgresSaver), thread records
 * live in `<schema>.threads`. Routes: the embeddable server's (`POST /threads`, `GET|PATCH|DELETE
 * /threads/:id`, `POST /threads/search`, `GET|POST /threads/:id/state`, `POST /threads/:id/history`,
 * `POST /threads/:id/runs/stream`, `POST /runs/stream`…) plus `POST /threads/:id/runs/wait`, `GET /ok`
 * and `GET /info` added here. No `/assistants` routes: LangGraph Studio cannot attach; SDK clients
 * (`client.threads.*`, `client.runs.stream`, `client.runs.wait`) with assistant id `atr` can.
 * Password: in the URL, PGPASSWORD or ~/.pgpass.
 */
import { serve } from "@hono/node-server";
import { createEmbedServer, type ThreadSaver } from "@langchain/langgraph-api/experimental/embed";
import { parseArgs } from "node:util";
import pg from "pg";
import { DEFAULT_THREAD_SCHEMA, openDurableGraph } from "../graph/durable.js";

type Metadata = Record<string, unknown>;
interface ThreadRow {
  thread_id: string;
  metadata: Metadata;
  created_at: Date;
  updated_at: Date;
}

const toThread = (r: ThreadRow) => ({
  thread_id: r.thread_id,
  metadata: r.metadata,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
  status: "idle",
  values: null,
});

/** Thread records (id, metadata, times) in `<schema>.threads`; the checkpoints are PostgresSaver's. */
async function pgThreadSaver(pool: pg.Pool, schema: string): Promise<ThreadSaver> {
  const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const table = `${q(schema)}.threads`;
  await pool.query(`CREATE SCHEMA IF NOT EXISTS ${q(schema)}`);
  await pool.query(
    `CREATE TABLE IF NOT EXISTS ${table} (thread_id uuid PRIMARY KEY, metadata jsonb NOT NULL DEFAULT '{}',
       created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now())`,
  );
  return {
    // a missing thread is undefined: the embeddable server answers 404 (runs) or an empty state
    get: async (id) => {
      const { rows } = await pool.query<ThreadRow>(`SELECT * FROM ${table} WHERE thread_id = $1`, [id]);
      return (rows[0] ? toThread(rows[0]) : undefined) as Awaited<ReturnType<ThreadSaver["get"]>>;
    },
    set: async (id, { kind, metadata }) => {
      const merge = kind === "put" ? "EXCLUDED.metadata" : `${table}.metadata || EXCLUDED.metadata`;
      const { rows } = await pool.query<ThreadRow>(
        `INSERT INTO ${table} (thread_id, metadata) VALUES ($1, $2::jsonb)
         ON CONFLICT (thread_id) DO UPDATE SET metadata = ${merge}, updated_at = now() RETURNING *`,
        [id, JSON.stringify(metadata ?? {})],
      );
      return toThread(rows[0]!);
    },
    delete: async (id) => {
      await pool.query(`DELETE FROM ${table} WHERE thread_id = $1`, [id]);
    },
    search: async function* ({ metadata, limit, offset, sortBy, sortOrder }) {
      const order = `${sortBy === "updated_at" ? "updated_at" : "created_at"} ${sortOrder === "asc" ? "ASC" : "DESC"}`;
      const { rows } = await pool.query<ThreadRow & { total: string }>(
        `SELECT *, count(*) OVER () AS total FROM ${table} WHERE metadata @> $1::jsonb ORDER BY ${order} LIMIT $2 OFFSET $3`,
        [JSON.stringify(metadata ?? {}), limit, offset],
      );
      for (const r of rows) yield { thread: toThread(r), total: Number(r.total) };
    },
  };
}

const { values } = parseArgs({
  options: {
    checkpointer: { type: "string" },
    host: { type: "string", default: "127.0.0.1" },
    port: { type: "string", default: "2024" },
    schema: { type: "string", default: process.env.ATR_THREAD_SCHEMA ?? DEFAULT_THREAD_SCHEMA },
  },
});
if (!values.checkpointer) {
  console.error("serve-durable: give --checkpointer postgres://USER@HOST:PORT/DB (password: PGPASSWORD or ~/.pgpass)");
  process.exit(2);
}
const durable = await openDurableGraph(values.checkpointer, { schema: values.schema });
const pool = new pg.Pool({ connectionString: values.checkpointer, max: 4 });
const threads = await pgThreadSaver(pool, values.schema);
const graph = durable.graph;
const app = createEmbedServer({ graph: { atr: graph }, threads, checkpointer: durable.checkpointer });

app.get("/ok", (c) => c.json({ ok: true }));
app.get("/info", (c) => c.json({ server: "atr serve-durable", checkpointer: "postgres", schema: values.schema }));
// The SDK's runs.wait: run to the end on the thread, answer the final state's values.
app.post("/threads/:thread_id/runs/wait", async (c) => {
  const threadId = c.req.param("thread_id");
  if ((await threads.get(threadId)) == null) return c.json({ error: `thread ${threadId} not found` }, 404);
  const body = (await c.req.json()) as {
    assistant_id?: string;
    input?: Record<string, unknown>;
    config?: { configurable?: Record<string, unknown>; recursion_limit?: number };
  };
  if (body.assistant_id !== undefined && body.assistant_id !== "atr")
    return c.json(
      { error: `assistant ${JSON.stringify(body.assistant_id)} not found (this server serves "atr")` },
      404,
    );
  await threads.set(threadId, { kind: "patch", metadata: { graph_id: "atr", assistant_id: "atr" } });
  const config = { ...body.config, configurable: { ...body.config?.configurable, thread_id: threadId } };
  try {
    return c.json(await graph.invoke(body.input ?? {}, config));
  } catch (error) {
    return c.json({ error: (error as Error).message }, 500);
  }
});

const server = serve({ fetch: app.fetch, hostname: values.host, port: Number(values.port) }, (info) =>
  console.error(`serve-durable: http://${info.address}:${info.port} (threads in schema ${values.schema})`),
);
const stop = () => {
  server.close();
  void Promise.allSettled([durable.close(), pool.end()]).then(() => process.exit(0));
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
