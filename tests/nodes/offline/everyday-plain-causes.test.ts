/**
 * The general causes behind the fourth everyday suite's misses, on small tables of their own: verbs
 * that name the doer's column ("who supplies …" → Supplier), related words of plain headers
 * (mileage → Odometer, "on hand" stock, Dept), pay "an hour", finishing places, "who won", plural
 * category cells, "N or newer", dates without a year, race times of hours, the n-th superlative,
 * and lists asked for with a plural noun.
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
import { agentNouns, relatedHeaderWords } from "../../../text/column-words.js";

const CREW: RawTable = {
  id: "crew",
  file: "crew.csv",
  header: ["Worker", "Dept", "Hourly Rate", "Hours", "Start Date"],
  rows: [
    ["Ada Kern", "Bar", "18.5", "30", "2019-04-02"],
    ["Ben Lyle", "Kitchen", "22", "38", "2021-09-15"],
    ["Cy Moss", "Kitchen", "26.25", "12", "2017-01-20"],
    ["Di Nash", "Door", "20", "25", "2023-06-01"],
  ],
};
const VANS: RawTable = {
  id: "vans",
  file: "vans.csv",
  header: ["Reg", "Make", "Year", "Odometer (km)", "Assigned To", "Serviced"],
  rows: [
    ["KT-101-A", "Iveco", "2016", "210400", "Rob Hale", "2024-03-09"],
    ["KT-202-B", "Fiat", "2021", "48800", "Sue Park", "2024-05-21"],
    ["KT-303-C", "Iveco", "2022", "15200", "Tim Roe", "2024-05-02"],
    ["KT-404-D", "Fiat", "2019", "99100", "Una Vey", "2024-07-30"],
  ],
};
const RACE: RawTable = {
  id: "race",
  file: "race.csv",
  header: ["Place", "Runner", "Sex", "Finish Time"],
  rows: [
    ["1", "Jo Ames", "M", "2:58:10"],
    ["2", "Kit Bold", "F", "3:05:44"],
    ["3", "Lu Chen", "F", "3:41:02"],
  ],
};
const STORE: RawTable = {
  id: "store",
  file: "store.csv",
  header: ["Item", "Bin", "On Hand", "Unit Cost", "Supplier"],
  rows: [
    ["Rope", "A1", "40", "3.5", "Hollis Ltd"],
    ["Tarp", "B2", "12", "19", "Marsh & Co"],
    ["Pegs", "A3", "300", "0.2", "Hollis Ltd"],
  ],
};

const dir = mkdtempSync(join(tmpdir(), "atr-everyday-plain-"));
const schemas = writeSqlStore(join(dir, "t.sqlite"), [CREW, VANS, RACE, STORE]);
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

function answer(question: string, table: string): unknown[] {
  const a = analyzeQuestion(question);
  const c = catalog(table);
  const plan = planSql({ analysis: a, catalog: c, mentions: findMentions(question, c, { avoidWords: askedWords(a) }) });
  if (!plan) throw new Error(`no plan for ${question}`);
  return (db.prepare(plan.sql).raw().all() as unknown[][]).map((r) => r[0]);
}

describe("plain wording over plain tables (the fourth everyday suite's causes)", () => {
  it("a verb names the column of its doer", () => {
    expect(agentNouns("supplies")).toEqual(["supplier"]);
    expect(agentNouns("drives")).toEqual(["driver"]);
    expect(agentNouns("runs")).toEqual(["runner"]);
    expect(relatedHeaderWords("teaches")).toContain("teacher");
    // Related words of COLUMN_WORDS come first ("won" → winner is irregular).
    expect(relatedHeaderWords("won")).toContain("winner");
    expect(answer("who supplies the tarp", "store")).toEqual(["Marsh & Co"]);
    // "Assigned To" holds people; "driver of" asks for one.
    expect(answer("who drives KT-303-C", "vans")).toEqual(["Tim Roe"]);
    expect(answer("driver of KT-202-B", "vans")).toEqual(["Sue Park"]);
  });

  it("plain headers answer to plain words", () => {
    expect(answer("what is the mileage of KT-404-D", "vans")).toEqual(["99100"]);
    expect(answer("where is the rope stored", "store")).toEqual(["A1"]);
    expect(answer("how many different departments", "crew")).toEqual([3]);
    // "units on hand" is the stock, not the unit cost; "do we have" of an item reads its stock.
    expect(answer("total units on hand", "store")).toEqual([352]);
    expect(answer("how many pegs do we have", "store")).toEqual([300]);
    // A superlative typed as a search, naming the ordered quantity, asks for its value.
    expect(answer("lowest on hand", "store")).toEqual(["12"]);
    expect(analyzeQuestion("how many workers do we have").aggregate).toBe("sum");
  });

  it("pay 'an hour' is the hourly rate, not the hours", () => {
    expect(analyzeQuestion("how much does Ada Kern make an hour").targetHints[0]).toBe("hourly");
    expect(answer("how much does Ada Kern make an hour", "crew")).toEqual(["18.5"]);
    expect(answer("who is paid the most per hour", "crew")).toEqual(["Cy Moss"]);
    expect(answer("how many workers earn more than $20 an hour", "crew")).toEqual([2]);
    expect(answer("longest serving worker", "crew")).toEqual(["Cy Moss"]);
  });

  it("finishing places, winners and race times of hours", () => {
    expect(analyzeQuestion("what place did Kit Bold finish").answerType).not.toBe("place");
    expect(answer("what place did Kit Bold finish", "race")).toEqual(["2"]);
    expect(analyzeQuestion("who won the race").position).toBe("first");
    expect(analyzeQuestion("who won the most races").position).toBeNull();
    expect(answer("who won the race", "race")).toEqual(["Jo Ames"]);
    // 2:58:10 is under three hours: h:mm:ss is read as hours, minutes and seconds.
    expect(answer("fastest finish time", "race")).toEqual(["2:58:10"]);
    expect(answer("slowest finish time", "race")).toEqual(["3:41:02"]);
    expect(answer("what was the winning time", "race")).toEqual(["2:58:10"]);
    // A gender word names its cells; finish times are never a count.
    expect(answer("how many women finished", "race")).toEqual([2]);
    expect(answer("who was the fastest woman", "race")).toEqual(["Kit Bold"]);
  });

  it("a plural names a category cell; 'N or newer' bounds a year", () => {
    expect(answer("how many ivecos are there", "vans")).toEqual([2]);
    expect(analyzeQuestion("how many vans are from 2020 or newer").conditions[0]).toMatchObject({
      op: ">=",
      value: 2020,
    });
    expect(analyzeQuestion("how many vans are from 2019 or older").conditions[0]).toMatchObject({
      op: "<=",
      value: 2019,
    });
    expect(answer("how many vans are from 2020 or newer", "vans")).toEqual([2]);
  });

  it("dates without a year, the n-th superlative, lists by a plural noun", () => {
    expect(answer("how many vans were serviced after may 2", "vans")).toEqual([2]);
    expect(answer("how many vans were serviced before june", "vans")).toEqual([3]);
    expect(answer("which van was serviced on may 21", "vans")).toEqual(["KT-202-B"]);
    expect(answer("second highest hourly rate", "crew")).toEqual(["22"]);
    expect(answer("give me the worker with the highest hourly rate", "crew")).toEqual(["Cy Moss"]);
    expect(analyzeQuestion("which vans were serviced in may").listAnswer).toBe(true);
    expect(answer("which vans were serviced in may", "vans")).toEqual(["KT-202-B", "KT-303-C"]);
  });
});
