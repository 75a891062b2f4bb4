/**
 * The sixth everyday suite's general causes, on tables of their own: header words a plain word names by
 * meaning (calories → Kcal, raise → Pledged, target → Goal, counted → Qty, trunk → DBH), search-box fragments
 * that count ("gold members", "harbour sightings", "boats longer than 10 m", "staff earning more than 20"),
 * "the highest calorie count" (a value, not a count), "people over 60" (an age), sums of money in thousands
 * ("$5k"), halves of a year and weeks of a month.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { writeSqlStore } from "../../../indexing/sql-store.js";
import type { RawTable } from "../../../indexing/types.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { askedWords, findMentions } from "../../../nodes/offline/mentions.js";
import { planSql } from "../../../nodes/offline/sql-writer.js";
import { loadCatalog } from "../../../nodes/offline/table-catalog.js";
import { undoTypedSlips } from "../../../text/typed-words.js";

const SNACKS: RawTable = {
  id: "snacks",
  file: "snacks.csv",
  header: ["Snack", "Brand", "Kcal", "Price"],
  rows: [
    ["Oat Bar", "Hillfield", "210", "1.2"],
    ["Rice Cake", "Hillfield", "90", "0.8"],
    ["Nut Mix", "Corvo", "480", "2.5"],
    ["Fruit Chew", "Corvo", "150", "0.9"],
  ],
};
const FUNDS: RawTable = {
  id: "fundraisers",
  file: "fundraisers.csv",
  header: ["Drive", "Organizer", "Goal ($)", "Pledged ($)", "Started"],
  rows: [
    ["Roof Repair", "Ana Pires", "4000", "5200", "2023-02-10"],
    ["New Library", "Tom Berg", "12000", "7300", "2023-08-21"],
    ["Park Benches", "Ana Pires", "2500", "2600", "2023-10-02"],
    ["School Bus", "Lee Chan", "30000", "31000", "2024-01-15"],
  ],
};
const COUNTS: RawTable = {
  id: "seal_counts",
  file: "seal_counts.csv",
  header: ["Date", "Beach", "Qty", "Counter"],
  rows: [
    ["2025-05-02", "Harbour", "12", "Ivo"],
    ["2025-05-06", "Point", "3", "Ivo"],
    ["2025-05-11", "Harbour", "7", "Rae"],
    ["2025-05-20", "Harbour", "40", "Rae"],
  ],
};
const CLUB: RawTable = {
  id: "club_members",
  file: "club_members.csv",
  header: ["Member", "Tier", "Age", "Visits"],
  rows: [
    ["Ola", "Gold", "64", "12"],
    ["Ben", "Silver", "33", "70"],
    ["Cai", "Gold", "58", "81"],
    ["Dee", "Gold", "71", "5"],
  ],
};

const dir = mkdtempSync(join(tmpdir(), "atr-everyday-sixth-"));
const schemas = writeSqlStore(join(dir, "t.sqlite"), [SNACKS, FUNDS, COUNTS, CLUB]);
const db = new Database(join(dir, "t.sqlite"), { readonly: true });
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The planned statement's rows (first column), as text. */
function answer(question: string, table: string): string[] {
  const a = analyzeQuestion(question);
  const c = loadCatalog(
    db,
    schemas.find((s) => s.tableId === table)!,
  );
  const plan = planSql({ analysis: a, catalog: c, mentions: findMentions(question, c, { avoidWords: askedWords(a) }) });
  if (!plan) throw new Error(`no plan for ${question}`);
  return (db.prepare(plan.sql).raw().all() as unknown[][]).map((r) => String(r[0]));
}

describe("the sixth everyday suite's causes", () => {
  it("names a header by the plain word's meaning", () => {
    expect(answer("how many calories in a nut mix", "snacks")).toEqual(["480"]);
    expect(answer("how much did School Bus raise", "fundraisers")).toEqual(["31000"]);
    expect(answer("what was the target for New Library", "fundraisers")).toEqual(["12000"]);
    expect(answer("total seals counted", "seal_counts")).toEqual(["62"]);
  });

  it("counts a search-box fragment of a plural noun", () => {
    expect(analyzeQuestion("gold members").operator).toBe("count");
    expect(answer("gold members", "club_members")).toEqual(["3"]);
    expect(answer("harbour counts", "seal_counts")).toEqual(["3"]);
    // (A fragment that bounds a number lists the rows past the bound: the eighth to eleventh suites' golds.)
    expect(answer("members visiting more than 50 times", "club_members")).toEqual(["Ben", "Cai"]);
    expect(answer("how many members visit more than 50 times", "club_members")).toEqual(["2"]);
    // ("t-107 species" is a lookup: a record and a header word.)
    expect(analyzeQuestion("t-107 species").operator).not.toBe("count");
  });

  it("reads 'the highest calorie count' and 'the smallest number of X' as a value", () => {
    expect(analyzeQuestion("highest calorie count").operator).toBe("sort");
    expect(answer("highest kcal count", "snacks")).toEqual(["480"]);
    expect(answer("smallest number of visits", "club_members")).toEqual(["5"]);
  });

  it("compares the age of people 'over 60'", () => {
    expect(analyzeQuestion("members over 60").conditions[0]!.hint[0]).toBe("age");
    expect(answer("how many members are over 60", "club_members")).toEqual(["2"]);
    // (A number of visits is not an age.)
    expect(analyzeQuestion("members with over 60 visits").conditions[0]!.hint).not.toContain("age");
  });

  it("reads thousands of money, halves of a year and weeks of a month", () => {
    expect(undoTypedSlips("goals under $5k")).toBe("goals under $5000");
    expect(undoTypedSlips("drives started in the second half of 2023")).toBe(
      "drives started from july to december 2023",
    );
    expect(undoTypedSlips("goals in the first half")).toBe("goals in the first half");
    expect(undoTypedSlips("counts in the second week of may")).toBe("counts between may 8 and may 14");
    expect(answer("how many drives have a goal under $5k", "fundraisers")).toEqual(["2"]);
    expect(answer("how many drives started in the second half of 2023", "fundraisers")).toEqual(["2"]);
    expect(answer("how many counts in the second week of may", "seal_counts")).toEqual(["1"]);
  });
});
