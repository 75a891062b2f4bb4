/**
 * View 5 in PostgreSQL against a real server (tests/fixtures/pg-server.ts): an index built with
 * --sql_store, its manifest (no password), the answering connection (read-only, time limit), and
 * the examples/ questions answered the same as over the embedded SQLite store.
 */
import { readFileSync, rmSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import pg from "pg";
import { answerQuestion } from "../../graph/answer.js";
import { closeCachedIndexes, closeResources, getSqlExecutor } from "../../graph/resources.js";
import { ensureConfiguration } from "../../graph/configuration.js";
import { buildIndex } from "../../indexing/build-index.js";
import { openIndex } from "../../indexing/open-index.js";
import { POSTGRES_FRAGMENTS, SQLITE_FRAGMENTS, type SqlFragments } from "../../nodes/offline/sql-dialect.js";
import { openIndexStore, storeViolations } from "../../retrievers/sql-store.js";
import { EXAMPLES } from "../fixtures/example-index.js";
import { describePg, PG_URL, splitPassword } from "../fixtures/pg-server.js";

const examples = readFileSync(join(EXAMPLES, "questions.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l) as { question_id: string; question: string; table_id: string });

describePg("View 5 in PostgreSQL", () => {
  const root = mkdtempSync(join(tmpdir(), "atr-pg-"));
  const pgDir = join(root, "pg");
  const liteDir = join(root, "lite");
  const { url: bareUrl, password } = splitPassword(PG_URL);
  let schema = "";

  beforeAll(async () => {
    await buildIndex({
      excelDir: join(EXAMPLES, "tables"),
      docDir: join(EXAMPLES, "docs"),
      savePath: pgDir,
      sqlStore: PG_URL,
    });
    await buildIndex({ excelDir: join(EXAMPLES, "tables"), docDir: join(EXAMPLES, "docs"), savePath: liteDir });
    schema = JSON.parse(readFileSync(join(pgDir, "manifest.json"), "utf8")).sqlStore.schema;
  }, 60_000);
  afterAll(async () => {
    await closeResources();
    closeCachedIndexes();
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
    rmSync(root, { recursive: true, force: true });
  });

  it("records the store in the manifest without the password", () => {
    const text = readFileSync(join(pgDir, "manifest.json"), "utf8");
    const manifest = JSON.parse(text);
    expect(manifest.sqlStore).toEqual({
      kind: "postgres",
      url: bareUrl,
      schema: expect.stringMatching(/^atr_pg_[0-9a-f]{8}$/),
    });
    expect(password.length).toBeGreaterThan(0);
    expect(text).not.toContain(password);
  });

  it("holds the same layout as tables.sqlite, and answering checks it against the index", async () => {
    const index = await openIndex(pgDir);
    const store = openIndexStore(index, { url: PG_URL });
    try {
      expect(store.dialect).toBe("postgres");
      expect(await storeViolations(store, index.tables)).toEqual([]);
      const names = await store.tableNames();
      for (const t of ["_tables", "_columns", "_meta", "clubs", "cities"]) expect(names).toContain(t);
      const rows = await store.execute(
        'SELECT "_row", "population", "population__raw" FROM "cities" ORDER BY "_row" LIMIT 2',
      );
      expect(JSON.parse(rows.result)).toEqual([
        { _row: 0, population: 84300, population__raw: "84,300" },
        { _row: 1, population: 212000, population__raw: "212,000" },
      ]);
    } finally {
      await store.close();
      index.close();
    }
  });

  it("refuses writes through the answering connection, as on SQLite, and leaves the data unchanged", async () => {
    const config = ensureConfiguration({ configurable: { indexPath: pgDir, sqlStore: PG_URL, sqlTimeoutMs: 1000 } });
    const executor = await getSqlExecutor(config);
    expect(executor.dialect).toBe("postgres");
    const lite = openIndexStore({ dir: liteDir, manifest: {} });
    try {
      for (const sql of [
        "DELETE FROM cities",
        "INSERT INTO cities (_row, city__raw) VALUES (99, 'x')",
        "WITH d AS (DELETE FROM cities RETURNING city) SELECT city FROM d",
        "SELECT 1 FROM cities; DELETE FROM cities",
      ]) {
        const onPg = await executor.execute(sql);
        const onLite = await lite.execute(sql);
        expect(onPg.ok, `${sql} on PostgreSQL`).toBe(false);
        expect(onLite.ok, `${sql} on SQLite`).toBe(false);
      }
      // The session itself is read-only, whatever statement reaches it.
      const client = new pg.Client({
        connectionString: PG_URL,
        options: `-c default_transaction_read_only=on -c search_path=${schema}`,
      });
      await client.connect();
      await expect(client.query("DELETE FROM cities")).rejects.toThrow(/read-only transaction/);
      await client.end();
      expect(JSON.parse((await executor.execute('SELECT COUNT(*) FROM "cities"')).result)).toEqual([{ "COUNT(*)": 6 }]);
      // The time limit is the server's statement_timeout.
      const slow = await executor.execute("SELECT pg_sleep(3) FROM cities LIMIT 1");
      expect(slow.ok).toBe(false);
      expect(slow.error).toMatch(/time limit of 1000 ms exceeded/);
      expect(slow.ms).toBeLessThan(2500);
    } finally {
      await lite.close();
    }
  });

  it("answers through a role that has only SELECT on the index's schema", async () => {
    const role = `atr_reader_${process.pid}`;
    const secret = "reader-only-pass";
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      await admin.query(`DROP ROLE IF EXISTS ${role}`);
      await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD '${secret}'`);
      await admin.query(`GRANT USAGE ON SCHEMA "${schema}" TO ${role}`);
      await admin.query(`GRANT SELECT ON ALL TABLES IN SCHEMA "${schema}" TO ${role}`);
      const readerUrl = new URL(PG_URL);
      readerUrl.username = role;
      readerUrl.password = secret;
      const r = await answerQuestion(
        { question: "What is the population of Brookhaven?", table_id: "cities" },
        { configurable: { indexPath: pgDir, sqlStore: readerUrl.toString() } },
      );
      expect(r.answer).toBe("212,000");
      const executor = await getSqlExecutor(
        ensureConfiguration({ configurable: { indexPath: pgDir, sqlStore: readerUrl.toString() } }),
      );
      const read = await executor.execute(`SELECT "population" FROM "cities" WHERE "city" = 'Brookhaven'`);
      expect(read.ok, read.result).toBe(true);
      expect(JSON.parse(read.result)).toEqual([{ population: 212000 }]);
      // even on a session that is not read-only, the role cannot write
      const reader = new pg.Client({ connectionString: readerUrl.toString() });
      await reader.connect();
      try {
        await expect(reader.query(`DELETE FROM "${schema}"."cities"`)).rejects.toThrow(/permission denied/);
      } finally {
        await reader.end();
      }
    } finally {
      await closeResources();
      await admin.query(`REVOKE ALL ON ALL TABLES IN SCHEMA "${schema}" FROM ${role}`).catch(() => undefined);
      await admin.query(`REVOKE ALL ON SCHEMA "${schema}" FROM ${role}`).catch(() => undefined);
      await admin.query(`DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
      await admin.end();
    }
  }, 120_000);

  it("reads numbers from text as SQLite's CAST does (the writer's PostgreSQL fragments)", async () => {
    const texts = ["12", " 12.5 pts", "-3", "+4.0e2x", ".5", "5.", "abc", "", "1,200", "3rd", "  -0.25", "1e", "(874)"];
    const index = await openIndex(pgDir);
    const onPg = openIndexStore(index, { url: PG_URL });
    const onLite = openIndexStore({ dir: liteDir, manifest: {} });
    try {
      for (const t of texts) {
        const lit = `'${t.replace(/'/g, "''")}'`;
        const want = JSON.parse(
          (await onLite.execute(`SELECT CAST(${lit} AS REAL) AS r, CAST(${lit} AS INTEGER) AS i FROM "cities" LIMIT 1`))
            .result,
        );
        const got = JSON.parse(
          (await onPg.execute(`SELECT atr_real(${lit}) AS r, atr_int(${lit}) AS i FROM "cities" LIMIT 1`)).result,
        );
        expect(got, JSON.stringify(t)).toEqual(want);
      }
    } finally {
      await onPg.close();
      await onLite.close();
      index.close();
    }
  });

  it("the offline writer's fragments mean on PostgreSQL what they mean on SQLite", async () => {
    const index = await openIndex(pgDir);
    const onPg = openIndexStore(index, { url: PG_URL });
    const onLite = openIndexStore({ dir: liteDir, manifest: {} });
    const statements = (f: SqlFragments) => [
      `SELECT "_row", ${f.instr('"city"', "'o'")} AS v FROM "cities" ORDER BY "_row"`,
      `SELECT "_row" FROM "cities" WHERE ${f.glob('"city"', "[BD]*e?")} ORDER BY "_row"`,
      `SELECT "_row" FROM "cities" WHERE ${f.glob('"region"', "North V*")} ORDER BY "_row"`,
      `SELECT ${f.countTrue('"population" > 60000')} AS v FROM "cities"`,
      `SELECT "_row" FROM "cities" WHERE ${f.notTrue('"population" > 60000')} ORDER BY "_row"`,
      `SELECT "_row" FROM "cities" WHERE ${f.likeText('"city"', "%BROOK%")} ORDER BY "_row"`,
      `SELECT ${f.real('"population__raw"')} AS r, ${f.int('"area_km"')} AS i FROM "cities" ORDER BY "_row"`,
      `SELECT "_row", ${f.number2('"population" / 8.0')} AS v FROM "cities" ORDER BY "_row"`,
      `SELECT ${f.number2('AVG("population")')} AS v, ${f.number2('SUM("population")')} AS s FROM "cities"`,
      `SELECT "_row", ${f.round('"population" / 7.0', 2)} AS v, ${f.round('"population" / 3.0', 5)} AS w FROM "cities" ORDER BY "_row"`,
      `SELECT ${f.weekday("'2026-03-07'")} AS sat, ${f.weekday("'2026-03-08T10:00'")} AS sun, ${f.weekday("NULL")} AS none FROM "cities" LIMIT 1`,
    ];
    try {
      const lite = statements(SQLITE_FRAGMENTS);
      const post = statements(POSTGRES_FRAGMENTS);
      for (let i = 0; i < lite.length; i++) {
        const a = await onLite.execute(lite[i]!);
        const b = await onPg.execute(post[i]!);
        expect(a.ok, `${lite[i]}: ${a.result}`).toBe(true);
        expect(b.ok, `${post[i]}: ${b.result}`).toBe(true);
        expect(JSON.parse(b.result), post[i]).toEqual(JSON.parse(a.result));
        expect(JSON.parse(a.result).length, lite[i]).toBeGreaterThan(0);
      }
    } finally {
      await onPg.close();
      await onLite.close();
      index.close();
    }
  });

  it("answers every examples/ question as the SQLite store does (password from PGPASSWORD)", async () => {
    const saved = process.env.PGPASSWORD;
    process.env.PGPASSWORD = password;
    try {
      const differing: string[] = [];
      for (const ex of examples) {
        const input = { question: ex.question, table_id: ex.table_id, question_id: ex.question_id };
        const onPg = await answerQuestion(input, { configurable: { indexPath: pgDir } });
        const onLite = await answerQuestion(input, { configurable: { indexPath: liteDir } });
        if (onPg.answer !== onLite.answer) differing.push(`${ex.question_id}: ${onPg.answer} ≠ ${onLite.answer}`);
        const sqlSteps = onPg.trace.verifier_decisions.filter((d) => d.sql);
        if (ex.question_id === "ex-03") expect(sqlSteps.length).toBeGreaterThan(0);
      }
      expect(differing).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.PGPASSWORD;
      else process.env.PGPASSWORD = saved;
    }
  }, 180_000);

  it("a build that cannot reach the server fails naming the store, and leaves no index", async () => {
    const dir = join(root, "unreachable");
    await expect(
      buildIndex({
        excelDir: join(EXAMPLES, "tables"),
        docDir: join(EXAMPLES, "docs"),
        savePath: dir,
        sqlStore: "postgres://atr:secret@127.0.0.1:1/postgres",
      }),
    ).rejects.toThrow(/cannot connect to --sql_store postgres:\/\/atr@127\.0\.0\.1:1\/postgres/);
    expect(() => readFileSync(join(dir, "manifest.json"))).toThrow();
  });
});
