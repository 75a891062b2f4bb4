/**
 * A car dealer's stock and a league table, asked as people ask them: "show me the red cars" (every one); "which
 * cars are unsold?" of a Y/N "Sold" column; a league table's "GF", "GA", "Pts" named by goals scored, conceded and
 * points; "who has scored the most goals?" is a team, not its goals against; a column of one value ("P", 18 games
 * each) orders nothing.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "car_stock",
    file: "car_stock.csv",
    header: ["Stock No", "Make", "Model", "Year", "Price", "Colour", "Sold"],
    rows: [
      ["STK200", "Toyota", "Corolla", "2014", "22100", "Black", "N"],
      ["STK201", "Honda", "Civic", "2016", "16700", "Red", "Y"],
      ["STK202", "Ford", "Focus", "2012", "13800", "Blue", "N"],
      ["STK203", "Toyota", "RAV4", "2022", "17000", "Red", "N"],
      ["STK204", "Mazda", "CX-5", "2023", "24800", "White", "Y"],
    ],
  },
  {
    id: "league",
    file: "league.csv",
    header: ["Team", "P", "W", "D", "L", "GF", "GA", "Pts"],
    rows: [
      ["Rovers", "18", "9", "6", "3", "30", "19", "33"],
      ["United", "18", "11", "1", "6", "28", "25", "34"],
      ["Athletic", "18", "8", "5", "5", "36", "22", "29"],
      ["City", "18", "4", "5", "9", "17", "31", "17"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());

const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("a car dealer's stock and a league table", () => {
  it("lists every row a request for a plural selects", () => {
    expect(answer("Show me the red cars", "car_stock")).toEqual(["Civic", "RAV4"]);
  });

  it("reads 'unsold' as a Sold column's no", () => {
    expect(answer("Which cars are unsold?", "car_stock")).toEqual(["Corolla", "Focus", "RAV4"]);
  });

  it("names a league table's abbreviated columns by goals scored, conceded and points", () => {
    expect(answer("Who has scored the most goals?", "league")).toEqual(["Athletic"]);
    expect(answer("Which team conceded the fewest goals?", "league")).toEqual(["Rovers"]);
    expect(answer("How many goals were scored in total?", "league")).toEqual(["111"]);
    expect(answer("How many points does City have?", "league")).toEqual(["17"]);
  });

  it("does not order by a column that holds one value", () => {
    expect(answer("Which team is top?", "league")).toEqual(["United"]);
  });
});
