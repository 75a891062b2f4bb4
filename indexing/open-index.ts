/**
 * Opens an index directory for answering, failing closed: the manifest, checksums and counts are
 * verified BEFORE anything heavy loads (no SQLite, no vectors, no model); then tables.sqlite is
 * opened read-only and its bookkeeping is checked against the manifest; every violation is listed in
 * one IndexVerificationError. Opened indexes are cached per absolute directory (`openIndexCached`)
 * so one process opens an index once; a rebuilt index (new manifest) is reopened.
 */
import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import type Database from "better-sqlite3";
import type { IndexSearch } from "../retrievers/types.js";
import { IndexVerificationError, MANIFEST_FILE, PASSAGES_FILE, readVerifiedManifest } from "./manifest.js";
import { openSqlStore, readTableSchemas, SQLITE_FILE } from "./sql-store.js";
import type { Manifest, Passage, TableSchema } from "./types.js";
import { openViews, readJsonl, type OpenViewsOptions } from "./views.js";

export interface OpenedIndex {
  /** Absolute index directory. */
  dir: string;
  manifest: Manifest;
  /** tables.sqlite, read-only (View 5). Layout: see indexing/sql-store.ts. */
  db: Database.Database;
  /** Table id → schema (physical names, types), in load order. */
  tables: Map<string, TableSchema>;
  passages: Passage[];
  /** Views 1–4. */
  search: IndexSearch;
  /** Closes the SQLite connection and drops the index from the cache. */
  close(): void;
}

export type OpenIndexOptions = OpenViewsOptions;

export async function openIndex(dir: string, options: OpenIndexOptions = {}): Promise<OpenedIndex> {
  const abs = resolve(dir);
  const manifest = readVerifiedManifest(abs);
  const db = openSqlStore(join(abs, SQLITE_FILE));
  try {
    const tables = readTableSchemas(db);
    const violations: string[] = [];
    const rows = [...tables.values()].reduce((sum, t) => sum + t.rowCount, 0);
    if (tables.size !== manifest.counts.tables) violations.push(`${SQLITE_FILE} has ${tables.size} tables but counts.tables is ${manifest.counts.tables}`);
    if (rows !== manifest.counts.rows) violations.push(`${SQLITE_FILE} has ${rows} rows but counts.rows is ${manifest.counts.rows}`);
    if (violations.length > 0) throw new IndexVerificationError(abs, violations);
    const passages = await readJsonl<Passage>(join(abs, PASSAGES_FILE));
    const search = await openViews(abs, manifest, db, tables, options);
    const opened: OpenedIndex = {
      dir: abs,
      manifest,
      db,
      tables,
      passages,
      search,
      close() {
        if (cache.get(abs)?.opened === opened) cache.delete(abs);
        if (db.open) db.close();
      },
    };
    return opened;
  } catch (error) {
    db.close();
    throw error;
  }
}

interface CacheEntry {
  manifestMtimeMs: number;
  promise: Promise<OpenedIndex>;
  opened?: OpenedIndex;
}
const cache = new Map<string, CacheEntry>();

/**
 * Opens an index once per process and directory. A rebuilt index (manifest.json changed since it was
 * opened) is opened afresh; the stale one stays usable by whoever holds it until they close it.
 * Options are honoured on the first open of a directory only.
 */
export function openIndexCached(dir: string, options: OpenIndexOptions = {}): Promise<OpenedIndex> {
  const abs = resolve(dir);
  let mtime = -1;
  try {
    mtime = statSync(join(abs, MANIFEST_FILE)).mtimeMs;
  } catch {
    // openIndex reports the missing manifest with the full message.
  }
  const hit = cache.get(abs);
  if (hit && hit.manifestMtimeMs === mtime) return hit.promise;
  const entry: CacheEntry = { manifestMtimeMs: mtime, promise: openIndex(abs, options) };
  cache.set(abs, entry);
  entry.promise.then(
    (opened) => {
      entry.opened = opened;
    },
    () => {
      if (cache.get(abs) === entry) cache.delete(abs);
    },
  );
  return entry.promise;
}

/** Closes every cached index (end of a batch run, tests). */
export function closeCachedIndexes(): void {
  for (const entry of [...cache.values()]) entry.opened?.close();
  cache.clear();
}
