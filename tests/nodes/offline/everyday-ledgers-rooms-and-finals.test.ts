/**
 * A bank statement with a running balance, a hotel's rooms, a class's midterms and finals, a team's pay and a
 * desk-booking sheet, asked as people ask them: a running Balance is read, never added up ("the total income"
 * adds up Amount), "my balance at the end of April" is April's last row, "free" or "available" rooms are the
 * rows an Occupied column says no to, "the 2nd floor" is Floor 2, an exam called "final" is no last row, "the
 * three best paid" are the top three, and "better on the final than the midterm in Statistics" compares each
 * Statistics row's two columns; "the customer ID of X" reads Customer ID, and churned customers are not Active;
 * "which customer has the highest spend?" is answered by Name, and "who's on the basic plan?" by everyone on it.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "statement",
    file: "statement.csv",
    header: ["Date", "Description", "Category", "Amount", "Balance"],
    rows: [
      ["2026-03-01", "Pay", "Income", "2900.00", "3400.00"],
      ["2026-03-04", "Rent", "Housing", "-1100.00", "2300.00"],
      ["2026-04-01", "Pay", "Income", "2900.00", "5200.00"],
      ["2026-04-12", "Theatre", "Leisure", "-40.00", "5160.00"],
      ["2026-05-06", "Refund", "Income", "60.00", "5220.00"],
    ],
  },
  {
    id: "rooms",
    file: "rooms.csv",
    header: ["Room", "Floor", "Rate", "Occupied"],
    rows: [
      ["101", "1", "90", "Yes"],
      ["102", "1", "110", "No"],
      ["201", "2", "150", "No"],
      ["202", "2", "240", "Yes"],
      ["301", "3", "300", "No"],
    ],
  },
  {
    id: "desks",
    file: "desks.csv",
    header: ["Desk", "Zone", "Available"],
    rows: [
      ["D1", "Quiet", "Yes"],
      ["D2", "Quiet", "No"],
      ["D3", "Window", "Yes"],
    ],
  },
  {
    id: "exams",
    file: "exams.csv",
    header: ["Student", "Course", "Midterm", "Final"],
    rows: [
      ["Ida Berg", "Statistics", "70", "81"],
      ["Jon Ek", "Statistics", "66", "74"],
      ["Kim Lo", "History", "90", "95"],
      ["Liv Moe", "Statistics", "85", "77"],
    ],
  },
  {
    id: "pay",
    file: "pay.csv",
    header: ["Employee", "Team", "Base salary"],
    rows: [
      ["Ana", "Platform", "91000"],
      ["Bea", "Growth", "70000"],
      ["Cy", "Platform", "118000"],
      ["Dov", "Finance", "64000"],
      ["Eli", "Platform", "99000"],
    ],
  },
  {
    id: "customers",
    file: "customers.csv",
    header: ["Customer ID", "Name", "Country", "Plan", "Monthly spend", "Active"],
    rows: [
      ["K-01", "Alder Works", "UK", "Basic", "40", "Yes"],
      ["K-02", "Brook & Sons", "Ireland", "Pro", "450", "No"],
      ["K-03", "Cedar Labs", "Spain", "Basic", "45", "Yes"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());

const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("a statement's balance, free rooms, floors, finals and the best paid", () => {
  it("adds up the amounts beside a running balance, never the balance", () => {
    expect(answer("What was the total income?", "statement")).toEqual(["5860"]);
    expect(answer("How much income did I get in April?", "statement")).toEqual(["2900"]);
  });
  it("reads the balance at the end of a month from its last row", () => {
    expect(answer("What was my balance at the end of April?", "statement")).toEqual(["5160.00"]);
  });
  it("reads free and available rooms as the rows an Occupied column says no to", () => {
    expect(answer("How many rooms are free?", "rooms")).toEqual(["3"]);
    expect(answer("How many rooms are available?", "rooms")).toEqual(["3"]);
    expect(answer("Average rate of the free rooms?", "rooms")).toEqual(["186.67"]);
  });
  it("still reads an Available column as itself", () => {
    expect(answer("Which desks are available?", "desks")).toEqual(["D1", "D3"]);
  });
  it("reads an ordinal before a numeric header as that number", () => {
    expect(answer("How many rooms are on the 2nd floor?", "rooms")).toEqual(["2"]);
    expect(answer("Which rooms are on the first floor?", "rooms")).toEqual(["101", "102"]);
  });
  it("reads an exam called final as a column, not the last row", () => {
    expect(answer("Who scored highest on the Statistics final?", "exams")).toEqual(["Ida Berg"]);
    expect(answer("What is the lowest final score?", "exams")).toEqual(["74"]);
  });
  it("compares each row's two columns over the rows a closing phrase selects", () => {
    expect(answer("Who did better on the final than the midterm in Statistics?", "exams")).toEqual([
      "Ida Berg",
      "Jon Ek",
    ]);
  });
  it("reads a header the question spells whole, though its first word is the row noun", () => {
    expect(answer("What is the customer ID of Brook & Sons?", "customers")).toEqual(["K-02"]);
  });
  it("answers the customer with the highest spend by name, not by the record number after the ordered column", () => {
    expect(answer("Which customer has the highest monthly spend?", "customers")).toEqual(["Brook & Sons"]);
  });
  it("lists everyone in a group a repeating value names", () => {
    expect(answer("Who's on the basic plan?", "customers")).toEqual(["Alder Works", "Cedar Labs"]);
  });
  it("reads churned customers as the rows an Active column says no to", () => {
    expect(answer("How many customers have churned?", "customers")).toEqual(["1"]);
  });
  it("answers the three best paid with the top three", () => {
    expect(answer("Who are the three best paid employees?", "pay")).toEqual(["Cy", "Eli", "Ana"]);
  });
});
