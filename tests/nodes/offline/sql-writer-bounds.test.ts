import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { writeSqlStore } from "../../../indexing/sql-store.js";
import type { RawTable } from "../../../indexing/types.js";
import { loadCatalog } from "../../../nodes/offline/table-catalog.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { askedWords, findMentions } from "../../../nodes/offline/mentions.js";
import { planSql } from "../../../nodes/offline/sql-writer.js";

/** A season of races, all in one year. */
const SEASON: RawTable = {
  id: "season",
  file: "season.csv",
  header: ["Date", "Racecourse", "Position"],
  rows: [
    ["April 10, 2004", "Kempton Park", "2nd"],
    ["May 22, 2004", "Curragh", "1st"],
    ["July 6, 2004", "Newmarket", "1st"],
    ["September 11, 2004", "Leopardstown", "1st"],
    ["September 25, 2004", "Ascot", "6th"],
  ],
};

const dir = mkdtempSync(join(tmpdir(), "atr-bounds-"));
const path = join(dir, "tables.sqlite");
const schemas = writeSqlStore(path, [SEASON]);
const db = new Database(path, { readonly: true });
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function rows(question: string, table: string): unknown[][] {
  const a = analyzeQuestion(question);
  const catalog = loadCatalog(db, schemas.find((s) => s.tableId === table)!);
  const plan = planSql({ analysis: a, catalog, mentions: findMentions(question, catalog, { avoidWords: askedWords(a) }) });
  if (!plan) throw new Error(`no plan for ${question}`);
  return db.prepare(plan.sql).raw().all() as unknown[][];
}

describe("month bounds", () => {
  it("reads the year of 'before september 2004' only as part of the month bound", () => {
    expect(rows("how many races were run before september 2004?", "season")).toEqual([[3]]);
  });
});
