/**
 * Whether an index's PostgreSQL schema holds the same rows as its tables.sqlite. Answering reads
 * View 5 from both (guarded SQL on PostgreSQL, the offline backbone's in-process readers on the local
 * file, docs/SCALING-OUT.md), so `atr inspect-index` compares every copied table in full: row count
 * and a digest of the rows as a multiset (the sum of each row's 64-bit hash, so neither side has to
 * sort). Integers are compared exactly (BigInt on SQLite, BIGINT text on PostgreSQL); reals by their
 * shortest decimal text; the `index_schema` row that only PostgreSQL's `_meta` has is left out.
 */
import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import pg from "pg";
import { quoteIdent } from "./identifiers.js";
import { copyableTables, redactUrl } from "./pg-store.js";

const MASK = (1n << 64n) - 1n;

/** Order-independent digest of rows: count and the 64-bit sum of each row's hash. */
class RowDigest {
  count = 0;
  sum = 0n;
  add(row: unknown[]): void {
    const text = JSON.stringify(row.map((v) => (v === null || v === undefined ? null : String(v))));
    this.sum = (this.sum + createHash("sha1").update(text).digest().readBigUInt64BE(0)) & MASK;
    this.count++;
  }
}

function localDigest(db: Database.Database, table: string): RowDigest {
  const digest = new RowDigest();
  const stmt = db
    .prepare(`SELECT * FROM ${quoteIdent(table)}`)
    .raw(true)
    .safeIntegers(true);
  for (const row of stmt.iterate() as IterableIterator<unknown[]>) digest.add(row);
  return digest;
}

async function remoteDigest(client: pg.Client, schema: string, table: string, columns: string[]): Promise<RowDigest> {
  const digest = new RowDigest();
  const where = table === "_meta" ? ` WHERE "key" <> 'index_schema'` : "";
  await client.query("BEGIN READ ONLY");
  try {
    await client.query(
      `DECLARE atr_compare NO SCROLL CURSOR FOR SELECT ${columns.map(quoteIdent).join(", ")} FROM ${quoteIdent(schema)}.${quoteIdent(table)}${where}`,
    );
    for (;;) {
      const { rows } = await client.query<unknown[]>({ text: "FETCH 5000 FROM atr_compare", rowMode: "array" });
      for (const row of rows) digest.add(row);
      if (rows.length < 5000) break;
    }
  } finally {
    await client.query("ROLLBACK");
  }
  return digest;
}

/** Every difference between the tables of `sqlitePath` and schema `schema` at `url` (empty = the same rows). */
export async function pgContentViolations(sqlitePath: string, url: string, schema: string): Promise<string[]> {
  const where = `${redactUrl(url)} schema ${schema}`;
  const db = new Database(sqlitePath, { readonly: true, fileMustExist: true });
  const client = new pg.Client({ connectionString: url });
  const out: string[] = [];
  try {
    await client.connect();
    const { rows: present } = await client.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = $1",
      [schema],
    );
    const remote = new Set(present.map((r) => r.table_name));
    for (const table of copyableTables(db)) {
      if (!remote.has(table)) {
        out.push(`${where}: table "${table}" of tables.sqlite is missing`);
        continue;
      }
      const columns = (db.prepare(`PRAGMA table_info(${quoteIdent(table)})`).all() as Array<{ name: string }>).map(
        (c) => c.name,
      );
      const [mine, theirs] = [localDigest(db, table), await remoteDigest(client, schema, table, columns)];
      if (mine.count !== theirs.count)
        out.push(`${where}: table "${table}" has ${theirs.count} rows, tables.sqlite ${mine.count}`);
      else if (mine.sum !== theirs.sum)
        out.push(`${where}: table "${table}" holds other values than in tables.sqlite (same ${mine.count} rows)`);
    }
  } catch (error) {
    out.push(`${where}: cannot compare with tables.sqlite (${(error as Error).message})`);
  } finally {
    db.close();
    await client.end().catch(() => undefined);
  }
  return out;
}
