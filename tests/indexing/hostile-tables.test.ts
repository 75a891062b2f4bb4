/**
 * Hostile-but-fair table input (docs/RELIABILITY.md, "Input files"): every kind is read correctly or
 * skipped with an issue naming the file and the problem — never a garbage table, a hang or a crash.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateRawSync, constants as zlibConstants } from "node:zlib";
import XLSX from "@e965/xlsx";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  MAX_HEADER_CHARS,
  MAX_INPUT_FILE_BYTES,
  MAX_TABLE_COLUMNS,
  MAX_XLSX_UNPACKED_BYTES,
  loadTables,
  type LoadIssue,
} from "../../indexing/load-tables.js";
import { checkZipSize } from "../../indexing/zip-limits.js";
import { handWrittenXlsx, inlineCell, stored, zip } from "./zip-fixture.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "atr-hostile-tables-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const issueFor = (issues: LoadIssue[], file: string): LoadIssue[] => issues.filter((i) => i.file === file);
const only = (issues: LoadIssue[], file: string): LoadIssue => {
  const found = issueFor(issues, file);
  expect(found, `one issue for ${file}: ${JSON.stringify(issues)}`).toHaveLength(1);
  return found[0]!;
};
const writeXlsx = (file: string, wb: XLSX.WorkBook): void =>
  writeFileSync(join(dir, file), XLSX.write(wb, { type: "buffer", bookType: "xlsx", compression: true }) as Buffer);
const good = (): void => writeFileSync(join(dir, "good.csv"), "club,city\nLeeds,Leeds\n");

describe("folder listing decisions", () => {
  it("skips hidden files, sub-folders, names with control characters, blank stems and orphan sidecars — each with an issue", () => {
    good();
    writeFileSync(join(dir, ".hidden.csv"), "a\n1\n");
    writeFileSync(join(dir, "..csv"), "a\n1\n");
    mkdirSync(join(dir, "sub"));
    writeFileSync(join(dir, "sub", "inner.csv"), "a\n1\n");
    writeFileSync(join(dir, "line\nbreak.csv"), "a\n1\n");
    writeFileSync(join(dir, " .csv"), "a\n1\n");
    writeFileSync(join(dir, "lonely.json"), JSON.stringify({ title: "no table" }));
    writeFileSync(join(dir, ".gitkeep"), "");
    const { tables, issues } = loadTables(dir);
    expect(tables.map((t) => t.id)).toEqual(["good"]);
    // a folder placeholder is no data and no problem: neither read nor reported
    expect(issues.some((i) => i.file === ".gitkeep")).toBe(false);
    expect(only(issues, ".hidden.csv")).toMatchObject({
      severity: "error",
      problem: expect.stringMatching(/hidden file.*rename it/),
    });
    expect(only(issues, "..csv").problem).toMatch(/hidden file/);
    expect(only(issues, "sub").problem).toMatch(/sub-folder; skipped/);
    expect(only(issues, JSON.stringify("line\nbreak.csv")).problem).toMatch(/control characters/);
    expect(only(issues, " .csv").problem).toMatch(/no stem/);
    expect(only(issues, "lonely.json").problem).toMatch(/title sidecar .* there is none/);
  });

  it("follows a symbolic link only to a regular file inside the folder", () => {
    const outside = mkdtempSync(join(tmpdir(), "atr-outside-"));
    try {
      writeFileSync(join(outside, "secret.csv"), "a\n1\n");
      mkdirSync(join(dir, "real"));
      writeFileSync(join(dir, "target.csv"), "name\nAnn\n");
      symlinkSync(join(dir, "target.csv"), join(dir, "inside.csv"));
      symlinkSync(join(outside, "secret.csv"), join(dir, "outside.csv"));
      symlinkSync(join(dir, "missing.csv"), join(dir, "dangling.csv"));
      symlinkSync(join(dir, "real"), join(dir, "folder.csv"));
      const { tables, issues } = loadTables(dir);
      expect(tables.map((t) => t.id).sort()).toEqual(["inside", "target"]);
      expect(only(issues, "inside.csv")).toMatchObject({
        severity: "warning",
        problem: expect.stringMatching(/symbolic link to target\.csv inside the folder; read/),
      });
      expect(only(issues, "outside.csv")).toMatchObject({
        severity: "error",
        problem: expect.stringMatching(/outside --excel_dir; skipped/),
      });
      expect(only(issues, "dangling.csv").problem).toMatch(/missing file; skipped/);
      expect(only(issues, "folder.csv").problem).toMatch(/symbolic link to a directory/);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("skips a named pipe instead of blocking on it", () => {
    good();
    expect(spawnSync("mkfifo", [join(dir, "pipe.csv")]).status).toBe(0);
    const { tables, issues } = loadTables(dir);
    expect(tables.map((t) => t.id)).toEqual(["good"]);
    expect(only(issues, "pipe.csv").problem).toMatch(/named pipe \(FIFO\), not a regular file; skipped/);
  });

  it("skips a file over the size limit without reading it", () => {
    good();
    writeFileSync(join(dir, "huge.csv"), "a\n");
    truncateSync(join(dir, "huge.csv"), MAX_INPUT_FILE_BYTES + 1); // sparse: no disk used
    const started = Date.now();
    const { tables, issues } = loadTables(dir);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(tables.map((t) => t.id)).toEqual(["good"]);
    expect(only(issues, "huge.csv").problem).toMatch(/over the 256 MB limit/);
  });

  it("names a file it may not read (permission denied) and goes on", () => {
    good();
    writeFileSync(join(dir, "locked.csv"), "a\n1\n");
    chmodSync(join(dir, "locked.csv"), 0o000);
    chmodSync(dir, 0o755);
    if (process.getuid?.() !== 0) {
      const { tables, issues } = loadTables(dir);
      expect(tables.map((t) => t.id)).toEqual(["good"]);
      expect(only(issues, "locked.csv").problem).toMatch(/cannot be read \(permission denied\); skipped/);
      return;
    }
    // root reads everything: run the loader as the unprivileged user "nobody" instead.
    const script = `import { loadTables } from ${JSON.stringify(join(process.cwd(), "indexing/load-tables.ts"))};
      const { tables, issues } = loadTables(${JSON.stringify(dir)});
      console.log(JSON.stringify({ ids: tables.map((t) => t.id), issues }));`;
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      uid: 65534,
      gid: 65534,
      cwd: process.cwd(),
      encoding: "utf8",
    });
    expect(child.status, child.stderr).toBe(0);
    const result = JSON.parse(child.stdout.trim().split("\n").pop()!) as { ids: string[]; issues: LoadIssue[] };
    expect(result.ids).toEqual(["good"]);
    expect(only(result.issues, "locked.csv").problem).toMatch(/cannot be read \(permission denied\); skipped/);
  });
});

describe("CSV content", () => {
  it("skips blank lines before the header instead of taking the first data row as header", () => {
    writeFileSync(join(dir, "lead.csv"), "\n   \n,,\r\nname,age\nAnn,31\nBob,40\n");
    const { tables, issues } = loadTables(dir);
    expect(tables[0]!.header).toEqual(["name", "age"]);
    expect(tables[0]!.rows).toEqual([
      ["Ann", "31"],
      ["Bob", "40"],
    ]);
    expect(only(issues, "lead.csv")).toMatchObject({
      severity: "warning",
      problem: "2 blank lines before the header skipped",
    });
  });

  it("skips a CSV of only blank lines; loads a header-only CSV as an empty table with a warning", () => {
    writeFileSync(join(dir, "blank.csv"), "\n  \n,,\n");
    writeFileSync(join(dir, "header.csv"), "a,b\n");
    const { tables, issues } = loadTables(dir);
    expect(tables.map((t) => [t.id, t.rows.length])).toEqual([["header", 0]]);
    expect(only(issues, "blank.csv").problem).toMatch(/only blank lines/);
    expect(only(issues, "header.csv")).toMatchObject({
      severity: "warning",
      problem: expect.stringMatching(/header only/),
    });
  });

  it("skips random bytes and a workbook renamed .csv, naming what they are", () => {
    good();
    let seed = 7;
    const noise = Buffer.alloc(4096, 0).map(() => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff);
    writeFileSync(join(dir, "noise.csv"), noise);
    writeFileSync(
      join(dir, "book.csv"),
      XLSX.write(XLSX.utils.book_new(XLSX.utils.aoa_to_sheet([["a"], [1]])), {
        type: "buffer",
        bookType: "xlsx",
      }) as Buffer,
    );
    writeFileSync(join(dir, "utf32.csv"), Buffer.from([0xff, 0xfe, 0, 0, 0x61, 0, 0, 0]));
    const { tables, issues } = loadTables(dir);
    expect(tables.map((t) => t.id)).toEqual(["good"]);
    expect(only(issues, "noise.csv").problem).toMatch(/looks like binary data, not text/);
    expect(only(issues, "book.csv").problem).toMatch(
      /zip archive \(an \.xlsx workbook\? give it the \.xlsx extension\)/,
    );
    expect(only(issues, "utf32.csv").problem).toMatch(/UTF-32 text is not supported/);
  });

  it("reads UTF-16 LE and BE with a BOM, and UTF-16 LE without one (warning)", () => {
    const text = "Stadt,Einwohner\nMünchen,1512491\n";
    writeFileSync(join(dir, "le.csv"), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]));
    writeFileSync(
      join(dir, "be.csv"),
      Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, "utf16le").swap16()]),
    );
    writeFileSync(join(dir, "nobom.csv"), Buffer.from(text, "utf16le"));
    const { tables, issues } = loadTables(dir);
    for (const table of tables) {
      expect(table.header).toEqual(["Stadt", "Einwohner"]);
      expect(table.rows).toEqual([["München", "1512491"]]);
    }
    expect(tables).toHaveLength(3);
    expect(issues).toEqual([
      {
        file: "nobom.csv",
        severity: "warning",
        problem: expect.stringMatching(/no byte-order mark; read as UTF-16LE/),
      },
    ]);
  });

  it("detects semicolon (with decimal commas), tab and pipe delimiters", () => {
    writeFileSync(join(dir, "semi.csv"), "Artikel;Preis;Menge\nBrot;2,50;3\nKäse;7,99;1\n");
    writeFileSync(join(dir, "tab.csv"), "name\tnote\nAnn\tlikes a, b and c\n");
    writeFileSync(join(dir, "pipe.csv"), "x|y\n1|2\n");
    const { tables, issues } = loadTables(dir);
    const byId = Object.fromEntries(tables.map((t) => [t.id, t]));
    expect(byId.semi).toMatchObject({
      header: ["Artikel", "Preis", "Menge"],
      rows: [
        ["Brot", "2,50", "3"],
        ["Käse", "7,99", "1"],
      ],
    });
    expect(byId.tab).toMatchObject({ header: ["name", "note"], rows: [["Ann", "likes a, b and c"]] });
    expect(byId.pipe).toMatchObject({ header: ["x", "y"], rows: [["1", "2"]] });
    expect(only(issues, "semi.csv").problem).toBe('read with ";" as the delimiter (detected from the header line)');
    expect(only(issues, "tab.csv").problem).toMatch(/read with tab as the delimiter/);
  });

  it("skips a CSV wider than SQLite can store; keeps one at the limit", () => {
    const row = (n: number, p: string): string => Array.from({ length: n }, (_, i) => `${p}${i}`).join(",");
    writeFileSync(join(dir, "wide.csv"), `${row(1000, "c")}\n${row(1000, "v")}\n`);
    writeFileSync(join(dir, "edge.csv"), `${row(MAX_TABLE_COLUMNS, "c")}\n${row(MAX_TABLE_COLUMNS, "v")}\n`);
    const { tables, issues } = loadTables(dir);
    expect(tables.map((t) => [t.id, t.header.length])).toEqual([["edge", MAX_TABLE_COLUMNS]]);
    expect(only(issues, "wide.csv").problem).toMatch(/has 1000 columns; at most 999 fit in one SQL table/);
  });

  it("cuts a 10-million-character header name; skips a header line of a million columns", () => {
    writeFileSync(join(dir, "longname.csv"), `${"h".repeat(10_000_000)},b\n1,2\n`);
    writeFileSync(join(dir, "million.csv"), `${Array.from({ length: 1_000_000 }, () => "c").join(",")}\n`);
    const started = Date.now();
    const { tables, issues } = loadTables(dir);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(tables.map((t) => t.id)).toEqual(["longname"]);
    expect(tables[0]!.header).toEqual([`${"h".repeat(MAX_HEADER_CHARS)}…`, "b"]);
    expect(only(issues, "longname.csv").problem).toBe(`1 header name longer than ${MAX_HEADER_CHARS} characters cut`);
    expect(only(issues, "million.csv").problem).toMatch(/has 1000000 columns/);
  });

  it("removes NUL bytes from cells with a warning", () => {
    writeFileSync(join(dir, "nul.csv"), Buffer.from("name,code\nAnn\u0000ie,A\u0000\u00001\n"));
    const { tables, issues } = loadTables(dir);
    expect(tables[0]!.rows).toEqual([["Annie", "A1"]]);
    expect(only(issues, "nul.csv")).toMatchObject({ severity: "warning", problem: "3 NUL characters removed" });
  });

  it("keeps duplicate headers apart and loads file names that are not safe identifiers", () => {
    writeFileSync(join(dir, "dup.csv"), "Name,Name,name,\nA,B,C,D\n");
    writeFileSync(join(dir, "Robert'); DROP TABLE students;--.csv"), "x\n1\n");
    writeFileSync(join(dir, "名前 (2024).csv"), "y\n2\n");
    const { tables, issues } = loadTables(dir);
    expect(issues).toEqual([]);
    expect(tables.find((t) => t.id === "dup")!.header).toEqual(["Name", "Name_2", "name", "col_4"]);
    expect(tables.map((t) => t.id).sort()).toEqual(["Robert'); DROP TABLE students;--", "dup", "名前 (2024)"].sort());
  });
});

describe(".xlsx workbooks", () => {
  it("bounds a sheet by its used cells: one cell at XFD1048576 is one cell; a far stray cell skips the sheet, not the build", () => {
    good();
    const far = handWrittenXlsx([
      { name: "Far", ref: "A1:XFD1048576", rows: `<row r="1048576">${inlineCell("XFD1048576", "corner")}</row>` },
    ]);
    expect(far.length).toBeLessThan(7 * 1024);
    writeFileSync(join(dir, "far.xlsx"), far);
    const stray = handWrittenXlsx([
      {
        name: "Data",
        ref: "A1:XFD1048576",
        rows: `<row r="1">${inlineCell("A1", "club")}</row><row r="2">${inlineCell("A2", "Leeds")}</row><row r="1048576">${inlineCell("XFD1048576", "stray")}</row>`,
      },
      {
        name: "Fine",
        ref: "A1:A2",
        rows: `<row r="1">${inlineCell("A1", "ok")}</row><row r="2">${inlineCell("A2", "1")}</row>`,
      },
    ]);
    writeFileSync(join(dir, "stray.xlsx"), stray);
    const started = Date.now();
    const { tables, issues } = loadTables(dir);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(tables.map((t) => [t.id, t.header, t.rows.length])).toEqual([
      ["far", ["corner"], 0],
      ["good", ["club", "city"], 1],
      ["stray#Fine", ["ok"], 1],
    ]);
    expect(only(issues, "stray.xlsx").problem).toMatch(
      /sheet "Data": its used range A1:XFD1048576 spans 1048576 rows × 16384 columns, over the 5000000 cell limit.*; skipped/,
    );
  });

  it("skips a sheet wider than SQLite can store and keeps the other sheets", () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      wb,
      XLSX.utils.aoa_to_sheet([Array.from({ length: 1200 }, (_, i) => `c${i}`)]),
      "Wide",
    );
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([["a"], ["1"]]), "Narrow");
    writeXlsx("mixed.xlsx", wb);
    const { tables, issues } = loadTables(dir);
    expect(tables.map((t) => t.id)).toEqual(["mixed#Narrow"]);
    expect(only(issues, "mixed.xlsx").problem).toMatch(/sheet "Wide": the sheet has 1200 columns/);
  });

  it("refuses a zip bomb before SheetJS inflates it, whether its headers lie or not", () => {
    good();
    // 5,000 copies of one flushed deflate block of 1 MB of zeros: ~5 GB unpacked from a few MB.
    const block = deflateRawSync(Buffer.alloc(1024 * 1024), { finishFlush: zlibConstants.Z_FULL_FLUSH });
    const bomb = Buffer.concat([...new Array<Buffer>(5000).fill(block), deflateRawSync(Buffer.alloc(0))]);
    writeFileSync(
      join(dir, "liar.xlsx"),
      zip([
        stored("[Content_Types].xml", "<Types/>"),
        { name: "xl/worksheets/sheet1.xml", data: bomb, method: 8, size: 1000 },
      ]),
    );
    writeFileSync(
      join(dir, "honest.xlsx"),
      zip([{ name: "xl/worksheets/sheet1.xml", data: block, method: 8, size: 0xfffffff0 }]),
    );
    const started = Date.now();
    const { tables, issues } = loadTables(dir);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(tables.map((t) => t.id)).toEqual(["good"]);
    expect(only(issues, "liar.xlsx").problem).toMatch(
      /workbook refused before parsing: it unpacks to more than 134217728 bytes \(limit; a zip bomb\?\)/,
    );
    expect(only(issues, "honest.xlsx").problem).toMatch(
      /workbook refused before parsing: it would unpack to more than/,
    );
    expect(checkZipSize(zip([stored("a.xml", "<a/>")]), MAX_XLSX_UNPACKED_BYTES)).toBe(4);
  });

  it("skips a sheet whose name has a control character and an empty sheet, keeping the others", () => {
    const a1 = (text: string): string => `<row r="1">${inlineCell("A1", text)}</row>`;
    writeFileSync(
      join(dir, "names.xlsx"),
      handWrittenXlsx([
        { name: "Two&#10;Lines", ref: "A1", rows: a1("x") },
        { name: "Empty", ref: "A1", rows: "" },
        { name: "Fine", ref: "A1", rows: a1("y") },
      ]),
    );
    const { tables, issues } = loadTables(dir);
    expect(tables.map((t) => t.id)).toEqual(["names#Fine"]);
    expect(issueFor(issues, "names.xlsx").map((i) => i.problem)).toEqual([
      'sheet "Two\\nLines": the name contains control characters; skipped — rename the sheet',
      'sheet "Empty" is empty; skipped',
    ]);
  });

  it("names an encrypted (OLE) workbook", () => {
    writeFileSync(
      join(dir, "locked.xlsx"),
      Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]),
    );
    good();
    const { issues } = loadTables(dir);
    expect(only(issues, "locked.xlsx").problem).toMatch(/OLE container \(a password-protected workbook/);
  });
});
