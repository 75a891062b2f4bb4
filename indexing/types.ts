/**
 * Data types shared by the index build, the opened index and everything that reads it.
 * This file is the contract between indexing/, retrievers/ and nodes/: change it only together with
 * every user (and DESIGN.md's "The index" section).
 */

/** Inferred column type. The original text is always kept beside the parsed value. */
export type ColumnType = "integer" | "real" | "date" | "text";

/** A table as loaded from a file: flattened unique headers and rows of raw strings ("" = empty). */
export interface RawTable {
  /** File stem, or `<file stem>#<sheet>` when a workbook has more than one sheet. */
  id: string;
  /** Source file name with extension (no directory). */
  file: string;
  /** Sheet name for .xlsx sources. */
  sheet?: string;
  /** Optional title (e.g. HybridQA page › section from the `<id>.json` sidecar). */
  title?: string;
  /** Header names: non-blank (`col_N`), unique (suffixed), merged headers flattened as `Parent › Child`. */
  header: string[];
  /** Data rows; every row has exactly `header.length` cells. */
  rows: string[][];
}

/**
 * A CSV table of more than LARGE_TABLE_ROWS rows (indexing/table-size.ts), as the loader hands it
 * to the store: its rows are not held but read again from the file, in order, by `readRows` (every
 * row has `header.length` cells). The store writes them into tables.sqlite in batches, and the
 * rest of the build reads the table back from there.
 */
export interface StreamedTable {
  kind: "streamed";
  id: string;
  file: string;
  sheet?: string;
  title?: string;
  header: string[];
  rowCount: number;
  readRows(): Iterable<string[]>;
}

/** A loaded table: in memory, or streamed from its file. */
export type TableSource = RawTable | StreamedTable;

export function isStreamed(table: TableSource): table is StreamedTable {
  return (table as StreamedTable).kind === "streamed";
}

/** Rows of a loaded table (the array of an in-memory one). */
export function sourceRows(table: TableSource): Iterable<string[]> {
  return isStreamed(table) ? table.readRows() : table.rows;
}

export function sourceRowCount(table: TableSource): number {
  return isStreamed(table) ? table.rowCount : table.rows.length;
}

/** One column of a table as stored in View 5 and described in View 3. */
export interface ColumnSchema {
  /** Logical name (the flattened header). */
  name: string;
  /** Physical SQL identifier of the typed column in tables.sqlite. */
  physical: string;
  /** Physical SQL identifier of the column holding the original cell text. */
  rawPhysical: string;
  type: ColumnType;
  /** A date column written day first (31/03/2024): some cell cannot be month first, none cannot be day first. */
  dayFirst?: true;
  /** First three distinct non-empty values (original text). */
  examples: string[];
}

/** A table's schema: what View 3 indexes and what the SQL routes may use. */
export interface TableSchema {
  tableId: string;
  /** Physical SQL table name in tables.sqlite. */
  physical: string;
  file: string;
  sheet?: string;
  title?: string;
  rowCount: number;
  columns: ColumnSchema[];
}

/** Physical name of the 0-based row-index column present in every data table of tables.sqlite. */
export const ROW_ID_COLUMN = "_row";

/** A passage loaded from --doc_dir. */
export interface Passage {
  /** Record id (`id` field, or `<file>#<n>`). */
  id: string;
  title?: string;
  text: string;
  /** Source file name. */
  file: string;
  /** The table this passage goes with, when the file is named after one (HybridQA/TAT-QA layout). */
  tableId?: string;
  /** Cells `[row, col]` of `tableId` that link to this passage (HybridQA); row -1 is the header. */
  cells?: Array<[number, number]>;
}

/** Views 1–2: a passage chunk or a rendered table chunk. */
export interface DocChunk {
  /** Position in docs.jsonl. */
  id: number;
  type: "text" | "table";
  /** File name the chunk came from (prefixed to the text as `File name: <source>`). */
  source: string;
  /** The chunk text as embedded, including the file-name prefix. */
  text: string;
  /** Table chunks: the table they render (the chunk→table mapping f). */
  tableId?: string;
  /** Text chunks: the passage they came from. */
  passageId?: string;
}

/** View 3: one column of one table. */
export interface SchemaEntry {
  tableId: string;
  column: string;
  type: ColumnType;
  /** Examples joined with ", ". */
  examples: string;
  /** Embedded text; includes the table id/title. */
  text: string;
}

/** View 4: one distinct (column, value) pair of a table. */
export interface CellEntry {
  tableId: string;
  column: string;
  value: string;
  /** Number of rows holding this value in this column. */
  freq: number;
  text: string;
}

/** View 4: one row of a table. */
export interface RowEntry {
  tableId: string;
  /** 0-based row index (also the `_row` column of View 5). */
  rowIdx: number;
  /** Embedded text: `Table <id> | col: val | …` (empty cells omitted, capped by max_row_chars). */
  text: string;
  /** Every column → original text ("" for empty). */
  values: Record<string, string>;
}

/** Settings recorded in manifest.json; the loader refuses an index whose settings it cannot honour. */
export interface BuildSettings {
  documentChunkSize: number;
  documentChunkOverlap: number;
  /** "tokens" with a real tokenizer; "approx-tokens" for the offline embedder's documented approximation. */
  chunkUnit: string;
  cellBudget: number;
  cellPerTableQuota: number;
  /** 0 = no cap. */
  rowBudget: number;
  rowPerTableQuota: number;
  maxRowChars: number;
  /** "offline-hash-v1" or the model folder's basename. */
  embeddingModel: string;
  embeddingDim: number;
}

/** The manifest.json of an index directory. */
export interface Manifest {
  formatVersion: number;
  createdAt: string;
  settings: BuildSettings;
  counts: {
    tables: number;
    rows: number;
    passages: number;
    docChunks: number;
    schemaEntries: number;
    cellEntries: number;
    rowEntries: number;
  };
  /** Random id of this build: an index rebuilt in place has another one. */
  buildId: string;
  /** File name → sha256 hex of every file of the index (manifest.json excepted). */
  checksums: Record<string, string>;
  /** File name → size in bytes (checked on every open; checksums by build and `atr inspect-index`). */
  sizes: Record<string, number>;
  /** Which source files were read, and what was skipped with why. */
  sources: { tables: string[]; documents: string[]; skipped: Array<{ file: string; reason: string }> };
  /** Where View 5 is served when not (only) the local tables.sqlite: a PostgreSQL schema (indexing/pg-store.ts). */
  sqlStore?: { kind: "postgres"; url: string; schema: string };
}

/** Hit from a vector or reranked search. Higher score = better. */
export interface Hit<T> {
  entry: T;
  score: number;
}
