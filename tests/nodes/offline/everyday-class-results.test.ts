/**
 * A class's results, asked as a teacher asks: "which students scored above average in Maths?" (the rows
 * beyond the column's mean), "how many scored below the average in English?", and "who did better in
 * English than in Maths?" (each row's two columns compared).
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { openTables, planColumn } from "./fixtures.js";

const RESULTS: RawTable = {
  id: "class_results",
  file: "class_results.csv",
  header: ["Student", "Class", "Maths", "English", "Science"],
  rows: [
    ["Aiden Cole", "7A", "78", "64", "81"],
    ["Bella Moss", "7A", "92", "88", "95"],
    ["Caleb Ford", "7B", "55", "71", "60"],
    ["Daisy Hunt", "7B", "84", "90", "77"],
    ["Ethan Park", "7A", "67", "59", "72"],
  ],
};

const fixture = openTables([RESULTS]);
const answer = (question: string) => planColumn(fixture, question, "class_results");
afterAll(() => fixture.close());

describe("a class's results", () => {
  it("lists or counts the rows beyond a column's average", () => {
    // (Maths mean 75.2; English mean 74.4.)
    expect(answer("Which students scored above average in Maths?")).toEqual(["Aiden Cole", "Bella Moss", "Daisy Hunt"]);
    expect(answer("how many students scored below the average in English")).toEqual(["3"]);
  });
  it("compares each row's two named columns", () => {
    expect(answer("Who did better in English than in Maths?")).toEqual(["Caleb Ford", "Daisy Hunt"]);
    expect(answer("How many students got more in Science than in Maths?")).toEqual(["4"]);
  });
});

const BOOKS: RawTable = {
  id: "library_books",
  file: "library_books.csv",
  header: ["Title", "Author", "Genre", "Pages"],
  rows: [
    ["The Salt Road", "Mara Quinn", "Fiction", "342"],
    ["Field Notes", "Lena Ortiz", "Nonfiction", "196"],
    ["Iron Orchard", "Sofia Lind", "Fantasy", "620"],
    ["Paper Boats", "Lena Ortiz", "Poetry", "120"],
  ],
};
const library = openTables([BOOKS]);
afterAll(() => library.close());

describe("a library's books", () => {
  it("reads 'how many pages does the longest book have?' as the pages of that row", () => {
    expect(planColumn(library, "How many pages does the longest book have?", "library_books")).toEqual(["620"]);
  });
  it("lists a plural object before its verb's subject", () => {
    expect(planColumn(library, "Which books has Lena Ortiz written?", "library_books")).toEqual([
      "Field Notes",
      "Paper Boats",
    ]);
  });
});

const COURSES: RawTable = {
  id: "course_list",
  file: "course_list.csv",
  header: ["Course", "Department", "Credits", "Enrolled"],
  rows: [
    ["Public Speaking", "English", "3", "176"],
    ["Web Development", "Computing", "4", "50"],
    ["Art History", "Arts", "3", "233"],
  ],
};
const ROUTES: RawTable = {
  id: "bus_routes",
  file: "bus_routes.csv",
  header: ["Route", "Stops", "Daily Riders"],
  rows: [
    ["Bridge Street", "31", "7285"],
    ["Stadium Express", "40", "7205"],
  ],
};
const school = openTables([COURSES, ROUTES]);
afterAll(() => school.close());

describe("courses and bus routes", () => {
  it("reads students as an Enrolled column and people riding as Riders", () => {
    expect(planColumn(school, "Which course has the most students?", "course_list")).toEqual(["Art History"]);
    expect(planColumn(school, "On average, how many people ride a route each day?", "bus_routes")).toEqual(["7245"]);
  });
});
