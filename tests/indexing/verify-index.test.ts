/**
 * `atr inspect-index` runs every check answering runs (and the full ones), so an index it calls
 * "verified OK" is one answering opens; and a batch keeps the index it opened when the directory is
 * rebuilt under it.
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildIndex } from "../../indexing/build-index.js";
import { IndexVerificationError } from "../../indexing/manifest.js";
import { openIndex } from "../../indexing/open-index.js";
import { closeResources, getSqlExecutor, pinIndex, getIndex } from "../../graph/resources.js";
import { ensureConfiguration } from "../../graph/configuration.js";
import type { SearchableIndex } from "../../retrievers/open-search.js";
import { runCli } from "../fixtures/run-cli.js";

let root: string;
let tables: string;
let docs: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "atr-verify-"));
  tables = join(root, "tables");
  docs = join(root, "docs");
  mkdirSync(tables);
  mkdirSync(docs);
  writeFileSync(
    join(tables, "clubs.csv"),
    "Club,Founded,City\nAlder FC,1901,Brackwater\nBirch Town,1911,Carrow\nCedar United,1921,Dunmere\n",
  );
  writeFileSync(join(tables, "rivers.csv"), "River,Length\nOrme,120\nTeal,85\n");
  writeFileSync(join(docs, "notes.txt"), "Alder FC plays in Brackwater.");
});
afterAll(async () => {
  await closeResources();
  rmSync(root, { recursive: true, force: true });
});

let n = 0;
async function fresh(): Promise<string> {
  const save = join(root, `index-${n++}`);
  await buildIndex({ excelDir: tables, docDir: docs, savePath: save });
  return save;
}

/** Rewrites manifest.json with sizes and checksums recomputed (a careful tamperer). */
function recomputeChecksums(dir: string, edit: (m: Record<string, any>) => void = () => {}): void {
  const path = join(dir, "manifest.json");
  const m = JSON.parse(readFileSync(path, "utf8"));
  edit(m);
  for (const file of Object.keys(m.checksums)) {
    m.checksums[file] = createHash("sha256")
      .update(readFileSync(join(dir, file)))
      .digest("hex");
    m.sizes[file] = statSync(join(dir, file)).size;
  }
  writeFileSync(path, JSON.stringify(m, null, 2));
}

async function inspect(dir: string) {
  return runCli(["inspect-index", dir]);
}

describe("inspect-index runs the checks answering runs", () => {
  it("passes a fresh index, as answering does", async () => {
    const dir = await fresh();
    const res = await inspect(dir);
    expect(res.code).toBe(0);
    expect(res.out).toMatch(/verified OK/);
    (await openIndex(dir)).close();
  });

  it("an edited counts.tables: both refuse", async () => {
    const dir = await fresh();
    recomputeChecksums(dir, (m) => (m.counts.tables = 3));
    await expect(openIndex(dir)).rejects.toThrow(/tables\.sqlite has 2 tables but counts\.tables is 3/);
    const res = await inspect(dir);
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/tables\.sqlite has 2 tables but counts\.tables is 3/);
  });

  it("a truncated cells.f32 (checksums recomputed or not): both refuse", async () => {
    const dir = await fresh();
    truncateSync(join(dir, "cells.f32"), 100);
    await expect(openIndex(dir)).rejects.toThrow(/cells\.f32 has 100 bytes but the manifest records/);
    expect((await inspect(dir)).err).toMatch(/cells\.f32 has 100 bytes/);
    recomputeChecksums(dir);
    await expect(openIndex(dir)).rejects.toThrow(
      /cells\.f32: holds .* vectors of dim 512, but the view has \d+ entries/,
    );
    const res = await inspect(dir);
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/cells\.f32: holds .* vectors/);
  });

  it("random bytes in tables.sqlite (checksums recomputed): both refuse", async () => {
    const dir = await fresh();
    const size = statSync(join(dir, "tables.sqlite")).size;
    writeFileSync(
      join(dir, "tables.sqlite"),
      Buffer.from(Array.from({ length: size }, (_, i) => (i * 7919 + 13) % 256)),
    );
    recomputeChecksums(dir);
    await expect(openIndex(dir)).rejects.toThrow(IndexVerificationError);
    await expect(openIndex(dir)).rejects.toThrow(/not a database|not a View 5 store/);
    const res = await inspect(dir);
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/not a database|not a View 5 store/);
  });

  it("a dropped data table (checksums recomputed): both refuse", async () => {
    const dir = await fresh();
    const db = new Database(join(dir, "tables.sqlite"));
    db.exec('DROP TABLE "rivers"');
    db.close();
    recomputeChecksums(dir);
    await expect(openIndex(dir)).rejects.toThrow(/table "rivers" \(rivers\) is listed in _tables but missing/);
    const res = await inspect(dir);
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/table "rivers" \(rivers\) is listed in _tables but missing/);
  });

  it("rows deleted from a data table (checksums recomputed): the full check counts them", async () => {
    const dir = await fresh();
    const db = new Database(join(dir, "tables.sqlite"));
    db.exec('DELETE FROM "clubs" WHERE "_row" = 2');
    db.close();
    recomputeChecksums(dir);
    const res = await inspect(dir);
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/table "clubs" has 2 rows but _tables records 3/);
  });

  it("a changed byte of the same size: the full check catches it (answering checks sizes only)", async () => {
    const dir = await fresh();
    const path = join(dir, "docs.f32");
    const bytes = readFileSync(path);
    bytes[10] = bytes[10]! ^ 0xff;
    writeFileSync(path, bytes);
    const res = await inspect(dir);
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/docs\.f32 does not match its checksum/);
  });
});

describe("a batch keeps the index it opened", () => {
  it("a rebuild under a pinned index changes nothing it reads, and its SQL executor refuses, naming the rebuild", async () => {
    const save = join(root, "pinned");
    await buildIndex({ excelDir: tables, docDir: docs, savePath: save });
    const config = ensureConfiguration({ configurable: { indexPath: save } });
    const pinned = (await pinIndex(config)) as SearchableIndex;
    const executor = await getSqlExecutor(config);
    expect((await executor.execute('SELECT "club" FROM "clubs" WHERE "_row" = 0')).result).toMatch(/Alder FC/);
    const before = await pinned.search.rows("Cedar United", 1, { tableId: "clubs" });

    // the directory is rebuilt from other data while the batch runs
    const other = join(root, "other-tables");
    mkdirSync(other);
    writeFileSync(join(other, "clubs.csv"), "Club,Founded,City\nElm Rovers,1950,Fenwick\n");
    await buildIndex({ excelDir: other, docDir: docs, savePath: save });

    expect(await getIndex(config)).toBe(pinned);
    const after = await pinned.search.rows("Cedar United", 1, { tableId: "clubs" });
    expect(after[0]!.entry).toEqual(before[0]!.entry);
    expect(pinned.db.prepare('SELECT COUNT(*) FROM "clubs"').pluck().get()).toBe(3);
    expect(pinned.tables.has("rivers")).toBe(true);
    await expect((await getSqlExecutor(config)).execute('SELECT "club" FROM "clubs"')).rejects.toThrow(
      /was rebuilt while this process was using it/,
    );
    await closeResources();
  });
});
