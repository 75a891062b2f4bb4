/**
 * Retrieval through the view retrievers: an `atr run --emit_trace` record's atr_trace carries the
 * retriever runs of its question — node, retriever, query, settings, documents — and the documents
 * are what the node used (gather's chunks, SQL's allowed columns).
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { answerQuestion } from "../../graph/answer.js";
import type { RetrievalRecord } from "../../graph/retrieval-trace.js";
import { loadQuestions } from "../../evals/dataset.js";
import { runBatch } from "../../evals/runner.js";
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

  it("without --emit_trace no retrieval is recorded, and the answer is the same", async () => {
    const input = { question: "How many clubs were founded before 1900?", question_id: "r2", table_id: "clubs" };
    const configurable = { indexPath: index.dir, routerType: "fixed" as const, forceRoute: "SQL" as const };
    const recorded = await answerQuestion(input, { configurable });
    const unrecorded = await answerQuestion(input, { configurable, recordRetrievals: false });
    expect(recorded.trace.retrievals?.length).toBeGreaterThan(0);
    expect(unrecorded.trace.retrievals).toBeUndefined();
    expect(unrecorded.answer).toBe(recorded.answer);
    expect(unrecorded.trace.verifier_decisions).toEqual(recorded.trace.verifier_decisions);
    expect(unrecorded.provenance).toEqual(recorded.provenance);
  });

  it("atr run tells the answer function whether the trace is written", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atr-rtrace-"));
    writeFileSync(
      join(dir, "q.jsonl"),
      `${JSON.stringify({ question_id: "r3", question: "How many clubs are there?" })}\n`,
    );
    const seen: Array<boolean | undefined> = [];
    for (const emitTrace of [true, false]) {
      await runBatch({
        questions: loadQuestions(join(dir, "q.jsonl")),
        answer: async (_input, options) => {
          seen.push(options.trace);
          return { answer: "1" };
        },
        outputPath: join(dir, `out-${emitTrace}.jsonl`),
        emitTrace,
      });
    }
    expect(seen).toEqual([true, false]);
  });
});
