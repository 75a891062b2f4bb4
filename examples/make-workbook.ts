/**
 * Writes examples/tables/season_2023.xlsx: a two-sheet workbook for the example corpus.
 * "Standings" has a merged two-row header (Home / Away over W, D, L; Pos, Club and Points merged
 * down), which the loader flattens to `Home › W` etc.; "Attendance" has thousands-formatted numbers.
 * Run: npx tsx examples/make-workbook.ts   (the generated file is committed too)
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import XLSX from "@e965/xlsx";

const OUT = join(dirname(fileURLToPath(import.meta.url)), "tables", "season_2023.xlsx");

// Club, home W/D/L, away W/D/L; points = 3 × wins + draws.
const results: Array<[string, number, number, number, number, number, number]> = [
  ["Brookhaven United", 4, 0, 1, 3, 1, 1],
  ["Ashford Rovers", 4, 1, 0, 2, 2, 1],
  ["Dunmere FC", 3, 1, 1, 2, 1, 2],
  ["Fenwick City", 2, 2, 1, 1, 2, 2],
  ["Carrow Athletic", 2, 1, 2, 1, 1, 3],
  ["Eastbridge Town", 1, 1, 3, 0, 2, 3],
];

const standings: Array<Array<string | number>> = [
  ["Pos", "Club", "Home", "", "", "Away", "", "", "Points"],
  ["", "", "W", "D", "L", "W", "D", "L", ""],
  ...results.map(([club, hw, hd, hl, aw, ad, al], i) => [i + 1, club, hw, hd, hl, aw, ad, al, 3 * (hw + aw) + hd + ad]),
];
const standingsSheet = XLSX.utils.aoa_to_sheet(standings);
standingsSheet["!merges"] = [
  { s: { r: 0, c: 0 }, e: { r: 1, c: 0 } },
  { s: { r: 0, c: 1 }, e: { r: 1, c: 1 } },
  { s: { r: 0, c: 2 }, e: { r: 0, c: 4 } },
  { s: { r: 0, c: 5 }, e: { r: 0, c: 7 } },
  { s: { r: 0, c: 8 }, e: { r: 1, c: 8 } },
];

const attendance: Array<Array<string | number>> = [
  ["Club", "Average attendance", "Highest attendance", "Sell-outs"],
  ["Brookhaven United", 21340, 24000, 3],
  ["Ashford Rovers", 16210, 18500, 2],
  ["Dunmere FC", 25870, 31200, 1],
  ["Fenwick City", 11020, 14900, 0],
  ["Carrow Athletic", 9480, 12750, 1],
  ["Eastbridge Town", 6150, 9120, 0],
];
const attendanceSheet = XLSX.utils.aoa_to_sheet(attendance);
for (let r = 1; r < attendance.length; r++) {
  for (const c of [1, 2]) {
    const cell = attendanceSheet[XLSX.utils.encode_cell({ r, c })] as XLSX.CellObject;
    cell.z = "#,##0";
  }
}

const workbook = XLSX.utils.book_new();
XLSX.utils.book_append_sheet(workbook, standingsSheet, "Standings");
XLSX.utils.book_append_sheet(workbook, attendanceSheet, "Attendance");
// XLSX.writeFile needs set_fs under ESM; writing the buffer ourselves is simpler.
writeFileSync(OUT, XLSX.write(workbook, { type: "buffer", bookType: "xlsx" }) as Buffer);
console.log(`wrote ${OUT}`);
