import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import {
  InlineSqlExecutor,
  openSqlExecutor,
  SqlExecutorError,
  ProcessSqlExecutor,
} from "../../retrievers/sql-executor.js";
import { writeFixtureDb } from "./sql-fixtures.js";
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";

/** PIDs of this process's live children other than ps itself (Linux). */
function childPids(): number[] {
  const out = execFileSync("ps", ["-o", "pid=,stat=,comm=", "--ppid", String(process.pid)], { encoding: "utf8" });
  return out
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([pid, stat, comm]) => pid && !stat?.startsWith("Z") && comm !== "ps")
    .map(([pid]) => Number(pid));
}

const path = writeFixtureDb();
const bigPath = writeFixtureDb(undefined, 500);
// Slow but finite: counts ~3M generated rows (a few hundred ms of native work).
const SLOW =
  "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3000000) SELECT COUNT(*) AS c FROM r";

describe.each(["process", "inline"] as const)("%s executor", (mode) => {
  const executor = openSqlExecutor(path, { mode, timeoutMs: 1000 });
  afterAll(() => executor.close());

  it("returns rows as a JSON array of objects, repeated names suffixed", async () => {
    const out = await executor.execute("SELECT club, founded, founded__raw, club FROM clubs WHERE city = 'Paris'");
    expect(out.ok).toBe(true);
    expect(JSON.parse(out.result)).toEqual([
      { club: "Gamma City", founded: 1905, founded__raw: "1,905", club_2: "Gamma City" },
    ]);
    expect(await executor.execute("SELECT COUNT(*) AS n FROM clubs")).toMatchObject({
      result: '[{"n":3}]',
      rowCount: 1,
    });
    expect((await executor.execute("SELECT club FROM clubs WHERE city = 'Nowhere'")).result).toBe("[]");
  });

  it("refuses writes and reports errors as the failure string", async () => {
    const write = await executor.execute("DELETE FROM clubs");
    expect(write.ok).toBe(false);
    expect(write.result).toBe("SQL execution failed: statement is not read-only");
    const bad = await executor.execute("SELECT nosuch FROM clubs");
    expect(bad.result).toMatch(/^SQL execution failed: no such column: nosuch/);
    expect((await executor.execute("SELECT COUNT(*) AS n FROM clubs")).ok).toBe(true);
  });
});

describe("limits", () => {
  it("caps returned rows", async () => {
    const executor = openSqlExecutor(bigPath, { mode: "inline", maxRows: 200 });
    const out = await executor.execute("SELECT club FROM clubs");
    expect(out.rowCount).toBe(200);
    expect(out.truncated).toBe(true);
    expect(JSON.parse(out.result)).toHaveLength(200);
  });

  it("the process executor gives control back at the time limit and recovers", async () => {
    const executor = new ProcessSqlExecutor(path, { timeoutMs: 40 });
    await executor.execute("SELECT 1");
    const t0 = performance.now();
    const out = await executor.execute(SLOW);
    expect(performance.now() - t0).toBeLessThan(2000); // loose bound: a busy 2-core CI machine is slow to respawn
    expect(out.result).toBe("SQL execution failed: time limit of 40 ms exceeded");
    const next = await executor.execute("SELECT club FROM clubs WHERE _row = 0");
    expect(next.result).toBe('[{"club":"Alpha FC"}]');
    await executor.close();
  });

  it("the process executor stops a runaway native step (cross join) and the next query runs", async () => {
    const executor = new ProcessSqlExecutor(bigPath, { timeoutMs: 150 });
    await executor.execute("SELECT 1");
    const t0 = performance.now();
    const out = await executor.execute("SELECT COUNT(*) FROM clubs a, clubs b, clubs c, clubs d");
    expect(out.result).toBe("SQL execution failed: time limit of 150 ms exceeded");
    expect(performance.now() - t0).toBeLessThan(3000);
    expect((await executor.execute("SELECT COUNT(*) AS n FROM clubs")).result).toBe('[{"n":500}]');
    await executor.close();
  });

  it("a query queued behind a runaway one is re-run on the fresh process, not failed", async () => {
    const executor = new ProcessSqlExecutor(bigPath, { timeoutMs: 150 });
    await executor.execute("SELECT 1");
    const [runaway, queued] = await Promise.all([
      executor.execute("SELECT COUNT(*) FROM clubs a, clubs b, clubs c, clubs d"),
      executor.execute("SELECT club FROM clubs WHERE _row = 1"),
    ]);
    expect(runaway.result).toBe("SQL execution failed: time limit of 150 ms exceeded");
    expect(queued.result).toBe('[{"club":"Beta United"}]');
    await executor.close();
  });

  it("a statement that never ends is stopped at the limit, its process killed, and the next query runs", async () => {
    const others = childPids();
    const executor = new ProcessSqlExecutor(path, { timeoutMs: 200 });
    await executor.execute("SELECT 1");
    const mine = childPids().filter((pid) => !others.includes(pid));
    expect(mine).toHaveLength(1);
    // An unbounded recursive CTE: without the kill this runs until memory or patience runs out.
    const out = await executor.execute(
      "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT COUNT(*) FROM r",
    );
    expect(out).toMatchObject({ ok: false, result: "SQL execution failed: time limit of 200 ms exceeded" });
    await new Promise((r) => setTimeout(r, 100));
    expect(childPids()).not.toContain(mine[0]);
    expect((await executor.execute("SELECT COUNT(*) AS n FROM clubs")).result).toBe('[{"n":3}]');
    await executor.close();
  });

  it("fails closed when the child cannot open its database", async () => {
    const gone = writeFixtureDb();
    const executor = new ProcessSqlExecutor(gone, { timeoutMs: 1000 });
    rmSync(gone);
    const out = await executor.execute("SELECT 1");
    expect(out.ok).toBe(false);
    expect(out.result).toMatch(/^SQL execution failed: cannot open .*tables\.sqlite/);
    await executor.close();
  });

  it("the inline executor stops between rows once the limit is passed", async () => {
    const executor = openSqlExecutor(path, { mode: "inline", timeoutMs: 5, maxRows: 10_000_000 });
    const out = await executor.execute(
      "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3000000) SELECT n FROM r",
    );
    expect(out.result).toBe("SQL execution failed: time limit of 5 ms exceeded");
  });

  it("refuses a writable connection, a missing file and bad options", () => {
    const db = new Database(":memory:");
    expect(() => new InlineSqlExecutor(db)).toThrow(SqlExecutorError);
    expect(() => new ProcessSqlExecutor("/nonexistent/tables.sqlite")).toThrow(/does not exist/);
    expect(() => openSqlExecutor(path, { maxRows: 0 })).toThrow(/maxRows/);
  });
});

describe("overhead", () => {
  it("a point query costs well under a few ms per call on both executors", async () => {
    for (const mode of ["inline", "process"] as const) {
      const executor = openSqlExecutor(path, { mode });
      await executor.execute("SELECT 1");
      const t0 = performance.now();
      for (let i = 0; i < 100; i++) await executor.execute("SELECT club FROM clubs WHERE city = 'Lyon'");
      const perQuery = (performance.now() - t0) / 100;
      expect(perQuery).toBeLessThan(5);
      await executor.close();
    }
  });
});
