/**
 * Records the retriever runs of one question (retrievers/view-retrievers.ts, reached through the
 * index's search) for `atr_trace.retrievals`: which node asked, which view, the query, the settings
 * (k and scope) and the documents returned. LangSmith gets the same runs from its own tracer.
 */
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { DocumentInterface } from "@langchain/core/documents";
import type { Serialized } from "@langchain/core/load/serializable";

/** Characters of each document's text kept in the trace (the metadata identifies the entry). */
export const TRACE_TEXT_CHARS = 160;

/**
 * A document's scalar metadata (ids, table, column, value, view, score); lists and objects such as
 * a chunk's cell links or a row's values are left out — they tripled the size of HybridQA traces.
 */
export function traceMetadata(metadata: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(metadata).filter(([, v]) => v === null || typeof v !== "object"));
}
/** Run metadata keys the view retrievers set (the rest is the graph's run metadata). */
const SETTING_KEYS = ["k", "type", "tableIds", "tableId", "columns", "allowedColumns"] as const;

export interface RetrievalRecord {
  /** The graph node that asked (LangGraph's `langgraph_node`), when inside the graph. */
  node?: string;
  /** Retriever class, e.g. "SchemaRetriever". */
  retriever: string;
  query: string;
  settings: Record<string, unknown>;
  documents: Array<{ text: string; metadata: Record<string, unknown> }>;
  error?: string;
}

export class RetrievalRecorder extends BaseCallbackHandler {
  name = "atr_retrieval_recorder";
  // The trace must be complete when the graph returns.
  awaitHandlers = true;
  // Only retriever runs are recorded: LangChain then skips this handler for every node, edge and
  // model run (WTQ dev 100: 100.7 → 94.8 ms CPU per question).
  override ignoreChain = true;
  override ignoreLLM = true;
  override ignoreAgent = true;
  override ignoreCustomEvent = true;
  readonly records: RetrievalRecord[] = [];
  private readonly open = new Map<string, RetrievalRecord>();

  override handleRetrieverStart(
    retriever: Serialized,
    query: string,
    runId: string,
    _parentRunId?: string,
    _tags?: string[],
    metadata?: Record<string, unknown>,
  ): void {
    const settings: Record<string, unknown> = {};
    for (const key of SETTING_KEYS) if (metadata?.[key] !== undefined) settings[key] = metadata[key];
    const node = typeof metadata?.langgraph_node === "string" ? metadata.langgraph_node : undefined;
    const record: RetrievalRecord = {
      ...(node ? { node } : {}),
      retriever: String(retriever.id?.at(-1) ?? "retriever"),
      query,
      settings,
      documents: [],
    };
    this.records.push(record);
    this.open.set(runId, record);
  }

  override handleRetrieverEnd(documents: DocumentInterface[], runId: string): void {
    const record = this.open.get(runId);
    if (!record) return;
    this.open.delete(runId);
    record.documents = documents.map((d) => ({
      text: d.pageContent.slice(0, TRACE_TEXT_CHARS),
      metadata: traceMetadata(d.metadata),
    }));
  }

  override handleRetrieverError(error: unknown, runId: string): void {
    const record = this.open.get(runId);
    if (!record) return;
    this.open.delete(runId);
    record.error = error instanceof Error ? error.message : String(error);
  }
}
