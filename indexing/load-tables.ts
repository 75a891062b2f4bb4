/**
 * Loads every table of a directory: each .csv file, and each non-empty sheet of each .xlsx workbook,
 * becomes one RawTable with flattened, non-blank, unique headers and rectangular rows of strings.
 * A CSV of more than LARGE_TABLE_ROWS rows becomes a StreamedTable instead (`loadTableSources`, what
 * the index build uses): the first read finds its header, width, repairs and row count and keeps no
 * rows; `readRows` reads the file again (the store writes it row by row), and refuses a file that
 * no longer holds the same rows. A workbook is read whole (it is bounded by MAX_SHEET_CELLS).
 *
 * - Ids: the file stem; `<stem>#<sheet>` when a workbook has more than one sheet.
 * - Headers: blank → `col_N` (N = 1-based position); a repeated name → `name_2`, `name_3`, …;
 *   xlsx multi-row headers (a merge in the header rows) are flattened top-down as `Parent › Child`;
 *   names longer than MAX_HEADER_CHARS are cut (warning).
 * - Merged cells are filled with their top-left value (header and body).
 * - `<id>.json` beside a table is a metadata sidecar, not a table: its `title` (+ `section_title`,
 *   HybridQA) or `page_title` (WTQ) becomes the table title.
 * - Bad input never stops the build: the file is skipped (severity "error") or repaired (severity
 *   "warning") and a LoadIssue names the file and the problem. The folder listing itself decides,
 *   with an issue each (see listInputFiles): hidden files, sub-folders, special files, names with
 *   control characters → skipped; a symbolic link → read only when it points to a regular file inside
 *   the folder. Then per file: over MAX_INPUT_FILE_BYTES, unreadable, binary or UTF-32, empty,
 *   unterminated CSV quote, more than MAX_TABLE_COLUMNS columns, corrupt/encrypted .xlsx, a workbook
 *   unpacking to more than MAX_XLSX_UNPACKED_BYTES, a sheet whose used range exceeds MAX_SHEET_CELLS
 *   → skipped; `;`/tab/`|` delimiters and UTF-16 are detected and read; blank lines before the
 *   header are skipped; ragged CSV rows → short rows padded with "", extra non-empty cells get `col_N`
 *   columns; invalid UTF-8 → decoded as Windows-1252; NUL characters removed; a second file with an
 *   already-used id (e.g. `a.csv` and `a.xlsx`) → skipped, the first in listing order wins; `.xls`,
 *   other extensions and `.json` files that are no table's sidecar → skipped.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync, type Stats } from "node:fs";
import { basename, extname, join, relative, isAbsolute } from "node:path";
import XLSX from "@e965/xlsx";
import { CsvParseError, csvRecords, sniffDelimiter } from "./csv.js";
import { uniqueNames } from "./identifiers.js";
import { decodeText, type DecodedText } from "./read-text.js";
import { isLargeTable, LARGE_TABLE_ROWS } from "./table-size.js";
import { isStreamed, type RawTable, type TableSource } from "./types.js";
import { checkZipSize } from "./zip-limits.js";

/** A problem with one input file. "error": the file (or sheet) was skipped; "warning": it was repaired. */
export interface LoadIssue {
  file: string;
  severity: "error" | "warning";
  problem: string;
}

export interface LoadTablesResult<T extends TableSource = RawTable> {
  tables: T[];
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
/** Largest input file read (table or passage file); bigger ones are skipped before reading. */
export const MAX_INPUT_FILE_BYTES = 256 * 1024 * 1024;
/** Most columns one table may have: SQLite's 2,000-column limit holds `_row` plus two columns (typed, raw) each. */
export const MAX_TABLE_COLUMNS = 999;
/** Most cells (rows × columns of the used range) one sheet may span. */
export const MAX_SHEET_CELLS = 5_000_000;
/** Most bytes an .xlsx workbook may unpack to (sum of its zip entries). */
export const MAX_XLSX_UNPACKED_BYTES = 128 * 1024 * 1024;
/** Longest header name kept; longer ones are cut (with "…"). Real headers reach ~420 characters (HybridQA). */
export const MAX_HEADER_CHARS = 1000;
const TABLE_EXTENSIONS = new Set([".csv", ".xlsx"]);
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0];
/** Hidden files that are never data: version-control folder placeholders and OS folder metadata. */
const METADATA_FILES: ReadonlySet<string> = new Set([".gitkeep", ".keep", ".gitignore", ".DS_Store"]);
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

export class InputDirectoryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InputDirectoryError";
  }
}

export interface InputListing {
  /** Files to read (regular files, and symlinks to regular files inside the folder), sorted. */
  files: string[];
  /** One issue per entry that is skipped or read specially (symlink), naming why. */
  issues: LoadIssue[];
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a named pipe (FIFO)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "not a regular file";
}

/**
 * Lists a directory and decides for every entry: read (regular files; symlinks to a regular file
 * inside the folder) or skip with an issue (hidden names, sub-folders, special files, names with
 * control characters, symlinks leaving the folder or dangling). Throws for a missing path or a file.
 */
export function listInputFiles(dir: string, flag: string): InputListing {
  if (!existsSync(dir)) throw new InputDirectoryError(`${flag} ${dir} does not exist`);
  if (!statSync(dir).isDirectory())
    throw new InputDirectoryError(`${flag} ${dir} is not a directory (give the folder that holds the files)`);
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    throw new InputDirectoryError(
      `${flag} ${dir} cannot be listed (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  const realDir = realpathSync(dir);
  const files: string[] = [];
  const issues: LoadIssue[] = [];
  const skip = (file: string, problem: string): void => void issues.push({ file, severity: "error", problem });
  for (const entry of entries) {
    const name = entry.name;
    if (CONTROL_CHARS.test(name)) {
      skip(JSON.stringify(name), "the file name contains control characters (newline, tab, …); skipped — rename it");
    } else if (METADATA_FILES.has(name)) {
      continue; // a folder placeholder or the OS's folder metadata: no data, nothing to report
    } else if (name.startsWith(".")) {
      skip(
        name,
        `hidden ${entry.isDirectory() ? "folder" : "file"} (the name starts with "."); skipped — rename it without the leading dot to include it`,
      );
    } else if (entry.isDirectory()) {
      skip(
        name,
        `sub-folder; skipped (only files directly inside ${flag} are read — move its files up or build it separately)`,
      );
    } else if (entry.isSymbolicLink()) {
      const decision = symlinkDecision(join(dir, name), realDir, flag);
      if (decision.read) {
        files.push(name);
        issues.push({ file: name, severity: "warning", problem: decision.why });
      } else skip(name, decision.why);
    } else if (entry.isFile()) {
      files.push(name);
    } else {
      skip(name, `${kindOf(lstatSync(join(dir, name)))}, not a regular file; skipped`);
    }
  }
  return { files: files.sort(), issues };
}

/** A symlink is followed only to a regular file inside the folder (so input never leaves it). */
function symlinkDecision(path: string, realDir: string, flag: string): { read: boolean; why: string } {
  let target: string;
  try {
    target = realpathSync(path);
  } catch {
    return { read: false, why: "symbolic link to a missing file; skipped" };
  }
  const stats = statSync(target);
  if (!stats.isFile()) return { read: false, why: `symbolic link to ${kindOf(stats)} (${target}); skipped` };
  const rel = relative(realDir, target);
  if (rel.startsWith("..") || isAbsolute(rel)) {
    return {
      read: false,
      why: `symbolic link to ${target}, outside ${flag}; skipped (copy the file into the folder to include it)`,
    };
  }
  return { read: true, why: `symbolic link to ${rel} inside the folder; read` };
}

/** Reads an input file whole, refusing one over MAX_INPUT_FILE_BYTES and naming fs errors plainly. */
export function readInputFile(path: string): Buffer {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (error) {
    throw new Error(fsProblem(error));
  }
  if (size > MAX_INPUT_FILE_BYTES) {
    throw new Error(
      `file is ${(size / 1024 / 1024).toFixed(0)} MB, over the ${MAX_INPUT_FILE_BYTES / 1024 / 1024} MB limit for one input file (split it)`,
    );
  }
  try {
    return readFileSync(path);
  } catch (error) {
    throw new Error(fsProblem(error));
  }
}

function fsProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EACCES" || code === "EPERM") return "cannot be read (permission denied)";
  if (code === "ENOENT") return "disappeared while the folder was being read";
  if (code === "EISDIR") return "is a directory, not a file";
  return `cannot be read (${code ?? (error as Error).message})`;
}

/** Decodes an input file's bytes, turning every decoding repair into a warning naming the file. */
export function decodeInputText(bytes: Uint8Array, file: string, issues: LoadIssue[]): DecodedText {
  const decoded = decodeText(bytes);
  for (const warning of decoded.warnings) issues.push({ file, severity: "warning", problem: warning });
  return decoded;
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
  if (problems.length)
    throw new InputDirectoryError(`--input_order ${what} does not match the directory: ${problems.join("; ")}`);
  return order;
}

export function isTableFile(name: string): boolean {
  return TABLE_EXTENSIONS.has(extname(name).toLowerCase());
}

/** Every table of `dir` in memory (a large CSV read whole: for tools and tests; the index build streams it). */
export function loadTables(dir: string, options: LoadTablesOptions = {}): LoadTablesResult {
  const loaded = loadTableSources(dir, options);
  const tables = loaded.tables.map((t): RawTable => {
    if (!isStreamed(t)) return t;
    const { kind: _kind, readRows, rowCount: _n, ...rest } = t;
    return { ...rest, rows: [...readRows()] };
  });
  return { ...loaded, tables };
}

/** Every table of `dir`; a CSV of more than LARGE_TABLE_ROWS rows is streamed (StreamedTable), not held. */
export function loadTableSources(dir: string, options: LoadTablesOptions = {}): LoadTablesResult<TableSource> {
  const listing = listInputFiles(dir, "--excel_dir");
  const issues: LoadIssue[] = [...listing.issues];
  const tableStems = new Set(listing.files.filter(isTableFile).map((name) => basename(name, extname(name))));
  const candidates = listing.files.filter((name) => {
    const ext = extname(name).toLowerCase();
    if (isTableFile(name)) {
      if (basename(name, extname(name)).trim() !== "") return true;
      issues.push({
        file: name,
        severity: "error",
        problem: "the file name has no stem (nothing before the extension) to name the table; skipped — rename it",
      });
      return false;
    }
    if (ext === ".json" && tableStems.has(basename(name, extname(name)))) return false; // metadata sidecar
    issues.push({
      file: name,
      severity: "error",
      problem:
        ext === ".xls"
          ? "legacy .xls is not supported: save it as .xlsx or .csv"
          : ext === ".json"
            ? "a .json file in --excel_dir is only read as the title sidecar of a table with the same name, and there is none; skipped"
            : "not a table file (.csv or .xlsx); skipped",
    });
    return false;
  });
  const files = applyOrder(candidates, options.order, "tables");
  const tables: TableSource[] = [];
  const loadedFiles: string[] = [];
  const idOwner = new Map<string, string>();
  for (const file of files) {
    const stem = basename(file, extname(file));
    const path = join(dir, file);
    let loaded: TableSource[];
    try {
      loaded =
        extname(file).toLowerCase() === ".csv"
          ? loadCsvTable(path, file, stem, issues)
          : loadWorkbook(path, file, stem, issues);
    } catch (error) {
      issues.push({
        file,
        severity: "error",
        problem: `${error instanceof Error ? error.message : String(error)}; skipped`,
      });
      continue;
    }
    const title = sidecarTitle(dir, stem, issues);
    let kept = 0;
    for (const table of loaded) {
      const owner = idOwner.get(table.id);
      if (owner !== undefined) {
        issues.push({
          file,
          severity: "error",
          problem: `table id "${table.id}" is already used by ${owner}; skipped (rename one of the files)`,
        });
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

/** Refuses a table wider than SQLite can store (see MAX_TABLE_COLUMNS). */
function checkWidth(width: number, what: string): void {
  if (width > MAX_TABLE_COLUMNS) {
    throw new Error(
      `${what} has ${width} columns; at most ${MAX_TABLE_COLUMNS} fit in one SQL table (SQLite's 2000-column limit, two columns each) — split it into narrower tables`,
    );
  }
}

/** Header names cut to MAX_HEADER_CHARS, with a warning naming how many were cut. */
function boundedHeader(names: string[], file: string, issues: LoadIssue[], where = ""): string[] {
  let cut = 0;
  const out = names.map((name) => {
    if (name.length <= MAX_HEADER_CHARS) return name;
    cut++;
    return `${name.slice(0, MAX_HEADER_CHARS)}…`;
  });
  if (cut)
    issues.push({
      file,
      severity: "warning",
      problem: `${where}${cut} header name${cut === 1 ? "" : "s"} longer than ${MAX_HEADER_CHARS} characters cut`,
    });
  return cut ? uniqueNames(out, 2) : out;
}

const isBlankRow = (row: string[]): boolean => row.every((cell) => cell.trim() === "");

function loadCsvTable(path: string, file: string, stem: string, issues: LoadIssue[]): TableSource[] {
  const read = (sink: LoadIssue[]): string => {
    const bytes = readInputFile(path);
    if (bytes.length === 0) throw new Error("empty file");
    return decodeInputText(bytes, file, sink).text;
  };
  const text = read(issues);
  const delimiter = sniffDelimiter(text.length > 1_000_000 ? text.slice(0, 1_000_000) : text);
  if (delimiter !== ",") {
    issues.push({
      file,
      severity: "warning",
      problem: `read with ${delimiter === "\t" ? "tab" : `"${delimiter}"`} as the delimiter (detected from the header line)`,
    });
  }
  // One pass over the records: header, width, ragged rows, row count. The rows are kept only while
  // the table is small; a larger one is read again from the file when the store writes it.
  let lead = 0;
  let headerRow: string[] | undefined;
  let width = 0;
  let count = 0;
  const kept: string[][] = [];
  const short = new RowList();
  const long = new RowList();
  try {
    for (const row of csvRecords(text, delimiter)) {
      if (headerRow === undefined) {
        // Lines of only spaces or delimiters before the header would otherwise become the header.
        if (isBlankRow(row)) lead++;
        else width = (headerRow = row).length;
        continue;
      }
      width = Math.max(width, lastNonEmptyWidth(row));
      if (row.length < headerRow.length) short.add(count + 2 + lead);
      else if (lastNonEmptyWidth(row) > headerRow.length) long.add(count + 2 + lead);
      if (count < LARGE_TABLE_ROWS + 1) kept.push(row);
      count++;
    }
  } catch (error) {
    if (error instanceof CsvParseError) throw new Error(`CSV ${error.message}`);
    throw error;
  }
  if (headerRow === undefined) throw new Error(lead ? "only blank lines (no header, no data)" : "no rows (empty file)");
  if (lead > 0)
    issues.push({
      file,
      severity: "warning",
      problem: `${lead} blank line${lead === 1 ? "" : "s"} before the header skipped`,
    });
  checkWidth(width, "the CSV");
  if (count === 0)
    issues.push({ file, severity: "warning", problem: "header only, no data rows; loaded as an empty table" });
  if (short.count) {
    issues.push({
      file,
      severity: "warning",
      problem: `ragged rows: ${short.describe()} have fewer cells than the header (${headerRow.length}); padded with empty cells`,
    });
  }
  if (long.count) {
    issues.push({
      file,
      severity: "warning",
      problem: `ragged rows: ${long.describe()} have more cells than the header (${headerRow.length}); extra columns named col_N`,
    });
  }
  const header = boundedHeader(flattenHeader([rectangular(headerRow, width)]), file, issues);
  if (!isLargeTable(count)) return [{ id: stem, file, header, rows: kept.map((row) => rectangular(row, width)) }];
  kept.length = 0;
  const rowCount = count;
  const skip = lead + 1;
  return [
    {
      kind: "streamed",
      id: stem,
      file,
      header,
      rowCount,
      *readRows() {
        // The repairs were reported by the first read; the file must still hold the same rows.
        const again = read([]);
        let seen = 0;
        let n = 0;
        for (const row of csvRecords(again, delimiter)) {
          if (seen < skip) {
            if (seen < lead ? isBlankRow(row) : !isBlankRow(row)) {
              seen++;
              continue;
            }
            break;
          }
          if (++n > rowCount) break;
          yield rectangular(row, width);
        }
        if (seen < skip || n !== rowCount)
          throw new Error(
            `${file} changed while the index was being built (read again, it no longer holds the same ${rowCount} rows); build again`,
          );
      },
    },
  ];
}

/** File row numbers of ragged rows: the first few and how many (a million ragged rows cost five numbers). */
class RowList {
  readonly first: number[] = [];
  count = 0;
  add(row: number): void {
    if (this.first.length < 5) this.first.push(row);
    this.count++;
  }
  describe(): string {
    const shown = this.first.join(", ");
    return `file row${this.count > 1 ? "s" : ""} ${shown}${this.count > 5 ? ` and ${this.count - 5} more` : ""}`;
  }
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

function loadWorkbook(path: string, file: string, stem: string, issues: LoadIssue[]): RawTable[] {
  const bytes = readInputFile(path);
  if (bytes.length === 0) throw new Error("empty file");
  if (OLE_MAGIC.every((b, i) => bytes[i] === b)) {
    throw new Error(
      "not a zip-based .xlsx: an OLE container (a password-protected workbook or a legacy .xls renamed); save it unencrypted as .xlsx or .csv",
    );
  }
  // xlsx is a zip; without this check SheetJS would happily parse any text file as a sheet.
  if (!ZIP_MAGIC.every((b, i) => bytes[i] === b)) throw new Error("not a valid .xlsx workbook (no zip signature)");
  try {
    checkZipSize(bytes, MAX_XLSX_UNPACKED_BYTES);
  } catch (error) {
    const message = (error as Error).message;
    throw new Error(
      message.startsWith("corrupt")
        ? `corrupt .xlsx workbook (${message})`
        : `workbook refused before parsing: ${message}`,
    );
  }
  let workbook: XLSX.WorkBook;
  try {
    workbook = XLSX.read(bytes, {
      type: "buffer",
      cellDates: false,
      cellNF: true,
      cellHTML: false,
      cellFormula: false,
    });
  } catch (error) {
    throw new Error(`corrupt .xlsx workbook (${error instanceof Error ? error.message : String(error)})`);
  }
  const names = workbook.SheetNames;
  if (names.length === 0) throw new Error("workbook has no sheets");
  const tables: RawTable[] = [];
  for (const sheet of names) {
    if (CONTROL_CHARS.test(sheet)) {
      issues.push({
        file,
        severity: "error",
        problem: `sheet ${JSON.stringify(sheet)}: the name contains control characters; skipped — rename the sheet`,
      });
      continue;
    }
    const id = names.length > 1 ? `${stem}#${sheet}` : stem;
    let table: RawTable | undefined;
    try {
      table = sheetToTable(workbook.Sheets[sheet]!, id, file, sheet);
    } catch (error) {
      issues.push({ file, severity: "error", problem: `sheet "${sheet}": ${(error as Error).message}; skipped` });
      continue;
    }
    if (!table) {
      issues.push({ file, severity: "error", problem: `sheet "${sheet}" is empty; skipped` });
      continue;
    }
    table.header = boundedHeader(table.header, file, issues, `sheet "${sheet}": `);
    tables.push(table);
  }
  return tables;
}

/**
 * One worksheet → RawTable (or undefined when it has no cells). Merges filled, header rows flattened.
 * The grid spans only the cells that hold a value (plus the merges they start), not the sheet's
 * declared `!ref`, so one cell at XFD1048576 costs one cell; a used range over MAX_SHEET_CELLS, or
 * wider than MAX_TABLE_COLUMNS after empty columns are dropped, throws.
 */
export function sheetToTable(ws: XLSX.WorkSheet, id: string, file: string, sheet: string): RawTable | undefined {
  let r0 = Infinity;
  let c0 = Infinity;
  let r1 = -1;
  let c1 = -1;
  const texts = new Map<string, string>();
  for (const key of Object.keys(ws)) {
    if (key.startsWith("!")) continue;
    const text = cellText(ws[key] as XLSX.CellObject);
    if (text === "") continue;
    const { r, c } = XLSX.utils.decode_cell(key);
    texts.set(key, text);
    r0 = Math.min(r0, r);
    c0 = Math.min(c0, c);
    r1 = Math.max(r1, r);
    c1 = Math.max(c1, c);
  }
  if (r1 < 0) return undefined;
  // A merge spreads its top-left value, so it widens the used range.
  const sheetMerges = (ws["!merges"] ?? []).filter((m) => texts.has(XLSX.utils.encode_cell(m.s)));
  for (const m of sheetMerges) {
    r1 = Math.max(r1, m.e.r);
    c1 = Math.max(c1, m.e.c);
  }
  const nRows = r1 - r0 + 1;
  const nCols = c1 - c0 + 1;
  if (nRows * nCols > MAX_SHEET_CELLS) {
    const range = `${XLSX.utils.encode_cell({ r: r0, c: c0 })}:${XLSX.utils.encode_cell({ r: r1, c: c1 })}`;
    throw new Error(
      `its used range ${range} spans ${nRows} rows × ${nCols} columns, over the ${MAX_SHEET_CELLS} cell limit (delete the stray cells far from the table)`,
    );
  }
  const grid: string[][] = [];
  for (let r = 0; r < nRows; r++) grid.push(new Array<string>(nCols).fill(""));
  for (const [key, text] of texts) {
    const { r, c } = XLSX.utils.decode_cell(key);
    grid[r - r0]![c - c0] = text;
  }
  const merges = (ws["!merges"] ?? []).map((m) => ({
    s: { r: m.s.r - r0, c: m.s.c - c0 },
    e: { r: m.e.r - r0, c: m.e.c - c0 },
  }));
  for (const m of merges) {
    const value = grid[m.s.r]?.[m.s.c] ?? "";
    if (value === "") continue;
    for (let r = Math.max(0, m.s.r); r <= Math.min(nRows - 1, m.e.r); r++) {
      for (let c = Math.max(0, m.s.c); c <= Math.min(nCols - 1, m.e.c); c++) grid[r]![c] = value;
    }
  }
  // Drop empty rows (formatting often extends the used range) and columns empty in every row.
  const headerStart = grid.findIndex((row) => row.some((v) => v !== ""));
  const depth = headerDepth(merges, headerStart, nRows);
  const keepCols: number[] = [];
  for (let c = 0; c < nCols; c++) if (grid.some((row) => row[c] !== "")) keepCols.push(c);
  checkWidth(keepCols.length, "the sheet");
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
  if (
    cell.t === "n" &&
    typeof cell.v === "number" &&
    typeof cell.z === "string" &&
    XLSX.SSF.is_date(cell.z) &&
    !/\d{4}/.test(cell.w ?? "")
  ) {
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
function headerDepth(
  merges: Array<{ s: { r: number; c: number }; e: { r: number; c: number } }>,
  start: number,
  nRows: number,
): number {
  let depth = 1;
  for (let changed = true; changed && depth < 4;) {
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
    const meta = JSON.parse(decodeText(readInputFile(path)).text) as Record<string, unknown>;
    if (meta === null || typeof meta !== "object" || Array.isArray(meta)) return undefined;
    const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);
    const title = str(meta.title) ?? str(meta.page_title);
    const section = str(meta.section_title);
    if (title && section) return `${title}${HEADER_SEPARATOR}${section}`;
    return title ?? section;
  } catch (error) {
    issues.push({
      file: `${stem}.json`,
      severity: "warning",
      problem: `metadata sidecar is not readable JSON (${(error as Error).message}); title ignored`,
    });
    return undefined;
  }
}
