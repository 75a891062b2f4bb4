import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { loadViews, ViewsError } from "../../indexing/views.js";
import type { CellEntry, DocChunk } from "../../indexing/types.js";
import { ViewSearch } from "../../retrievers/index-search.js";
import { buildTinyIndex, CLUBS, PASSAGES, RIVERS, type TinyIndex } from "../fixtures/tiny-index.js";

const entries = <T>(dir: string, view: string): T[] => {
  const db = new Database(join(dir, "views.sqlite"), { readonly: true });
  try {
    return (db.prepare(`SELECT json FROM ${view} ORDER BY id`).pluck().all() as string[]).map(
      (j) => JSON.parse(j) as T,
    );
  } finally {
    db.close();
  }
};
const openViews = async (
  dir: string,
  manifest: TinyIndex["manifest"],
  db: TinyIndex["db"],
  tables: TinyIndex["tables"],
) => ViewSearch.open(await loadViews(dir, manifest), { db, tables });

describe("buildViews / loadViews", () => {
  let index: TinyIndex;
  afterAll(() => index?.db.close());

  it("writes every view's entries to views.sqlite + float32 vectors and reports what it wrote", async () => {
    index = await buildTinyIndex();
    expect(index.files).toEqual(["docs.f32", "schema.f32", "cells.f32", "rows.f32", "views.sqlite", "views.json"]);
    expect(index.manifest.settings).toMatchObject({
      documentChunkSize: 512,
      documentChunkOverlap: 64,
      chunkUnit: "approx-tokens",
      cellBudget: 10_000,
      embeddingModel: "offline-hash-v1",
      embeddingDim: 512,
    });
    expect(index.manifest.counts).toMatchObject({ docChunks: 4, schemaEntries: 6, rowEntries: 7 });
    const docs = entries<DocChunk>(index.dir, "docs");
    expect(docs.filter((d) => d.type === "table").map((d) => d.tableId)).toEqual(["clubs", "rivers"]);
    expect(docs.every((d) => d.text.startsWith(`File name: ${d.source}\n`))).toBe(true);
    const cells = entries<CellEntry>(index.dir, "cells");
    expect(new Set(cells.map((c) => c.tableId))).toEqual(new Set(["clubs", "rivers"]));
  });

  it("opens as an IndexSearch: documents, scoped schema, rows of one table, cells", async () => {
    const search = await openViews(index.dir, index.manifest, index.db, index.tables);
    const docs = await search.documents("Danube black sea countries", 2);
    expect(docs[0]!.entry.passageId).toBe("p2");
    const schema = await search.schema("river length", 2, { tableIds: ["clubs"] });
    expect(schema.every((h) => h.entry.tableId === "clubs")).toBe(true);
    const global = await search.schema("river length", 1);
    expect(global[0]!.entry).toMatchObject({ tableId: "rivers", column: "Length km" });
    const rows = await search.rows("Lyon", 2, { tableId: "clubs" });
    expect(rows[0]!.entry).toMatchObject({ tableId: "clubs", rowIdx: 1 });
    expect(await search.rows("Lyon", 2, { tableId: "nope" })).toEqual([]);
    const cells = await search.cells("saint-etienne", 3, { tableIds: ["clubs"] });
    expect(cells[0]!.entry).toMatchObject({ column: "City", value: "Saint Etienne" });
  });

  it("scopes documents to tables: their chunks and the passages of files named after them", async () => {
    const search = await openViews(index.dir, index.manifest, index.db, index.tables);
    const scoped = await search.documents("Danube black sea", 10, { tableIds: ["clubs"] });
    expect(scoped.map((h) => h.entry.source).sort()).toEqual(["clubs.csv", "clubs.json"]);
    const passagesOnly = await search.documents("club", 10, { type: "text", tableIds: ["clubs"] });
    expect(passagesOnly.map((h) => h.entry.passageId)).toEqual(["p1"]);
  });

  it("keeps passages of a file named after no table in every table's scope", async () => {
    const notes = {
      id: "n1",
      file: "notes.json",
      text: "Alpha FC moved its training ground to the river meadow in 2019.",
    };
    const withNotes = await buildTinyIndex(undefined, [...PASSAGES, notes]);
    try {
      const search = await openViews(withNotes.dir, withNotes.manifest, withNotes.db, withNotes.tables);
      const scoped = await search.documents("training ground", 10, { type: "text", tableIds: ["clubs"] });
      expect(scoped.map((h) => h.entry.passageId).sort()).toEqual(["n1", "p1"]);
      // (A passage file named after another table stays out: p2 belongs to rivers.)
      const rivers = await search.documents("training ground", 10, { type: "text", tableIds: ["rivers"] });
      expect(rivers.map((h) => h.entry.passageId).sort()).toEqual(["n1", "p2"]);
    } finally {
      withNotes.db.close();
    }
  });

  it("scoped cell search sees values outside the budgeted cell index", async () => {
    const small = await buildTinyIndex([CLUBS, RIVERS], [], { cellBudget: 2, cellPerTableQuota: 1 });
    const search = await small.open();
    expect(small.manifest.counts.cellEntries).toBe(2);
    const full = await search.cells("Lille", 3, { tableIds: ["clubs"] });
    expect(full[0]!.entry.value).toBe("Lille");
    const indexOnly = await small.open({ fullValuePool: false });
    expect((await indexOnly.cells("Lille", 3, { tableIds: ["clubs"] })).some((h) => h.entry.value === "Lille")).toBe(
      false,
    );
    small.db.close();
  });

  it("refuses an index whose files disagree with the manifest, listing every problem", async () => {
    const wrong = { ...index.manifest, counts: { ...index.manifest.counts, rowEntries: 99, cellEntries: 1 } };
    await expect(loadViews(index.dir, wrong)).rejects.toThrow(ViewsError);
    await expect(loadViews(index.dir, wrong)).rejects.toThrow(
      /cellEntries: \d+ entries on disk, manifest says 1[\s\S]*rowEntries: 7 entries on disk, manifest says 99/,
    );
    const other = await buildTinyIndex([CLUBS], []);
    writeFileSync(join(other.dir, "rows.f32"), Buffer.alloc(12));
    await expect(loadViews(other.dir, other.manifest)).rejects.toThrow(/rows\.f32.*rebuild/);
    other.db.close();
  });

  it("rejects invalid build options", async () => {
    await expect(buildTinyIndex([CLUBS], [], { cellBudget: 0 })).rejects.toThrow(/--budget/);
    await expect(buildTinyIndex([CLUBS], [], { rowBudget: -1 })).rejects.toThrow(/--row_budget/);
    await expect(buildTinyIndex([CLUBS], [], { chunkSize: 64, chunkOverlap: 64 })).rejects.toThrow(/overlap/);
  });
});
