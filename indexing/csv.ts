/**
 * RFC 4180 CSV parsing: a leading BOM is dropped, fields may be quoted (`""` is an escaped quote),
 * quoted fields may hold commas and newlines, and line ends may be CRLF, LF or CR.
 *
 * Lenient where the RFC is silent: a quote in the middle of an unquoted field is kept as text, and
 * text after a closing quote is appended to the field. An unterminated quote is an error (the file
 * is truncated or not CSV), because guessing would silently merge the rest of the file into a cell.
 * Completely empty lines are skipped. Row lengths are NOT normalised here; `raggedRows` reports them.
 *
 * The delimiter is a parameter (default `,`); `sniffDelimiter` picks `,` `;` tab or `|` from the
 * first lines of a file, so European (`;`) and tab-separated exports read as the columns they are.
 */

export class CsvParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CsvParseError";
  }
}

export type CsvDelimiter = "," | ";" | "\t" | "|";
/** Candidates in order of preference: a tie goes to the earlier one. */
export const CSV_DELIMITERS: readonly CsvDelimiter[] = [",", ";", "\t", "|"];
/** Lines looked at by sniffDelimiter. */
const SNIFF_LINES = 50;

/**
 * The delimiter of a CSV text: the candidate that appears (outside quotes) in the header line and
 * the same number of times in the most of the next lines; `,` when none appears in the header.
 * A decimal comma (`1,5;2,0`) does not fool it, because the header line has no commas.
 */
export function sniffDelimiter(input: string): CsvDelimiter {
  const text = stripBom(input);
  const counts: number[][] = [];
  let line = new Array<number>(CSV_DELIMITERS.length).fill(0);
  let quoted = false;
  let blank = true;
  for (let i = 0; i < text.length && counts.length < SNIFF_LINES; i++) {
    const ch = text[i]!;
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === "\n" || ch === "\r")) {
      if (!blank) counts.push(line);
      line = new Array<number>(CSV_DELIMITERS.length).fill(0);
      blank = true;
      continue;
    } else if (!quoted) {
      const k = CSV_DELIMITERS.indexOf(ch as CsvDelimiter);
      if (k >= 0) line[k]!++;
    }
    if (ch.trim() !== "") blank = false;
  }
  if (!blank && counts.length < SNIFF_LINES) counts.push(line);
  const header = counts[0];
  if (!header) return ",";
  let best: { k: number; agree: number } | undefined;
  CSV_DELIMITERS.forEach((_, k) => {
    if (header[k]! === 0) return;
    const agree = counts.filter((c) => c[k] === header[k]).length;
    if (!best || agree > best.agree) best = { k, agree };
  });
  return best ? CSV_DELIMITERS[best.k]! : ",";
}

/** Strips a UTF-8 byte-order mark. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Parses CSV text into rows of fields. Quoted fields are scanned with indexOf, so a 50 MB cell is cheap. */
export function parseCsv(input: string, delimiter: CsvDelimiter = ","): string[][] {
  return [...csvRecords(input, delimiter)];
}

/**
 * The rows of a CSV text one at a time (what parseCsv collects), so a table of a million rows is
 * never held as one grid. An unterminated quote throws when the parse reaches it.
 */
export function* csvRecords(input: string, delimiter: CsvDelimiter = ","): Generator<string[]> {
  const text = stripBom(input);
  const delim = delimiter.charCodeAt(0);
  const n = text.length;
  let row: string[] = [];
  let i = 0;
  let line = 1;
  // True when the current row has seen any character (so an empty line is told apart from `""`).
  let rowStarted = false;

  while (i < n) {
    let field = "";
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      rowStarted = true;
      const startLine = line;
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) {
          throw new CsvParseError(`unterminated quoted field starting on line ${startLine}`);
        }
        const chunk = text.slice(i, q);
        line += countNewlines(chunk);
        field += chunk;
        if (text.charCodeAt(q + 1) === 34) {
          field += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      // Anything between the closing quote and the delimiter is kept (lenient).
      const stop = nextDelimiter(text, i, delim);
      field += text.slice(i, stop);
      i = stop;
    } else {
      const stop = nextDelimiter(text, i, delim);
      field = text.slice(i, stop);
      if (stop > i) rowStarted = true;
      i = stop;
    }
    const d = i < n ? text.charCodeAt(i) : -1;
    if (d === delim) {
      rowStarted = true;
      row.push(field);
      i++;
      if (i === n) {
        row.push("");
        yield row;
        row = [];
        rowStarted = false;
      }
    } else {
      row.push(field);
      if (d === 13 /* \r */) i += text.charCodeAt(i + 1) === 10 ? 2 : 1;
      else if (d === 10) i++;
      line++;
      if (rowStarted) yield row;
      row = [];
      rowStarted = false;
    }
  }
  if (rowStarted) yield row;
}

function nextDelimiter(text: string, from: number, delim: number): number {
  for (let j = from; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === delim || c === 10 || c === 13) return j;
  }
  return text.length;
}

function countNewlines(s: string): number {
  let count = 0;
  for (let j = s.indexOf("\n"); j >= 0; j = s.indexOf("\n", j + 1)) count++;
  return count;
}

/** Data rows (1-based file row numbers, header = row 1) whose width differs from the header's. */
export function raggedRows(rows: string[][]): Array<{ row: number; width: number }> {
  const width = rows[0]?.length ?? 0;
  const out: Array<{ row: number; width: number }> = [];
  for (let r = 1; r < rows.length; r++) {
    if (rows[r]!.length !== width) out.push({ row: r + 1, width: rows[r]!.length });
  }
  return out;
}
