/**
 * Loads every table of a directory: each .csv file, and each non-empty sheet of each .xlsx workbook,
 * becomes one RawTable with flattened, non-blank, unique headers and rectangular rows of strings.
 *
 * - Ids: the file stem; `<stem>#<sheet>` when a workbook has more than one sheet.
 * - Headers: blank → `col_N` (N = 1-based position); a repeated name → `name_2`, `name_3`, …;
 *   xlsx multi-row headers (a merge in the header rows) are flattened top-down as `Parent › Child`.
 * - Merged cells are filled with their top-left value (header and body).
 * - `<id>.json` beside a table is a metadata sidecar, not a table: its `title` (+ `section_title`,
 *   HybridQA) or `page_title` (WTQ) becomes the table title.
 * - Bad input never stops the build: the file is skipped (severity "error") or repaired (severity
 *   "warning") and a LoadIssue names the file and the problem:
 *   unreadable/corrupt .xlsx, empty file, unterminated CSV quote → skipped;
 *   ragged CSV rows → short rows padded with "", extra non-empty cells get `col_N` columns;
 *   invalid UTF-8 → decoded as Windows-1252; a second file with an already-used id (e.g. `a.csv` and
 *   `a.xlsx`) → skipped, the first in listing order wins; `.xls` and other extensions → skipped.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, extname, join } from "node:path";
import XLSX from "@e965/xlsx";
import { CsvParseError, parseCsv } from "./csv.js";
import { uniqueNames } from "./identifiers.js";
import { decodeText } from "./read-text.js";
import type { RawTable } from "./types.js";

/** A problem with one input file. "error": the file (or sheet) was skipped; "warning": it was repaired. */
export interface LoadIssue {
  file: string;
  severity: "error" | "warning";
  problem: string;
}

export interface LoadTablesResult {
  tables: RawTable[];
  /** Table files that produced at least one table, in load order. */
  files: string[];
  issues: LoadIssue[];
}

export interface LoadTablesOptions {
  /** Exact file order (file names inside the directory). Must list exactly the table files present. Default: sorted listing. */
  order?: string[];
}

/** Separator used when flattening multi-row headers. */
export const HEADER_SEPARATOR = " › ";
const TABLE_EXTENSIONS = new Set([".csv", ".xlsx"]);
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

export class InputDirectoryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InputDirectoryError";
  }
}

/** Lists a directory's regular, non-hidden files, sorted; throws a message naming a missing path. */
export function listInputFiles(dir: string, flag: string): string[] {
  if (!existsSync(dir)) throw new InputDirectoryError(`${flag} ${dir} does not exist`);
  if (!statSync(dir).isDirectory()) throw new InputDirectoryError(`${flag} ${dir} is not a directory`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && !e.name.startsWith("."))
    .map((e) => e.name)
    .sort();
}

/** Applies an explicit order that must name exactly the given files. */
export function applyOrder(present: string[], order: string[] | undefined, what: string): string[] {
  if (!order) return present;
  const have = new Set(present);
  const want = new Set(order);
  const missing = order.filter((f) => !have.has(f));
  const unlisted = present.filter((f) => !want.has(f));
  const repeated = order.filter((f, i) => order.indexOf(f) !== i);
  const problems: string[] = [];
  if (missing.length) problems.push(`listed but not present: ${missing.join(", ")}`);
  if (unlisted.length) problems.push(`present but not listed: ${unlisted.join(", ")}`);
  if (repeated.length) problems.push(`listed twice: ${repeated.join(", ")}`);
  if (problems.length) throw new InputDirectoryError(`--input_order ${what} does not match the directory: ${problems.join("; ")}`);
  return order;
}

export function isTableFile(name: string): boolean {
  return TABLE_EXTENSIONS.has(extname(name).toLowerCase());
}

export function loadTables(dir: string, options: LoadTablesOptions = {}): LoadTablesResult {
  const all = listInputFiles(dir, "--excel_dir");
  const issues: LoadIssue[] = [];
  const candidates = all.filter((name) => {
    if (isTableFile(name)) return true;
    const ext = extname(name).toLowerCase();
    if (ext === ".json") return false; // metadata sidecar
    issues.push({
      file: name,
      severity: "error",
      problem: ext === ".xls" ? "legacy .xls is not supported: save it as .xlsx or .csv" : "not a table file (.csv or .xlsx); skipped",
    });
    return false;
  });
  const files = applyOrder(candidates, options.order, "tables");
  const tables: RawTable[] = [];
  const loadedFiles: string[] = [];
  const idOwner = new Map<string, string>();
  for (const file of files) {
    const stem = basename(file, extname(file));
    const path = join(dir, file);
    let loaded: RawTable[];
    try {
      loaded = extname(file).toLowerCase() === ".csv" ? loadCsvTable(path, file, stem, issues) : loadWorkbook(path, file, stem, issues);
    } catch (error) {
      issues.push({ file, severity: "error", problem: `${error instanceof Error ? error.message : String(error)}; skipped` });
      continue;
    }
    const title = sidecarTitle(dir, stem, issues);
    let kept = 0;
    for (const table of loaded) {
      const owner = idOwner.get(table.id);
      if (owner !== undefined) {
        issues.push({ file, severity: "error", problem: `table id "${table.id}" is already used by ${owner}; skipped (rename one of the files)` });
        continue;
      }
      idOwner.set(table.id, file);
      if (title !== undefined) table.title = title;
      tables.push(table);
      kept++;
    }
    if (kept > 0) loadedFiles.push(file);
  }
  return { tables, files: loadedFiles, issues };
}

function loadCsvTable(path: string, file: string, stem: string, issues: LoadIssue[]): RawTable[] {
  const bytes = readFileSync(path);
  if (bytes.length === 0) throw new Error("empty file");
  const decoded = decodeText(bytes);
  if (decoded.fallback) {
    issues.push({ file, severity: "warning", problem: "not valid UTF-8; decoded as Windows-1252 (re-save the file as UTF-8 to silence this)" });
  }
  let grid: string[][];
  try {
    grid = parseCsv(decoded.text);
  } catch (error) {
    if (error instanceof CsvParseError) throw new Error(`CSV ${error.message}`);
    throw error;
  }
  if (grid.length === 0) throw new Error("no rows (empty file)");
  const [headerRow, ...body] = grid;
  const width = body.reduce((w, row) => Math.max(w, lastNonEmptyWidth(row)), headerRow!.length);
  const short: number[] = [];
  const long: number[] = [];
  const rows = body.map((row, i) => {
    if (row.length < headerRow!.length) short.push(i + 2);
    else if (lastNonEmptyWidth(row) > headerRow!.length) long.push(i + 2);
    return rectangular(row, width);
  });
  if (short.length) {
    issues.push({ file, severity: "warning", problem: `ragged rows: ${describeRows(short)} have fewer cells than the header (${headerRow!.length}); padded with empty cells` });
  }
  if (long.length) {
    issues.push({ file, severity: "warning", problem: `ragged rows: ${describeRows(long)} have more cells than the header (${headerRow!.length}); extra columns named col_N` });
  }
  return [{ id: stem, file, header: flattenHeader([rectangular(headerRow!, width)]), rows }];
}

/** Width of a row ignoring trailing empty cells (a trailing comma is not a new column). */
function lastNonEmptyWidth(row: string[]): number {
  let w = row.length;
  while (w > 0 && row[w - 1] === "") w--;
  return w;
}

function rectangular(row: string[], width: number): string[] {
  if (row.length === width) return row;
  if (row.length > width) return row.slice(0, width);
  return [...row, ...new Array<string>(width - row.length).fill("")];
}

function describeRows(rows: number[]): string {
  const shown = rows.slice(0, 5).join(", ");
  return `file row${rows.length > 1 ? "s" : ""} ${shown}${rows.length > 5 ? ` and ${rows.length - 5} more` : ""}`;
}

function loadWorkbook(path: string, file: string, stem: string, issues: LoadIssue[]): RawTable[] {
  const bytes = readFileSync(path);
  if (bytes.length === 0) throw new Error("empty file");
  // xlsx is a zip; without this check SheetJS would happily parse any text file as a sheet.
  if (!ZIP_MAGIC.every((b, i) => bytes[i] === b)) throw new Error("not a valid .xlsx workbook (no zip signature)");
  let workbook: XLSX.WorkBook;
  try {
    workbook = XLSX.read(bytes, { type: "buffer", cellDates: false, cellNF: true, cellHTML: false, cellFormula: false });
  } catch (error) {
    throw new Error(`corrupt .xlsx workbook (${error instanceof Error ? error.message : String(error)})`);
  }
  const names = workbook.SheetNames;
  if (names.length === 0) throw new Error("workbook has no sheets");
  const tables: RawTable[] = [];
  for (const sheet of names) {
    const id = names.length > 1 ? `${stem}#${sheet}` : stem;
    const table = sheetToTable(workbook.Sheets[sheet]!, id, file, sheet);
    if (!table) {
      issues.push({ file, severity: "error", problem: `sheet "${sheet}" is empty; skipped` });
      continue;
    }
    tables.push(table);
  }
  return tables;
}

/** One worksheet → RawTable (or undefined when it has no cells). Merges filled, header rows flattened. */
export function sheetToTable(ws: XLSX.WorkSheet, id: string, file: string, sheet: string): RawTable | undefined {
  const ref = ws["!ref"];
  if (!ref) return undefined;
  const range = XLSX.utils.decode_range(ref);
  const nRows = range.e.r - range.s.r + 1;
  const nCols = range.e.c - range.s.c + 1;
  const grid: string[][] = [];
  for (let r = 0; r < nRows; r++) {
    const row = new Array<string>(nCols);
    for (let c = 0; c < nCols; c++) {
      const cell = ws[XLSX.utils.encode_cell({ r: r + range.s.r, c: c + range.s.c })] as XLSX.CellObject | undefined;
      row[c] = cellText(cell);
    }
    grid.push(row);
  }
  const merges = (ws["!merges"] ?? []).map((m) => ({
    s: { r: m.s.r - range.s.r, c: m.s.c - range.s.c },
    e: { r: m.e.r - range.s.r, c: m.e.c - range.s.c },
  }));
  for (const m of merges) {
    const value = grid[m.s.r]?.[m.s.c] ?? "";
    for (let r = Math.max(0, m.s.r); r <= Math.min(nRows - 1, m.e.r); r++) {
      for (let c = Math.max(0, m.s.c); c <= Math.min(nCols - 1, m.e.c); c++) grid[r]![c] = value;
    }
  }
  // Drop empty rows (formatting often extends the used range) and columns empty in every row.
  const firstNonEmpty = grid.findIndex((row) => row.some((v) => v !== ""));
  if (firstNonEmpty < 0) return undefined;
  const headerStart = firstNonEmpty;
  const depth = headerDepth(merges, headerStart, nRows);
  const keepCols: number[] = [];
  for (let c = 0; c < nCols; c++) if (grid.some((row) => row[c] !== "")) keepCols.push(c);
  const pick = (row: string[]): string[] => keepCols.map((c) => row[c]!);
  const headerRows = grid.slice(headerStart, headerStart + depth).map(pick);
  const rows = grid
    .slice(headerStart + depth)
    .filter((row) => row.some((v) => v !== ""))
    .map(pick);
  return { id, file, sheet, header: flattenHeader(headerRows), rows };
}

function cellText(cell: XLSX.CellObject | undefined): string {
  if (!cell || cell.v === undefined || cell.v === null) return "";
  // A date shown with a two-digit year (Excel's default `m/d/yy`) is ambiguous as text: use ISO.
  if (cell.t === "n" && typeof cell.v === "number" && typeof cell.z === "string" && XLSX.SSF.is_date(cell.z) && !/\d{4}/.test(cell.w ?? "")) {
    const d = XLSX.SSF.parse_date_code(cell.v);
    if (d) {
      const date = `${d.y}-${String(d.m).padStart(2, "0")}-${String(d.d).padStart(2, "0")}`;
      return d.H || d.M || d.S ? `${date} ${String(d.H).padStart(2, "0")}:${String(d.M).padStart(2, "0")}` : date;
    }
  }
  // `w` is the formatted text as the spreadsheet shows it: the original text we keep.
  if (typeof cell.w === "string") return cell.w;
  return String(cell.v);
}

/**
 * Number of header rows: 1, or more when merges start in the header — a vertical merge from the first
 * row spans the header rows, a horizontal merge in the last header row means a child row follows.
 */
function headerDepth(merges: Array<{ s: { r: number; c: number }; e: { r: number; c: number } }>, start: number, nRows: number): number {
  let depth = 1;
  for (let changed = true; changed && depth < 4; ) {
    changed = false;
    for (const m of merges) {
      if (m.s.r < start || m.s.r >= start + depth) continue;
      const needed = Math.max(m.e.r - start + 1, m.e.c > m.s.c && m.s.r === start + depth - 1 ? depth + 1 : 0);
      if (needed > depth && needed <= 4) {
        depth = needed;
        changed = true;
      }
    }
  }
  return Math.min(depth, Math.max(1, nRows - start));
}

/** Header rows → one flat, non-blank, unique header (see the file comment for the rules). */
export function flattenHeader(headerRows: string[][]): string[] {
  const width = headerRows[0]?.length ?? 0;
  const names: string[] = [];
  for (let c = 0; c < width; c++) {
    const parts: string[] = [];
    for (const row of headerRows) {
      const part = (row[c] ?? "").replace(/\s+/g, " ").trim();
      if (part !== "" && parts[parts.length - 1] !== part) parts.push(part);
    }
    names.push(parts.length ? parts.join(HEADER_SEPARATOR) : `col_${c + 1}`);
  }
  return uniqueNames(names, 2);
}

/** Title from an `<id>.json` sidecar: HybridQA `title › section_title`, or WTQ `page_title`. */
function sidecarTitle(dir: string, stem: string, issues: LoadIssue[]): string | undefined {
  const path = join(dir, `${stem}.json`);
  if (!existsSync(path)) return undefined;
  try {
    const meta = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
    if (meta === null || typeof meta !== "object" || Array.isArray(meta)) return undefined;
    const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);
    const title = str(meta.title) ?? str(meta.page_title);
    const section = str(meta.section_title);
    if (title && section) return `${title}${HEADER_SEPARATOR}${section}`;
    return title ?? section;
  } catch (error) {
    issues.push({ file: `${stem}.json`, severity: "warning", problem: `metadata sidecar is not valid JSON (${(error as Error).message}); title ignored` });
    return undefined;
  }
}
