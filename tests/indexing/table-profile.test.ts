/**
 * A large table's profile is computed from what its build collects while writing the rows
 * (tableProfileOfParts: the first rows, the last, the column sums, the rows a summary word names),
 * and must equal the profile of the same rows read whole (tableProfile).
 */
import { describe, expect, it } from "vitest";
import {
  cellNumber,
  columnShares,
  ProfileRows,
  SUMMARY_PREFIXES,
  tableProfile,
  tableProfileOfParts,
} from "../../indexing/table-profile.js";
import { normaliseText } from "../../text/normalise.js";

function bothProfiles(header: string[], rows: string[][]) {
  const columns = header.map((name, c) => {
    const raw = rows.map((r) => r[c] ?? "");
    const num = raw.map(cellNumber);
    return { name, raw, norm: raw.map(normaliseText), num, ...columnShares(raw, num) };
  });
  const whole = tableProfile(columns, rows.length, (r) => rows[r] ?? []);
  const collected = new ProfileRows(header.length, rows.length);
  const cells: string[] = [];
  for (const row of rows) {
    // one array reused for every row, as writeSqlStore does
    header.forEach((_, c) => (cells[c] = row[c] ?? ""));
    collected.add(cells, cells.map(cellNumber));
  }
  // the rows the build reads back: a cell of a mostly non-numeric column starting with a summary word
  const candidates = rows.flatMap((cells, row) =>
    columns.some(
      (col, c) => col.numericShare < 0.5 && SUMMARY_PREFIXES.some((p) => normaliseText(cells[c] ?? "").startsWith(p)),
    )
      ? [{ row, cells }]
      : [],
  );
  let reread = 0;
  const parts = tableProfileOfParts(columns, rows.length, collected, candidates, () => {
    reread++;
    return rows;
  });
  return { whole, parts, reread, candidates: candidates.length };
}

const plain = (n: number) => Array.from({ length: n }, (_, i) => [`Item ${i}`, String(10 + i), String(i * 3)]);

describe("the profile of a large table from its collected parts", () => {
  it("finds an unlabelled totals row from the sums collected while writing, reading no row back", () => {
    const rows = plain(8);
    const sum = (c: number) => String(rows.reduce((s, r) => s + Number(r[c]), 0));
    rows.push(["", sum(1), sum(2)]);
    const { whole, parts, reread } = bothProfiles(["item", "amount", "other"], rows);
    expect([...whole.summaryRows]).toEqual([8]);
    expect(parts).toEqual(whole);
    expect(reread).toBe(0);
  });

  it("leaves the numbers of a labelled summary row above the last out of the totals (reading the rows again)", () => {
    const rows = plain(6);
    rows.splice(3, 0, ["Total so far", "999", "999"]);
    const sum = (c: number) => String(rows.reduce((s, r, i) => (i === 3 ? s : s + Number(r[c])), 0));
    rows.push(["", sum(1), sum(2)]);
    const { whole, parts, reread, candidates } = bothProfiles(["item", "amount", "other"], rows);
    expect([...whole.summaryRows].sort()).toEqual([3, 7]);
    expect(parts).toEqual(whole);
    expect(reread).toBe(1);
    expect(candidates).toBe(1);
  });

  it("agrees on header rows and header years, and on a table with no summary", () => {
    const rows = [
      ["", "2019", "2020"],
      ["(in millions)", "2019", "2020"],
      ...plain(5).map((r) => [r[0]!, `$${r[1]}`, `$${r[2]}`]),
    ];
    const { whole, parts } = bothProfiles(["item", "amount", "other"], rows);
    expect(parts).toEqual(whole);
    const none = bothProfiles(["item", "amount", "other"], plain(10));
    expect(none.parts).toEqual(none.whole);
    expect(none.whole.summaryRows.size).toBe(0);
  });
});
