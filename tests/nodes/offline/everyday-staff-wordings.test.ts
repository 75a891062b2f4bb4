/**
 * One plain staff table asked in the wordings people type: "what's the salary range?" (the highest less the
 * lowest), "how big is the gap between …", "who has been here the longest?" (the earliest start), "who
 * works in Oslo?" and "employees who started before 2018" (every matching row, not the first), "did anyone
 * start in 2015?" (whether any row exists), and a request's lead-in ("I need …", "can you tell me …").
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { openTables, planColumn } from "./fixtures.js";

const STAFF: RawTable = {
  id: "staff_list",
  file: "staff_list.csv",
  header: ["Name", "Department", "City", "Salary", "Start Date"],
  rows: [
    ["Alice Moreau", "Sales", "Berlin", "62000", "2019-03-15"],
    ["Bruno Silva", "Engineering", "Lisbon", "88000", "2017-07-01"],
    ["Chen Wei", "Engineering", "Berlin", "95000", "2021-01-11"],
    ["Emil Berg", "Sales", "Oslo", "58000", "2018-10-02"],
    ["Farah Haddad", "Finance", "Berlin", "71000", "2016-02-29"],
    ["Hans Vogel", "Engineering", "Oslo", "82000", "2020-06-15"],
  ],
};

const fixture = openTables([STAFF]);
const answer = (question: string) => planColumn(fixture, question, "staff_list");
afterAll(() => fixture.close());

describe("a staff list in everyday wordings", () => {
  it("reads a range or a gap as the highest less the lowest", () => {
    expect(answer("what's the salary range?")).toEqual(["37000"]);
    expect(answer("how big is the gap between the highest and the lowest salary")).toEqual(["37000"]);
  });
  it("reads 'been here the longest' as the earliest start", () => {
    expect(answer("who has been here the longest?")).toEqual(["Farah Haddad"]);
  });
  it("lists every row a present-tense verb and a place select", () => {
    expect(answer("who works in Oslo?")).toEqual(["Emil Berg", "Hans Vogel"]);
  });
  it("answers whether any row meets the conditions", () => {
    expect(answer("Did anyone start in 2015?")).toEqual(["no"]);
    expect(answer("Are there any employees in Oslo?")).toEqual(["yes"]);
    expect(answer("Is there anyone earning over 100000?")).toEqual(["no"]);
  });
  it("reads a request's lead-in as asking nothing", () => {
    expect(answer("I need the highest salary")).toEqual(["95000"]);
    expect(answer("can you tell me who earns the most")).toEqual(["Chen Wei"]);
    expect(answer("Show me everyone in Sales")).toEqual(["Alice Moreau", "Emil Berg"]);
  });
  it("lists every row a search phrase describes", () => {
    expect(answer("employees who started before 2018")).toEqual(["Bruno Silva", "Farah Haddad"]);
  });
});
