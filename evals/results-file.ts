/**
 * The output file of a batch run: JSON lines, one record per question, written by a single writer
 * that appends one whole line per `write` and syncs it to disk before the next, so a crash loses at
 * most the line being written. A killed process can leave that last line truncated: `readResults`
 * reports it and `repairTruncatedTail` cuts the file back to its last complete line. At the end of
 * a run the file is rewritten in input order through a temporary file and a rename (atomic).
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  truncateSync,
  writeSync,
} from "node:fs";
import { basename, dirname, extname, join } from "node:path";

export class ResultsFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ResultsFileError";
  }
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

/** `YYYYMMDD_HHMMSS` in local time (the reference's file-name stamp, §9.3). */
export function timestamp(now: Date = new Date()): string {
  return `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}_${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
}

/**
 * `<dir of P>/<stem>_<YYYYMMDD_HHMMSS><ext>` (§9.3); `.jsonl` when P has no extension. If that
 * file already exists (two runs in one second) a counter is appended rather than appending to it.
 */
export function timestampedPath(savePath: string, now: Date = new Date()): string {
  const ext = extname(savePath) || ".jsonl";
  const stem = basename(savePath, extname(savePath));
  const base = join(dirname(savePath), `${stem}_${timestamp(now)}`);
  let candidate = `${base}${ext}`;
  for (let i = 1; existsSync(candidate); i++) candidate = `${base}_${i}${ext}`;
  return candidate;
}

export interface ReadResults {
  /** Parsed records in file order. */
  records: Array<Record<string, unknown>>;
  /** Bytes after the last newline (a line cut short by a killed writer); 0 when the file ends cleanly. */
  truncatedTailBytes: number;
  /** 1-based numbers of complete lines that are not a JSON object (dropped). */
  badLines: number[];
}

/** Reads a results file without changing it. A missing file reads as empty. */
export function readResults(path: string): ReadResults {
  if (!existsSync(path)) return { records: [], truncatedTailBytes: 0, badLines: [] };
  const buf = readFileSync(path);
  const lastNewline = buf.lastIndexOf(0x0a);
  const complete = buf.subarray(0, lastNewline + 1).toString("utf8");
  const truncatedTailBytes = buf.length - (lastNewline + 1);
  const records: Array<Record<string, unknown>> = [];
  const badLines: number[] = [];
  complete.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      const parsed = JSON.parse(line);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) records.push(parsed);
      else badLines.push(i + 1);
    } catch {
      badLines.push(i + 1);
    }
  });
  return { records, truncatedTailBytes, badLines };
}

/** Cuts a truncated last line off the file; returns the number of bytes removed. */
export function repairTruncatedTail(path: string): number {
  if (!existsSync(path)) return 0;
  const { truncatedTailBytes } = readResults(path);
  if (truncatedTailBytes > 0) truncateSync(path, statSync(path).size - truncatedTailBytes);
  return truncatedTailBytes;
}

/** Appends records, one complete line per write, each synced before `write` returns. */
export class ResultsWriter {
  private fd: number | undefined;

  constructor(
    readonly path: string,
    private readonly options: { fsync?: boolean } = {},
  ) {
    try {
      this.fd = openSync(path, "a");
    } catch (error) {
      throw new ResultsFileError(`cannot open results file ${path} for appending: ${(error as Error).message}`);
    }
  }

  write(record: Record<string, unknown>): void {
    if (this.fd === undefined) throw new ResultsFileError(`results file ${this.path} is closed`);
    const bytes = Buffer.from(`${JSON.stringify(record)}\n`, "utf8");
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(this.fd, bytes, offset, bytes.length - offset);
    if (this.options.fsync !== false) fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Replaces the file's content with these records: write a temp file, sync it, rename it over. */
export function rewriteResultsAtomically(path: string, records: Array<Record<string, unknown>>): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const fd = openSync(tmp, "w");
  try {
    const text = records.map((r) => `${JSON.stringify(r)}\n`).join("");
    const bytes = Buffer.from(text, "utf8");
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}
