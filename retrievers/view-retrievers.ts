/**
 * The five views as LangChain retrievers over an opened index. Views 1–4 delegate to an
 * `IndexSearch` (recall × multiplier, then rerank); View 5 reads rows of the SQL store.
 * Each returns `Document`s whose metadata carries the entry's fields and its score.
 */
import { BaseRetriever, type BaseRetrieverInput } from "@langchain/core/retrievers";
import { Document } from "@langchain/core/documents";
import type { CallbackManagerForRetrieverRun } from "@langchain/core/callbacks/manager";
import type { Hit } from "../indexing/types.js";
import type { IndexSearch } from "./types.js";

export interface ViewRetrieverInput extends BaseRetrieverInput {
  search: IndexSearch;
  /** Results to return (defaults: passages/tables 10, schema 5, cells 15, rows 10). */
  k?: number;
}

function toDocuments<T extends { text: string }>(hits: Array<Hit<T>>, view: string): Document[] {
  return hits.map(({ entry, score }) => {
    const { text, ...fields } = entry as T & Record<string, unknown>;
    return new Document({ pageContent: text, metadata: { ...fields, view, score } });
  });
}

async function documentsOfType(search: IndexSearch, query: string, k: number, type: "text" | "table", tableIds?: string[]) {
  const hits = await search.documents(query, k, { type, tableIds });
  // an IndexSearch that ignores the options (a test fake) still yields only the right kind
  return hits.filter((h) => h.entry.type === type).slice(0, k);
}

/** View 1: passage chunks. */
export class PassageRetriever extends BaseRetriever {
  lc_namespace = ["atr", "retrievers"];
  static lc_name() {
    return "PassageRetriever";
  }
  private readonly search: IndexSearch;
  readonly k: number;
  readonly tableIds?: string[];
  constructor(fields: ViewRetrieverInput & { tableIds?: string[] }) {
    super(fields);
    this.search = fields.search;
    this.k = fields.k ?? 10;
    this.tableIds = fields.tableIds;
  }
  async _getRelevantDocuments(query: string, _run?: CallbackManagerForRetrieverRun): Promise<Document[]> {
    return toDocuments(await documentsOfType(this.search, query, this.k, "text", this.tableIds), "passages");
  }
}

/** View 2: rendered table chunks (metadata.tableId is the chunk→table mapping). */
export class TableChunkRetriever extends BaseRetriever {
  lc_namespace = ["atr", "retrievers"];
  static lc_name() {
    return "TableChunkRetriever";
  }
  private readonly search: IndexSearch;
  readonly k: number;
  readonly tableIds?: string[];
  constructor(fields: ViewRetrieverInput & { tableIds?: string[] }) {
    super(fields);
    this.search = fields.search;
    this.k = fields.k ?? 10;
    this.tableIds = fields.tableIds;
  }
  async _getRelevantDocuments(query: string): Promise<Document[]> {
    return toDocuments(await documentsOfType(this.search, query, this.k, "table", this.tableIds), "tables");
  }
}

/** View 3: columns, optionally scoped to table ids. */
export class SchemaRetriever extends BaseRetriever {
  lc_namespace = ["atr", "retrievers"];
  static lc_name() {
    return "SchemaRetriever";
  }
  private readonly search: IndexSearch;
  readonly k: number;
  readonly tableIds?: string[];
  constructor(fields: ViewRetrieverInput & { tableIds?: string[] }) {
    super(fields);
    this.search = fields.search;
    this.k = fields.k ?? 5;
    this.tableIds = fields.tableIds;
  }
  async _getRelevantDocuments(query: string): Promise<Document[]> {
    return toDocuments(await this.search.schema(query, this.k, { tableIds: this.tableIds }), "schema");
  }
}

/** View 4: cells, optionally scoped to table ids. */
export class CellRetriever extends BaseRetriever {
  lc_namespace = ["atr", "retrievers"];
  static lc_name() {
    return "CellRetriever";
  }
  private readonly search: IndexSearch;
  readonly k: number;
  readonly tableIds?: string[];
  constructor(fields: ViewRetrieverInput & { tableIds?: string[] }) {
    super(fields);
    this.search = fields.search;
    this.k = fields.k ?? 15;
    this.tableIds = fields.tableIds;
  }
  async _getRelevantDocuments(query: string): Promise<Document[]> {
    return toDocuments(await this.search.cells(query, this.k, { tableIds: this.tableIds }), "cells");
  }
}

/** View 4: rows of one table (the search runs only over that table's rows). */
export class RowRetriever extends BaseRetriever {
  lc_namespace = ["atr", "retrievers"];
  static lc_name() {
    return "RowRetriever";
  }
  private readonly search: IndexSearch;
  readonly k: number;
  readonly tableId: string;
  constructor(fields: ViewRetrieverInput & { tableId: string }) {
    super(fields);
    this.search = fields.search;
    this.k = fields.k ?? 10;
    this.tableId = fields.tableId;
  }
  async _getRelevantDocuments(query: string): Promise<Document[]> {
    return toDocuments(await this.search.rows(query, this.k, { tableId: this.tableId }), "rows");
  }
}
