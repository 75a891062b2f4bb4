/**
 * A sales ledger, used cars and monthly meter readings: "the highest sales" are the ledger's amounts added
 * up per region or per month (while "how many sales" still counts the ledger's rows), "miles" name a
 * Mileage column, and "the cheapest month" of one row per month is the row with the lowest cost.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { openTables, planColumn } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "sales_ledger",
    file: "sales_ledger.csv",
    header: ["Date", "Rep", "Region", "Amount"],
    rows: [
      ["2025-01-06", "Jo Hart", "North", "1200"],
      ["2025-01-14", "Sam Cole", "South", "800"],
      ["2025-02-03", "Ria Das", "East", "2100"],
      ["2025-02-11", "Sam Cole", "South", "950"],
      ["2025-03-04", "Ria Das", "East", "1750"],
      ["2025-03-18", "Sam Cole", "North", "620"],
    ],
  },
  {
    id: "used_cars",
    file: "used_cars.csv",
    header: ["Make", "Model", "Year", "Mileage", "Price"],
    rows: [
      ["Toyota", "Yaris", "2019", "42000", "11500"],
      ["Ford", "Fiesta", "2017", "68000", "7200"],
      ["Honda", "Civic", "2020", "51000", "14800"],
    ],
  },
  {
    id: "energy_bills",
    file: "energy_bills.csv",
    header: ["Month", "Electricity (kWh)", "Cost (£)"],
    rows: [
      ["Jan 2025", "310", "182.40"],
      ["Feb 2025", "290", "168.10"],
      ["Mar 2025", "275", "139.75"],
    ],
  },
];

const fixture = openTables(tables);
afterAll(() => fixture.close());
const answer = (question: string, table: string) => planColumn(fixture, question, table);

describe("a sales ledger", () => {
  it("adds up the amounts per group for 'the highest sales'", () => {
    expect(answer("Which region had the highest sales?", "sales_ledger")).toEqual(["East"]);
    expect(answer("Which month had the highest sales?", "sales_ledger")).toEqual(["February"]);
  });
  it("still counts the ledger's rows for 'how many sales'", () => {
    expect(answer("How many sales did Sam Cole make?", "sales_ledger")).toEqual(["3"]);
  });
});

describe("cars and meters", () => {
  it("reads 'miles' as the Mileage", () => {
    expect(answer("How many miles has the Yaris done?", "used_cars")).toEqual(["42000"]);
  });
  it("reads 'the cheapest month' of one row per month by its cost", () => {
    expect(answer("Which month was the cheapest?", "energy_bills")).toEqual(["Mar 2025"]);
  });
});
