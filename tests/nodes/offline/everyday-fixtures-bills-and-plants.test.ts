/**
 * A club's fixtures, household bills, houseplants and a shop's invoices, asked as people ask them: a team that
 * "hosted" (or was "visited") is the Home side and the object of the verb the other side; "play away" closes on
 * no verb; "the biggest bill" of Bill and Amount is a bill, not its amount; the plant watered "most often" has the
 * shortest interval; "what is due next after X" follows the Due date the question names, when the rows are listed
 * in another order; and "what do all the invoices add up to?" is a sum.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "fixtures",
    file: "fixtures.csv",
    header: ["Date", "Home", "Away", "Home Goals", "Away Goals"],
    rows: [
      ["2026-03-01", "Wolds", "Tarn", "2", "0"],
      ["2026-03-08", "Fenby", "Wolds", "1", "3"],
      ["2026-03-15", "Wolds", "Fenby", "0", "0"],
      ["2026-03-22", "Tarn", "Wolds", "2", "2"],
      ["2026-03-29", "Tarn", "Fenby", "1", "0"],
    ],
  },
  {
    id: "bills",
    file: "bills.csv",
    header: ["Bill", "Amount", "Due date"],
    rows: [
      ["Gas", "61.20", "2027-01-14"],
      ["Council tax", "143.00", "2027-01-25"],
      ["Mobile", "18.50", "2027-01-09"],
      ["Broadband", "30.00", "2027-01-19"],
      ["Mortgage", "980.00", "2027-02-01"],
    ],
  },
  {
    id: "plants",
    file: "plants.csv",
    header: ["Plant", "Water every (days)", "Room"],
    rows: [
      ["Cactus", "21", "Hall"],
      ["Mint", "2", "Kitchen"],
      ["Orchid", "8", "Study"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());

const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("fixtures' sides, bills by due date, watering intervals and sums by their verb", () => {
  it("reads a team that hosted as the Home side, and the object of the verb as the other side", () => {
    expect(answer("How many matches did Tarn host?", "fixtures")).toEqual(["2"]);
    expect(answer("Which teams visited Wolds?", "fixtures")).toEqual(["Tarn", "Fenby"]);
  });
  it("counts games played away, not the away side's goals", () => {
    expect(answer("How many games did Wolds play away?", "fixtures")).toEqual(["2"]);
  });
  it("answers the biggest bill with the bill, and its amount when asked how much", () => {
    expect(answer("What is the biggest bill?", "bills")).toEqual(["Mortgage"]);
    expect(answer("How much is the biggest bill?", "bills")).toEqual(["980.00"]);
  });
  it("follows the due dates, not the rows, for what is due next or before", () => {
    expect(answer("What is due next after the gas bill?", "bills")).toEqual(["Broadband"]);
    expect(answer("Which bill is due before broadband?", "bills")).toEqual(["Gas"]);
  });
  it("reads watering most often as the shortest interval", () => {
    expect(answer("Which plant needs watering most often?", "plants")).toEqual(["Mint"]);
    expect(answer("Which plant needs water least often?", "plants")).toEqual(["Cactus"]);
  });
  it("adds up what the question says the rows add up to", () => {
    expect(answer("What do all the bills add up to?", "bills")).toEqual(["1232.7"]);
  });
});
