/**
 * Orders, staff and films asked in a user's words: a first name in the possessive ("Carol's job title"),
 * a date bound written day first ("after 15 March 2024"), "which orders …" answered by the orders' own
 * identifier, a unit after a number that is no part of a title ("longer than 2 hours" beside a film
 * called "Small Hours"), the top few rows of a table without ranks ("the top 2 earners"), every group
 * tied for the most rows, a search for rows ("films by Jo Baines"), a negated value ("not in Sales",
 * "don't work in Engineering"), a group's average named by its verb ("pays the least on average"), and
 * one line per group ("how many employees are there in each department?").
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { openTables, planColumn } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "staff",
    file: "staff.csv",
    header: ["Name", "Department", "Job Title", "Salary"],
    rows: [
      ["Alice Moreno", "Sales", "Account Manager", "58000"],
      ["Carol Diaz", "Engineering", "Data Engineer", "91000"],
      ["Dan Okafor", "Marketing", "Designer", "47000"],
      ["Eve Larsen", "Sales", "Sales Rep", "39500"],
      ["Bob Chen", "Engineering", "Software Engineer", "82000"],
    ],
  },
  {
    id: "orders",
    file: "orders.csv",
    header: ["Order ID", "Customer", "Order Date", "Amount"],
    rows: [
      ["1001", "Ruth Baker", "2024-03-02", "120.50"],
      ["1002", "Sam Patel", "2024-03-09", "75.00"],
      ["1003", "Ruth Baker", "2024-03-15", "210.00"],
      ["1004", "Tina Ng", "2024-03-21", "42.25"],
      ["1005", "Sam Patel", "2024-04-11", "310.80"],
    ],
  },
  {
    id: "films",
    file: "films.csv",
    header: ["Title", "Director", "Runtime (min)"],
    rows: [
      ["Harbour Lights", "Jo Baines", "128"],
      ["The Long Field", "Jo Baines", "142"],
      ["Small Hours", "Lia Costa", "88"],
      ["Cold Front", "Lia Costa", "117"],
      ["Night Shift", "Ken Ito", "104"],
    ],
  },
];

const fixture = openTables(tables);
afterAll(() => fixture.close());
const answer = (question: string, table: string) => planColumn(fixture, question, table);

describe("a first name in the possessive", () => {
  it("reads the row of the one person of that first name", () => {
    expect(answer("What is Carol's job title?", "staff")).toEqual(["Data Engineer"]);
    expect(answer("What is Dan's salary?", "staff")).toEqual(["47000"]);
  });
});

describe("orders", () => {
  it("bounds dates written day first", () => {
    expect(answer("Which orders were placed after 15 March 2024?", "orders")).toEqual(["1004", "1005"]);
    expect(answer("How many orders were placed before 10 March?", "orders")).toEqual(["2"]);
  });
  it("answers 'which orders' with the orders' own identifier", () => {
    expect(answer("Which orders were placed in April?", "orders")).toEqual(["1005"]);
  });
});

describe("a unit after a number", () => {
  it("is the bound's unit, not part of a title", () => {
    expect(answer("How many films run longer than 2 hours?", "films")).toEqual(["2"]);
  });
});

describe("the top few rows", () => {
  it("orders a table without ranks by the column the words name", () => {
    // (In the table's order when no superlative orders them.)
    expect(answer("Who are the top 2 earners?", "staff")).toEqual(["Carol Diaz", "Bob Chen"]);
    expect(answer("top 2 films by runtime", "films")).toEqual(["Harbour Lights", "The Long Field"]);
    expect(answer("What are the 3 longest films?", "films")).toEqual([
      "The Long Field",
      "Harbour Lights",
      "Cold Front",
    ]);
    expect(answer("What are the top 2 shortest films?", "films")).toEqual(["Small Hours", "Night Shift"]);
  });
});

describe("groups and searches", () => {
  it("names every group tied for the most rows", () => {
    expect(answer("Which director has made the most films?", "films")).toEqual(["Jo Baines", "Lia Costa"]);
  });
  it("lists the rows a search phrase selects", () => {
    expect(answer("films by Lia Costa", "films")).toEqual(["Small Hours", "Cold Front"]);
  });
});

describe("a negated value", () => {
  it("selects the rows without it", () => {
    expect(answer("Who is not in Sales?", "staff")).toEqual(["Carol Diaz", "Dan Okafor", "Bob Chen"]);
    expect(answer("How many staff don't work in Engineering?", "staff")).toEqual(["3"]);
  });
});

describe("a group's average", () => {
  it("reads the measure from the verb", () => {
    expect(answer("Which department pays the least on average?", "staff")).toEqual(["Marketing"]);
    expect(answer("Which department pays the most on average?", "staff")).toEqual(["Engineering"]);
  });
});

describe("one line per group", () => {
  it("counts, averages or adds up per group", () => {
    expect(answer("How many employees are there in each department?", "staff")).toEqual([
      "Sales: 2",
      "Engineering: 2",
      "Marketing: 1",
    ]);
    expect(answer("What is the average salary per department?", "staff")).toEqual([
      "Sales: 48750",
      "Engineering: 86500",
      "Marketing: 47000",
    ]);
    expect(answer("total order amount by customer", "orders")).toEqual([
      "Ruth Baker: 330.5",
      "Sam Patel: 385.8",
      "Tina Ng: 42.25",
    ]);
  });
});
