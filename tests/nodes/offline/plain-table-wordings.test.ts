import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { writeSqlStore } from "../../../indexing/sql-store.js";
import type { RawTable } from "../../../indexing/types.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { askedWords, findMentions } from "../../../nodes/offline/mentions.js";
import { loadCatalog } from "../../../nodes/offline/table-catalog.js";
import { planSql } from "../../../nodes/offline/sql-writer.js";

/** Staff with both an age and a start date: "oldest" reads the age. */
const STAFF: RawTable = {
  id: "staff",
  file: "staff.csv",
  header: ["name", "team", "start_date", "age", "hourly_rate"],
  rows: [
    ["Ines Vega", "Kitchen", "2016-04-02", "31", "18.50"],
    ["Omar Haddad", "Bar", "2021-09-13", "58", "16.00"],
    ["Lena Park", "Kitchen", "2019-01-20", "24", "21.75"],
    ["Tomas Beck", "Floor", "2014-06-30", "45", "15.25"],
  ],
};

/** A code column first, the rows' names under the table's own row noun (not "name"). */
const PARTS: RawTable = {
  id: "parts",
  file: "parts.csv",
  header: ["sku", "part", "bin", "price"],
  rows: [
    ["P-100", "Hex bolt", "A1", "0.40"],
    ["P-101", "Wing nut", "A2", "0.25"],
    ["P-102", "Hinge", "B1", "3.10"],
    ["P-103", "Bracket", "B2", "1.80"],
  ],
};

/** Payments: "the amount of payment 3" names the Amount column. */
const PAYMENTS: RawTable = {
  id: "payments",
  file: "payments.csv",
  header: ["Payment ID", "Payer", "Payment Date", "Amount"],
  rows: [
    ["1", "Rita Moss", "2024-05-02", "$120.00"],
    ["2", "Sam Orr", "2024-05-09", "$75.50"],
    ["3", "Rita Moss", "2024-06-01", "$210.00"],
  ],
};

/** Catches with a quantity: a row is a catch, not a fish. */
const CATCHES: RawTable = {
  id: "fish_catches",
  file: "fish_catches.csv",
  header: ["Date", "Species", "Qty", "Angler"],
  rows: [
    ["2024-06-01", "Perch", "4", "Ada"],
    ["2024-06-01", "Pike", "1", "Ben"],
    ["2024-06-08", "Roach", "7", "Ada"],
  ],
};

/** Soups: a row is a soup (the table's name says so). */
const SOUPS: RawTable = {
  id: "soups",
  file: "soups.csv",
  header: ["Soup", "Calories", "Rating"],
  rows: [
    ["Minestrone", "240", "4.1"],
    ["Gazpacho", "180", "4.5"],
    ["Chowder", "410", "4.3"],
  ],
};

const dir = mkdtempSync(join(tmpdir(), "atr-wordings-"));
const path = join(dir, "tables.sqlite");
const schemas = writeSqlStore(path, [STAFF, PARTS, PAYMENTS, CATCHES, SOUPS]);
const db = new Database(path, { readonly: true });
const catalogs = new Map(schemas.map((s) => [s.tableId, loadCatalog(db, s)]));
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function answer(question: string, table = "staff"): unknown {
  const a = analyzeQuestion(question);
  const catalog = catalogs.get(table)!;
  const plan = planSql({
    analysis: a,
    catalog,
    mentions: findMentions(question, catalog, { avoidWords: askedWords(a) }),
  });
  if (!plan) throw new Error(`no plan for ${question}`);
  return (db.prepare(plan.sql).raw().all() as unknown[][])[0]?.[0];
}

describe("comparative words of a choice", () => {
  it("reads cheaper as the smaller value and older as the larger age", () => {
    expect(answer("who is cheaper per hour, ines vega or lena park?")).toBe("Ines Vega");
    expect(answer("who is older, ines vega or omar haddad?")).toBe("Omar Haddad");
    expect(answer("who is younger, ines vega or omar haddad?")).toBe("Ines Vega");
  });
});

describe("oldest and youngest over a table with an age column", () => {
  it("orders by the age, not by a date the question does not name", () => {
    expect(answer("who is the oldest member of staff?")).toBe("Omar Haddad");
    expect(answer("who is the youngest member of staff?")).toBe("Lena Park");
    expect(answer("who started earliest?")).toBe("Tomas Beck");
  });
});

describe("the row's name under the table's row noun", () => {
  it("answers 'which item' with the part, not its code, unless the code is asked for", () => {
    expect(answer("which item is cheapest?", "parts")).toBe("Wing nut");
    expect(answer("what is the sku of the most expensive item?", "parts")).toBe("P-102");
  });
});

describe("'the amount of' a named row", () => {
  it("reads the Amount column the word names", () => {
    expect(answer("what was the amount of payment 3?", "payments")).toBe("$210.00");
  });
});

describe("a total of things that are not the rows", () => {
  it("sums the quantity column when the noun is not what a row is", () => {
    expect(answer("how many fish were caught altogether?", "fish_catches")).toBe(12);
    expect(answer("how many catches are there in total?", "fish_catches")).toBe(3);
  });
});

describe("a search for the row with an extreme", () => {
  it("answers with the row's name when the head noun is what a row is, or names no column after a participle", () => {
    expect(answer("lowest calorie soup", "soups")).toBe("Gazpacho");
    expect(answer("what is the highest calorie soup?", "soups")).toBe("Chowder");
    expect(answer("top rated bowl", "soups")).toBe("Gazpacho");
  });
});
