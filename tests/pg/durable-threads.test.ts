/**
 * Durable threads (graph/durable.ts) against a real PostgreSQL server: a thread answered by one
 * `atr ask --checkpointer` process is continued by another (a restart), and a fresh graph instance
 * reads both runs back from the checkpoints.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import pg from "pg";
import { openDurableGraph } from "../../graph/durable.js";
import { buildExampleIndex } from "../fixtures/example-index.js";
import { describePg, PG_URL } from "../fixtures/pg-server.js";
import { spawnAtr } from "../fixtures/spawn-atr.js";

describePg("durable threads on PostgreSQL", () => {
  let index: { dir: string; cleanup(): void };
  const schema = `atr_threads_test_${process.pid}`;
  beforeAll(async () => {
    index = await buildExampleIndex();
  }, 60_000);
  afterAll(async () => {
    index?.cleanup();
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });

  it("keeps a thread's state across processes and graph instances", async () => {
    const thread = randomUUID();
    const ask = (question: string) =>
      spawnAtr(
        ["ask", question, "--index_path", index.dir, "--checkpointer", PG_URL, "--thread_id", thread],
        { ATR_THREAD_SCHEMA: schema },
        120_000,
      );
    const first = await ask("Who manages Dunmere FC?");
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("Answer: Oskar Lind");
    const second = await ask("What is the population of Brookhaven?");
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain("Answer: 212,000");

    // A new graph instance in this process (the "restarted server") sees both runs.
    const durable = await openDurableGraph(PG_URL, { schema });
    try {
      const config = { configurable: { thread_id: thread } };
      const state = await durable.graph.getState(config);
      expect(state.values.question).toBe("What is the population of Brookhaven?");
      expect(state.values.answer).toBe("212,000");
      const questions = new Set<string>();
      for await (const snapshot of durable.graph.getStateHistory(config))
        questions.add(String(snapshot.values.question ?? ""));
      expect(questions).toContain("Who manages Dunmere FC?");
      expect(second.stderr).toMatch(new RegExp(`thread ${thread}: \\d+ checkpoints kept`));
      const kept = Number(/(\d+) checkpoints kept/.exec(second.stderr)![1]);
      const firstKept = Number(/(\d+) checkpoints kept/.exec(first.stderr)![1]);
      expect(kept).toBeGreaterThan(firstKept);
    } finally {
      await durable.close();
    }
  }, 300_000);
});
