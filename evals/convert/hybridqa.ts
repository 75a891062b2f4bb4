/**
 * HybridQA release → shared layout. Reads
 * - questions: the released `<split>.json` (`question_id`, `question`, `table_id`, `answer-text`,
 *   `answer-node`) — with `--src released_data/dev.json`;
 * - `answer_from`: `<split>_reference.json` beside it (lists `table` / `passage`), when present;
 * - `answer_node`: `<split>.traced.json` beside it when present, else the question's `answer-node`;
 * - tables: `<tables_dir>/<table_id>.json` (WikiTables-WithLinks `tables_tok/`: `header`/`data`
 *   cells as `[text, [links]]`, `title`, `section_title`, …);
 * - passages: `<passages_dir>/<table_id>.json` (`request_tok/`: `{"/wiki/…": text}`).
 * `passages/<table_id>.json` gets one entry per linked article that has text, with the cells that
 * link to it (row 0 = first data row, row -1 = header).
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { checkTableId, ConvertError, SplitWriter } from "./output.js";

type Cell = [string, string[]];

interface HybridTable {
  header: Cell[];
  data: Cell[][];
  [key: string]: unknown;
}

function readJson<T>(path: string, what: string): T {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as T;
  } catch (error) {
    throw new ConvertError(`cannot read ${what} ${path}: ${(error as Error).message}`);
  }
}

/** Article title from a `/wiki/…` link: URL-decoded, underscores as spaces. */
export function titleOfLink(link: string): string {
  const last = link.replace(/^\/wiki\//, "");
  let decoded = last;
  try {
    decoded = decodeURIComponent(last);
  } catch {
    /* keep the raw link text */
  }
  return decoded.replace(/_/g, " ");
}

export interface HybridqaConvertOptions {
  src: string;
  tablesDir: string;
  passagesDir: string;
  outDir: string;
  limit?: number;
}

export function convertHybridqa(options: HybridqaConvertOptions) {
  const questions = readJson<Array<Record<string, unknown>>>(options.src, "HybridQA questions");
  if (!Array.isArray(questions)) throw new ConvertError(`${options.src}: expected a list of questions`);
  const stem = basename(options.src, extname(options.src));
  const referencePath = join(dirname(options.src), `${stem}_reference.json`);
  const tracedPath = join(dirname(options.src), `${stem}.traced.json`);
  const read = [options.src];
  const from = new Map<string, string>();
  if (existsSync(referencePath)) {
    read.push(referencePath);
    const ref = readJson<{ table?: string[]; passage?: string[] }>(referencePath, "HybridQA reference");
    for (const id of ref.table ?? []) from.set(id, "table");
    for (const id of ref.passage ?? []) from.set(id, "passage");
  }
  const traced = new Map<string, unknown>();
  if (existsSync(tracedPath)) {
    read.push(tracedPath);
    for (const q of readJson<Array<Record<string, unknown>>>(tracedPath, "HybridQA traced questions"))
      traced.set(String(q.question_id), q["answer-node"]);
  }
  read.push(`${options.tablesDir}/<table_id>.json`, `${options.passagesDir}/<table_id>.json`);
  const out = new SplitWriter(options.outDir);
  for (const q of options.limit !== undefined ? questions.slice(0, options.limit) : questions) {
    const qid = String(q.question_id);
    const tableId = checkTableId(String(q.table_id ?? ""), options.src);
    if (!out.tables.has(tableId)) {
      const tablePath = join(options.tablesDir, `${tableId}.json`);
      const passagePath = join(options.passagesDir, `${tableId}.json`);
      if (!existsSync(tablePath)) throw new ConvertError(`${tablePath} is missing (table of question ${qid})`);
      const table = readJson<HybridTable>(tablePath, "HybridQA table");
      const texts = existsSync(passagePath) ? readJson<Record<string, string>>(passagePath, "HybridQA passages") : {};
      out.table(tableId, [table.header.map((c) => c[0]), ...table.data.map((row) => row.map((c) => c[0]))], table);
      const cellsOf = new Map<string, Array<[number, number]>>();
      const note = (links: string[], row: number, col: number) => {
        for (const link of links) cellsOf.set(link, [...(cellsOf.get(link) ?? []), [row, col]]);
      };
      table.header.forEach((c, col) => note(c[1] ?? [], -1, col));
      table.data.forEach((row, r) => row.forEach((c, col) => note(c[1] ?? [], r, col)));
      const entries = [...cellsOf.entries()]
        .filter(([link]) => typeof texts[link] === "string")
        .map(([link, cells]) => ({ id: link, title: titleOfLink(link), text: texts[link]!, cells }));
      out.passage(tableId, entries);
    }
    const answer = q["answer-text"];
    out.question({
      question_id: qid,
      question: q.question,
      table_id: tableId,
      ...(answer !== undefined
        ? {
            answer: [String(answer)],
            answer_from: from.get(qid) ?? null,
            answer_node: traced.get(qid) ?? q["answer-node"] ?? [],
          }
        : {}),
      passages_id: tableId,
    });
  }
  return out.finish(read);
}
