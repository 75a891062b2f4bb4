/**
 * "Highest paid" and "top rated" typed as a search: a participle with no noun after it is said of a row, so the
 * answer is the row's name (the person paid the most in a department, the film rated best), while a noun after the
 * superlative that names the ordered column still asks for its value.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "people",
    file: "people.csv",
    header: ["Name", "Team", "Salary"],
    rows: [
      ["Rhea Moss", "Design", "64000"],
      ["Otto Vance", "Platform", "91000"],
      ["Lena Brook", "Platform", "87000"],
      ["Ivo Marsh", "Design", "58000"],
    ],
  },
  {
    id: "films",
    file: "films.csv",
    header: ["Film", "Year", "Rating"],
    rows: [
      ["Dune Sea", "2019", "7.1"],
      ["Cold Harbour", "2021", "8.4"],
      ["Pale Orchard", "2023", "6.2"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());

const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("a participle after a superlative", () => {
  it("answers the row's name when no noun follows it", () => {
    expect(answer("highest paid in platform", "people")).toEqual(["Otto Vance"]);
    expect(answer("lowest paid on the design team", "people")).toEqual(["Ivo Marsh"]);
    expect(answer("top rated", "films")).toEqual(["Cold Harbour"]);
  });
  it("still answers the value a noun naming the ordered column asks for", () => {
    expect(answer("What is the highest salary in platform?", "people")).toEqual(["91000"]);
  });
});
