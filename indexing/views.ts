/**
 * Views 1–4 of the index: build them into an index directory, and open them (lazily) for search.
 *
 * Files written (all listed in `files`, checksummed by build-index into manifest.json):
 *   views.sqlite   the entries of every view, one SQLite table per view (`docs`, `schema`, `cells`,
 *                  `rows`; `id` = position = row of the view's vector file, `json` = the entry), the
 *                  lexical statistics of each view (`terms`: document frequency of every content word,
 *                  `view_stats`: entries and total words) and `row_ranges` (table → its contiguous
 *                  row entries). Indexed by table, so opening reads nothing in proportion to the index.
 *   docs.f32 …     Views 1–2 passage chunks then table chunks; View 3 one entry per column; View 4
 *   rows.f32       the budgeted cells and one entry per row of every small table (rows of a table
 *                  over LARGE_TABLE_ROWS are searched through tables.sqlite instead, see table-stats.ts)
 *   views.json     embedder (model path, dimension) and entry counts, read back by loadViews
 * `<view>.f32` = float32 little-endian row-major (n × embeddingDim), read lazily (VectorFile); the
 * vector backend (FAISS or exact) is chosen at search time (indexing/vector-index.ts).
 */
import { writeFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import Database from "better-sqlite3";
import type {
  BuildSettings,
  CellEntry,
  DocChunk,
  Manifest,
  Passage,
  RawTable,
  RowEntry,
  SchemaEntry,
  TableSource,
} from "./types.js";
import { isStreamed, sourceRowCount } from "./types.js";
import { chunkTable, chunkText, validateChunkSizes } from "./chunking.js";
import {
  cellEntries,
  rowEntries,
  schemaEntries,
  searchText,
  validateRowCaps,
  type LoadedTableLike,
} from "./cell-selection.js";
import { createEmbedder } from "./embeddings/index.js";
import { contentWords } from "../text/tokenise.js";
import type { IndexEmbedder } from "./embeddings/types.js";
import { isLargeTable, LARGE_TABLE_ROWS } from "./table-size.js";
import { VectorFile, writeVectors, type IdRange } from "./vector-index.js";

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

/** A table as the views read it: in memory, or (a large table) read back from tables.sqlite. */
export type LoadedTable = LoadedTableLike<TableSource>;

export class ViewsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ViewsError";
  }
}

/** What views.json records (beside manifest settings). */
export interface ViewsInfo {
  viewsFormat: 2;
  /** Model folder as given at build time (absolute), or the offline model id. */
  embeddingModelPath: string;
  embeddingModel: string;
  embeddingDim: number;
  counts: { docChunks: number; schemaEntries: number; cellEntries: number; rowEntries: number };
}

export type ViewName = "docs" | "schema" | "cells" | "rows";
export const VIEW_NAMES: readonly ViewName[] = ["docs", "schema", "cells", "rows"];
export const VIEWS_DB = "views.sqlite";
export const VIEW_FILES = {
  docs: "docs.f32",
  schema: "schema.f32",
  cells: "cells.f32",
  rows: "rows.f32",
  info: "views.json",
  db: VIEWS_DB,
} as const;
const COUNT_KEY: Record<ViewName, keyof ViewsInfo["counts"]> = {
  docs: "docChunks",
  schema: "schemaEntries",
  cells: "cellEntries",
  rows: "rowEntries",
};

/** The table (or, for a passage chunk, the passage file's stem) a doc chunk belongs to, for scoping. */
export function docScopeKey(d: DocChunk): string {
  return d.tableId !== undefined ? d.tableId : d.source.replace(/\.[^.]*$/, "");
}

/** Document frequencies of the content words of `texts` (the lexical reranker's population statistics). */
function termCounts(texts: Iterable<string>): { n: number; words: number; df: Map<string, number> } {
  const df = new Map<string, number>();
  let n = 0;
  let words = 0;
  for (const t of texts) {
    const w = contentWords(t);
    words += w.length;
    n++;
    for (const x of new Set(w)) df.set(x, (df.get(x) ?? 0) + 1);
  }
  return { n, words, df };
}

/** Rows of `terms` per INSERT statement (fewer calls into SQLite). */
const TERMS_PER_INSERT = 100;

/**
 * Inserts a view's document frequencies into `terms` in key order, so SQLite appends to the B-tree
 * instead of inserting at random places (a million words of a large table: about half the time).
 */
function insertTerms(db: Database.Database, view: string, df: Map<string, number>): void {
  const keys = [...df.keys()].sort();
  const batch = db.prepare(`INSERT INTO terms VALUES ${new Array(TERMS_PER_INSERT).fill("(?, ?, ?)").join(", ")}`);
  const one = db.prepare("INSERT INTO terms VALUES (?, ?, ?)");
  const params: Array<string | number> = [];
  let i = 0;
  for (; i + TERMS_PER_INSERT <= keys.length; i += TERMS_PER_INSERT) {
    params.length = 0;
    for (let j = i; j < i + TERMS_PER_INSERT; j++) params.push(view, keys[j]!, df.get(keys[j]!)!);
    batch.run(params);
  }
  for (; i < keys.length; i++) one.run(view, keys[i]!, df.get(keys[i]!)!);
}

/** Writes views.sqlite: entries, lexical statistics and row ranges of the four views. */
function writeViewsDb(path: string, views: Record<ViewName, Array<{ text: string }>>): void {
  const db = new Database(path);
  try {
    db.pragma("journal_mode = OFF");
    db.pragma("synchronous = OFF");
    db.exec(`
      CREATE TABLE docs (id INTEGER PRIMARY KEY, type TEXT NOT NULL, scope TEXT NOT NULL, json TEXT NOT NULL);
      CREATE INDEX docs_scope ON docs (scope, id);
      CREATE INDEX docs_type ON docs (type, id);
      CREATE TABLE schema (id INTEGER PRIMARY KEY, table_id TEXT NOT NULL, json TEXT NOT NULL);
      CREATE INDEX schema_table ON schema (table_id, id);
      CREATE TABLE cells (id INTEGER PRIMARY KEY, table_id TEXT NOT NULL, json TEXT NOT NULL);
      CREATE INDEX cells_table ON cells (table_id, id);
      CREATE TABLE rows (id INTEGER PRIMARY KEY, table_id TEXT NOT NULL, json TEXT NOT NULL);
      CREATE TABLE row_ranges (table_id TEXT PRIMARY KEY, start INTEGER NOT NULL, end INTEGER NOT NULL);
      CREATE TABLE terms (view TEXT NOT NULL, term TEXT NOT NULL, df INTEGER NOT NULL, PRIMARY KEY (view, term)) WITHOUT ROWID;
      CREATE TABLE view_stats (view TEXT PRIMARY KEY, n INTEGER NOT NULL, words INTEGER NOT NULL);
    `);
    const write = db.transaction(() => {
      const docs = db.prepare("INSERT INTO docs VALUES (?, ?, ?, ?)");
      (views.docs as DocChunk[]).forEach((d, i) => docs.run(i, d.type, docScopeKey(d), JSON.stringify(d)));
      for (const view of ["schema", "cells", "rows"] as const) {
        const insert = db.prepare(`INSERT INTO ${view} VALUES (?, ?, ?)`);
        (views[view] as unknown as Array<{ tableId: string }>).forEach((e, i) =>
          insert.run(i, e.tableId, JSON.stringify(e)),
        );
      }
      const ranges = db.prepare("INSERT INTO row_ranges VALUES (?, ?, ?)");
      let open: { tableId: string; start: number } | undefined;
      const rows = views.rows as RowEntry[];
      const seen = new Set<string>();
      rows.forEach((r, i) => {
        if (open?.tableId === r.tableId) return;
        if (open) ranges.run(open.tableId, open.start, i);
        if (seen.has(r.tableId)) throw new ViewsError(`row entries of table ${r.tableId} are not contiguous`);
        seen.add(r.tableId);
        open = { tableId: r.tableId, start: i };
      });
      if (open) ranges.run(open.tableId, open.start, rows.length);
      const stats = db.prepare("INSERT INTO view_stats VALUES (?, ?, ?)");
      // The row view's statistics are per table (small tables, computed when searched).
      for (const view of ["docs", "schema", "cells"] as const) {
        const { n, words, df } = termCounts(views[view].map((e) => e.text));
        stats.run(view, n, words);
        insertTerms(db, view, df);
      }
    });
    write();
  } finally {
    db.close();
  }
}

async function docChunks(
  tables: LoadedTable[],
  passages: Passage[],
  embedder: IndexEmbedder,
  options: ViewBuildOptions,
): Promise<DocChunk[]> {
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
    // a large table's chunks show its first rows, as many as a small table has (its rows are
    // searched through tables.sqlite), so the view does not grow with its rows
    const maxRows = isLargeTable(sourceRowCount(raw)) ? LARGE_TABLE_ROWS : undefined;
    for (const text of await chunkTable(raw, embedder.tokenizer, sizes, maxRows)) {
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
): Promise<{
  settings: BuildSettings;
  counts: { docChunks: number; schemaEntries: number; cellEntries: number; rowEntries: number };
  files: string[];
}> {
  validateChunkSizes({ size: options.chunkSize, overlap: options.chunkOverlap });
  for (const [name, v] of [
    ["budget", options.cellBudget],
    ["per_table_quota", options.cellPerTableQuota],
  ] as const) {
    if (!Number.isInteger(v) || v <= 0) throw new ViewsError(`--${name} must be a positive integer, got ${v}`);
  }
  const rowCaps = { budget: options.rowBudget, perTableQuota: options.rowPerTableQuota, maxChars: options.maxRowChars };
  validateRowCaps(rowCaps);
  const embedder = await createEmbedder(options.embeddingModel);

  const views: Array<{ name: keyof typeof VIEW_FILES & string; entries: Array<{ text: string }> }> = [
    { name: "docs", entries: await docChunks(tables, passages, embedder, options) },
    { name: "schema", entries: schemaEntries(tables) },
    {
      name: "cells",
      entries: cellEntries(tables, { budget: options.cellBudget, perTableQuota: options.cellPerTableQuota }),
    },
    // rows of large tables are reached through tables.sqlite (indexing/table-stats.ts), not embedded
    {
      name: "rows",
      entries: rowEntries(
        tables.filter((t): t is LoadedTableLike<RawTable> => !isStreamed(t.raw) && !isLargeTable(t.raw.rows.length)),
        rowCaps,
        passages,
      ),
    },
  ];
  if (tables.length > 0 && views[2]!.entries.length === 0) {
    throw new ViewsError("tables were loaded but no cell was indexed (are all tables empty?)");
  }
  const files: string[] = [];
  for (const { name, entries } of views) {
    const f32 = VIEW_FILES[name as ViewName];
    const vectors = await embedder.embedMatrix(entries.map(searchText), (done, total) =>
      options.onProgress?.(`embed ${name}`, done, total),
    );
    await writeVectors(join(outDir, f32), vectors);
    files.push(f32);
  }
  writeViewsDb(
    join(outDir, VIEWS_DB),
    Object.fromEntries(views.map((v) => [v.name, v.entries])) as Record<ViewName, Array<{ text: string }>>,
  );
  files.push(VIEWS_DB);
  const counts = {
    docChunks: views[0]!.entries.length,
    schemaEntries: views[1]!.entries.length,
    cellEntries: views[2]!.entries.length,
    rowEntries: views[3]!.entries.length,
  };
  const info: ViewsInfo = {
    viewsFormat: 2,
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

/** One view's entries, read by id from views.sqlite (nothing is loaded up front). */
export class ViewEntries<T> {
  private readonly byId: Database.Statement;
  private readonly byRange: Database.Statement;
  private readonly cache = new Map<number, T>();
  constructor(
    db: Database.Database,
    readonly view: ViewName,
    readonly size: number,
  ) {
    this.byId = db.prepare(`SELECT json FROM ${view} WHERE id = ?`).pluck();
    this.byRange = db.prepare(`SELECT json FROM ${view} WHERE id >= ? AND id < ? ORDER BY id`).pluck();
  }
  /** The entry at `id` (the same object on every call while it stays in the small cache). */
  get(id: number): T {
    let e = this.cache.get(id);
    if (e === undefined) {
      const json = this.byId.get(id) as string | undefined;
      if (json === undefined) throw new ViewsError(`${VIEWS_DB}: ${this.view} has no entry ${id} — rebuild the index`);
      e = JSON.parse(json) as T;
      this.cache.set(id, e);
      if (this.cache.size > 20_000) this.cache.delete(this.cache.keys().next().value!);
    }
    return e;
  }
  /** Entries [start, end) in order. */
  range(start: number, end: number): T[] {
    return (this.byRange.all(start, end) as string[]).map((j) => JSON.parse(j) as T);
  }
}

/** Population statistics of a view for BM25, read from views.sqlite. */
export interface StoredTermStats {
  n: number;
  words: number;
  df(term: string): number;
}

/** Views 1–4 of an opened index: entries and vectors read on demand, from files held open since the open. */
export interface LoadedViews {
  info: ViewsInfo;
  docs: ViewEntries<DocChunk>;
  schema: ViewEntries<SchemaEntry>;
  cells: ViewEntries<CellEntry>;
  rows: ViewEntries<RowEntry>;
  vectors: Record<ViewName, VectorFile>;
  /** The build's max_row_chars (row texts made at search time are cut alike). */
  rowMaxChars: number;
  termStats(view: "docs" | "schema" | "cells"): StoredTermStats;
  /**
   * Doc chunk ids of one type and/or within a scope of table ids (their chunks, their passage files, and passage files
   * named after no table).
   */
  docIds(filter: { type?: "text" | "table"; scope?: readonly string[] }): number[];
  schemaIds(tableId: string): number[];
  cellIds(tableId: string): number[];
  /** The contiguous row entries of a table (absent: a large table, or rows capped to none). */
  rowRange(tableId: string): IdRange | undefined;
  close(): void;
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

/**
 * Opens Views 1–4 of an index directory. Cheap whatever the index size: views.json, the entry
 * counts recorded in views.sqlite and the vector file sizes are checked against the manifest; the
 * files stay open (a rebuild of the directory does not change what this index reads).
 */
export async function loadViews(dir: string, manifest: Manifest): Promise<LoadedViews> {
  let info: ViewsInfo;
  try {
    info = JSON.parse(await readFile(join(dir, VIEW_FILES.info), "utf8")) as ViewsInfo;
  } catch (e) {
    throw new ViewsError(
      `${join(dir, VIEW_FILES.info)}: missing or unreadable (${(e as Error).message}) — rebuild the index`,
    );
  }
  const problems: string[] = [];
  if (info.viewsFormat !== 2) problems.push(`views.json viewsFormat is ${info.viewsFormat}, expected 2`);
  if (info.embeddingDim !== manifest.settings.embeddingDim)
    problems.push(`views.json embeddingDim ${info.embeddingDim} ≠ manifest ${manifest.settings.embeddingDim}`);
  if (info.embeddingModel !== manifest.settings.embeddingModel)
    problems.push(`views.json embeddingModel ${info.embeddingModel} ≠ manifest ${manifest.settings.embeddingModel}`);
  let db: Database.Database;
  try {
    db = new Database(join(dir, VIEWS_DB), { readonly: true, fileMustExist: true });
  } catch (e) {
    throw new ViewsError(`${join(dir, VIEWS_DB)}: cannot be opened (${(e as Error).message}) — rebuild the index`);
  }
  const vectors: Partial<Record<ViewName, VectorFile>> = {};
  const fail = (list: string[]) => {
    db.close();
    for (const v of Object.values(vectors)) v.close();
    return new ViewsError(`index at ${dir} is inconsistent — rebuild every component:\n- ${list.join("\n- ")}`);
  };
  const sizes = {} as Record<ViewName, number>;
  try {
    for (const view of VIEW_NAMES) {
      // max(id) is an index lookup; ids are positions, so max + 1 is the entry count.
      const n = ((db.prepare(`SELECT max(id) FROM ${view}`).pluck().get() as number | null) ?? -1) + 1;
      sizes[view] = n;
      const want = manifest.counts[COUNT_KEY[view]];
      if (n !== want) problems.push(`${COUNT_KEY[view]}: ${n} entries on disk, manifest says ${want}`);
      if (info.counts?.[COUNT_KEY[view]] !== want)
        problems.push(
          `views.json counts.${COUNT_KEY[view]} is ${info.counts?.[COUNT_KEY[view]]}, manifest says ${want}`,
        );
    }
  } catch (e) {
    throw fail([`${VIEWS_DB} is not a views store of this format (${(e as Error).message})`]);
  }
  if (problems.length > 0) throw fail(problems);
  try {
    for (const view of VIEW_NAMES)
      vectors[view] = new VectorFile(join(dir, VIEW_FILES[view]), info.embeddingDim, sizes[view]);
  } catch (e) {
    throw fail([(e as Error).message]);
  }
  const statsOf = db.prepare("SELECT n, words FROM view_stats WHERE view = ?");
  const dfOf = db.prepare("SELECT df FROM terms WHERE view = ? AND term = ?").pluck();
  const stats = new Map<string, StoredTermStats>();
  const idsBy = (sql: string) => {
    const stmt = db.prepare(sql).pluck();
    const cache = new Map<string, number[]>();
    return (key: string): number[] => {
      let ids = cache.get(key);
      if (!ids) {
        ids = stmt.all(key) as number[];
        cache.set(key, ids);
        if (cache.size > 256) cache.delete(cache.keys().next().value!);
      }
      return ids;
    };
  };
  const byScope = idsBy("SELECT id FROM docs WHERE scope = ? ORDER BY id");
  const byType = idsBy("SELECT id FROM docs WHERE type = ? ORDER BY id");
  // Passages of a file named after no table (a user's notes beside their spreadsheets) belong to every table's scope.
  let free: number[] | undefined;
  const freePassages = () =>
    (free ??= db
      .prepare(
        "SELECT id FROM docs WHERE type = 'text' AND scope NOT IN (SELECT DISTINCT table_id FROM schema) ORDER BY id",
      )
      .pluck()
      .all() as number[]);
  const rangeOf = db.prepare("SELECT start, end FROM row_ranges WHERE table_id = ?");
  return {
    info,
    docs: new ViewEntries<DocChunk>(db, "docs", sizes.docs),
    schema: new ViewEntries<SchemaEntry>(db, "schema", sizes.schema),
    cells: new ViewEntries<CellEntry>(db, "cells", sizes.cells),
    rows: new ViewEntries<RowEntry>(db, "rows", sizes.rows),
    vectors: vectors as Record<ViewName, VectorFile>,
    rowMaxChars: manifest.settings.maxRowChars,
    termStats(view) {
      let s = stats.get(view);
      if (!s) {
        const row = statsOf.get(view) as { n: number; words: number } | undefined;
        const terms = new Map<string, number>();
        s = {
          n: row?.n ?? 0,
          words: row?.words ?? 0,
          df(term) {
            let f = terms.get(term);
            if (f === undefined) {
              f = (dfOf.get(view, term) as number | undefined) ?? 0;
              terms.set(term, f);
              if (terms.size > 100_000) terms.delete(terms.keys().next().value!);
            }
            return f;
          },
        };
        stats.set(view, s);
      }
      return s;
    },
    docIds({ type, scope }) {
      if (!scope) return type ? byType(type) : [];
      const ids = [...new Set([...[...new Set(scope)].flatMap(byScope), ...freePassages()])].sort((a, b) => a - b);
      if (!type) return ids;
      const typed = new Set(byType(type));
      return ids.filter((i) => typed.has(i));
    },
    schemaIds: idsBy("SELECT id FROM schema WHERE table_id = ? ORDER BY id"),
    cellIds: idsBy("SELECT id FROM cells WHERE table_id = ? ORDER BY id"),
    rowRange(tableId) {
      const r = rangeOf.get(tableId) as { start: number; end: number } | undefined;
      return r ? { start: r.start, end: r.end } : undefined;
    },
    close() {
      for (const v of Object.values(vectors)) v.close();
      if (db.open) db.close();
    },
  };
}
