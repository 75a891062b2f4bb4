/**
 * Plain spreadsheets typed into as a search box (the third everyday suite's causes, on tables of
 * their own): "avg", "whats", "max temp", headers with units and abbreviations, record numbers,
 * addresses with a leading number, sums of money in conditions.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { writeSqlStore } from "../../../indexing/sql-store.js";
import type { RawTable } from "../../../indexing/types.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { asksForName } from "../../../nodes/offline/answer-checks.js";
import { isIdentifierColumn, isNumericColumn } from "../../../nodes/offline/columns.js";
import { askedWords, findMentions } from "../../../nodes/offline/mentions.js";
import { planSql } from "../../../nodes/offline/sql-writer.js";
import { loadCatalog } from "../../../nodes/offline/table-catalog.js";

const PURCHASES: RawTable = {
  id: "purchases",
  file: "purchases.csv",
  header: ["Purchase No", "Purchase Date", "Buyer", "Qty", "Unit Price", "Total ($)"],
  rows: [
    ["501", "2023-02-01", "Ann Bell", "3", "10", "30"],
    ["502", "2023-02-09", "Carl Dunn", "1", "250", "250"],
    ["503", "2023-03-15", "Ann Bell", "8", "12.5", "100"],
    ["504", "2023-04-02", "Eve Fox", "2", "40", "80"],
  ],
};
const FLATS: RawTable = {
  id: "flats",
  file: "flats.csv",
  header: ["Address", "Area", "Beds", "Rent ($/mo)"],
  rows: [
    ["12 Oak Lane", "North", "1", "900"],
    ["7 Pine Road", "North", "2", "1400"],
    ["30 Ash Court", "South", "3", "1250"],
  ],
};
const TABLE: RawTable = {
  id: "standings",
  file: "standings.csv",
  header: ["Pos", "Club", "W", "D", "L", "GF", "GA", "Pts"],
  rows: [
    ["1", "Northfield", "9", "2", "1", "30", "9", "29"],
    ["2", "Eastbury", "7", "3", "2", "25", "14", "24"],
    ["3", "Westcombe", "4", "1", "7", "15", "22", "13"],
  ],
};

const dir = mkdtempSync(join(tmpdir(), "atr-everyday-wording-"));
const schemas = writeSqlStore(join(dir, "t.sqlite"), [PURCHASES, FLATS, TABLE]);
const db = new Database(join(dir, "t.sqlite"), { readonly: true });
const catalog = (id: string) =>
  loadCatalog(
    db,
    schemas.find((s) => s.tableId === id)!,
  );
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function answer(question: string, table: string): unknown[][] {
  const a = analyzeQuestion(question);
  const c = catalog(table);
  const plan = planSql({ analysis: a, catalog: c, mentions: findMentions(question, c, { avoidWords: askedWords(a) }) });
  if (!plan) throw new Error(`no plan for ${question}`);
  return db.prepare(plan.sql).raw().all() as unknown[][];
}

describe("search-box wording over plain tables", () => {
  it("reads 'avg', 'whats' and a leading 'max'/'min' as the words they stand for", () => {
    expect(analyzeQuestion("avg rent in north").aggregate).toBe("avg");
    expect(analyzeQuestion("whats the highest rent").normalized).toBe("what is the highest rent");
    expect(analyzeQuestion("max rent").operator).toBe("sort");
    expect(analyzeQuestion("finished in under 90 min").operator).not.toBe("sort");
    // "the total max depth of A and B" stays a sum.
    expect(analyzeQuestion("what is the total max depth of a and b combined").aggregate).toBe("sum");
  });

  it("keeps an ISO date out of the year conditions and marks sums of money", () => {
    expect(analyzeQuestion("how many purchases after 2023-02-20").conditions).toEqual([]);
    const money = analyzeQuestion("how many purchases over $90").conditions[0]!;
    expect(money.money).toBe(true);
    expect(analyzeQuestion("how many purchases above 90 dollars").conditions[0]!.money).toBe(true);
  });

  it("knows record numbers and numbered names (addresses) from quantities", () => {
    const p = catalog("purchases");
    expect(isIdentifierColumn(p.columns[0]!)).toBe(true);
    expect(isIdentifierColumn(p.columns[3]!)).toBe(false);
    expect(isNumericColumn(catalog("flats").columns[0]!)).toBe(false);
    expect(asksForName("which purchase was the biggest", "entity")).toBe(true);
    expect(asksForName("which order was the biggest", "entity")).toBe(false);
  });

  it("answers with the column the plain words name", () => {
    // The table's own name only modifies "Purchase Date": the average of the total, not of a date or a number.
    expect(answer("avg purchase total", "purchases")).toEqual([[115]]);
    // A money condition compares the money column, not the record number or the date.
    expect(answer("how many purchases over $90", "purchases")).toEqual([[2]]);
    // Related words count once: "how much" names the total before the unit price.
    expect(answer("how much was purchase 503", "purchases")).toEqual([["100"]]);
    expect(answer("biggest purchase total", "purchases")).toEqual([["250"]]);
    expect(answer("max qty", "purchases")).toEqual([["8"]]);
    // The closing verb names an abbreviated column; an address is the row's name.
    expect(answer("how many games has Eastbury won", "standings")).toEqual([["7"]]);
    expect(answer("fewest goals conceded", "standings")).toEqual([["9"]]);
    expect(answer("most expensive flat", "flats")).toEqual([["7 Pine Road"]]);
    expect(answer("cheapest flat in south", "flats")).toEqual([["30 Ash Court"]]);
  });
});
