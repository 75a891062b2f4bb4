/**
 * Staff, house listings, flights, a household budget, library loans, a product list, a team and support tickets,
 * asked as people ask them:
 * - "which employee earns least?" of an "employee_id" beside a "full_name" (the name, as for "who"); "which ticket
 *   took the longest?" of "ticket_no" beside "customer_name" (the ticket's number, not the customer's name);
 * - "which listing has the highest price?" of listings.csv with a "ListPrice" column (the row noun names the rows,
 *   not the column its stem starts), "which neighbourhood has the most listings?" (rows counted);
 * - "3+ bedrooms" (at least 3), "the biggest home by area" of "SqMeters", "readings below freezing" (under 0);
 * - "how many flights had a delay?", "… were on time?" of "Delay (min)"; "which flight leaves first?" (ordered by
 *   the Departure times of day the verb names); "the fastest resolution time" of "hours_to_resolve" (the least);
 * - "which month had the cheapest groceries?" (the Groceries column, not the Rent a price word relates to);
 * - "the most borrowed book" (titles counted, not the Borrowed dates); "what did Pat borrow?" (every title of her
 *   rows); "where does Bella work?" (her Office, not her Start Date);
 * - "orders placed on 2024-06-15" that no row has, "launched in 2024" of a column of years without 2024 (none,
 *   not every row); "which year had the most new starters?" of full dates;
 * - "what does the cheapest product cost?" (the price); "the total value of the stock" (price × stock added up);
 * - "show the employee with the highest salary" (the name, not the salary), "top 2 salaries" (the values),
 *   "records from 2023" beside an id column that holds 2023 (a year of the dates).
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "staff",
    file: "staff.csv",
    header: ["employee_id", "full_name", "department", "salary", "hire_date"],
    rows: [
      ["101", "Ava Stone", "Sales", "52000", "2016-03-01"],
      ["102", "Ben Carter", "IT", "78500", "2012-07-15"],
      ["103", "Chloe Park", "IT", "61250", "2020-01-06"],
      ["104", "Dan Reed", "Finance", "45750", "2018-09-30"],
    ],
  },
  {
    id: "listings",
    file: "listings.csv",
    header: ["Address", "Neighborhood", "Bedrooms", "ListPrice", "SqMeters", "ListedOn"],
    rows: [
      ["12 Oak St", "Riverside", "3", "$420,000", "140", "2024-03-02"],
      ["7 Elm Ave", "Old Town", "2", "$310,000", "85", "2024-05-19"],
      ["30 Birch Rd", "Riverside", "4", "$655,000", "120", "2024-02-11"],
      ["5 Pine Ct", "Riverside", "1", "$199,000", "60", "2024-07-23"],
      ["18 Ash Way", "Old Town", "3", "$380,000", "175", "2024-06-04"],
    ],
  },
  {
    id: "flights",
    file: "flights.csv",
    header: ["Flight", "Destination", "Departure", "Delay (min)"],
    rows: [
      ["AX410", "Madrid", "20:30", "40"],
      ["AX411", "Rome", "06:45", "0"],
      ["AX412", "Oslo", "05:50", "0"],
      ["AX413", "Rome", "13:15", "25"],
      ["AX414", "Vienna", "09:00", "0"],
    ],
  },
  {
    id: "household_budget",
    file: "household_budget.csv",
    header: ["Month", "Rent", "Groceries", "Utilities"],
    rows: [
      ["January", "850", "410", "190"],
      ["February", "850", "365", "210"],
      ["March", "870", "452", "160"],
      ["April", "840", "398", "140"],
    ],
  },
  {
    id: "loans",
    file: "loans.csv",
    header: ["Loan ID", "Title", "Member", "Borrowed", "Returned"],
    rows: [
      ["5001", "Dune", "Pat", "2025-02-03", "2025-02-17"],
      ["5002", "Emma", "Lou", "2025-02-03", ""],
      ["5003", "Dune", "Sam", "2025-02-20", "2025-03-01"],
      ["5004", "Walden", "Pat", "2025-03-04", ""],
      ["5005", "Dune", "Kim", "2025-03-11", "2025-03-30"],
    ],
  },
  {
    id: "sensor_readings",
    file: "sensor_readings.csv",
    header: ["timestamp", "sensor", "temp_c", "humidity"],
    rows: [
      ["2025-01-10 00:00", "S1", "-3.5", "81"],
      ["2025-01-10 06:00", "S2", "1.2", "77"],
      ["2025-01-10 12:00", "S1", "4.8", "64"],
      ["2025-01-10 18:00", "S2", "-0.4", "90"],
    ],
  },
  {
    id: "products",
    file: "products.csv",
    header: ["product", "category", "price", "stock", "launched"],
    rows: [
      ["Aurora Lamp", "Lighting", "45.00", "10", "2023"],
      ["Basalt Mug", "Kitchen", "10.90", "40", "2025"],
      ["Cedar Shelf", "Furniture", "120.50", "4", "2023"],
      ["Delta Chair", "Furniture", "89.99", "0", "2025"],
    ],
  },
  {
    id: "team",
    file: "team.csv",
    header: ["Name", "Role", "Start Date", "Office"],
    rows: [
      ["Aiden Cruz", "Engineer", "Mar 4, 2019", "Berlin"],
      ["Bella Diaz", "Designer", "Jun 17, 2021", "Madrid"],
      ["Caleb Ford", "Engineer", "Jan 9, 2019", "Dublin"],
      ["Daisy Gill", "Analyst", "Oct 30, 2022", "Berlin"],
    ],
  },
  {
    id: "tickets",
    file: "tickets.csv",
    header: ["ticket_no", "customer_name", "priority", "opened_on", "hours_to_resolve"],
    rows: [
      ["88100", "Ann Lee", "High", "2025-05-02", "30"],
      ["88101", "Raj Rao", "Low", "2025-05-04", "5"],
      ["88102", "Ann Lee", "Medium", "2025-05-09", "61"],
      ["88103", "Tom Kay", "High", "2025-05-11", "12"],
    ],
  },
  {
    id: "visits",
    file: "visits.csv",
    header: ["id", "name", "city", "score", "date"],
    rows: [
      ["2021", "Ann Ash", "Austin", "41.50", "2022-11-03"],
      ["2022", "Bob Birch", "Boston", "77.25", "2023-02-14"],
      ["2023", "Cid Cole", "Austin", "12.00", "2023-08-30"],
      ["2024", "Dee Dunn", "Denver", "93.75", "2024-01-09"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());

/** As the decomposer grounds a question (fixtures.ts groundedColumn). */
const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("everyday questions over staff, listings, flights, a budget, loans, products, a team and tickets", () => {
  it("answers 'which employee …' by the name column, not the id its row noun spells", () => {
    expect(answer("Which employee has the lowest salary?", "staff")).toEqual(["Dan Reed"]);
    expect(answer("Which employee was hired earliest?", "staff")).toEqual(["Ben Carter"]);
    expect(answer("Which employee is paid the most?", "staff")).toEqual(["Ben Carter"]);
    expect(answer("What is the employee id of Chloe Park?", "staff")).toEqual(["103"]);
  });

  it("reads the table's row noun as the rows, though a header starts with its stem", () => {
    expect(answer("Which listing has the highest price?", "listings")).toEqual(["30 Birch Rd"]);
    expect(answer("Which neighborhood has the most listings?", "listings")).toEqual(["Riverside"]);
  });

  it("reads '3+' as at least 3 and an area from a header written SqMeters", () => {
    expect(answer("number of homes with 3+ bedrooms", "listings")).toEqual(["3"]);
    expect(answer("What is the biggest home by area?", "listings")).toEqual(["18 Ash Way"]);
  });

  it("counts flights that had a delay or were on time, and orders by the departure the verb names", () => {
    expect(answer("How many flights had a delay?", "flights")).toEqual(["2"]);
    expect(answer("How many flights had no delay?", "flights")).toEqual(["3"]);
    expect(answer("How many flights were on time?", "flights")).toEqual(["3"]);
    expect(answer("Which flight leaves first?", "flights")).toEqual(["AX412"]);
  });

  it("orders by the column named after a price word, not the one the price word relates to", () => {
    expect(answer("Which month had the cheapest groceries?", "household_budget")).toEqual(["February"]);
  });

  it("counts what 'the most borrowed book' names, not the dates its participle spells", () => {
    expect(answer("most borrowed book", "loans")).toEqual(["Dune"]);
  });

  it("answers 'what did Pat borrow?' with every title of Pat's rows, not the first row's Borrowed date", () => {
    expect(answer("What did Pat borrow?", "loans")).toEqual(["Dune", "Walden"]);
  });

  it("keeps a date no row holds as a condition, and reads 'below freezing' as under 0", () => {
    expect(answer("How many books were borrowed on 2025-03-05?", "loans")).toEqual(["0"]);
    expect(answer("How many books were borrowed on 2025-03-04?", "loans")).toEqual(["1"]);
    expect(answer("How many readings were below freezing?", "sensor_readings")).toEqual(["2"]);
  });

  it("keeps a year no row of a column of years holds as a condition (none, not every row)", () => {
    expect(answer("how many products launched in 2024", "products")).toEqual(["0"]);
    expect(answer("how many products launched in 2025", "products")).toEqual(["2"]);
  });

  it("answers what the cheapest one costs with the price, and the stock's worth as price times quantity", () => {
    expect(answer("what does the cheapest product cost", "products")).toEqual(["10.90"]);
    expect(answer("what is the total value of the stock", "products")).toEqual(["1368"]);
    expect(answer("How much is our inventory worth?", "products")).toEqual(["1368"]);
  });

  it("answers where someone works with a place column, not a date, and the year with the most starters", () => {
    expect(answer("Where does Bella Diaz work?", "team")).toEqual(["Madrid"]);
    expect(answer("Which year had the most new starters?", "team")).toEqual(["2019"]);
  });

  it("answers 'which ticket …' by its number, not a customer's name column, and a time asked of durations", () => {
    expect(answer("Which ticket took the longest to resolve?", "tickets")).toEqual(["88102"]);
    expect(answer("Which ticket was opened most recently?", "tickets")).toEqual(["88103"]);
    expect(answer("What is the fastest resolution time?", "tickets")).toEqual(["5"]);
  });

  it("answers a row asked for by its name, and the top values asked for by themselves", () => {
    expect(answer("Show the employee with the highest salary", "staff")).toEqual(["Ben Carter"]);
    expect(answer("Top 2 salaries", "staff")).toEqual(["78500", "61250"]);
  });

  it("reads a year beside a column of dates as a year, not the record number an id column holds", () => {
    expect(answer("How many records are from 2023?", "visits")).toEqual(["2"]);
    expect(answer("What is the score of id 2023?", "visits")).toEqual(["12.00"]);
  });
});
