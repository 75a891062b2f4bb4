/**
 * The five views as LangChain retrievers over an opened index. Views 1–4 delegate to an
 * `IndexSearch` (recall × multiplier, then rerank); View 5 (retrievers/table-rows.ts) reads rows of
 * the SQL store. Each returns `Document`s whose metadata carries the entry's fields and its score.
 */
import { BaseRetriever, type BaseRetrieverInput } from "@langchain/core/retrievers";
import { Document } from "@langchain/core/documents";
import type { Hit } from "../indexing/types.js";
import type { IndexSearch } from "./types.js";

export interface ViewRetrieverInput extends BaseRetrieverInput {
  search: IndexSearch;
  /** Results to return (defaults: passages/tables 10, schema 5, cells 15, rows 10). */
  k?: number;
  /** Restrict to these table ids (Views 1–4; the row view needs exactly one, see RowRetriever). */
  tableIds?: string[];
}

/** Shared shape of the Views 1–4 retrievers: a search, k, an optional table scope, one view name. */
abstract class IndexViewRetriever extends BaseRetriever {
  lc_namespace = ["atr", "retrievers"];
  protected readonly search: IndexSearch;
  readonly k: number;
  readonly tableIds?: string[];
  /** The `view` written into each document's metadata. */
  protected abstract readonly view: string;

  constructor(fields: ViewRetrieverInput, defaultK: number) {
    super(fields);
    this.search = fields.search;
    this.k = fields.k ?? defaultK;
    this.tableIds = fields.tableIds;
  }

  protected abstract hits(query: string): Promise<Array<Hit<{ text: string }>>>;

  async _getRelevantDocuments(query: string): Promise<Document[]> {
    return (await this.hits(query)).map(({ entry, score }) => {
      const { text, ...fields } = entry as { text: string } & Record<string, unknown>;
      return new Document({ pageContent: text, metadata: { ...fields, view: this.view, score } });
    });
  }

  /** Passage or table chunks only; an IndexSearch that ignores the options (a test fake) still yields only that kind. */
  protected async chunksOfType(query: string, type: "text" | "table") {
    const hits = await this.search.documents(query, this.k, { type, tableIds: this.tableIds });
    return hits.filter((h) => h.entry.type === type).slice(0, this.k);
  }
}

/** View 1: passage chunks. */
export class PassageRetriever extends IndexViewRetriever {
  static lc_name() {
    return "PassageRetriever";
  }
  protected readonly view = "passages";
  constructor(fields: ViewRetrieverInput) {
    super(fields, 10);
  }
  protected hits(query: string) {
    return this.chunksOfType(query, "text");
  }
}

/** View 2: rendered table chunks (metadata.tableId is the chunk→table mapping). */
export class TableChunkRetriever extends IndexViewRetriever {
  static lc_name() {
    return "TableChunkRetriever";
  }
  protected readonly view = "tables";
  constructor(fields: ViewRetrieverInput) {
    super(fields, 10);
  }
  protected hits(query: string) {
    return this.chunksOfType(query, "table");
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
    return this.search.schema(query, this.k, { tableIds: this.tableIds });
  }
}

/** View 4: cells, optionally scoped to table ids. */
export class CellRetriever extends IndexViewRetriever {
  static lc_name() {
    return "CellRetriever";
  }
  protected readonly view = "cells";
  constructor(fields: ViewRetrieverInput) {
    super(fields, 15);
  }
  protected hits(query: string) {
    return this.search.cells(query, this.k, { tableIds: this.tableIds });
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
    super(fields, 10);
    this.tableId = fields.tableId;
  }
  protected hits(query: string) {
    return this.search.rows(query, this.k, { tableId: this.tableId });
  }
}
