/**
 * "Which owner has two pets?" over a vet's register counts the register's own rows per owner: the noun after the
 * number names what a row is, not a column of numbers (the old plans compared a Weight of 2); a noun the table's
 * name only modifies ("bats" of bat_surveys) is counted in its column.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables } from "./fixtures.js";

const fx = openTables([
  {
    id: "pets",
    file: "pets.csv",
    header: ["Pet", "Species", "Owner", "Weight kg"],
    rows: [
      ["Juno", "Dog", "Sara Finch", "18.2"],
      ["Olive", "Cat", "Dev Rana", "2"],
      ["Pip", "Hamster", "Sara Finch", "0.1"],
      ["Bramble", "Dog", "Lou Baird", "27.5"],
      ["Sox", "Cat", "Dev Rana", "3"],
      ["Tiny", "Budgie", "Sara Finch", "0.05"],
    ],
  },
  {
    id: "bat_surveys",
    file: "bat_surveys.csv",
    header: ["Night", "Roost", "Qty"],
    rows: [
      ["2026-06-01", "Barn", "14"],
      ["2026-06-02", "Chapel", "6"],
      ["2026-06-03", "Barn", "22"],
    ],
  },
] satisfies RawTable[]);
afterAll(() => fx.close());

const answer = (question: string, table = "pets") => groundedColumn(fx, question, table);

describe("a count of the table's own rows per value", () => {
  it("answers which value holds that many rows, or more", () => {
    expect(answer("Which owner has two pets?")).toEqual(["Dev Rana"]);
    expect(answer("Who has more than one pet?")).toEqual(["Sara Finch", "Dev Rana"]);
    expect(answer("How many owners have at least 2 pets?")).toEqual(["2"]);
  });
  it("leaves a noun the table counts in a column to that column: bats are no rows of bat_surveys", () => {
    expect(answer("How many surveys had over 10 bats?", "bat_surveys")).toEqual(["2"]);
  });
});
