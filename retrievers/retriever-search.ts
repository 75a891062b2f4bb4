/**
 * The `IndexSearch` the graph's nodes and `atr search` use over an opened index: every call runs
 * the view's LangChain retriever (retrievers/view-retrievers.ts), so each retrieval is a retriever
 * run — query, settings and documents — nested under the node that asked (LangChain carries the
 * caller's run through async context), in LangSmith traces and in `--emit_trace`. The results are
 * the wrapped search's very hits.
 */
import type { CellEntry, DocChunk, Hit, RowEntry, SchemaEntry } from "../indexing/types.js";
import type {
  CellSearchOptions,
  DocumentSearchOptions,
  EntityCellSearch,
  IndexSearch,
  SchemaCellResult,
  SearchOptions,
} from "./types.js";
import {
  CellRetriever,
  ChunkRetriever,
  hitsOf,
  PassageRetriever,
  RowRetriever,
  SchemaRetriever,
  TableChunkRetriever,
} from "./view-retrievers.js";

export class RetrieverSearch implements IndexSearch, EntityCellSearch {
  constructor(private readonly inner: IndexSearch & EntityCellSearch) {}

  async documents(query: string, k: number, options: DocumentSearchOptions = {}): Promise<Array<Hit<DocChunk>>> {
    const fields = { search: this.inner, k, ...(options.tableIds ? { tableIds: options.tableIds } : {}) };
    // View 1 or View 2 alone (`atr search --view passages|tables`), else both ranked together (gather).
    const retriever =
      options.type === "text"
        ? new PassageRetriever(fields)
        : options.type === "table"
          ? new TableChunkRetriever(fields)
          : new ChunkRetriever(fields);
    return hitsOf<DocChunk>(await retriever.invoke(query));
  }

  async schema(query: string, k: number, options: SearchOptions = {}): Promise<Array<Hit<SchemaEntry>>> {
    const retriever = new SchemaRetriever({
      search: this.inner,
      k,
      ...(options.tableIds ? { tableIds: options.tableIds } : {}),
    });
    return hitsOf<SchemaEntry>(await retriever.invoke(query));
  }

  async cells(query: string, k: number, options: CellSearchOptions = {}): Promise<Array<Hit<CellEntry>>> {
    const retriever = new CellRetriever({
      search: this.inner,
      k,
      ...(options.tableIds ? { tableIds: options.tableIds } : {}),
      ...(options.columns ? { columns: options.columns } : {}),
    });
    return hitsOf<CellEntry>(await retriever.invoke(query));
  }

  async rows(query: string, k: number, options: { tableId: string }): Promise<Array<Hit<RowEntry>>> {
    return hitsOf<RowEntry>(await new RowRetriever({ search: this.inner, k, tableId: options.tableId }).invoke(query));
  }

  async entityCells(entity: string, columns: readonly SchemaEntry[], k: number): Promise<Array<Hit<CellEntry>>> {
    return hitsOf<CellEntry>(
      await new CellRetriever({ search: this.inner, k, allowedColumns: columns }).invoke(entity),
    );
  }

  /** §4.7 as retriever runs: View 3 for C, then View 4 within C once per entity. */
  async schemaCells(
    query: string,
    entities: string[],
    options: { schemaTopK: number; cellTopK: number; tableIds?: string[] },
  ): Promise<SchemaCellResult> {
    if (!Number.isInteger(options.cellTopK) || options.cellTopK < 0)
      throw new RangeError(`cell_top_k must be a non-negative integer, got ${options.cellTopK}`);
    const columns = (
      await this.schema(query, options.schemaTopK, options.tableIds ? { tableIds: options.tableIds } : {})
    ).map((h) => h.entry);
    const candidates: Record<string, CellEntry[]> = {};
    for (const entity of entities)
      candidates[entity] = (await this.entityCells(entity, columns, options.cellTopK)).map((h) => h.entry);
    return { columns, candidates };
  }
}
