/**
 * Views 1–4 as LangChain retrievers over an opened index — the way the graph's nodes and
 * `atr search` reach them (through retrievers/retriever-search.ts), so that every retrieval is a
 * retriever run with its query, settings (run metadata: view, k, scope) and documents in LangSmith
 * traces and in `--emit_trace`. Each delegates to an `IndexSearch` (recall × multiplier, then
 * rerank) and returns `Document`s whose metadata carries the entry's fields and its score; `hitsOf`
 * gives back the very hits.
 *
 * View 5 (the SQL store) has no retriever: nothing retrieves rows from it by similarity. It is
 * reached only by guarded SQL through retrievers/sql-store.ts (the SQL and HYBRID routes'
 * statements, the provenance row query), which each attempt records (`atr_trace`: sql, sql_refused,
 * provenance.sql); the reads of it behind the value pool and large-table row search run inside the
 * View 3–4 retriever runs above.
 */
import { BaseRetriever, type BaseRetrieverInput } from "@langchain/core/retrievers";
import { Document } from "@langchain/core/documents";
import type { CellEntry, Hit, SchemaEntry } from "../indexing/types.js";
import type { EntityCellSearch, IndexSearch } from "./types.js";

export interface ViewRetrieverInput extends BaseRetrieverInput {
  search: IndexSearch;
  /** Results to return (defaults: passages/tables 10, schema 5, cells 15, rows 10). */
  k?: number;
  /** Restrict to these table ids (Views 1–4; the row view needs exactly one, see RowRetriever). */
  tableIds?: string[];
}

/** The hit each document was made from (documents are returned as made, so identity holds). */
const HIT_OF = new WeakMap<Document, Hit<unknown>>();

/** The hits behind documents a view retriever returned, in order. */
export function hitsOf<T>(docs: readonly Document[]): Array<Hit<T>> {
  return docs.map((d) => {
    const hit = HIT_OF.get(d);
    if (!hit) throw new Error("retrievers/view-retrievers.ts: hitsOf needs documents returned by a view retriever");
    return hit as Hit<T>;
  });
}

/** Shared shape of the Views 1–4 retrievers: a search, k, an optional table scope, one view name. */
abstract class IndexViewRetriever extends BaseRetriever {
  lc_namespace = ["atr", "retrievers"];
  protected readonly search: IndexSearch;
  readonly k: number;
  readonly tableIds?: string[];
  /** The `view` written into each document's metadata. */
  protected abstract readonly view: string;

  constructor(fields: ViewRetrieverInput, defaultK: number, runMetadata: Record<string, unknown> = {}) {
    const k = fields.k ?? defaultK;
    super({
      ...fields,
      metadata: { ...fields.metadata, k, ...(fields.tableIds ? { tableIds: fields.tableIds } : {}), ...runMetadata },
    });
    this.search = fields.search;
    this.k = k;
    this.tableIds = fields.tableIds;
  }

  protected abstract hits(query: string): Promise<Array<Hit<{ text: string }>>>;

  async _getRelevantDocuments(query: string): Promise<Document[]> {
    return (await this.hits(query)).map((hit) => {
      const { text, ...fields } = hit.entry as { text: string } & Record<string, unknown>;
      const doc = new Document({ pageContent: text, metadata: { ...fields, view: this.view, score: hit.score } });
      HIT_OF.set(doc, hit);
      return doc;
    });
  }
}

export interface ChunkRetrieverInput extends ViewRetrieverInput {
  /** Only passage chunks ("text"), only table chunks ("table"), or both ranked together (unset). */
  type?: "text" | "table";
}

/** Views 1–2 together: passage and table chunks ranked jointly (what `gather` selects from). */
export class ChunkRetriever extends IndexViewRetriever {
  static lc_name() {
    return "ChunkRetriever";
  }
  protected readonly view: string;
  readonly type?: "text" | "table";
  constructor(fields: ChunkRetrieverInput) {
    super(fields, 10, fields.type ? { type: fields.type } : {});
    this.type = fields.type;
    this.view = fields.type === "text" ? "passages" : fields.type === "table" ? "tables" : "chunks";
  }
  protected async hits(query: string) {
    const type = this.type;
    const hits = await this.search.documents(query, this.k, {
      ...(type ? { type } : {}),
      ...(this.tableIds ? { tableIds: this.tableIds } : {}),
    });
    // An IndexSearch that ignores the options (a test fake) still yields only that kind.
    return type ? hits.filter((h) => h.entry.type === type).slice(0, this.k) : hits;
  }
}

/** View 1: passage chunks. */
export class PassageRetriever extends ChunkRetriever {
  static lc_name() {
    return "PassageRetriever";
  }
  constructor(fields: ViewRetrieverInput) {
    super({ ...fields, type: "text" });
  }
}

/** View 2: rendered table chunks (metadata.tableId is the chunk→table mapping). */
export class TableChunkRetriever extends ChunkRetriever {
  static lc_name() {
    return "TableChunkRetriever";
  }
  constructor(fields: ViewRetrieverInput) {
    super({ ...fields, type: "table" });
  }
}

/** View 3: columns, optionally scoped to table ids. */
export class SchemaRetriever extends IndexViewRetriever {
  static lc_name() {
    return "SchemaRetriever";
  }
  protected readonly view = "schema";
  constructor(fields: ViewRetrieverInput) {
    super(fields, 5);
  }
  protected hits(query: string) {
    return this.search.schema(query, this.k, this.tableIds ? { tableIds: this.tableIds } : {});
  }
}

export interface CellRetrieverInput extends Omit<ViewRetrieverInput, "search"> {
  search: IndexSearch & Partial<EntityCellSearch>;
  /** Restrict to these (table, column) pairs. */
  columns?: Array<{ tableId: string; column: string }>;
  /**
   * The allowed columns C of §4.7: the query is one entity mention, searched per column of C and
   * ranked against the bare entity (the value linker's candidates).
   */
  allowedColumns?: readonly SchemaEntry[];
}

/** View 4: cells, optionally scoped to table ids or columns, or an entity's candidates within C. */
export class CellRetriever extends IndexViewRetriever {
  static lc_name() {
    return "CellRetriever";
  }
  protected readonly view = "cells";
  private readonly cellSearch: IndexSearch & Partial<EntityCellSearch>;
  readonly columns?: Array<{ tableId: string; column: string }>;
  readonly allowedColumns?: readonly SchemaEntry[];
  constructor(fields: CellRetrieverInput) {
    const scope = fields.allowedColumns
      ? { allowedColumns: fields.allowedColumns.map((c) => `${c.tableId}.${c.column}`) }
      : fields.columns
        ? { columns: fields.columns.map((c) => `${c.tableId}.${c.column}`) }
        : {};
    super(fields, 15, scope);
    this.cellSearch = fields.search;
    this.columns = fields.columns;
    this.allowedColumns = fields.allowedColumns;
  }
  protected hits(query: string): Promise<Array<Hit<CellEntry>>> {
    if (this.allowedColumns) {
      if (!this.cellSearch.entityCells)
        throw new Error("CellRetriever: allowedColumns needs a search with entityCells (retrievers/index-search.ts)");
      return this.cellSearch.entityCells(query, this.allowedColumns, this.k);
    }
    return this.search.cells(query, this.k, {
      ...(this.tableIds ? { tableIds: this.tableIds } : {}),
      ...(this.columns ? { columns: this.columns } : {}),
    });
  }
}

/** View 4: rows of one table (the search runs only over that table's rows). */
export class RowRetriever extends IndexViewRetriever {
  static lc_name() {
    return "RowRetriever";
  }
  protected readonly view = "rows";
  readonly tableId: string;
  constructor(fields: Omit<ViewRetrieverInput, "tableIds"> & { tableId: string }) {
    super(fields, 10, { tableId: fields.tableId });
    this.tableId = fields.tableId;
  }
  protected hits(query: string) {
    return this.search.rows(query, this.k, { tableId: this.tableId });
  }
}
