/**
 * Builds an index directory: load tables and passages → View 5 (tables.sqlite) → passages.jsonl →
 * Views 1–4 (indexing/views.ts) → manifest.json.
 *
 * Everything is written into a sibling temp directory `<savePath>.tmp-<pid>`; only a complete build
 * replaces `savePath` (old index renamed aside, new one renamed in, old one removed), so a failed or
 * interrupted build never leaves a half-written index. An existing `savePath` is replaced only when
 * it is empty or provably an index written here, and never when it holds an input folder; leftovers
 * of interrupted builds are cleaned up first (indexing/save-path.ts has the rules).
 *
 * With `sqlStore` (a postgres:// URL) View 5 is also copied into a new PostgreSQL schema
 * (indexing/pg-store.ts) recorded in the manifest; the schema of the index it replaces is dropped
 * after the swap, and the new one when the build fails.
 *
 * Cells longer than VIEW_CELL_MAX_CHARS are cut (with "…") in the copy of the table given to the
 * views (chunks, cells, rows); tables.sqlite keeps the full original text.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { loadPassages } from "./load-passages.js";
import { InputDirectoryError, loadTableSources, type LoadIssue } from "./load-tables.js";
import { MANIFEST_FILE, PASSAGES_FILE, writeManifest } from "./manifest.js";
import { BUILD_MARKER, cleanStaleBuilds, removeOnSignal, replaceRefusal, savePathRefusal } from "./save-path.js";
import { copySqliteToPostgres, dropSchema, isPostgresUrl, newSchemaName, PgStoreError, redactUrl } from "./pg-store.js";
import { openSqlStore, SQLITE_FILE, storedTable, writeSqlStore } from "./sql-store.js";
import { isStreamed, type Manifest, type Passage, type RawTable } from "./types.js";
import { buildViews, type LoadedTable, type ViewBuildOptions } from "./views.js";

/** Longest cell text the views see; SQL keeps everything. */
export const VIEW_CELL_MAX_CHARS = 10_000;

/** Reference §10.1 defaults. */
export const DEFAULT_VIEW_OPTIONS: Omit<ViewBuildOptions, "embeddingModel" | "onProgress"> = {
  chunkSize: 512,
  chunkOverlap: 64,
  cellBudget: 10_000,
  cellPerTableQuota: 50,
  rowBudget: 0,
  rowPerTableQuota: 0,
  maxRowChars: 0,
};

export interface BuildIndexOptions extends Partial<Omit<ViewBuildOptions, "onProgress">> {
  /** Table files (.csv/.xlsx). */
  excelDir: string;
  /** Passage files (.json/.txt/.md); may be empty. */
  docDir: string;
  /** Index directory to create or replace. */
  savePath: string;
  /** `{"tables": [...], "documents": [...]}` fixing the file order; must list exactly the files present. */
  inputOrder?: { tables: string[]; documents: string[] };
  /** Where View 5 is served: undefined/"sqlite" = the embedded tables.sqlite only; a postgres:// URL = also a PostgreSQL schema. */
  sqlStore?: string;
  /** Stage progress (load, sql, views' own stages, manifest). */
  onProgress?: (stage: string, done: number, total: number) => void;
}

export interface BuildIndexResult {
  dir: string;
  manifest: Manifest;
  /** Every problem met in the input files (skipped files are also in manifest.sources.skipped). */
  issues: LoadIssue[];
  /** Leftovers of interrupted builds of this save path found, removed or kept (one sentence each). */
  cleanup: string[];
}

export class BuildIndexError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BuildIndexError";
  }
}

/** Reads an --input_order JSON file `{"tables": [...], "documents": [...]}`. */
export function readInputOrder(path: string): { tables: string[]; documents: string[] } {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new BuildIndexError(`--input_order ${path}: ${(error as Error).message}`);
  }
  const d = data as { tables?: unknown; documents?: unknown };
  const isList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");
  if (!isList(d?.tables) || !isList(d?.documents)) {
    throw new BuildIndexError(`--input_order ${path} must be {"tables": [file names], "documents": [file names]}`);
  }
  return { tables: d.tables, documents: d.documents };
}

const viewCell = (cell: string): string =>
  cell.length > VIEW_CELL_MAX_CHARS ? `${cell.slice(0, VIEW_CELL_MAX_CHARS)}…` : cell;

/** A table as the views see it: overlong cells cut, the rest shared (no copy when nothing is long). */
function viewTable(raw: RawTable): RawTable {
  const long = raw.rows.some((row) => row.some((cell) => cell.length > VIEW_CELL_MAX_CHARS));
  if (!long) return raw;
  return { ...raw, rows: raw.rows.map((row) => row.map(viewCell)) };
}

function writePassages(path: string, passages: readonly Passage[]): void {
  writeFileSync(path, passages.map((p) => JSON.stringify(p) + "\n").join(""));
}

/** Replaces `target` by the finished build in `built`; restores the old index if the swap fails. */
function swapInto(built: string, target: string): void {
  if (!existsSync(target)) {
    renameSync(built, target);
    return;
  }
  // Checked again: the directory may have changed during the build.
  const why = replaceRefusal(target);
  if (why)
    throw new BuildIndexError(
      `refusing to replace --save_path ${target}: ${why}. Nothing was deleted; choose another --save_path`,
    );
  const aside = `${target}.old-${process.pid}`;
  rmSync(aside, { recursive: true, force: true });
  renameSync(target, aside);
  try {
    renameSync(built, target);
  } catch (error) {
    renameSync(aside, target);
    throw error;
  }
  rmSync(aside, { recursive: true, force: true });
}

export async function buildIndex(options: BuildIndexOptions): Promise<BuildIndexResult> {
  const target = resolve(options.savePath);
  const progress = options.onProgress ?? (() => {});
  const refusal = savePathRefusal(options.savePath, [
    { flag: "--excel_dir", dir: options.excelDir },
    { flag: "--doc_dir", dir: options.docDir },
  ]);
  if (refusal) throw new BuildIndexError(refusal);
  const pgUrl = options.sqlStore && options.sqlStore !== "sqlite" ? options.sqlStore : undefined;
  if (pgUrl && !isPostgresUrl(pgUrl))
    throw new BuildIndexError(
      `--sql_store must be "sqlite" or a postgres:// URL, got ${JSON.stringify(redactUrl(pgUrl))}`,
    );
  const cleanup = cleanStaleBuilds(target);
  const tablesLoaded = loadTableSources(options.excelDir, { order: options.inputOrder?.tables });
  const issues = [...tablesLoaded.issues];
  if (tablesLoaded.tables.length === 0) {
    const why = issues.length ? ` Problems: ${issues.map((i) => `${i.file}: ${i.problem}`).join("; ")}` : "";
    throw new InputDirectoryError(
      `no tables found in --excel_dir ${options.excelDir} (expected .csv or .xlsx files).${why}`,
    );
  }
  const tableIds = new Set(tablesLoaded.tables.map((t) => t.id));
  const passagesLoaded = loadPassages(options.docDir, { tableIds, order: options.inputOrder?.documents });
  issues.push(...passagesLoaded.issues);
  progress("load", 1, 1);

  mkdirSync(dirname(target), { recursive: true });
  const tmp = `${target}.tmp-${process.pid}`;
  // Listen before the directory exists: a signal between mkdir and listen would leave it behind.
  const detachSignals = removeOnSignal(tmp);
  let pgSchema: string | undefined;
  let stored: ReturnType<typeof openSqlStore> | undefined;
  try {
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp);
    writeFileSync(join(tmp, BUILD_MARKER), `atr build-index pid ${process.pid} started ${new Date().toISOString()}\n`);
    const schemas = writeSqlStore(join(tmp, SQLITE_FILE), tablesLoaded.tables, {
      onTable: (done, total) => progress("sql", done, total),
    });
    if (pgUrl) {
      const schema = newSchemaName(target);
      await copySqliteToPostgres(join(tmp, SQLITE_FILE), pgUrl, schema, {
        onTable: (done, total) => progress("postgres", done, total),
      });
      pgSchema = schema;
    }
    writePassages(join(tmp, PASSAGES_FILE), passagesLoaded.passages);
    // A streamed (large) table is read back from the store, so its rows are never held.
    stored = openSqlStore(join(tmp, SQLITE_FILE));
    const store = stored;
    const loaded: LoadedTable[] = tablesLoaded.tables.map((raw, i) =>
      isStreamed(raw)
        ? { ...storedTable(store, schemas[i]!, viewCell), schema: schemas[i]! }
        : { raw: viewTable(raw), schema: schemas[i]! },
    );
    const views = await buildViews(
      loaded,
      passagesLoaded.passages,
      {
        chunkSize: options.chunkSize ?? DEFAULT_VIEW_OPTIONS.chunkSize,
        chunkOverlap: options.chunkOverlap ?? DEFAULT_VIEW_OPTIONS.chunkOverlap,
        cellBudget: options.cellBudget ?? DEFAULT_VIEW_OPTIONS.cellBudget,
        cellPerTableQuota: options.cellPerTableQuota ?? DEFAULT_VIEW_OPTIONS.cellPerTableQuota,
        rowBudget: options.rowBudget ?? DEFAULT_VIEW_OPTIONS.rowBudget,
        rowPerTableQuota: options.rowPerTableQuota ?? DEFAULT_VIEW_OPTIONS.rowPerTableQuota,
        maxRowChars: options.maxRowChars ?? DEFAULT_VIEW_OPTIONS.maxRowChars,
        embeddingModel: options.embeddingModel,
        onProgress: progress,
      },
      tmp,
    );
    stored.close();
    const manifest = writeManifest(tmp, {
      createdAt: new Date().toISOString(),
      settings: views.settings,
      counts: {
        tables: schemas.length,
        rows: schemas.reduce((sum, s) => sum + s.rowCount, 0),
        passages: passagesLoaded.passages.length,
        ...views.counts,
      },
      sources: {
        tables: tablesLoaded.files,
        documents: passagesLoaded.files,
        skipped: issues.filter((i) => i.severity === "error").map((i) => ({ file: i.file, reason: i.problem })),
      },
      ...(pgUrl && pgSchema
        ? { sqlStore: { kind: "postgres" as const, url: redactUrl(pgUrl), schema: pgSchema } }
        : {}),
    });
    progress("manifest", 1, 1);
    const replaced = previousPgSchema(target);
    swapInto(tmp, target);
    rmSync(join(target, BUILD_MARKER), { force: true });
    if (pgUrl && replaced) {
      await dropSchema(pgUrl, replaced).catch((error: Error) =>
        cleanup.push(`could not drop the replaced index's PostgreSQL schema ${replaced}: ${error.message}`),
      );
    }
    return { dir: target, manifest, issues, cleanup };
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    if (pgUrl && pgSchema) await dropSchema(pgUrl, pgSchema).catch(() => undefined);
    if (error instanceof PgStoreError) throw new BuildIndexError(error.message);
    throw error;
  } finally {
    if (stored?.open) stored.close();
    detachSignals();
  }
}

/** The PostgreSQL schema of the index at `target` (before it is replaced), if it has one. */
function previousPgSchema(target: string): string | undefined {
  try {
    const m = JSON.parse(readFileSync(join(target, MANIFEST_FILE), "utf8")) as Partial<Manifest>;
    return m.sqlStore?.kind === "postgres" ? m.sqlStore.schema : undefined;
  } catch {
    return undefined;
  }
}

/** Name of the temp directory a build of `savePath` uses (for tests and cleanup messages). */
export function tempBuildDir(savePath: string): string {
  return `${resolve(savePath)}.tmp-${process.pid}`;
}
