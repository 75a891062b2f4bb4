/**
 * Retrieval through the view retrievers: an `atr run --emit_trace` record's atr_trace carries the
 * retriever runs of its question — node, retriever, query, settings, documents — and the documents
 * are what the node used (gather's chunks, SQL's allowed columns).
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RetrievalRecord } from "../../graph/retrieval-trace.js";
import { useExampleIndex } from "../fixtures/example-index.js";
import { runCli } from "../fixtures/run-cli.js";

const index = useExampleIndex();

describe("retriever runs in the emitted trace", () => {
  it("atr run --emit_trace writes each retrieval with its query and documents", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atr-rtrace-"));
    const question = "How many clubs were founded before 1900?";
    writeFileSync(
      join(dir, "q.jsonl"),
      `${JSON.stringify({ question_id: "r1", question, table_id: "clubs", answer: ["1"] })}\n`,
    );
    const out = join(dir, "out.jsonl");
    const ran = await runCli([
      "run",
      "--data_file_path",
      join(dir, "q.jsonl"),
      "--index_path",
      index.dir,
      "--save_file_path",
      out,
      "--emit_trace",
      "--no_progress",
      "--router_type",
      "fixed",
      "--force_route",
      "SQL",
      "--no_escalation",
    ]);
    expect(ran.code).toBe(0);
    const written = readdirSync(dir).find((f) => f.startsWith("out_"))!; // atr run stamps the file name
    const record = JSON.parse(readFileSync(join(dir, written), "utf8").trim());
    const retrievals = record.atr_trace.retrievals as RetrievalRecord[];

    const gather = retrievals.filter((r) => r.node === "gather");
    expect(gather.length).toBeGreaterThan(0);
    expect(gather[0]).toMatchObject({ retriever: "ChunkRetriever", settings: { k: 10, tableIds: ["clubs"] } });
    expect(gather[0]!.documents.length).toBeGreaterThan(0);
    expect(gather[0]!.documents[0]!.metadata).toMatchObject({ view: "chunks", score: expect.any(Number) });

    const schema = retrievals.find((r) => r.node === "SQL" && r.retriever === "SchemaRetriever");
    expect(schema).toBeDefined();
    expect(schema!.query).toContain(question);
    expect(schema!.settings).toMatchObject({ k: 5, tableIds: ["clubs"] });
    const columns = schema!.documents.map((d) => d.metadata.column);
    expect(columns).toContain("Founded");
    expect(
      schema!.documents.every((d) => d.metadata.tableId === "clubs" && typeof d.text === "string" && d.text !== ""),
    ).toBe(true);
  });
});
