import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CellRetriever,
  PassageRetriever,
  RowRetriever,
  SchemaRetriever,
  TableChunkRetriever,
} from "../../retrievers/view-retrievers.js";
import { readTableRows, TableRowsError, TableRowsRetriever } from "../../retrievers/table-rows.js";
import { RetrieverSearch } from "../../retrievers/retriever-search.js";
import { RetrievalRecorder, traceMetadata } from "../../graph/retrieval-trace.js";
import { writeSqlStore, openSqlStore } from "../../indexing/sql-store.js";
import type { RawTable } from "../../indexing/types.js";
import { buildTinyIndex, type TinyIndex } from "../fixtures/tiny-index.js";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

describe("the five views as LangChain retrievers", () => {
  let index: TinyIndex;
  beforeAll(async () => {
    index = await buildTinyIndex();
  });
  afterAll(() => index.db.close());

  it("View 1 returns passage chunks, View 2 table chunks with their table id", async () => {
    const search = await index.open();
    const passages = await new PassageRetriever({ search, k: 5 }).invoke("Danube black sea");
    expect(passages.every((d) => d.metadata.type === "text")).toBe(true);
    expect(passages[0]!.metadata.passageId).toBe("p2");
    const tables = await new TableChunkRetriever({ search, k: 5 }).invoke("Danube Germany");
    expect(tables.every((d) => d.metadata.type === "table")).toBe(true);
    expect(tables[0]!.metadata.tableId).toBe("rivers");
    expect(tables[0]!.pageContent).toContain("| Danube | 2850 | Germany |");
  });

  it("Views 3–4 return columns, cells and rows with scores", async () => {
    const search = await index.open();
    const schema = await new SchemaRetriever({ search, k: 1 }).invoke("length of the river");
    expect(schema[0]!.metadata).toMatchObject({ tableId: "rivers", column: "Length km", view: "schema" });
    const cells = await new CellRetriever({ search, k: 2, tableIds: ["clubs"] }).invoke("Lyon");
    expect(cells[0]!.metadata).toMatchObject({ column: "City", value: "Lyon" });
    const rows = await new RowRetriever({ search, k: 1, tableId: "rivers" }).invoke("Rhone");
    expect(rows[0]!.pageContent).toBe("Table rivers | River: Rhone | Length km: 813 | Country: France");
    expect(typeof rows[0]!.metadata.score).toBe("number");
  });

  it("RetrieverSearch returns the wrapped search's very hits, each call a retriever run with its query, settings and documents", async () => {
    const search = await index.open();
    const traced = new RetrieverSearch(search);
    expect(await traced.documents("Danube", 4)).toEqual(await search.documents("Danube", 4));
    expect(await traced.documents("Danube", 3, { type: "table" })).toEqual(
      await search.documents("Danube", 3, { type: "table" }),
    );
    expect(await traced.schema("river length", 2, { tableIds: ["rivers"] })).toEqual(
      await search.schema("river length", 2, { tableIds: ["rivers"] }),
    );
    expect(await traced.cells("Lyon", 3)).toEqual(await search.cells("Lyon", 3));
    expect(await traced.rows("Rhone", 2, { tableId: "rivers" })).toEqual(
      await search.rows("Rhone", 2, { tableId: "rivers" }),
    );
    const options = { schemaTopK: 3, cellTopK: 2, tableIds: ["clubs"] };
    expect(await traced.schemaCells("club in Lyon", ["Lyon"], options)).toEqual(
      await search.schemaCells("club in Lyon", ["Lyon"], options),
    );

    const recorder = new RetrievalRecorder();
    const cells = new CellRetriever({ search, k: 2, tableIds: ["clubs"] });
    const docs = await cells.invoke("Lyon", { callbacks: [recorder] });
    expect(recorder.records).toEqual([
      {
        retriever: "CellRetriever",
        query: "Lyon",
        settings: { k: 2, tableIds: ["clubs"] },
        documents: docs.map((d) => ({ text: d.pageContent, metadata: traceMetadata(d.metadata) })),
      },
    ]);
    expect(recorder.records[0]!.documents[0]!.metadata).toMatchObject({
      view: "cells",
      column: "City",
      value: "Lyon",
      score: expect.any(Number),
    });
    const rows = await new RowRetriever({ search, k: 1, tableId: "rivers" }).invoke("Rhone", { callbacks: [recorder] });
    expect(rows[0]!.metadata.values).toBeDefined();
    expect(recorder.records[1]!.documents[0]!.metadata).toEqual({
      tableId: "rivers",
      rowIdx: rows[0]!.metadata.rowIdx,
      view: "rows",
      score: rows[0]!.metadata.score,
    });
  });

  it("View 5 reads rows of the SQL store for a table and an equality filter", async () => {
    const rows = readTableRows(index.db, index.tables, { tableId: "rivers", where: { Country: "France" } });
    expect(rows.map((r) => r.values.River)).toEqual(["Loire", "Rhone"]);
    const docs = await new TableRowsRetriever({ db: index.db, tables: index.tables, tableId: "clubs" }).invoke(
      "City = Lille",
    );
    expect(docs).toHaveLength(1);
    expect(docs[0]!.metadata).toMatchObject({ rowIdx: 3, values: { Club: "Delta Town" } });
  });

  it("binds filter values as parameters (quotes and SQL in a value are just text)", async () => {
    const raw: RawTable = {
      id: "books",
      file: "books.csv",
      header: ["Publisher", "Title"],
      rows: [
        ["O'Reilly", "SQL"],
        ["x' OR '1'='1", "Trick"],
      ],
    };
    const dir = mkdtempSync(join(tmpdir(), "atr-rows-"));
    const [schema] = writeSqlStore(join(dir, "tables.sqlite"), [raw]);
    const db = openSqlStore(join(dir, "tables.sqlite"));
    const tables = new Map([["books", schema!]]);
    expect(
      readTableRows(db, tables, { tableId: "books", where: { Publisher: "O'Reilly" } }).map((r) => r.values.Title),
    ).toEqual(["SQL"]);
    expect(readTableRows(db, tables, { tableId: "books", where: { Publisher: "' OR 1=1 --" } })).toEqual([]);
    expect(() => readTableRows(db, tables, { tableId: "books", where: { "Title; DROP TABLE x": "a" } })).toThrow(
      TableRowsError,
    );
    expect(() => readTableRows(db, tables, { tableId: "nope" })).toThrow(/unknown table id/);
    db.close();
  });
});
