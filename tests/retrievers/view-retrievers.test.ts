import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CellRetriever,
  PassageRetriever,
  RowRetriever,
  SchemaRetriever,
  TableChunkRetriever,
} from "../../retrievers/view-retrievers.js";
import { AsyncLocalStorage } from "node:async_hooks";
import { RunnableLambda } from "@langchain/core/runnables";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { RetrieverSearch } from "../../retrievers/retriever-search.js";
import { RetrievalRecorder, traceMetadata } from "../../graph/retrieval-trace.js";
import { buildTinyIndex, type TinyIndex } from "../fixtures/tiny-index.js";

describe("Views 1–4 as LangChain retrievers", () => {
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

  it("RetrieverSearch runs each view's own retriever: passages alone, tables alone, both together, schema, cells, rows", async () => {
    // (LangGraph sets this up in the graph; here the caller's run reaches the retrievers the same way.)
    AsyncLocalStorageProviderSingleton.initializeGlobalInstance(new AsyncLocalStorage());
    const traced = new RetrieverSearch(await index.open());
    const recorder = new RetrievalRecorder();
    await RunnableLambda.from(async () => {
      await traced.documents("Danube", 3, { type: "text" });
      await traced.documents("Danube", 3, { type: "table" });
      await traced.documents("Danube", 3);
      await traced.schema("river length", 2);
      await traced.cells("Lyon", 2);
      await traced.rows("Rhone", 2, { tableId: "rivers" });
    }).invoke(null, { callbacks: [recorder] });
    expect(recorder.records.map((r) => r.retriever)).toEqual([
      "PassageRetriever",
      "TableChunkRetriever",
      "ChunkRetriever",
      "SchemaRetriever",
      "CellRetriever",
      "RowRetriever",
    ]);
    expect(recorder.records[0]!.documents.every((d) => d.metadata.view === "passages")).toBe(true);
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
});
