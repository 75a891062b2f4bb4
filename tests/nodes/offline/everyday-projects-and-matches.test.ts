/**
 * Project budgets, subscriptions, a team's matches and a library's members, asked in a user's words:
 * "over budget" (what was spent against the Budget), an irregular verb naming its column ("spent" of
 * "Actual Spend"), "due first" by a Deadline, a verb before a time naming the date column it shares a stem
 * with ("renew in 2026" of "Renewal Date", not the "Auto-renew" flag), "won't" (no "won"), a win or a loss
 * read from the two sides' scores, and a numeric column above zero ("outstanding fines") or at zero ("owes
 * nothing").
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { openTables, planColumn } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "project_budgets",
    file: "project_budgets.csv",
    header: ["Project", "Manager", "Budget", "Actual Spend", "Deadline"],
    rows: [
      ["Website Redesign", "Priya Shah", "40000", "45500", "2025-06-30"],
      ["CRM Rollout", "Tom Baker", "75000", "61200", "2025-09-15"],
      ["Office Move", "Lena Fox", "20000", "19800", "2025-04-01"],
      ["Data Warehouse", "Priya Shah", "120000", "134000", "2025-12-01"],
    ],
  },
  {
    id: "subscriptions",
    file: "subscriptions.csv",
    header: ["Customer", "Plan", "Seats", "Renewal Date", "Auto-renew"],
    rows: [
      ["Acme Corp", "Enterprise", "50", "2025-11-01", "Yes"],
      ["Blue Fin Ltd", "Team", "12", "2025-07-15", "No"],
      ["Ember Labs", "Enterprise", "65", "2026-01-20", "No"],
      ["Fable Books", "Starter", "2", "2025-06-05", "Yes"],
    ],
  },
  {
    id: "match_results",
    file: "match_results.csv",
    header: ["Date", "Opponent", "Venue", "Our Score", "Their Score"],
    rows: [
      ["2025-03-01", "Riverside", "Home", "3", "1"],
      ["2025-03-08", "Northgate", "Away", "0", "2"],
      ["2025-03-15", "Eastfield", "Home", "2", "2"],
      ["2025-03-22", "Westport", "Away", "4", "0"],
    ],
  },
  {
    id: "library_members",
    file: "library_members.csv",
    header: ["Member ID", "Name", "Books Borrowed", "Fines Owed"],
    rows: [
      ["M01", "Ada Price", "34", "0.00"],
      ["M02", "Ben Cole", "12", "2.50"],
      ["M03", "Cara Lee", "58", "0.00"],
      ["M04", "Dev Rao", "5", "7.25"],
    ],
  },
];

const fixture = openTables(tables);
afterAll(() => fixture.close());
const answer = (question: string, table: string) => planColumn(fixture, question, table);

describe("project budgets", () => {
  it("reads 'over budget' as the spend above the Budget", () => {
    expect(answer("Which projects are over budget?", "project_budgets")).toEqual([
      "Website Redesign",
      "Data Warehouse",
    ]);
  });
  it("reads an irregular verb's column and 'due' as the Deadline", () => {
    expect(answer("How much has been spent in total?", "project_budgets")).toEqual(["260500"]);
    expect(answer("Which project is due first?", "project_budgets")).toEqual(["Office Move"]);
  });
});

describe("subscriptions", () => {
  it("reads a verb before a year on the date column it names", () => {
    expect(answer("Which subscriptions renew in 2026?", "subscriptions")).toEqual(["Ember Labs"]);
  });
  it("reads 'won't' as a negation, not a win", () => {
    expect(answer("Which customers won't auto-renew?", "subscriptions")).toEqual(["Blue Fin Ltd", "Ember Labs"]);
  });
});

describe("a team's matches", () => {
  it("reads a win or a loss from the two sides' scores", () => {
    expect(answer("How many games did we win?", "match_results")).toEqual(["2"]);
    expect(answer("Which games did we lose?", "match_results")).toEqual(["Northgate"]);
    expect(answer("How many games did we not win?", "match_results")).toEqual(["2"]);
  });
  it("adds up the goals a side scored", () => {
    expect(answer("How many goals did we score in total?", "match_results")).toEqual(["9"]);
  });
});

describe("a library's members", () => {
  it("selects the rows above zero after 'have' and at zero before 'nothing'", () => {
    expect(answer("How many members have outstanding fines?", "library_members")).toEqual(["2"]);
    expect(answer("Who owes nothing?", "library_members")).toEqual(["Ada Price", "Cara Lee"]);
  });
});
