/**
 * A project's task list and a letting agent's listings, asked as people ask: "which tasks are done?" (a
 * status cell that is also a function word), "how many hours has Raj spent?" (the verb spells "Spent (h)"
 * where the unit names "Estimate (h)" too), "who has the most tasks?" (rows counted per owner, not per task),
 * "which apartments allow pets?" (the apartments, not the yes cells), "which city has cheaper rents on
 * average?" (each city's mean).
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { openTables, planColumn } from "./fixtures.js";

const TASKS: RawTable = {
  id: "project_tasks",
  file: "project_tasks.csv",
  header: ["Task", "Owner", "Status", "Estimate (h)", "Spent (h)"],
  rows: [
    ["Design login page", "Maya", "Done", "8", "10"],
    ["Set up database", "Tom", "Done", "12", "9"],
    ["Write API docs", "Maya", "In Progress", "6", "2"],
    ["Payment integration", "Raj", "In Progress", "20", "14"],
    ["Email templates", "Tom", "Not Started", "4", "0"],
    ["Bug bash", "Maya", "Blocked", "5", "1"],
  ],
};
const LISTINGS: RawTable = {
  id: "rental_listings",
  file: "rental_listings.csv",
  header: ["Address", "City", "Bedrooms", "Rent", "Pets Allowed"],
  rows: [
    ["12 Elm St", "Springfield", "2", "1450", "Yes"],
    ["8 Oak Ave", "Springfield", "3", "1900", "No"],
    ["45 Pine Rd", "Shelbyville", "1", "980", "Yes"],
    ["3 Birch Ln", "Shelbyville", "2", "1300", "No"],
    ["77 Cedar Ct", "Springfield", "4", "2600", "Yes"],
  ],
};

const fixture = openTables([TASKS, LISTINGS]);
const answer = (question: string, table: string) => planColumn(fixture, question, table);
afterAll(() => fixture.close());

describe("a task list", () => {
  it("reads a status, the hours a verb names, and who has the most rows", () => {
    expect(answer("Which tasks are done?", "project_tasks")).toEqual(["Design login page", "Set up database"]);
    expect(answer("How many hours has Raj spent?", "project_tasks")).toEqual(["14"]);
    expect(answer("Who has the most tasks?", "project_tasks")).toEqual(["Maya"]);
  });
});

describe("rental listings", () => {
  it("answers with the places a yes/no column selects", () => {
    expect(answer("Which apartments allow pets?", "rental_listings")).toEqual([
      "12 Elm St",
      "45 Pine Rd",
      "77 Cedar Ct",
    ]);
  });

  it("compares the cities' average rents", () => {
    expect(answer("Which city has cheaper rents on average?", "rental_listings")).toEqual(["Shelbyville"]);
  });
});
