/**
 * Opens an index directory for answering, failing closed, at a cost independent of the index size:
 * the manifest's fields, every file's size, the View 5 bookkeeping against the manifest's counts
 * and the views' entry counts are checked (every violation listed in one IndexVerificationError);
 * the files' full checksums are verified by the build and by `atr inspect-index` (`inspectIndex`),
 * which runs every check below plus those. Nothing is loaded up front but the table schemas and the
 * passages: view entries and vectors are read on demand, from files held open since the open —
 * so a rebuild that replaces the directory does not change what an opened index reads.
 *
 * This returns the index's data (View 5, passages, Views 1–4); the search over it is built above,
 * in retrievers/ (retrievers/open-search.ts).
 */
import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import type Database from "better-sqlite3";
import { readJsonl } from "./jsonl.js";
import { IndexVerificationError, PASSAGES_FILE, readVerifiedManifest, verifyIndexFiles } from "./manifest.js";
import { openSqlStore, readTableSchemas, sqlStoreViolations, SQLITE_FILE } from "./sql-store.js";
import type { Manifest, Passage, TableSchema } from "./types.js";
import { loadViews, VIEW_NAMES, type LoadedViews } from "./views.js";

export interface OpenedIndex {
  /** Absolute index directory. */
  dir: string;
  manifest: Manifest;
  /** tables.sqlite, read-only (View 5). Layout: see indexing/sql-store.ts. */
  db: Database.Database;
  /** Inode of tables.sqlite when it was opened (a rebuilt index has another). */
  sqliteIno: number;
  /** Table id → schema (physical names, types), in load order. */
  tables: Map<string, TableSchema>;
  passages: Passage[];
  /** Views 1–4, read lazily. */
  views: LoadedViews;
  /** Closes the SQLite connections and the view files. */
  close(): void;
}

export async function openIndex(dir: string): Promise<OpenedIndex> {
  const abs = resolve(dir);
  const manifest = readVerifiedManifest(abs, "open");
  const sqlitePath = join(abs, SQLITE_FILE);
  let db: Database.Database;
  try {
    db = openSqlStore(sqlitePath);
  } catch (error) {
    throw new IndexVerificationError(abs, [(error as Error).message]);
  }
  try {
    let tables: Map<string, TableSchema>;
    try {
      tables = readTableSchemas(db);
    } catch (error) {
      throw new IndexVerificationError(abs, [(error as Error).message]);
    }
    let violations: string[];
    try {
      violations = sqlStoreViolations(db, tables, manifest.counts, "open");
    } catch (error) {
      violations = [`${SQLITE_FILE}: ${(error as Error).message}`];
    }
    if (violations.length > 0) throw new IndexVerificationError(abs, violations);
    const passages = await readJsonl<Passage>(join(abs, PASSAGES_FILE));
    if (passages.length !== manifest.counts.passages) {
      throw new IndexVerificationError(abs, [
        `${PASSAGES_FILE} has ${passages.length} passages but counts.passages is ${manifest.counts.passages}`,
      ]);
    }
    let views: LoadedViews;
    try {
      views = await loadViews(abs, manifest);
    } catch (error) {
      throw new IndexVerificationError(abs, [(error as Error).message]);
    }
    return {
      dir: abs,
      manifest,
      db,
      sqliteIno: statSync(sqlitePath).ino,
      tables,
      passages,
      views,
      close() {
        views.close();
        if (db.open) db.close();
      },
    };
  } catch (error) {
    if (db.open) db.close();
    throw error;
  }
}

/**
 * Every check of an index: the full file verification (sizes, sha256, line counts), then the
 * checks answering runs when it opens the index, then SQLite's integrity check and the row count of
 * every data table, then every view entry read back. Returns all violations (empty = usable).
 */
export async function inspectIndex(dir: string): Promise<{ manifest?: Manifest; violations: string[] }> {
  const abs = resolve(dir);
  const files = verifyIndexFiles(abs, "full");
  if (!files.manifest || files.violations.length > 0) return files;
  let opened: OpenedIndex;
  try {
    opened = await openIndex(abs);
  } catch (error) {
    return {
      manifest: files.manifest,
      violations: error instanceof IndexVerificationError ? error.violations : [(error as Error).message],
    };
  }
  try {
    let violations: string[];
    try {
      violations = sqlStoreViolations(opened.db, opened.tables, files.manifest.counts, "full");
    } catch (error) {
      violations = [`${SQLITE_FILE}: ${(error as Error).message}`];
    }
    for (const view of VIEW_NAMES) {
      const entries = opened.views[view];
      try {
        for (let start = 0; start < entries.size; start += 10_000) {
          const got = entries.range(start, Math.min(entries.size, start + 10_000));
          if (got.length !== Math.min(10_000, entries.size - start))
            throw new Error(`ids are not contiguous from ${start}`);
        }
      } catch (error) {
        violations.push(`views.sqlite: ${view} entries cannot be read back (${(error as Error).message})`);
      }
    }
    return { manifest: files.manifest, violations };
  } finally {
    opened.close();
  }
}
