/**
 * A podcast's episodes, a conference's talks, volunteers' shifts, a menu, a squad, a storeroom, hotel reviews, exam
 * grades, a year of monthly sales and leave requests, asked as people ask them: the rows' own numbers (Episode 1, 2,
 * 3 …) are no measure ("the longest episode", "the average episode length", "how many episodes had a guest?"),
 * "how many people attended her talks?" adds up the attendees, "the highest total attendance" of an Attendees column,
 * everyone who worked on a day, "which Thai dish has fewer calories?", "what number does X wear?", players counted
 * as rows, "the most games" of Appearances, "what is in bin B1?", a plural header ("Reviews") that counts, "how many
 * A grades?" as rows, a quarter of a column of month names, "who would not recommend us?" as everyone of the No rows,
 * "who are the managers?" as each manager once, a day of the week off a column of dates ("on Saturdays", "at the
 * weekend"), and a total of days whose noun ends on its participle.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "episodes",
    file: "episodes.csv",
    header: ["Episode", "Title", "Guest", "Length (min)", "Downloads"],
    rows: [
      ["1", "Pilot", "", "28", "900"],
      ["2", "Tools we use", "Rosa Vidal", "51", "1400"],
      ["3", "Saying no", "Ken Abe", "44", "2100"],
      ["4", "Listener mail", "", "33", "800"],
    ],
  },
  {
    id: "talks",
    file: "talks.csv",
    header: ["Talk", "Speaker", "Track", "Attendees"],
    rows: [
      ["Query planners", "Ada Frost", "Data", "180"],
      ["Borrow checking", "Ivo Lind", "Languages", "90"],
      ["Column stores", "Ada Frost", "Data", "150"],
      ["Opening address", "Rhea Moss", "Plenary", "300"],
    ],
  },
  {
    id: "shifts",
    file: "shifts.csv",
    header: ["Volunteer", "Date", "Site", "Hours"],
    rows: [
      ["Oona", "2026-06-06", "Shelter", "3"],
      ["Piet", "2026-06-06", "Park", "2"],
      ["Oona", "2026-06-13", "Park", "4"],
      ["Quinn", "2026-06-20", "Shelter", "5"],
    ],
  },
  {
    id: "dishes",
    file: "dishes.csv",
    header: ["Dish", "Cuisine", "Calories"],
    rows: [
      ["Massaman curry", "Thai", "640"],
      ["Tom yum", "Thai", "310"],
      ["Paella", "Spanish", "560"],
    ],
  },
  {
    id: "squad",
    file: "squad.csv",
    header: ["Player", "Position", "Number", "Nationality", "Appearances"],
    rows: [
      ["Abel Stone", "Forward", "9", "Wales", "22"],
      ["Bram Kuiper", "Defender", "4", "Netherlands", "30"],
      ["Cai Rees", "Midfielder", "8", "Wales", "27"],
      ["Dario Neri", "Goalkeeper", "1", "Italy", "31"],
    ],
  },
  {
    id: "storeroom",
    file: "storeroom.csv",
    header: ["SKU", "Item", "Bin", "On hand"],
    rows: [
      ["S-10", "Cable ties", "A1", "400"],
      ["S-11", "Fuses", "A2", "60"],
      ["S-12", "Solder", "B1", "12"],
    ],
  },
  {
    id: "reviews",
    file: "reviews.csv",
    header: ["Hotel", "City", "Reviews"],
    rows: [
      ["Hotel Brise", "Nice", "540"],
      ["Hotel Cap", "Nice", "1210"],
      ["Hotel Dune", "Sète", "310"],
    ],
  },
  {
    id: "exam",
    file: "exam.csv",
    header: ["Student", "Grade", "Score"],
    rows: [
      ["Lena", "A", "92"],
      ["Milo", "B", "81"],
      ["Nia", "A", "95"],
    ],
  },
  {
    id: "sales",
    file: "sales.csv",
    header: ["Month", "Revenue", "Orders"],
    rows: [
      ["Jan", "100", "10"],
      ["Feb", "200", "20"],
      ["Mar", "300", "30"],
      ["Apr", "400", "40"],
      ["May", "500", "50"],
    ],
  },
  {
    id: "leave_requests",
    file: "leave_requests.csv",
    header: ["Employee", "Type", "Start", "Days", "Approved"],
    rows: [
      ["Sol", "Vacation", "2026-04-06", "5", "Yes"],
      ["Tao", "Sick", "2026-04-14", "2", "Yes"],
      ["Uma", "Vacation", "2026-05-11", "8", "No"],
    ],
  },
  {
    id: "feedback",
    file: "feedback.csv",
    header: ["Respondent", "Score", "Would recommend"],
    rows: [
      ["P1", "4", "Yes"],
      ["P2", "2", "No"],
      ["P3", "5", "Yes"],
      ["P4", "1", "No"],
    ],
  },
  {
    id: "staff",
    file: "staff.csv",
    header: ["Name", "Department", "Manager"],
    rows: [
      ["Vera", "Sales", "Wim Aalto"],
      ["Xan", "Support", "Yara Bell"],
      ["Zoe", "Sales", "Wim Aalto"],
      ["Ari", "Finance", "Yara Bell"],
    ],
  },
  {
    id: "spending",
    file: "spending.csv",
    header: ["Date", "Shop", "Amount"],
    rows: [
      ["2026-03-06", "Bakery", "4.50"],
      ["2026-03-07", "Market", "23.10"],
      ["2026-03-08", "Cinema", "18.00"],
      ["2026-03-14", "Market", "19.40"],
      ["2026-03-16", "Bakery", "3.20"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());

const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("episodes, talks, shifts, a squad, a storeroom, reviews, grades, quarters and leave", () => {
  it("reads the rows' own numbers as no measure", () => {
    expect(answer("What is the longest episode?", "episodes")).toEqual(["2"]);
    expect(answer("What is the average episode length?", "episodes")).toEqual(["39"]);
    expect(answer("How many episodes had a guest?", "episodes")).toEqual(["2"]);
  });
  it("adds up the people who attended, and orders by their total", () => {
    expect(answer("How many people attended Ada Frost's talks?", "talks")).toEqual(["330"]);
    expect(answer("Which track had the largest total attendance?", "talks")).toEqual(["Data"]);
  });
  it("lists everyone who worked on a day", () => {
    expect(answer("Who worked on June 6?", "shifts")).toEqual(["Oona", "Piet"]);
  });
  it("reads a comparative without two options as the first row its measure orders", () => {
    expect(answer("Which Thai dish has fewer calories?", "dishes")).toEqual(["Tom yum"]);
  });
  it("reads a squad's Number and Appearances, and counts its players as rows", () => {
    expect(answer("What number does Cai Rees wear?", "squad")).toEqual(["8"]);
    expect(answer("How many Welsh players do we have?", "squad")).toEqual(["2"]);
    expect(answer("Who has played the most games?", "squad")).toEqual(["Dario Neri"]);
  });
  it("answers what is in a bin by the item, not the bin", () => {
    expect(answer("What is in bin B1?", "storeroom")).toEqual(["Solder"]);
  });
  it("orders by a plural header that counts, though it is the table's name", () => {
    expect(answer("Which hotel has the most reviews?", "reviews")).toEqual(["Hotel Cap"]);
  });
  it("counts the rows of a grade the noun spells, not a score it is related to", () => {
    expect(answer("How many A grades were there?", "exam")).toEqual(["2"]);
  });
  it("reads a quarter over a column of month names", () => {
    expect(answer("What was the total revenue for the first quarter?", "sales")).toEqual(["600"]);
    expect(answer("How many orders did we get in Q2?", "sales")).toEqual(["90"]);
  });
  it("lists everyone a yes/no column selects, whatever the verb of 'who'", () => {
    expect(answer("Who would not recommend us?", "feedback")).toEqual(["P2", "P4"]);
  });
  it("lists each value of the column a plural noun asks for", () => {
    expect(answer("Who are the managers?", "staff")).toEqual(["Wim Aalto", "Yara Bell"]);
    expect(answer("What departments are there?", "staff")).toEqual(["Sales", "Support", "Finance"]);
    expect(answer("List the departments", "staff")).toEqual(["Sales", "Support", "Finance"]);
  });
  it("reads a day of the week off a column of dates", () => {
    expect(answer("How much did I spend on Saturdays?", "spending")).toEqual(["42.5"]);
    expect(answer("How many purchases were at the weekend?", "spending")).toEqual(["3"]);
    expect(answer("Where did I shop on Mondays?", "spending")).toEqual(["Bakery"]);
  });
  it("adds up the days of a noun that ends on its participle", () => {
    expect(answer("What is the total number of vacation days requested?", "leave_requests")).toEqual(["13"]);
  });
});
