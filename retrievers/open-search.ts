/**
 * An opened index (indexing/open-index.ts: View 5, passages, Views 1–4) together with the search
 * over its views — what the graph's nodes and `atr search` use. Built here, above indexing/, so the
 * index layer never imports a retriever. Nodes and `atr search` use `search`.
 */
import { openIndex, type OpenedIndex } from "../indexing/open-index.js";
import type { OpenViewsOptions } from "../indexing/views.js";
import { ViewSearch } from "./index-search.js";
import { RetrieverSearch } from "./retriever-search.js";

export interface SearchableIndex extends OpenedIndex {
  /** Views 1–4 through their LangChain retrievers (each call is a retriever run). */
  search: RetrieverSearch;
  /** The same search without retriever runs (benchmarks and tools that read its internals). */
  viewSearch: ViewSearch;
}

export async function openSearchableIndex(dir: string, options: OpenViewsOptions = {}): Promise<SearchableIndex> {
  const index = await openIndex(dir);
  try {
    const viewSearch = await ViewSearch.open(index.views, { db: index.db, tables: index.tables, ...options });
    return Object.assign(index, { search: new RetrieverSearch(viewSearch), viewSearch });
  } catch (error) {
    index.close();
    throw error;
  }
}
