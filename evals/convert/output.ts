/**
 * Writing a converted benchmark split in the layout of shared/data (see its README):
 * `questions.jsonl`, `tables/<table_id>.csv` (header row first, RFC 4180), optional
 * `tables/<table_id>.json` metadata, `passages/<table_id>.json`, and a `SOURCE.md` naming the files read.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export class ConvertError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConvertError";
  }
}

/** One CSV field, quoted when it holds a comma, a quote or a line break (Python csv QUOTE_MINIMAL). */
function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function toCsv(rows: string[][]): string {
  return rows.map((r) => r.map(csvField).join(",")).join("\n") + (rows.length ? "\n" : "");
}

/** True when a table id can name a file inside a folder (nothing that could leave it). */
export function isFileNameId(id: string): boolean {
  return id !== "" && !/[\/\\\0]/.test(id) && !id.startsWith(".");
}

/** Table ids become file names: refuse anything that could leave the folder. */
export function checkTableId(id: string, source: string): string {
  if (!isFileNameId(id)) throw new ConvertError(`${source}: table id "${id}" cannot be a file name`);
  return id;
}

/** Pads short rows with "" so every row has the header's width (longer rows widen the table). */
export function rectangular(rows: string[][]): string[][] {
  const width = Math.max(0, ...rows.map((r) => r.length));
  return rows.map((r) => [...r, ...Array<string>(width - r.length).fill("")]);
}

export class SplitWriter {
  readonly tables = new Set<string>();
  readonly passages = new Set<string>();
  private readonly lines: string[] = [];

  /** Refuses an out dir that already holds a split: its old tables would mix into the next index. */
  constructor(readonly outDir: string) {
    const held = ["questions.jsonl", "tables", "passages"].filter((name) => {
      const path = join(outDir, name);
      return existsSync(path) && (name.endsWith(".jsonl") || readdirSync(path).some((f) => f !== ".gitkeep"));
    });
    if (held.length > 0) {
      throw new ConvertError(
        `--out_dir ${outDir} already holds a converted split (${held.join(", ")}); give an empty or new folder, or remove it first`,
      );
    }
    mkdirSync(join(outDir, "tables"), { recursive: true });
    mkdirSync(join(outDir, "passages"), { recursive: true });
  }

  question(record: Record<string, unknown>): void {
    this.lines.push(JSON.stringify(record));
  }

  table(id: string, rows: string[][], meta?: Record<string, unknown>): void {
    if (this.tables.has(id)) return;
    this.tables.add(id);
    writeFileSync(join(this.outDir, "tables", `${id}.csv`), toCsv(rectangular(rows)));
    if (meta) writeFileSync(join(this.outDir, "tables", `${id}.json`), JSON.stringify(meta, null, 1));
  }

  passage(id: string, items: unknown[]): void {
    if (this.passages.has(id)) return;
    this.passages.add(id);
    writeFileSync(join(this.outDir, "passages", `${id}.json`), JSON.stringify(items, null, 1));
  }

  finish(source: string[]): { questions: number; tables: number; passages: number } {
    writeFileSync(join(this.outDir, "questions.jsonl"), this.lines.map((l) => `${l}\n`).join(""));
    if (this.passages.size === 0) writeFileSync(join(this.outDir, "passages", ".gitkeep"), "");
    const counts = { questions: this.lines.length, tables: this.tables.size, passages: this.passages.size };
    writeFileSync(
      join(this.outDir, "SOURCE.md"),
      [
        "# Converted by `atr convert`",
        "",
        "## Files read",
        "",
        ...source.map((s) => `- ${s}`),
        "",
        "## Counts",
        "",
        `- questions: ${counts.questions}`,
        `- tables: ${counts.tables}`,
        `- passage files: ${counts.passages}`,
        "",
      ].join("\n"),
    );
    return counts;
  }
}
