import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openViews, readJsonl, ViewsError } from "../../indexing/views.js";
import type { CellEntry, DocChunk } from "../../indexing/types.js";
import { buildTinyIndex, CLUBS, RIVERS, type TinyIndex } from "../fixtures/tiny-index.js";

describe("buildViews / openViews", () => {
  let index: TinyIndex;
  afterAll(() => index?.db.close());

  it("writes every view as JSON lines + float32 vectors and reports what it wrote", async () => {
    index = await buildTinyIndex();
    expect(index.files).toEqual(["docs.jsonl", "docs.f32", "schema.jsonl", "schema.f32", "cells.jsonl", "cells.f32", "rows.jsonl", "rows.f32", "views.json"]);
    expect(index.manifest.settings).toMatchObject({ documentChunkSize: 512, documentChunkOverlap: 64, chunkUnit: "approx-tokens", cellBudget: 10_000, embeddingModel: "offline-hash-v1", embeddingDim: 512 });
    expect(index.manifest.counts).toMatchObject({ docChunks: 4, schemaEntries: 6, rowEntries: 7 });
    const docs = await readJsonl<DocChunk>(join(index.dir, "docs.jsonl"));
    expect(docs.filter((d) => d.type === "table").map((d) => d.tableId)).toEqual(["clubs", "rivers"]);
    expect(docs.every((d) => d.text.startsWith(`File name: ${d.source}\n`))).toBe(true);
    const cells = await readJsonl<CellEntry>(join(index.dir, "cells.jsonl"));
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

  it("scoped cell search sees values outside the budgeted cell index", async () => {
    const small = await buildTinyIndex([CLUBS, RIVERS], [], { cellBudget: 2, cellPerTableQuota: 1 });
    const search = await small.open();
    expect(small.manifest.counts.cellEntries).toBe(2);
    const full = await search.cells("Lille", 3, { tableIds: ["clubs"] });
    expect(full[0]!.entry.value).toBe("Lille");
    const indexOnly = await small.open({ fullValuePool: false });
    expect((await indexOnly.cells("Lille", 3, { tableIds: ["clubs"] })).some((h) => h.entry.value === "Lille")).toBe(false);
    small.db.close();
  });

  it("refuses an index whose files disagree with the manifest, listing every problem", async () => {
    const wrong = { ...index.manifest, counts: { ...index.manifest.counts, rowEntries: 99, cellEntries: 1 } };
    await expect(openViews(index.dir, wrong, index.db, index.tables)).rejects.toThrow(ViewsError);
    await expect(openViews(index.dir, wrong, index.db, index.tables)).rejects.toThrow(/rowEntries: 7 entries on disk, manifest says 99[\s\S]*rebuild|cellEntries/);
    const other = await buildTinyIndex([CLUBS], []);
    writeFileSync(join(other.dir, "rows.f32"), Buffer.alloc(12));
    await expect(openViews(other.dir, other.manifest, other.db, other.tables)).rejects.toThrow(/rows\.f32.*rebuild/);
    other.db.close();
  });

  it("rejects invalid build options", async () => {
    await expect(buildTinyIndex([CLUBS], [], { cellBudget: 0 })).rejects.toThrow(/--budget/);
    await expect(buildTinyIndex([CLUBS], [], { rowBudget: -1 })).rejects.toThrow(/--row_budget/);
    await expect(buildTinyIndex([CLUBS], [], { chunkSize: 64, chunkOverlap: 64 })).rejects.toThrow(/overlap/);
  });
});
