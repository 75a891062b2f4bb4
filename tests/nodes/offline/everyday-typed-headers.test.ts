/**
 * Headers as people type them (the fifth everyday suite's causes, on tables of their own): units written
 * "kWh", abbreviations ("Wt (kg)", "DOB", "Amt"), a record number written "Pet #", a name column beside an
 * identifier, two date columns, and a plural row noun that prefixes a header word ("parcels" / "Parcel Date").
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { writeSqlStore } from "../../../indexing/sql-store.js";
import type { RawTable } from "../../../indexing/types.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { isIdentifierColumn } from "../../../nodes/offline/columns.js";
import { askedWords, findMentions } from "../../../nodes/offline/mentions.js";
import { planSql } from "../../../nodes/offline/sql-writer.js";
import { headerWordsOf, loadCatalog } from "../../../nodes/offline/table-catalog.js";

const PETS: RawTable = {
  id: "pets",
  file: "pets.csv",
  header: ["Pet #", "Name", "DOB", "Wt (kg)", "Arrived", "Fee Amt"],
  rows: [
    ["301", "Rex", "2016-05-02", "31.5", "2024-03-10", "120"],
    ["302", "Momo", "2021-03-19", "4.2", "2024-06-01", "80"],
    ["303", "Pip", "2019-11-30", "2.1", "2024-03-22", "40"],
    ["304", "Bo", "2014-03-07", "18.9", "2024-07-15", "100"],
  ],
};
const ENERGY: RawTable = {
  id: "energy_bills",
  file: "energy_bills.csv",
  header: ["Meter", "Bill Date", "kWh", "Cost (£)"],
  rows: [
    ["M-1", "2025-01-31", "410", "118.2"],
    ["M-1", "2025-02-28", "380", "110.4"],
    ["M-2", "2025-01-31", "220", "70.9"],
    ["M-2", "2025-02-28", "640", "181.3"],
  ],
};
const PARCELS: RawTable = {
  id: "parcels",
  file: "parcels.csv",
  header: ["Tracking No", "Parcel Date", "Courier", "Wt (lb)"],
  rows: [
    ["TX101", "2025-10-02", "Swift", "3.5"],
    ["TX102", "2025-10-09", "Rapid", "12"],
    ["TX103", "2025-11-01", "Swift", "7.25"],
  ],
};

const dir = mkdtempSync(join(tmpdir(), "atr-everyday-typed-"));
const schemas = writeSqlStore(join(dir, "t.sqlite"), [PETS, ENERGY, PARCELS]);
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

/** The first column of the planned statement's rows, as text (a lookup reads the cell's original text). */
function answer(question: string, table: string): string[] {
  const a = analyzeQuestion(question);
  const c = catalog(table);
  const plan = planSql({ analysis: a, catalog: c, mentions: findMentions(question, c, { avoidWords: askedWords(a) }) });
  if (!plan) throw new Error(`no plan for ${question}`);
  return (db.prepare(plan.sql).raw().all() as unknown[][]).map((r) => String(r[0]));
}

describe("headers as people type them", () => {
  it("reads units and abbreviations in headers as the words they stand for", () => {
    expect(headerWordsOf("kWh")).toEqual(["kwh"]);
    expect(headerWordsOf("orderDate")).toEqual(["order", "date"]);
    expect(headerWordsOf("Wt (kg)")).toEqual(["wt", "weight", "kg"]);
    expect(headerWordsOf("DOB")).toEqual(["dob", "birth", "born"]);
    expect(isIdentifierColumn(catalog("pets").columns[0]!)).toBe(true);
  });

  it("answers with the column the plain words name", () => {
    expect(answer("how much does Rex weigh", "pets")).toEqual(["31.5"]);
    expect(answer("when was Momo born", "pets")).toEqual(["2021-03-19"]);
    expect(answer("total kwh used", "energy_bills")).toEqual(["1650"]);
    expect(answer("what was the highest bill", "energy_bills")).toEqual(["181.3"]);
    expect(answer("who is shipping TX102", "parcels")).toEqual(["Rapid"]);
  });

  it("answers a row by its name, not its record number, and never ranks or adds record numbers", () => {
    expect(answer("heaviest pet", "pets")).toEqual(["Rex"]);
    expect(answer("which parcel was the heaviest", "parcels")).toEqual(["TX102"]);
    expect(answer("how many pets have a fee of at least 100", "pets")).toEqual(["2"]);
  });

  it("takes the date column the verb names, and month ranges, quarters and abbreviations", () => {
    expect(answer("how many arrived in march", "pets")).toEqual(["2"]);
    expect(answer("kwh used from january to february in total", "energy_bills")).toEqual(["1650"]);
    expect(answer("total kwh in feb", "energy_bills")).toEqual(["1020"]);
    expect(answer("how many parcels after oct 5", "parcels")).toEqual(["2"]);
    expect(answer("how many parcels after october", "parcels")).toEqual(["1"]);
  });
});
