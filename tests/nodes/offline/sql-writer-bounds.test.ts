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

/** A schedule with runs of wins. */
const RESULTS: RawTable = {
  id: "results",
  file: "results.csv",
  header: ["Week", "Opponent", "Result", "Weeks at top"],
  rows: [
    ["1", "Finland", "W 2–1", "1"],
    ["2", "Finland", "W 3–0", "2"],
    ["3", "Sweden", "L 0–1", "1"],
    ["4", "Norway", "W 1–0", "4"],
    ["5", "Finland", "W 2–0", "1"],
    ["6", "Sweden", "W 4–1", "2"],
    ["7", "Norway", "L 1–2", "1"],
  ],
};

/** Fixtures with ISO dates (no month names in the cells). */
const FIXTURES: RawTable = {
  id: "fixtures",
  file: "fixtures.csv",
  header: ["Date", "Opponent"],
  rows: [
    ["2004-05-02", "Leeds"],
    ["2004-05-16", "Hull"],
    ["2004-07-01", "York"],
    ["2004-09-12", "Bath"],
  ],
};

/** A ranking: a higher rank is a smaller number. */
const RANKING: RawTable = {
  id: "ranking",
  file: "ranking.csv",
  header: ["Rank", "Player", "Points"],
  rows: [
    ["1", "Ann Berg", "950"],
    ["2", "Cleo Dunn", "800"],
    ["3", "Bob Frey", "700"],
  ],
};

const dir = mkdtempSync(join(tmpdir(), "atr-bounds-"));
const path = join(dir, "tables.sqlite");
const schemas = writeSqlStore(path, [SEASON, RESULTS, FIXTURES, RANKING]);
const db = new Database(path, { readonly: true });
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function rows(question: string, table: string): unknown[][] {
  const a = analyzeQuestion(question);
  const catalog = loadCatalog(
    db,
    schemas.find((s) => s.tableId === table)!,
  );
  const plan = planSql({
    analysis: a,
    catalog,
    mentions: findMentions(question, catalog, { avoidWords: askedWords(a) }),
  });
  if (!plan) throw new Error(`no plan for ${question}`);
  return db.prepare(plan.sql).raw().all() as unknown[][];
}

describe("month bounds", () => {
  it("reads the year of 'before september 2004' only as part of the month bound", () => {
    expect(rows("how many races took place before september 2004?", "season")).toEqual([[3]]);
  });
});

describe("streaks", () => {
  it("counts the longest run of adjacent rows, or the first run from the top", () => {
    expect(rows("what is the most consecutive wins they had?", "results")).toEqual([[3]]);
    expect(rows("for how many consecutive matches was finland the opponent?", "results")).toEqual([[2]]);
    expect(rows("starting at the top, how many consecutive games did they win?", "results")).toEqual([[2]]);
  });
});

describe("streaks of a named row", () => {
  it("leaves 'which … the most consecutive' to the row's cell, and a named row's count column to that column", () => {
    expect(rows("how many consecutive weeks at top did week 4 have?", "results")).toEqual([["4"]]);
    expect(rows("which opponent did they beat in the most consecutive wins?", "results")).not.toEqual([[3]]);
  });
});

describe("month choice", () => {
  it("answers which of two months has more (fewer) rows", () => {
    expect(rows("were there more races in september or may?", "season")).toEqual([["September"]]);
    expect(rows("were there fewer races in september or may?", "season")).toEqual([["May"]]);
  });
});

describe("list bounds", () => {
  it("counts the rows listed before (after) a named row", () => {
    expect(rows("how many races were run after newmarket?", "season")).toEqual([[2]]);
    expect(rows("how many races were run before curragh?", "season")).toEqual([[1]]);
  });
});

describe("two months", () => {
  it("counts the rows of either month, and reads 'june of 2004' as a month bound", () => {
    expect(rows("how many games were played in may or september?", "fixtures")).toEqual([[3]]);
    expect(rows("how many races were run before june of 2004?", "season")).toEqual([[2]]);
  });
});

describe("rank comparisons", () => {
  it("reads a higher rank as a smaller rank number", () => {
    expect(rows("did ann berg have a higher rank than bob frey?", "ranking")).toEqual([["yes"]]);
    expect(rows("did bob frey have a higher rank than ann berg?", "ranking")).toEqual([["no"]]);
  });
});

describe("row-count yes/no", () => {
  it("compares the row count with the number in 'are there at least N …'", () => {
    expect(rows("are there at least 5 races on this list?", "season")).toEqual([["yes"]]);
    expect(rows("are there more than 3 players on the list?", "ranking")).toEqual([["no"]]);
  });
});
