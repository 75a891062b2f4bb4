/**
 * RFC 4180 CSV parsing: a leading BOM is dropped, fields may be quoted (`""` is an escaped quote),
 * quoted fields may hold commas and newlines, and line ends may be CRLF, LF or CR.
 *
 * Lenient where the RFC is silent: a quote in the middle of an unquoted field is kept as text, and
 * text after a closing quote is appended to the field. An unterminated quote is an error (the file
 * is truncated or not CSV), because guessing would silently merge the rest of the file into a cell.
 * Completely empty lines are skipped. Row lengths are NOT normalised here; `raggedRows` reports them.
 */

export class CsvParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CsvParseError";
  }
}

/** Strips a UTF-8 byte-order mark. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Parses CSV text into rows of fields. Quoted fields are scanned with indexOf, so a 50 MB cell is cheap. */
export function parseCsv(input: string): string[][] {
  const text = stripBom(input);
  const rows: string[][] = [];
  const n = text.length;
  let row: string[] = [];
  let i = 0;
  let line = 1;
  // True when the current row has seen any character (so an empty line is told apart from `""`).
  let rowStarted = false;

  const endRow = (): void => {
    if (rowStarted) rows.push(row);
    row = [];
    rowStarted = false;
  };

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
      const stop = nextDelimiter(text, i);
      field += text.slice(i, stop);
      i = stop;
    } else {
      const stop = nextDelimiter(text, i);
      field = text.slice(i, stop);
      if (stop > i) rowStarted = true;
      i = stop;
    }
    const d = i < n ? text.charCodeAt(i) : -1;
    if (d === 44 /* , */) {
      rowStarted = true;
      row.push(field);
      i++;
      if (i === n) {
        row.push("");
        endRow();
      }
    } else {
      row.push(field);
      if (d === 13 /* \r */) i += text.charCodeAt(i + 1) === 10 ? 2 : 1;
      else if (d === 10) i++;
      line++;
      endRow();
    }
  }
  if (rowStarted) endRow();
  return rows;
}

function nextDelimiter(text: string, from: number): number {
  for (let j = from; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 44 || c === 10 || c === 13) return j;
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
