/**
 * A workout log asked as its keeper asks it: "what is the furthest I cycled?" is the greatest distance of the Cycle
 * rows (the past verb a pronoun does names the activity; the clause after the superlative asks for the value), and
 * "what was my longest swim?" is the longest Swim's minutes, since no column names the rows; a table of cars,
 * whose Car column does, still answers "the cheapest diesel" with the car.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "log",
    file: "log.csv",
    header: ["Day", "Activity", "Minutes", "Km"],
    rows: [
      ["2026-03-02", "Run", "40", "7.5"],
      ["2026-03-03", "Cycle", "95", "31.2"],
      ["2026-03-05", "Swim", "30", "1.2"],
      ["2026-03-06", "Run", "52", "9.1"],
      ["2026-03-08", "Cycle", "60", "18.4"],
      ["2026-03-09", "Swim", "45", "1.8"],
      ["2026-03-10", "Walk", "70", "5.5"],
    ],
  },
  {
    id: "vans",
    file: "vans.csv",
    header: ["Car", "Fuel", "Daily rate"],
    rows: [
      ["Corsa", "Petrol", "41"],
      ["Vito", "Diesel", "88"],
      ["Berlingo", "Diesel", "64"],
      ["Zoe", "Electric", "52"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());

const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("a workout log's superlatives", () => {
  it("reads a past verb after a pronoun as the activity and answers the value the clause asks for", () => {
    expect(answer("What is the furthest I cycled?", "log")).toEqual(["31.2"]);
    expect(answer("What's the furthest we ran?", "log")).toEqual(["9.1"]);
    expect(answer("What was the longest I swam?", "log")).toEqual(["45"]);
  });
  it("answers the ordered value when the superlative's noun is a category and no column names the rows", () => {
    expect(answer("What was the furthest run?", "log")).toEqual(["9.1"]);
    expect(answer("What was my longest swim?", "log")).toEqual(["45"]);
  });
  it("answers the row's name where a column names the rows", () => {
    expect(answer("What is the cheapest diesel?", "vans")).toEqual(["Berlingo"]);
  });
});
