/**
 * WikiTableQuestions release → shared layout. Reads, under the release root:
 * - questions: `tagged/data/<split>.tagged` when present (it carries targetCanon/targetCanonType,
 *   which the official evaluator needs), else `data/<split>.tsv` (id, utterance, context, targetValue);
 * - tables: `csv/<A>-csv/<B>.csv` (the release's CSV: `\"` and `\\` escapes inside quoted fields);
 * - page metadata: `page/<A>-page/<B>.json` when present.
 * Table id `<A>_<B>`; list fields are `|`-separated with the TSV escapes `\n`, `\p`, `\\`.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { checkTableId, ConvertError, SplitWriter } from "./output.js";

/** `tsv_unescape` of the release. */
export function tsvUnescape(x: string): string {
  return x.replace(/\\(n|p|\\)/g, (_, c: string) => (c === "n" ? "\n" : c === "p" ? "|" : "\\"));
}

export function tsvUnescapeList(x: string): string[] {
  return x.split("|").map(tsvUnescape);
}

/** Parses the release's CSV dialect: quoted fields with backslash escapes, line breaks inside quotes. */
export function parseWtqCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let started = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === "\\" && i + 1 < text.length) {
        field += text[++i]!;
      } else if (ch === '"') {
        quoted = false;
      } else field += ch;
      continue;
    }
    if (ch === '"') {
      quoted = true;
      started = true;
    } else if (ch === ",") {
      row.push(field);
      field = "";
      started = true;
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      if (started || field !== "") row.push(field);
      if (row.length) rows.push(row);
      row = [];
      field = "";
      started = false;
    } else {
      field += ch;
      started = true;
    }
  }
  if (quoted) throw new ConvertError("unterminated quoted field in a WTQ csv file");
  if (started || field !== "") row.push(field);
  if (row.length) rows.push(row);
  return rows;
}

function readTsv(path: string): Array<Record<string, string>> {
  const lines = readFileSync(path, "utf8")
    .split(/\r?\n/)
    .filter((l) => l !== "");
  const header = lines[0]!.split("\t");
  for (const need of ["id", "utterance", "context", "targetValue"]) {
    if (!header.includes(need))
      throw new ConvertError(`${path}: header has no "${need}" column (found ${header.join(", ")})`);
  }
  return lines.slice(1).map((line) => {
    const cells = line.split("\t");
    return Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ""]));
  });
}

export interface WtqConvertOptions {
  src: string;
  outDir: string;
  /** Split file name without extension. Default "pristine-unseen-tables". */
  split?: string;
  limit?: number;
}

export function convertWtq(options: WtqConvertOptions) {
  const split = options.split ?? "pristine-unseen-tables";
  const tagged = join(options.src, "tagged", "data", `${split}.tagged`);
  const plain = join(options.src, "data", `${split}.tsv`);
  const questionsFile = existsSync(tagged) ? tagged : existsSync(plain) ? plain : undefined;
  if (!questionsFile)
    throw new ConvertError(
      `neither ${tagged} nor ${plain} exists: --src must be the WikiTableQuestions release root and --split a split name`,
    );
  let rows = readTsv(questionsFile);
  if (options.limit !== undefined) rows = rows.slice(0, options.limit);
  const out = new SplitWriter(options.outDir);
  for (const r of rows) {
    const m = /^csv\/(\d+)-csv\/(\d+)\.csv$/.exec(r.context!);
    if (!m)
      throw new ConvertError(
        `${questionsFile}: question ${r.id} has context "${r.context}", expected csv/<A>-csv/<B>.csv`,
      );
    const tableId = checkTableId(`${m[1]}_${m[2]}`, questionsFile);
    if (!out.tables.has(tableId)) {
      const csvPath = join(options.src, r.context!);
      if (!existsSync(csvPath)) throw new ConvertError(`${csvPath} is missing (table of question ${r.id})`);
      const pagePath = join(options.src, "page", `${m[1]}-page`, `${m[2]}.json`);
      let meta: Record<string, unknown> = { table_id: tableId, table_source: r.context };
      if (existsSync(pagePath)) {
        const page = JSON.parse(readFileSync(pagePath, "utf8")) as Record<string, unknown>;
        meta = {
          ...meta,
          page_title: page.title,
          url: page.url,
          page_id: page.id,
          revision: page.revision,
          table_index: page.tableIndex,
        };
      }
      out.table(tableId, parseWtqCsv(readFileSync(csvPath, "utf8")), meta);
    }
    const record: Record<string, unknown> = {
      question_id: r.id,
      question: tsvUnescape(r.utterance!),
      table_id: tableId,
      answer: tsvUnescapeList(r.targetValue!),
    };
    if (r.targetCanon !== undefined) {
      record.answer_canon = tsvUnescapeList(r.targetCanon);
      record.answer_canon_type = r.targetCanonType ?? "";
    }
    record.table_source = r.context;
    out.question(record);
  }
  return out.finish([
    questionsFile,
    `${join(options.src, "csv")}/<A>-csv/<B>.csv`,
    `${join(options.src, "page")}/<A>-page/<B>.json (when present)`,
  ]);
}
