/**
 * Loads every passage file of --doc_dir.
 *
 * - `.txt` / `.md`: one passage, id `<file>#0`, title = file stem.
 * - `.json` array: one passage per element. Objects use `id`, `title`, `text` (and HybridQA `cells`);
 *   an object without `text` becomes `key: value` lines of its fields; a string element is the text.
 * - `.json` object: one passage; `text` when present, else `key: value` lines (reference §4.3).
 * - Ids: the record's `id`, else `<file>#<n>`. Ids are unique across the index: when an id was already
 *   used by an earlier file (HybridQA repeats a Wikipedia article for every table linking to it), the
 *   later one becomes `<id>#<file stem>`.
 * - `tableId` = the file stem when that stem is a loaded table id (HybridQA / TAT-QA layout).
 * - Unreadable or malformed files are skipped with a LoadIssue; invalid UTF-8 is decoded as
 *   Windows-1252 with a warning; other extensions are skipped with a LoadIssue.
 */
import { readFileSync } from "node:fs";
import { basename, extname, join } from "node:path";
import type { LoadIssue } from "./load-tables.js";
import { applyOrder, listInputFiles } from "./load-tables.js";
import { decodeText } from "./read-text.js";
import type { Passage } from "./types.js";

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
  const issues: LoadIssue[] = [];
  const all = listInputFiles(dir, "--doc_dir");
  const candidates = all.filter((name) => {
    if (isPassageFile(name)) return true;
    issues.push({ file: name, severity: "error", problem: "not a passage file (.json, .txt or .md); skipped" });
    return false;
  });
  const files = applyOrder(candidates, options.order, "documents");
  const passages: Passage[] = [];
  const loadedFiles: string[] = [];
  const usedIds = new Set<string>();
  for (const file of files) {
    let records: Passage[];
    try {
      records = readPassageFile(join(dir, file), file, issues);
    } catch (error) {
      issues.push({ file, severity: "error", problem: `${error instanceof Error ? error.message : String(error)}; skipped` });
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

function readPassageFile(path: string, file: string, issues: LoadIssue[]): Passage[] {
  const bytes = readFileSync(path);
  if (bytes.length === 0) throw new Error("empty file");
  const decoded = decodeText(bytes);
  if (decoded.fallback) {
    issues.push({ file, severity: "warning", problem: "not valid UTF-8; decoded as Windows-1252 (re-save the file as UTF-8 to silence this)" });
  }
  const ext = extname(file).toLowerCase();
  if (ext !== ".json") {
    const text = decoded.text.trim();
    if (text === "") throw new Error("no text (only whitespace)");
    return [{ id: `${file}#0`, title: basename(file, extname(file)), text, file }];
  }
  let data: unknown;
  try {
    data = JSON.parse(decoded.text);
  } catch (error) {
    throw new Error(`malformed JSON (${(error as Error).message})`);
  }
  const items = Array.isArray(data) ? data : [data];
  const out: Passage[] = [];
  items.forEach((item, n) => {
    const passage = toPassage(item, file, n);
    if (passage) out.push(passage);
  });
  if (out.length === 0) throw new Error("no passages with text");
  return out;
}

function toPassage(item: unknown, file: string, n: number): Passage | undefined {
  if (typeof item === "string") return item.trim() ? { id: `${file}#${n}`, text: item.trim(), file } : undefined;
  if (item === null || typeof item !== "object" || Array.isArray(item)) {
    const text = item === null ? "" : JSON.stringify(item);
    return text && text !== "[]" ? { id: `${file}#${n}`, text, file } : undefined;
  }
  const record = item as Record<string, unknown>;
  const id = typeof record.id === "string" || typeof record.id === "number" ? String(record.id) : `${file}#${n}`;
  const title = typeof record.title === "string" && record.title.trim() ? record.title.trim() : undefined;
  const text =
    typeof record.text === "string"
      ? record.text.trim()
      : Object.entries(record)
          .filter(([key]) => key !== "id" && key !== "cells")
          .map(([key, value]) => `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`)
          .join("\n");
  if (text === "") return undefined;
  const passage: Passage = { id, text, file };
  if (title !== undefined) passage.title = title;
  const cells = parseCells(record.cells);
  if (cells) passage.cells = cells;
  return passage;
}

function parseCells(value: unknown): Array<[number, number]> | undefined {
  if (!Array.isArray(value)) return undefined;
  const cells = value.filter(
    (c): c is [number, number] => Array.isArray(c) && c.length === 2 && Number.isInteger(c[0]) && Number.isInteger(c[1]),
  );
  return cells.length ? cells.map(([r, c]) => [r, c]) : undefined;
}
