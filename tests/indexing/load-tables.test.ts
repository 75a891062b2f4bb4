import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import XLSX from "@e965/xlsx";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InputDirectoryError, flattenHeader, loadTables } from "../../indexing/load-tables.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "atr-load-tables-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function writeWorkbook(file: string, sheets: Record<string, { aoa: unknown[][]; merges?: XLSX.Range[] }>): void {
  const wb = XLSX.utils.book_new();
  for (const [name, { aoa, merges }] of Object.entries(sheets)) {
    const ws = XLSX.utils.aoa_to_sheet(aoa);
    if (merges) ws["!merges"] = merges;
    XLSX.utils.book_append_sheet(wb, ws, name);
  }
  writeFileSync(join(dir, file), XLSX.write(wb, { type: "buffer", bookType: "xlsx" }) as Buffer);
}

describe("flattenHeader", () => {
  it("names blank headers col_N, suffixes duplicates and joins header rows", () => {
    expect(flattenHeader([["a", "", "a", "a_2", "a"]])).toEqual(["a", "col_2", "a_2", "a_2_2", "a_3"]);
    expect(
      flattenHeader([
        ["Goals", "Goals", "Club"],
        ["Home", "Away", "Club"],
      ]),
    ).toEqual(["Goals › Home", "Goals › Away", "Club"]);
  });
});

describe("loadTables", () => {
  it("loads CSV tables with ids from stems, titles from sidecars, and ignores the sidecars as tables", () => {
    writeFileSync(join(dir, "clubs.csv"), '\uFEFFClub,Founded\nLeeds,1919\n"Hull, City",1904\n');
    writeFileSync(join(dir, "clubs.json"), JSON.stringify({ title: "Clubs", section_title: "North" }));
    writeFileSync(join(dir, "200_1.csv"), "Year,Title\n2001,A\n");
    writeFileSync(join(dir, "200_1.json"), JSON.stringify({ page_title: "Mischa Barton" }));
    const { tables, files, issues } = loadTables(dir);
    expect(issues).toEqual([]);
    expect(files).toEqual(["200_1.csv", "clubs.csv"]);
    expect(tables.map((t) => [t.id, t.title])).toEqual([
      ["200_1", "Mischa Barton"],
      ["clubs", "Clubs › North"],
    ]);
    expect(tables[1]!.header).toEqual(["Club", "Founded"]);
    expect(tables[1]!.rows).toEqual([
      ["Leeds", "1919"],
      ["Hull, City", "1904"],
    ]);
  });

  it("gives each sheet of a multi-sheet workbook its own id, fills merges and flattens a two-row header", () => {
    writeWorkbook("league.xlsx", {
      Home: {
        aoa: [
          ["Club", "Goals", ""],
          ["", "For", "Against"],
          ["Leeds", 10, 4],
          ["Hull", 7, 9],
        ],
        merges: [
          { s: { r: 0, c: 1 }, e: { r: 0, c: 2 } },
          { s: { r: 0, c: 0 }, e: { r: 1, c: 0 } },
        ],
      },
      Away: {
        aoa: [
          ["Club", "Region"],
          ["Leeds", "North"],
          ["", ""],
          ["York", "North"],
        ],
        merges: [{ s: { r: 1, c: 1 }, e: { r: 3, c: 1 } }],
      },
    });
    const { tables, issues } = loadTables(dir);
    expect(issues).toEqual([]);
    expect(tables.map((t) => t.id)).toEqual(["league#Home", "league#Away"]);
    expect(tables[0]!.header).toEqual(["Club", "Goals › For", "Goals › Against"]);
    expect(tables[0]!.rows).toEqual([
      ["Leeds", "10", "4"],
      ["Hull", "7", "9"],
    ]);
    expect(tables[0]!.sheet).toBe("Home");
    // The merge fills the blank middle row, so it is kept as data.
    expect(tables[1]!.rows).toEqual([
      ["Leeds", "North"],
      ["", "North"],
      ["York", "North"],
    ]);
  });

  it("reads spreadsheet dates shown with a two-digit year as ISO dates, keeps formatted numbers as shown", () => {
    const ws = XLSX.utils.aoa_to_sheet(
      [
        ["When", "Amount"],
        [new Date(Date.UTC(1998, 2, 14)), 1234.5],
      ],
      { cellDates: true },
    );
    (ws["B2"] as XLSX.CellObject).z = "#,##0.00";
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, "S");
    writeFileSync(join(dir, "dates.xlsx"), XLSX.write(wb, { type: "buffer", bookType: "xlsx" }) as Buffer);
    expect(loadTables(dir).tables[0]!.rows).toEqual([["1998-03-14", "1,234.50"]]);
  });

  it("uses the bare stem for a single-sheet workbook", () => {
    writeWorkbook("one.xlsx", { Sheet1: { aoa: [["a"], [1]] } });
    expect(loadTables(dir).tables.map((t) => t.id)).toEqual(["one"]);
  });

  it("reports and skips corrupt workbooks, empty files, bad quoting and foreign files; goes on with the rest", () => {
    writeFileSync(join(dir, "broken.xlsx"), "this is not a zip");
    writeFileSync(join(dir, "truncated.xlsx"), Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]));
    writeFileSync(join(dir, "empty.csv"), "");
    writeFileSync(join(dir, "quote.csv"), 'a,b\n1,"open\n');
    writeFileSync(join(dir, "old.xls"), "x");
    writeFileSync(join(dir, "notes.txt"), "x");
    writeFileSync(join(dir, "good.csv"), "a\n1\n");
    const { tables, issues } = loadTables(dir);
    expect(tables.map((t) => t.id)).toEqual(["good"]);
    const byFile = Object.fromEntries(issues.map((i) => [i.file, i]));
    expect(byFile["broken.xlsx"]!.problem).toMatch(/not a valid \.xlsx/);
    expect(byFile["truncated.xlsx"]!.problem).toMatch(/corrupt \.xlsx/);
    expect(byFile["empty.csv"]!.problem).toMatch(/empty file/);
    expect(byFile["quote.csv"]!.problem).toMatch(/unterminated/);
    expect(byFile["old.xls"]!.problem).toMatch(/legacy \.xls/);
    expect(byFile["notes.txt"]!.problem).toMatch(/not a table file/);
    expect(issues.every((i) => i.severity === "error")).toBe(true);
  });

  it("pads short ragged rows and names extra cells, with a warning naming the rows", () => {
    writeFileSync(join(dir, "ragged.csv"), "a,b,c\n1,2\n1,2,3,4\n1,2,3,\n");
    const { tables, issues } = loadTables(dir);
    expect(tables[0]!.header).toEqual(["a", "b", "c", "col_4"]);
    expect(tables[0]!.rows).toEqual([
      ["1", "2", "", ""],
      ["1", "2", "3", "4"],
      ["1", "2", "3", ""],
    ]);
    expect(issues.map((i) => [i.file, i.severity])).toEqual([
      ["ragged.csv", "warning"],
      ["ragged.csv", "warning"],
    ]);
    expect(issues[0]!.problem).toMatch(/file row 2 have fewer/);
    expect(issues[1]!.problem).toMatch(/file row 3 have more/);
  });

  it("decodes invalid UTF-8 as Windows-1252 with a warning", () => {
    writeFileSync(join(dir, "latin.csv"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x31, 0x80, 0x0a]));
    const { tables, issues } = loadTables(dir);
    expect(tables[0]!.header).toEqual(["café"]);
    expect(tables[0]!.rows).toEqual([["1€"]]);
    expect(issues).toEqual([expect.objectContaining({ file: "latin.csv", severity: "warning" })]);
  });

  it("skips a second file with an already-used id, naming both files", () => {
    writeFileSync(join(dir, "dup.csv"), "a\n1\n");
    writeWorkbook("dup.xlsx", { S: { aoa: [["b"], [2]] } });
    const { tables, issues } = loadTables(dir);
    expect(tables.map((t) => [t.id, t.file])).toEqual([["dup", "dup.csv"]]);
    expect(issues[0]!.file).toBe("dup.xlsx");
    expect(issues[0]!.problem).toMatch(/"dup" is already used by dup\.csv/);
  });

  it("keeps a 50 MB cell whole", () => {
    const big = "y".repeat(50 * 1024 * 1024);
    writeFileSync(join(dir, "big.csv"), `a,b\n"${big}",1\n`);
    const { tables } = loadTables(dir);
    expect(tables[0]!.rows[0]![0]!.length).toBe(big.length);
  });

  it("fails clearly for a missing directory and follows an explicit order that must match", () => {
    expect(() => loadTables(join(dir, "nope"))).toThrow(InputDirectoryError);
    expect(() => loadTables(join(dir, "nope"))).toThrow(/nope does not exist/);
    writeFileSync(join(dir, "a.csv"), "x\n1\n");
    writeFileSync(join(dir, "b.csv"), "x\n1\n");
    expect(loadTables(dir, { order: ["b.csv", "a.csv"] }).tables.map((t) => t.id)).toEqual(["b", "a"]);
    expect(() => loadTables(dir, { order: ["b.csv", "c.csv"] })).toThrow(
      /listed but not present: c\.csv; present but not listed: a\.csv/,
    );
  });
});
