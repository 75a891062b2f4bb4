/**
 * gather (reference §2.3 step 3, §4.6): documents for the sub-query from Views 1–2 (reranked top
 * 10), the 5-chunk selection, the restored schema and the rendered text evidence. A retrieval error
 * leaves the sub-query with no chunks (the primitives then work from the other views).
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { ensureConfiguration } from "../graph/configuration.js";
import type { State, Update } from "../graph/state.js";
import type { DocChunk } from "../indexing/types.js";
import { renderTextEvidence, restoreSchema, selectChunks } from "./chunk-selection.js";
import { metered, type NodeResources } from "./node-resources.js";

/** Documents retrieved per sub-query (reference: top 10 after rerank). */
export const DOC_TOP_K = 10;
/** Chunks kept after selection (reference: 5). */
export const SELECTED_CHUNKS = 5;

export async function gather(state: State, config: RunnableConfig, resources: NodeResources): Promise<Update> {
  return metered("gather", async () => {
    const c = ensureConfiguration(config);
    const index = await resources.index(c);
    const subQuery = state.plan?.subQuery ?? state.question;
    let hits: DocChunk[] = [];
    try {
      hits = (await index.search.documents(subQuery, DOC_TOP_K)).map((h) => h.entry);
    } catch {
      hits = [];
    }
    const chunks = selectChunks(hits, { keep: SELECTED_CHUNKS, tableHint: state.table_id });
    return { chunks, schema: restoreSchema(chunks, index.tables), textEvidence: renderTextEvidence(chunks) };
  });
}
