/**
 * Views 1–2: passage chunks and rendered table chunks (reference §4.4, with DESIGN.md's fixes).
 *
 * Sizes are measured with the embedder's tokenizer (for the offline embedder, the documented
 * approximation in embeddings/offline.ts). Every chunk starts with `File name: <file>` and a newline;
 * prefix + content ≤ `size` tokens and consecutive chunks of one text overlap by exactly `overlap`
 * tokens. A chunk ends, when it can, at a line or sentence boundary in the second half of its window.
 * Table chunks render markdown that keeps empty cells in their columns, repeat the table line and
 * header in every chunk, and overlap by whole rows.
 */
import { sourceRows, type RawTable, type TableSource } from "./types.js";
import type { ChunkTokenizer, TokenSpan } from "./embeddings/types.js";

export class ChunkingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ChunkingError";
  }
}

export interface ChunkSizes {
  /** Tokens per chunk including the file-name prefix (default 512). */
  size: number;
  /** Tokens shared by consecutive chunks (default 64). */
  overlap: number;
}

export const DEFAULT_CHUNK_SIZES: ChunkSizes = { size: 512, overlap: 64 };

export function validateChunkSizes({ size, overlap }: ChunkSizes): void {
  if (!Number.isInteger(size) || size <= 0)
    throw new ChunkingError(`document_chunk_size must be a positive integer, got ${size}`);
  if (!Number.isInteger(overlap) || overlap < 0 || overlap >= size) {
    throw new ChunkingError(
      `document_chunk_overlap must be an integer with 0 ≤ overlap < size (${size}), got ${overlap}`,
    );
  }
}

export function fileNamePrefix(file: string): string {
  return `File name: ${file}\n`;
}

async function contentBudget(file: string, tokenizer: ChunkTokenizer, sizes: ChunkSizes): Promise<number> {
  validateChunkSizes(sizes);
  const prefixTokens = (await tokenizer.spans(fileNamePrefix(file))).length;
  const budget = sizes.size - prefixTokens;
  if (budget <= sizes.overlap) {
    throw new ChunkingError(
      `the prefix "File name: ${file}" takes ${prefixTokens} of ${sizes.size} tokens and leaves no more room than the overlap (${sizes.overlap}); raise document_chunk_size`,
    );
  }
  return budget;
}

function isBoundary(text: string, spans: TokenSpan[], end: number): boolean {
  // boundary after token end-1: a newline before the next token, or sentence punctuation
  const prev = spans[end - 1]!;
  const next = spans[end];
  const gap = text.slice(prev[1], next ? next[0] : text.length);
  if (gap.includes("\n")) return true;
  const last = text.slice(prev[0], prev[1]);
  return /^[.!?;]$/.test(last) && /\s/.test(gap);
}

/** Token windows [start, end) over `spans`, `budget` long, overlapping by `overlap`. */
export function tokenWindows(
  text: string,
  spans: TokenSpan[],
  budget: number,
  overlap: number,
): Array<[number, number]> {
  const windows: Array<[number, number]> = [];
  let start = 0;
  while (start < spans.length) {
    let end = Math.min(start + budget, spans.length);
    if (end < spans.length) {
      const floor = Math.max(start + Math.ceil(budget / 2), start + overlap + 1);
      for (let e = end; e >= floor; e--) {
        if (isBoundary(text, spans, e)) {
          end = e;
          break;
        }
      }
    }
    windows.push([start, end]);
    if (end >= spans.length) break;
    start = end - overlap;
  }
  return windows;
}

/** Chunks one text; returns chunk texts including the file-name prefix. Blank text → no chunk. */
export async function chunkText(
  text: string,
  file: string,
  tokenizer: ChunkTokenizer,
  sizes: ChunkSizes = DEFAULT_CHUNK_SIZES,
): Promise<string[]> {
  const budget = await contentBudget(file, tokenizer, sizes);
  const spans = await tokenizer.spans(text);
  if (spans.length === 0) return [];
  const prefix = fileNamePrefix(file);
  return tokenWindows(text, spans, budget, sizes.overlap).map(
    ([s, e]) => prefix + text.slice(spans[s]![0], spans[e - 1]![1]),
  );
}

function cellText(value: string): string {
  return value
    .replace(/\s*\n\s*/g, " ")
    .replace(/\|/g, "\\|")
    .trim();
}

export function markdownRow(cells: string[]): string {
  return `| ${cells.map(cellText).join(" | ")} |`;
}

/** Lines that open every chunk of a table: its name/title, header and separator. */
export function tableHeadLines(table: Pick<RawTable, "id" | "title" | "header">): string[] {
  const lines = [`Table name: ${table.id}`];
  if (table.title) lines.push(`Title: ${table.title}`);
  lines.push(markdownRow(table.header), `| ${table.header.map(() => "---").join(" | ")} |`);
  return lines;
}

/** The whole table as markdown (empty cells keep their columns). */
export function renderTableMarkdown(table: RawTable): string {
  return [...tableHeadLines(table), ...table.rows.map(markdownRow)].join("\n");
}

/**
 * Table chunks: head lines + as many whole rows as fit; the next chunk repeats trailing rows worth
 * at most `overlap` tokens. A row too long for one chunk is cut into token windows of its own.
 * With `maxRows`, only the first `maxRows` rows are chunked (the rest are not read).
 */
export async function chunkTable(
  table: TableSource,
  tokenizer: ChunkTokenizer,
  sizes: ChunkSizes = DEFAULT_CHUNK_SIZES,
  maxRows = Number.POSITIVE_INFINITY,
): Promise<string[]> {
  const budget = await contentBudget(table.file, tokenizer, sizes);
  const prefix = fileNamePrefix(table.file);
  const head = tableHeadLines(table).join("\n");
  let headTokens = (await tokenizer.spans(head)).length;
  let headText = head;
  if (headTokens > budget / 2) {
    // very wide tables: keep only the table line so rows still fit
    headText = tableHeadLines(table)[0]!;
    headTokens = (await tokenizer.spans(headText)).length;
  }
  const rowBudget = budget - headTokens;
  // The rows are read as the chunks need them: `win` holds the rows from the current chunk's first on.
  const rows = sourceRows(table)[Symbol.iterator]();
  const win: Array<{ line: string; cost: number }> = [];
  let exhausted = false;
  let taken = 0;
  const has = async (k: number): Promise<boolean> => {
    while (!exhausted && win.length <= k) {
      const next = taken < maxRows ? rows.next() : { done: true as const, value: undefined };
      if (next.done) {
        exhausted = true;
        // (a stored table's rows come from an open statement: let it go)
        if (taken >= maxRows) rows.return?.();
      } else {
        taken++;
        const line = markdownRow(next.value);
        win.push({ line, cost: (await tokenizer.spans(line)).length });
      }
    }
    return win.length > k;
  };
  const chunks: string[] = [];
  if (!(await has(0))) return [prefix + headText];
  while (await has(0)) {
    const first = win[0]!;
    if (first.cost > rowBudget) {
      const spans = await tokenizer.spans(first.line);
      for (const [s, e] of tokenWindows(first.line, spans, Math.max(rowBudget, sizes.overlap + 1), sizes.overlap)) {
        chunks.push(`${prefix}${headText}\n${first.line.slice(spans[s]![0], spans[e - 1]![1])}`);
      }
      win.shift();
      continue;
    }
    let used = 0;
    let j = 0;
    while ((await has(j)) && win[j]!.cost <= rowBudget - used) used += win[j++]!.cost;
    chunks.push(
      `${prefix}${headText}\n${win
        .slice(0, j)
        .map((w) => w.line)
        .join("\n")}`,
    );
    if (!(await has(j))) break;
    // overlap: step back over trailing rows worth ≤ overlap tokens, always advancing
    let back = j;
    let shared = 0;
    while (back - 1 > 0 && shared + win[back - 1]!.cost <= sizes.overlap) shared += win[--back]!.cost;
    win.splice(0, back);
  }
  return chunks;
}
