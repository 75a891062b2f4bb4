/**
 * With View 5 in PostgreSQL an index keeps its tables.sqlite by design (the offline backbone's
 * in-process readers use it, docs/SCALING-OUT.md), so the two copies must agree. On a generated
 * table over LARGE_TABLE_ROWS (so the large-table statistics `_values`, `_value_tokens`,
 * `_table_stats`, `_column_stats` exist and are read): the PostgreSQL schema holds the same rows as
 * tables.sqlite, table by table; the graph answers as on the SQLite store; a changed cell or a missing
 * statistics row on the server is found, and `atr inspect-index` fails the index naming the table.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import pg from "pg";
import { answerQuestion } from "../../graph/answer.js";
import { closeCachedIndexes, closeResources } from "../../graph/resources.js";
import { buildIndex } from "../../indexing/build-index.js";
import { pgContentViolations } from "../../indexing/pg-compare.js";
import { LARGE_TABLE_ROWS } from "../../indexing/table-size.js";
import { cityOf, nameOf, writeScaleTable } from "../../scripts/scale-data.js";
import { describePg, PG_URL } from "../fixtures/pg-server.js";
import { spawnAtr } from "../fixtures/spawn-atr.js";

describePg("View 5 in PostgreSQL agrees with the index's tables.sqlite", () => {
  const root = mkdtempSync(join(tmpdir(), "atr-pg-agree-"));
  const pgDir = join(root, "pg");
  const liteDir = join(root, "lite");
  const rows = LARGE_TABLE_ROWS + 1000;
  let schema = "";

  beforeAll(async () => {
    const tables = join(root, "tables");
    const docs = join(root, "docs");
    writeScaleTable(tables, "people", rows);
    mkdirSync(docs);
    await buildIndex({ excelDir: tables, docDir: docs, savePath: pgDir, sqlStore: PG_URL });
    await buildIndex({ excelDir: tables, docDir: docs, savePath: liteDir });
    schema = JSON.parse(readFileSync(join(pgDir, "manifest.json"), "utf8")).sqlStore.schema;
  }, 240_000);
  afterAll(async () => {
    await closeResources();
    closeCachedIndexes();
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
    rmSync(root, { recursive: true, force: true });
  });

  it("holds the same rows in every copied table, and answers as the SQLite store", async () => {
    expect(await pgContentViolations(join(pgDir, "tables.sqlite"), PG_URL, schema)).toEqual([]);
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    const { rows: stats } = await client.query(`SELECT count(*)::int AS n FROM "${schema}"."_values"`);
    expect(stats[0].n).toBeGreaterThan(0); // the large-table statistics were compared too
    // the same B-tree indexes as tables.sqlite (per-column indexes of a large table, _values_key)
    const { rows: indexes } = await client.query(`SELECT indexname FROM pg_indexes WHERE schemaname = $1`, [schema]);
    const names = indexes.map((r) => String(r.indexname));
    expect(names).toContain("_values_key");
    expect(names.filter((n) => n.startsWith("_ix_")).length).toBeGreaterThanOrEqual(5);
    await client.end();

    const questions = [
      `What is the score of ${nameOf(1234)}?`,
      `How many people are from ${cityOf(77)}?`,
      "Who has the highest score?",
    ];
    const differing: string[] = [];
    for (const question of questions) {
      const input = { question, table_id: "people" };
      const onPg = await answerQuestion(input, { configurable: { indexPath: pgDir, sqlStore: PG_URL } });
      const onLite = await answerQuestion(input, { configurable: { indexPath: liteDir } });
      expect(onLite.answer, question).not.toBe("");
      if (onPg.answer !== onLite.answer) differing.push(`${question}: ${onPg.answer} ≠ ${onLite.answer}`);
    }
    expect(differing).toEqual([]);
  }, 240_000);

  it("finds a changed cell or a missing statistics row, and inspect-index fails the index", async () => {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      await client.query(`UPDATE "${schema}"."people" SET "city__raw" = 'Elsewhere' WHERE "_row" = 5`);
      await client.query(
        `DELETE FROM "${schema}"."_values" WHERE ctid = (SELECT ctid FROM "${schema}"."_values" LIMIT 1)`,
      );
    } finally {
      await client.end();
    }
    const found = await pgContentViolations(join(pgDir, "tables.sqlite"), PG_URL, schema);
    expect(found).toHaveLength(2);
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/table "people" holds other values than in tables\.sqlite/),
        expect.stringMatching(/table "_values" has \d+ rows, tables\.sqlite \d+/),
      ]),
    );
    const inspect = await spawnAtr(["inspect-index", pgDir], {
      PGPASSWORD: decodeURIComponent(new URL(PG_URL).password),
    });
    expect(inspect.code).toBe(1);
    expect(inspect.stderr).toMatch(/table "people" holds other values than in tables\.sqlite/);
  }, 120_000);
});
