/**
 * Loads every passage file of --doc_dir.
 *
 * - `.txt` / `.md`: one passage, id `<file>#0`, title = file stem.
 * - `.json` array: one passage per entry. An object entry uses `id`, `title`, `text` (and HybridQA
 *   `cells`); an object without a `text` key becomes `key: value` lines of its plain (string, number,
 *   boolean) fields — nested fields are left out with a warning; a string entry is the text.
 * - `.json` object: one passage, same rules; a top-level string: one passage.
 * - Entries of unexpected shape are skipped with an issue naming the file and the entry indexes (they
 *   also land in manifest.sources.skipped): numbers, booleans, null, nested arrays, `"text"` that is
 *   not a string (`{"text": null}`), empty text, objects with nothing plain to say. A top-level number,
 *   boolean or null, JSON nested deeper than MAX_JSON_DEPTH, malformed JSON → the file is skipped.
 * - Ids: the record's `id` (string or number), else `<file>#<n>`. Ids are unique across the index: when
 *   an id was already used by an earlier file (HybridQA repeats a Wikipedia article for every table
 *   linking to it), the later one becomes `<id>#<file stem>`.
 * - `tableId` = the file stem when that stem is a loaded table id (HybridQA / TAT-QA layout).
 * - The folder listing (hidden files, sub-folders, symlinks, …) and the file reading (size limit,
 *   binary data, UTF-16, Windows-1252, NULs) follow the same rules as the tables (load-tables.ts).
 *   An empty --doc_dir is allowed (tables only), with a warning.
 */
import { basename, extname, join } from "node:path";
import type { LoadIssue } from "./load-tables.js";
import { applyOrder, decodeInputText, listInputFiles, readInputFile } from "./load-tables.js";
import type { Passage } from "./types.js";

/** Deepest JSON nesting read; HybridQA and TAT-QA files nest 3 levels. */
export const MAX_JSON_DEPTH = 64;

export interface LoadPassagesResult {
  passages: Passage[];
  /** Files that produced at least one passage, in load order. */
  files: string[];
  issues: LoadIssue[];
}

export interface LoadPassagesOptions {
  /** Table ids of the index; a file whose stem is one of them is linked to that table. */
  tableIds?: ReadonlySet<string>;
  /** Exact file order; must list exactly the passage files present. Default: sorted listing. */
  order?: string[];
}

const TEXT_EXTENSIONS = new Set([".txt", ".md"]);

export function isPassageFile(name: string): boolean {
  const ext = extname(name).toLowerCase();
  return ext === ".json" || TEXT_EXTENSIONS.has(ext);
}

export function loadPassages(dir: string, options: LoadPassagesOptions = {}): LoadPassagesResult {
  const listing = listInputFiles(dir, "--doc_dir");
  const issues: LoadIssue[] = [...listing.issues];
  const candidates = listing.files.filter((name) => {
    if (isPassageFile(name)) return true;
    issues.push({ file: name, severity: "error", problem: "not a passage file (.json, .txt or .md); skipped" });
    return false;
  });
  if (candidates.length === 0 && !options.order) {
    issues.push({
      file: dir,
      severity: "warning",
      problem: "--doc_dir holds no passage files; the index has tables only",
    });
  }
  const files = applyOrder(candidates, options.order, "documents");
  const passages: Passage[] = [];
  const loadedFiles: string[] = [];
  const usedIds = new Set<string>();
  for (const file of files) {
    let records: Passage[];
    try {
      records = readPassageFile(join(dir, file), file, issues);
    } catch (error) {
      issues.push({
        file,
        severity: "error",
        problem: `${error instanceof Error ? error.message : String(error)}; skipped`,
      });
      continue;
    }
    const stem = basename(file, extname(file));
    const tableId = options.tableIds?.has(stem) ? stem : undefined;
    for (const record of records) {
      const base = usedIds.has(record.id) ? `${record.id}#${stem}` : record.id;
      let id = base;
      for (let n = 2; usedIds.has(id); n++) id = `${base}~${n}`;
      record.id = id;
      usedIds.add(id);
      if (tableId !== undefined) record.tableId = tableId;
      passages.push(record);
    }
    if (records.length) loadedFiles.push(file);
  }
  return { passages, files: loadedFiles, issues };
}

/** True when the JSON text nests arrays/objects deeper than `limit` (strings skipped, no parse). */
export function jsonTooDeep(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i++;
        else if (d === 34) break;
      }
    } else if (c === 91 || c === 123) {
      if (++depth > limit) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

function readPassageFile(path: string, file: string, issues: LoadIssue[]): Passage[] {
  const bytes = readInputFile(path);
  if (bytes.length === 0) throw new Error("empty file");
  const { text: decoded } = decodeInputText(bytes, file, issues);
  const ext = extname(file).toLowerCase();
  if (ext !== ".json") {
    const text = decoded.trim();
    if (text === "") throw new Error("no text (only whitespace)");
    return [{ id: `${file}#0`, title: basename(file, extname(file)), text, file }];
  }
  if (jsonTooDeep(decoded, MAX_JSON_DEPTH)) throw new Error(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  let data: unknown;
  try {
    data = JSON.parse(decoded);
  } catch (error) {
    throw new Error(`malformed JSON (${(error as Error).message})`);
  }
  if (data === null || typeof data === "number" || typeof data === "boolean") {
    throw new Error(`the JSON is ${describe(data)}; expected an array of passages, an object or a string`);
  }
  const items = Array.isArray(data) ? data : [data];
  const out: Passage[] = [];
  const skipped = new Map<string, number[]>();
  const ignored = new Map<string, number[]>();
  const note = (map: Map<string, number[]>, reason: string, n: number): void =>
    void (map.get(reason) ?? map.set(reason, []).get(reason)!).push(n);
  items.forEach((item, n) => {
    const result = toPassage(item, file, n);
    if ("skip" in result) note(skipped, result.skip, n);
    else {
      out.push(result.passage);
      for (const reason of result.ignored) note(ignored, reason, n);
    }
  });
  for (const [reason, entries] of skipped)
    issues.push({ file, severity: "error", problem: `${describeEntries(entries)}: ${reason}; skipped` });
  for (const [reason, entries] of ignored)
    issues.push({ file, severity: "warning", problem: `${describeEntries(entries)}: ${reason}` });
  if (out.length === 0) throw new Error("no passages with text");
  return out;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function describeEntries(entries: number[]): string {
  const shown = entries.slice(0, 5).join(", ");
  return `entr${entries.length === 1 ? "y" : "ies"} ${shown}${entries.length > 5 ? ` and ${entries.length - 5} more` : ""}`;
}

const isPlain = (v: unknown): v is string | number | boolean =>
  typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v));

type EntryResult = { passage: Passage; ignored: string[] } | { skip: string };

function toPassage(item: unknown, file: string, n: number): EntryResult {
  if (typeof item === "string")
    return item.trim()
      ? { passage: { id: `${file}#${n}`, text: item.trim(), file }, ignored: [] }
      : { skip: "empty text" };
  if (item === null || typeof item !== "object" || Array.isArray(item)) {
    return { skip: `${describe(item)}, not a passage (expected an object with "text", or a string)` };
  }
  const record = item as Record<string, unknown>;
  const ignored: string[] = [];
  let id = `${file}#${n}`;
  if (
    (typeof record.id === "string" && record.id.trim() !== "") ||
    (typeof record.id === "number" && Number.isFinite(record.id))
  )
    id = String(record.id);
  else if (record.id !== undefined)
    ignored.push(`"id" is ${describe(record.id)}, not a string or number; used ${file}#<n>`);
  const title = typeof record.title === "string" && record.title.trim() ? record.title.trim() : undefined;
  let text: string;
  if ("text" in record) {
    if (typeof record.text !== "string") return { skip: `"text" is ${describe(record.text)}, expected a string` };
    text = record.text.trim();
    if (text === "") return { skip: '"text" is empty' };
  } else {
    const fields = Object.entries(record).filter(([key]) => key !== "id" && key !== "cells");
    const nested = fields.filter(([, value]) => !isPlain(value)).map(([key]) => key);
    text = fields
      .filter(([, value]) => isPlain(value) && String(value).trim() !== "")
      .map(([key, value]) => `${key}: ${String(value)}`)
      .join("\n");
    if (text === "") return { skip: 'no "text" and no plain (string, number, boolean) fields' };
    if (nested.length)
      ignored.push(
        `no "text"; passage made of the plain fields, nested field${nested.length === 1 ? "" : "s"} ${nested.map((k) => JSON.stringify(k)).join(", ")} left out`,
      );
  }
  const passage: Passage = { id, text, file };
  if (title !== undefined) passage.title = title;
  const cells = parseCells(record.cells);
  if (cells) passage.cells = cells;
  return { passage, ignored };
}

function parseCells(value: unknown): Array<[number, number]> | undefined {
  if (!Array.isArray(value)) return undefined;
  const cells = value.filter(
    (c): c is [number, number] =>
      Array.isArray(c) && c.length === 2 && Number.isInteger(c[0]) && Number.isInteger(c[1]),
  );
  return cells.length ? cells.map(([r, c]) => [r, c]) : undefined;
}
