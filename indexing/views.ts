/**
 * Views 1–4 of the index: build them into an index directory, and open them as an `IndexSearch`.
 *
 * Files written (all listed in `files`, checksummed by build-index into manifest.json):
 *   docs.jsonl / docs.f32        Views 1–2: passage chunks, then table chunks (DocChunk per line)
 *   schema.jsonl / schema.f32    View 3: one SchemaEntry per column
 *   cells.jsonl / cells.f32      View 4: budgeted CellEntry list (entity-like values, every table)
 *   rows.jsonl / rows.f32        View 4: RowEntry per row (within the row caps), grouped by table;
 *                                `linked` holds the opening of passages its cells link to (embedded too)
 *   views.json                   embedder (model path, dimension) and entry counts, read back by openViews
 * `<view>.f32` = float32 little-endian row-major (n × embeddingDim); the vector backend (FAISS or
 * exact) is chosen at open time (indexing/vector-index.ts).
 */
import { createWriteStream } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { once } from "node:events";
import { join } from "node:path";
import type Database from "better-sqlite3";
import type { BuildSettings, CellEntry, DocChunk, Manifest, Passage, RawTable, RowEntry, SchemaEntry, TableSchema } from "./types.js";
import type { IndexSearch } from "../retrievers/types.js";
import { chunkTable, chunkText, validateChunkSizes } from "./chunking.js";
import { cellEntries, rowEntries, schemaEntries, searchText, validateRowCaps } from "./cell-selection.js";
import { createEmbedder } from "./embeddings/index.js";
import type { IndexEmbedder } from "./embeddings/types.js";
import { readVectors, writeVectors } from "./vector-index.js";

export interface ViewBuildOptions {
  /** Tokens per chunk including the file-name prefix (reference default 512). */
  chunkSize: number;
  /** Tokens shared by consecutive chunks (reference default 64). */
  chunkOverlap: number;
  /** Cells over the dataset (default 10,000). */
  cellBudget: number;
  /** Cells per table at most (default 50; shrinks so the budget reaches every table). */
  cellPerTableQuota: number;
  /** Rows over the dataset, 0 = no cap. */
  rowBudget: number;
  /** Rows per table, 0 = no cap. */
  rowPerTableQuota: number;
  /** Row text length, 0 = no cap. */
  maxRowChars: number;
  /** Local transformers.js model folder; undefined = the offline embedder. */
  embeddingModel?: string;
  onProgress?: (stage: string, done: number, total: number) => void;
}

export interface LoadedTable {
  raw: RawTable;
  schema: TableSchema;
}

export class ViewsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ViewsError";
  }
}

/** What views.json records (beside manifest settings). */
export interface ViewsInfo {
  viewsFormat: 1;
  /** Model folder as given at build time (absolute), or the offline model id. */
  embeddingModelPath: string;
  embeddingModel: string;
  embeddingDim: number;
  counts: { docChunks: number; schemaEntries: number; cellEntries: number; rowEntries: number };
}

export const VIEW_FILES = {
  docs: ["docs.jsonl", "docs.f32"],
  schema: ["schema.jsonl", "schema.f32"],
  cells: ["cells.jsonl", "cells.f32"],
  rows: ["rows.jsonl", "rows.f32"],
  info: "views.json",
} as const;

async function writeJsonl(path: string, items: readonly unknown[]): Promise<void> {
  const out = createWriteStream(path, { encoding: "utf8" });
  let buf = "";
  for (const item of items) {
    buf += JSON.stringify(item) + "\n";
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, "drain");
      buf = "";
    }
  }
  out.end(buf);
  await once(out, "finish");
}

export async function readJsonl<T>(path: string): Promise<T[]> {
  const text = await readFile(path, "utf8");
  const out: T[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    if (line.trim() !== "") {
      try {
        out.push(JSON.parse(line) as T);
      } catch {
        throw new ViewsError(`${path}: line ${out.length + 1} is not JSON — rebuild the index`);
      }
    }
    start = end + 1;
  }
  return out;
}

async function docChunks(tables: LoadedTable[], passages: Passage[], embedder: IndexEmbedder, options: ViewBuildOptions): Promise<DocChunk[]> {
  const sizes = { size: options.chunkSize, overlap: options.chunkOverlap };
  const chunks: DocChunk[] = [];
  let done = 0;
  const total = passages.length + tables.length;
  for (const p of passages) {
    const body = p.title && !p.text.startsWith(p.title) ? `${p.title}\n${p.text}` : p.text;
    for (const text of await chunkText(body, p.file, embedder.tokenizer, sizes)) {
      chunks.push({ id: chunks.length, type: "text", source: p.file, text, passageId: p.id });
    }
    if (++done % 1000 === 0) options.onProgress?.("chunk", done, total);
  }
  for (const { raw } of tables) {
    for (const text of await chunkTable(raw, embedder.tokenizer, sizes)) {
      chunks.push({ id: chunks.length, type: "table", source: raw.file, text, tableId: raw.id });
    }
    if (++done % 1000 === 0) options.onProgress?.("chunk", done, total);
  }
  options.onProgress?.("chunk", total, total);
  return chunks;
}

/** Builds Views 1–4 into `outDir` (which must exist). */
export async function buildViews(
  tables: LoadedTable[],
  passages: Passage[],
  options: ViewBuildOptions,
  outDir: string,
): Promise<{ settings: BuildSettings; counts: { docChunks: number; schemaEntries: number; cellEntries: number; rowEntries: number }; files: string[] }> {
  validateChunkSizes({ size: options.chunkSize, overlap: options.chunkOverlap });
  for (const [name, v] of [["budget", options.cellBudget], ["per_table_quota", options.cellPerTableQuota]] as const) {
    if (!Number.isInteger(v) || v <= 0) throw new ViewsError(`--${name} must be a positive integer, got ${v}`);
  }
  const rowCaps = { budget: options.rowBudget, perTableQuota: options.rowPerTableQuota, maxChars: options.maxRowChars };
  validateRowCaps(rowCaps);
  const embedder = await createEmbedder(options.embeddingModel);

  const views: Array<{ name: keyof typeof VIEW_FILES & string; entries: Array<{ text: string }> }> = [
    { name: "docs", entries: await docChunks(tables, passages, embedder, options) },
    { name: "schema", entries: schemaEntries(tables) },
    { name: "cells", entries: cellEntries(tables, { budget: options.cellBudget, perTableQuota: options.cellPerTableQuota }) },
    { name: "rows", entries: rowEntries(tables, rowCaps, passages) },
  ];
  if (tables.length > 0 && views[2]!.entries.length === 0) {
    throw new ViewsError("tables were loaded but no cell was indexed (are all tables empty?)");
  }
  const files: string[] = [];
  for (const { name, entries } of views) {
    const [jsonl, f32] = VIEW_FILES[name as "docs"];
    const vectors = await embedder.embedMatrix(
      entries.map(searchText),
      (done, total) => options.onProgress?.(`embed ${name}`, done, total),
    );
    await writeJsonl(join(outDir, jsonl), entries);
    await writeVectors(join(outDir, f32), vectors);
    files.push(jsonl, f32);
  }
  const counts = {
    docChunks: views[0]!.entries.length,
    schemaEntries: views[1]!.entries.length,
    cellEntries: views[2]!.entries.length,
    rowEntries: views[3]!.entries.length,
  };
  const info: ViewsInfo = {
    viewsFormat: 1,
    embeddingModelPath: options.embeddingModel ?? embedder.modelId,
    embeddingModel: embedder.modelId,
    embeddingDim: embedder.dimension,
    counts,
  };
  await writeFile(join(outDir, VIEW_FILES.info), JSON.stringify(info, null, 2) + "\n");
  files.push(VIEW_FILES.info);
  const settings: BuildSettings = {
    documentChunkSize: options.chunkSize,
    documentChunkOverlap: options.chunkOverlap,
    chunkUnit: embedder.tokenizer.unit,
    cellBudget: options.cellBudget,
    cellPerTableQuota: options.cellPerTableQuota,
    rowBudget: options.rowBudget,
    rowPerTableQuota: options.rowPerTableQuota,
    maxRowChars: options.maxRowChars,
    embeddingModel: embedder.modelId,
    embeddingDim: embedder.dimension,
  };
  return { settings, counts, files };
}

/** Entries and vectors of Views 1–4 as read from an index directory. */
export interface LoadedViews {
  info: ViewsInfo;
  docs: DocChunk[];
  schema: SchemaEntry[];
  cells: CellEntry[];
  rows: RowEntry[];
  vectors: { docs: Float32Array; schema: Float32Array; cells: Float32Array; rows: Float32Array };
}

export interface OpenViewsOptions {
  /** Overrides the model folder recorded at build time (e.g. the index moved to another machine). */
  embeddingModelPath?: string;
  /** Forces a vector backend ("exact" | "faiss"); default: FAISS where it loads. */
  vectorBackend?: "exact" | "faiss";
  /** Recall multiplier (default 6). */
  recallMultiplier?: number;
  /** Reranker: "lexical" (default), "none", or a local cross-encoder folder. */
  reranker?: string;
  /** Scoped cell search also sees values outside the budgeted cell index (default true). */
  fullValuePool?: boolean;
  /** Structural row candidates: first/last/after/before/extremes (default true). */
  rowStructure?: boolean;
}

export async function loadViews(dir: string, manifest: Manifest): Promise<LoadedViews> {
  let info: ViewsInfo;
  try {
    info = JSON.parse(await readFile(join(dir, VIEW_FILES.info), "utf8")) as ViewsInfo;
  } catch (e) {
    throw new ViewsError(`${join(dir, VIEW_FILES.info)}: missing or unreadable (${(e as Error).message}) — rebuild the index`);
  }
  const problems: string[] = [];
  if (info.viewsFormat !== 1) problems.push(`views.json viewsFormat is ${info.viewsFormat}, expected 1`);
  if (info.embeddingDim !== manifest.settings.embeddingDim) problems.push(`views.json embeddingDim ${info.embeddingDim} ≠ manifest ${manifest.settings.embeddingDim}`);
  if (info.embeddingModel !== manifest.settings.embeddingModel) problems.push(`views.json embeddingModel ${info.embeddingModel} ≠ manifest ${manifest.settings.embeddingModel}`);
  const [docs, schema, cells, rows] = await Promise.all([
    readJsonl<DocChunk>(join(dir, VIEW_FILES.docs[0])),
    readJsonl<SchemaEntry>(join(dir, VIEW_FILES.schema[0])),
    readJsonl<CellEntry>(join(dir, VIEW_FILES.cells[0])),
    readJsonl<RowEntry>(join(dir, VIEW_FILES.rows[0])),
  ]);
  const expect: Array<[string, number, number]> = [
    ["docChunks", docs.length, manifest.counts.docChunks],
    ["schemaEntries", schema.length, manifest.counts.schemaEntries],
    ["cellEntries", cells.length, manifest.counts.cellEntries],
    ["rowEntries", rows.length, manifest.counts.rowEntries],
  ];
  for (const [name, got, want] of expect) if (got !== want) problems.push(`${name}: ${got} entries on disk, manifest says ${want}`);
  if (problems.length > 0) throw new ViewsError(`index at ${dir} is inconsistent — rebuild every component:\n- ${problems.join("\n- ")}`);
  const dim = info.embeddingDim;
  const [dv, sv, cv, rv] = await Promise.all([
    readVectors(join(dir, VIEW_FILES.docs[1]), dim, docs.length),
    readVectors(join(dir, VIEW_FILES.schema[1]), dim, schema.length),
    readVectors(join(dir, VIEW_FILES.cells[1]), dim, cells.length),
    readVectors(join(dir, VIEW_FILES.rows[1]), dim, rows.length),
  ]);
  return { info, docs, schema, cells, rows, vectors: { docs: dv, schema: sv, cells: cv, rows: rv } };
}

/** Opens Views 1–4 of an index directory as the search API the graph nodes use. */
export async function openViews(
  dir: string,
  manifest: Manifest,
  db: Database.Database,
  tables: Map<string, TableSchema>,
  options: OpenViewsOptions = {},
): Promise<IndexSearch> {
  const loaded = await loadViews(dir, manifest);
  const { ViewSearch } = await import("../retrievers/index-search.js");
  return ViewSearch.open(loaded, { db, tables, ...options });
}
