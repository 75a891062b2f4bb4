/**
 * Writes a folder of hostile-but-fair build-index inputs, one file (or folder entry) per kind listed
 * in docs/RELIABILITY.md "Input files", beside good ones, so one command shows every decision:
 *
 *   npx tsx scripts/make-hostile-inputs.ts /tmp/hostile
 *   node bin/atr.js build-index --excel_dir /tmp/hostile/tables --doc_dir /tmp/hostile/docs --save_path /tmp/hostile/index
 *
 * The tests in tests/indexing/hostile-*.test.ts and save-path.test.ts check the same kinds one by one.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { deflateRawSync, constants as zlibConstants } from "node:zlib";
import XLSX from "@e965/xlsx";
import { handWrittenXlsx, inlineCell, zip } from "../tests/indexing/zip-fixture.js";

const out = resolve(process.argv[2] ?? "hostile-inputs");
const tables = join(out, "tables");
const docs = join(out, "docs");
rmSync(out, { recursive: true, force: true });
mkdirSync(tables, { recursive: true });
mkdirSync(docs, { recursive: true });
const t = (name: string, data: string | Uint8Array): void => writeFileSync(join(tables, name), data);
const d = (name: string, data: string | Uint8Array): void => writeFileSync(join(docs, name), data);
const columns = (n: number, p: string): string => Array.from({ length: n }, (_, i) => `${p}${i}`).join(",");

// Good input, which must still be built.
t("clubs.csv", "Club,City,Founded\nLeeds United,Leeds,1919\nHull City,Hull,1904\n");
d(
  "clubs.json",
  JSON.stringify([{ id: "elland", title: "Elland Road", text: "Elland Road is the home of Leeds United." }]),
);

// Folder listing.
t(".hidden.csv", "a\n1\n");
t("..csv", "a\n1\n");
mkdirSync(join(tables, "archive"));
t("archive/old.csv", "a\n1\n");
t("line\nbreak.csv", "a\n1\n");
symlinkSync(join(tables, "clubs.csv"), join(tables, "clubs-link.csv"));
symlinkSync("/etc/hostname", join(tables, "outside-link.csv"));
symlinkSync(join(tables, "gone.csv"), join(tables, "dangling.csv"));
spawnSync("mkfifo", [join(tables, "pipe.csv")]);
t("orphan.json", JSON.stringify({ title: "a sidecar without a table" }));
t("huge.csv", "a\n");
truncateSync(join(tables, "huge.csv"), 257 * 1024 * 1024); // sparse
t("locked.csv", "a\n1\n");
chmodSync(join(tables, "locked.csv"), 0o000); // root still reads it

// CSV content.
t("blank-first-line.csv", "\n  \n,,\nName,Age\nAnn,31\n");
t("header-only.csv", "a,b\n");
let seed = 1;
t(
  "random-bytes.csv",
  Buffer.alloc(8192).map(() => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff),
);
t(
  "workbook-renamed.csv",
  XLSX.write(XLSX.utils.book_new(XLSX.utils.aoa_to_sheet([["a"], [1]])), {
    type: "buffer",
    bookType: "xlsx",
  }) as Buffer,
);
t(
  "utf16-bom.csv",
  Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("Stadt,Einwohner\nMünchen,1512491\n", "utf16le")]),
);
t("utf16-no-bom.csv", Buffer.from("Stadt,Einwohner\nKöln,1084831\n", "utf16le"));
t("utf32.csv", Buffer.from([0xff, 0xfe, 0, 0, 0x61, 0, 0, 0]));
t("semicolon.csv", "Artikel;Preis\nBrot;2,50\n");
t("tabs.csv", "name\tnote\nAnn\tsays a, b\n");
t("latin1.csv", Buffer.from("caf\xe9,prix\ncr\xe8me,3\n", "latin1"));
t("wide-1000.csv", `${columns(1000, "c")}\n${columns(1000, "v")}\n`);
t("long-header.csv", `${"h".repeat(10_000_000)},b\n1,2\n`);
t("nul-bytes.csv", "name,code\nAnn\u0000ie,A1\n");
t("duplicate-headers.csv", "Name,Name,name,\nA,B,C,D\n");
t("Robert'); DROP TABLE clubs;--.csv", "name\nBobby\n");
t("unterminated-quote.csv", 'a,b\n1,"open\n');
t("empty.csv", "");
t(
  "clubs.xlsx",
  XLSX.write(XLSX.utils.book_new(XLSX.utils.aoa_to_sheet([["x"], [1]])), {
    type: "buffer",
    bookType: "xlsx",
  }) as Buffer,
);

// .xlsx workbooks.
t(
  "corner-cell.xlsx",
  handWrittenXlsx([
    { name: "S", ref: "A1:XFD1048576", rows: `<row r="1048576">${inlineCell("XFD1048576", "corner")}</row>` },
  ]),
);
t(
  "stray-cell.xlsx",
  handWrittenXlsx([
    {
      name: "S",
      ref: "A1:XFD1048576",
      rows: `<row r="1">${inlineCell("A1", "club")}</row><row r="1048576">${inlineCell("XFD1048576", "stray")}</row>`,
    },
  ]),
);
const block = deflateRawSync(Buffer.alloc(1024 * 1024), { finishFlush: zlibConstants.Z_FULL_FLUSH });
t(
  "zip-bomb.xlsx",
  zip([
    {
      name: "xl/worksheets/sheet1.xml",
      data: Buffer.concat([...new Array<Buffer>(5000).fill(block), deflateRawSync(Buffer.alloc(0))]),
      method: 8,
      size: 1000,
    },
  ]),
);
t("encrypted.xlsx", Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]));
t("not-a-zip.xlsx", "hello");
t("legacy.xls", "x");

// Passages.
d("numbers.json", "[1,2,3]");
d("text-null.json", '{"text": null}');
d(
  "mixed.json",
  JSON.stringify([{ text: "Hull City play at the MKM Stadium." }, 5, null, [1], { text: 3 }, { nested: { x: 1 } }]),
);
d("answer.json", "42");
d("deep.json", `${"[".repeat(100_000)}${"]".repeat(100_000)}`);
d("malformed.json", "{not json");
d("photo.txt", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
d("utf16.txt", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("Größe: 3 m", "utf16le")]));
d("blank.txt", "   \n");
console.log(`wrote ${out}/tables and ${out}/docs`);
