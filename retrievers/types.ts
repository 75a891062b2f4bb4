/**
 * The search API that nodes use over an opened index (Views 1–4), after recall × multiplier and
 * reranking. Implemented in retrievers/; nodes depend only on this interface so that tests can pass
 * hand-written fakes.
 */
import type { CellEntry, DocChunk, Hit, RowEntry, SchemaEntry } from "../indexing/types.js";

export interface SearchOptions {
  /** Restrict to these table ids (View 3, View 4 cells). */
  tableIds?: string[];
}

/** Views 1–2 options (additive): restrict to chunk type and/or to tables (their chunks and their passages). */
export interface DocumentSearchOptions extends SearchOptions {
  /** Only passage chunks ("text") or only table chunks ("table"). */
  type?: "text" | "table";
}

export interface CellSearchOptions extends SearchOptions {
  /** Restrict to these (table, column) pairs. */
  columns?: Array<{ tableId: string; column: string }>;
}

/** Schema + cell retrieval result of §4.7: the allowed columns C and raw candidates per entity. */
export interface SchemaCellResult {
  columns: SchemaEntry[];
  candidates: Record<string, CellEntry[]>;
}

export interface IndexSearch {
  /** Views 1–2: passage and table chunks for a query (reranked top-k). */
  documents(query: string, k: number, options?: DocumentSearchOptions): Promise<Array<Hit<DocChunk>>>;
  /** View 3: schema entries (columns). */
  schema(query: string, k: number, options?: SearchOptions): Promise<Array<Hit<SchemaEntry>>>;
  /** View 4: cells for a query. */
  cells(query: string, k: number, options?: CellSearchOptions): Promise<Array<Hit<CellEntry>>>;
  /** View 4: rows of one table (the search runs only over that table's rows). */
  rows(query: string, k: number, options: { tableId: string }): Promise<Array<Hit<RowEntry>>>;
  /**
   * §4.7: C = schema(query, schemaTopK, scope), then per entity the cell candidates restricted to C,
   * ranked against the bare entity, top cellTopK.
   */
  schemaCells(
    query: string,
    entities: string[],
    options: { schemaTopK: number; cellTopK: number; tableIds?: string[] },
  ): Promise<SchemaCellResult>;
}

/** §4.7's per-entity cell step over allowed columns C (retrievers/index-search.ts implements it). */
export interface EntityCellSearch {
  entityCells(entity: string, columns: readonly SchemaEntry[], k: number): Promise<Array<Hit<CellEntry>>>;
}

/**
 * Value-linker output for one entity (reference §6.4). Produced by nodes/value-linker.ts, read by the
 * SQL guard (a matched level-0/2 value is a required binding), so it lives here, below both.
 */
export interface LinkedValue {
  entity: string;
  tableId: string | null;
  column: string;
  /** null when unmatched. */
  matchedValue: string | null;
  confidence: number;
  /** 0 exact/model pick, 1 unconstrained (binding dropped), 2 fuzzy LIKE, 3 reroute to TEXT. */
  fallbackLevel: 0 | 1 | 2 | 3;
}
