/**
 * A CSV of more than LARGE_TABLE_ROWS rows is not held in memory: the loader reads it once for its
 * header, width, repairs and row count, and the store reads it again row by row. The repairs and
 * the rows are the same as for a table read whole, and a file that changes between the two reads
 * is refused, naming it.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadTables, loadTableSources } from "../../indexing/load-tables.js";
import { JS_WHITESPACE, writeSqlStore } from "../../indexing/sql-store.js";
import { LARGE_TABLE_ROWS } from "../../indexing/table-size.js";
import { isStreamed } from "../../indexing/types.js";

const N = LARGE_TABLE_ROWS + 700;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "atr-streamed-"));
  mkdirSync(join(dir, "tables"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Rows of a semicolon CSV with a blank line before the header, short rows and one long row. */
function writeRagged(): string[][] {
  const expected: string[][] = [];
  const lines = ["", ";;", "id;name;amount"]; // the empty line is no record; ";;" is a blank one
  for (let i = 0; i < N; i++) {
    if (i % 1000 === 7) {
      lines.push(`${i};"Name; ${i}"`); // short: padded
      expected.push([String(i), `Name; ${i}`, "", ""]);
    } else if (i === 4321) {
      lines.push(`${i};"multi\nline";3,5;extra`); // long: a col_4 column
      expected.push([String(i), "multi\nline", "3,5", "extra"]);
    } else {
      lines.push(`${i};Name ${i};${i * 2}`);
      expected.push([String(i), `Name ${i}`, String(i * 2), ""]);
    }
  }
  writeFileSync(join(dir, "tables", "big.csv"), lines.join("\r\n") + "\r\n");
  return expected;
}

describe("a CSV over the large-table line", () => {
  it("is streamed with the repairs a table read whole gets, and its rows read back in order", () => {
    const expected = writeRagged();
    const streamed = loadTableSources(join(dir, "tables"));
    const table = streamed.tables[0]!;
    expect(isStreamed(table)).toBe(true);
    if (!isStreamed(table)) return;
    expect(table.rowCount).toBe(N);
    expect(table.header).toEqual(["id", "name", "amount", "col_4"]);
    const problems = streamed.issues.map((i) => i.problem);
    expect(problems).toContain('read with ";" as the delimiter (detected from the header line)');
    expect(problems).toContain("1 blank line before the header skipped");
    expect(problems).toContain(
      "ragged rows: file rows 10, 1010, 2010, 3010, 4010 and 1 more have fewer cells than the header (3); padded with empty cells",
    );
    expect(problems).toContain(
      "ragged rows: file row 4324 have more cells than the header (3); extra columns named col_N",
    );
    expect([...table.readRows()]).toEqual(expected);
    // the in-memory loader gives the same table (and reads the rows the same way)
    const whole = loadTables(join(dir, "tables"));
    expect(whole.tables[0]!.rows).toEqual(expected);
    expect(whole.issues).toEqual(streamed.issues);
  });

  it("is written to tables.sqlite row by row, typed like a table read whole", () => {
    const expected = writeRagged();
    const { tables } = loadTableSources(join(dir, "tables"));
    const path = join(dir, "tables.sqlite");
    const [schema] = writeSqlStore(path, tables);
    expect(schema!.rowCount).toBe(N);
    expect(schema!.columns.map((c) => c.type)).toEqual(["integer", "text", "integer", "text"]);
    const db = new Database(path, { readonly: true });
    const raw = db.prepare(`SELECT id__raw, name__raw, amount__raw, col_4__raw FROM big ORDER BY _row`).raw().all();
    expect(raw).toEqual(expected);
    expect(db.prepare("SELECT amount FROM big WHERE _row = 8").pluck().get()).toBe(16);
    db.close();
  });

  it("refuses a file that changed between the two reads, naming it", () => {
    writeRagged();
    const { tables } = loadTableSources(join(dir, "tables"));
    appendFileSync(join(dir, "tables", "big.csv"), "99999;Late;1\r\n");
    expect(() => writeSqlStore(join(dir, "tables.sqlite"), tables)).toThrow(
      /big\.csv.*changed while the index was being built/,
    );
  });
});

describe("the store's grouping of a large table's cells", () => {
  it("trims exactly what String.prototype.trim trims", () => {
    for (let c = 0; c < 0x10000; c++) {
      if (c >= 0xd800 && c < 0xe000) continue;
      const ch = String.fromCharCode(c);
      expect(`a${ch}`.trim() === "a", `U+${c.toString(16)}`).toBe(JS_WHITESPACE.includes(ch));
    }
    const db = new Database(":memory:");
    for (const t of ["  x  ", "\u00a0x\u3000", "\ufeffé ", "x\u200b", " 😀 ", "\t\n", "a\u2028"])
      expect(db.prepare("SELECT trim(?, ?)").pluck().get(t, JS_WHITESPACE)).toBe(t.trim());
    db.close();
  });
});
