/**
 * A weather log, a local election, a season's fixtures, software releases, a to-do list, a phone bill and a shop's
 * sales, asked as people ask them: "the lowest temperature" and "the hottest day" of "High (C)" / "Low (C)"
 * columns (a temperature's header may be its unit alone); "how many days did it rain?" (Rainfall above zero),
 * "the wind from the north" (N); "who won the election?" of rows not in finishing order (the most votes); "how
 * many matches did Elm play?" of Home / Away columns (either role), "… at home?" (that role), "how many away
 * games …" (rows, not the away goals); "the latest release" of a "Released" date (the version, not the date)
 * and "how many versions were released in 2024?" (rows, not a sum of version numbers); "how much does the most
 * expensive task cost?" (the amount); "finished" / "completed" tasks of a Done column; "which month had the
 * biggest bill?" of Jan, Feb, Mar (the row's own cell, not a month name made by grouping); "show me customers
 * from France" (all of them), "how many lamps did we sell?" (the Qty added up), "what was the revenue in
 * April?" (the month's rows added up).
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "weather_log",
    file: "weather_log.csv",
    header: ["Date", "High (C)", "Low (C)", "Rainfall (mm)", "Wind"],
    rows: [
      ["2025-04-01", "14", "6", "0.0", "NW"],
      ["2025-04-02", "18", "9", "2.4", "SW"],
      ["2025-04-03", "11", "-2", "0.0", "N"],
      ["2025-04-04", "21", "12", "5.1", "S"],
      ["2025-04-05", "16", "4", "0.0", "N"],
    ],
  },
  {
    id: "ward_election",
    file: "ward_election.csv",
    header: ["Candidate", "Party", "Votes"],
    rows: [
      ["Rosa Bell", "Green", "1,204"],
      ["Tom Hart", "Labour", "3,870"],
      ["Uma Iqbal", "Liberal", "2,115"],
      ["Vic Jonas", "Independent", "640"],
    ],
  },
  {
    id: "fixtures",
    file: "fixtures.csv",
    header: ["Date", "Home", "Away", "Home Goals", "Away Goals"],
    rows: [
      ["2025-08-02", "Elm", "Oak", "2", "1"],
      ["2025-08-02", "Ash", "Yew", "0", "0"],
      ["2025-08-09", "Oak", "Ash", "3", "2"],
      ["2025-08-09", "Yew", "Elm", "1", "4"],
      ["2025-08-16", "Elm", "Ash", "1", "1"],
      ["2025-08-16", "Yew", "Oak", "2", "0"],
    ],
  },
  {
    id: "app_releases",
    file: "app_releases.csv",
    header: ["Version", "Released", "Downloads"],
    rows: [
      ["1.0", "2023-05-10", "4200"],
      ["1.1", "2023-11-02", "9100"],
      ["2.0", "2024-03-15", "15300"],
      ["2.1", "2024-09-30", "12800"],
      ["3.0", "2025-02-14", "20100"],
    ],
  },
  {
    id: "todo",
    file: "todo.csv",
    header: ["Task", "Owner", "Price", "Done"],
    rows: [
      ["Book hall", "Sam", "120.00", "Yes"],
      ["Print flyers", "Lee", "45.50", "No"],
      ["Order cake", "Sam", "60.00", "Yes"],
      ["Hire chairs", "Ana", "80.00", "Yes"],
    ],
  },
  {
    id: "mobile_bill",
    file: "mobile_bill.csv",
    header: ["Month", "Minutes", "Amount"],
    rows: [
      ["Jan", "210", "£24.10"],
      ["Feb", "340", "£31.75"],
      ["Mar", "120", "£19.99"],
    ],
  },
  {
    id: "shop_sales",
    file: "shop_sales.csv",
    header: ["Date", "Customer", "Country", "Product", "Qty", "Total"],
    rows: [
      ["2025-04-03", "Mia Fox", "France", "Lamp", "2", "48.00"],
      ["2025-04-11", "Noah Hill", "Spain", "Mug", "4", "32.00"],
      ["2025-04-20", "Ella King", "France", "Lamp", "3", "72.00"],
      ["2025-05-02", "Liam Day", "Spain", "Lamp", "1", "24.00"],
      ["2025-05-09", "Zoe Lane", "France", "Mug", "2", "16.00"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());

/** As the decomposer grounds a question (fixtures.ts groundedColumn). */
const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("everyday questions over weather, votes, fixtures and releases", () => {
  it("reads a temperature from columns whose header is its unit, hot from the high and cold from the low", () => {
    expect(answer("What was the lowest temperature recorded?", "weather_log")).toEqual(["-2"]);
    expect(answer("What was the hottest day?", "weather_log")).toEqual(["2025-04-04"]);
    expect(answer("Which day was coldest?", "weather_log")).toEqual(["2025-04-03"]);
  });

  it("counts the days it rained (a Rainfall column above zero) and the days of a north wind (N)", () => {
    expect(answer("How many days did it rain?", "weather_log")).toEqual(["2"]);
    expect(answer("On how many days was the wind from the north?", "weather_log")).toEqual(["2"]);
  });

  it("answers who won by the most votes when the rows are not in finishing order", () => {
    expect(answer("Who won the election?", "ward_election")).toEqual(["Tom Hart"]);
    expect(answer("Which party won?", "ward_election")).toEqual(["Labour"]);
  });

  it("finds a team in either role unless the question names one", () => {
    expect(answer("How many matches did Elm play?", "fixtures")).toEqual(["3"]);
    expect(answer("How many matches did Oak play at home?", "fixtures")).toEqual(["1"]);
    expect(answer("How many away games did Ash play?", "fixtures")).toEqual(["2"]);
    expect(answer("How many matches did Yew play at home?", "fixtures")).toEqual(["2"]);
  });

  it("answers the latest release by its version, and counts versions rather than adding them up", () => {
    expect(answer("What was the latest release?", "app_releases")).toEqual(["3.0"]);
    expect(answer("How many versions were released in 2024?", "app_releases")).toEqual(["2"]);
    expect(answer("Which version had the most downloads?", "app_releases")).toEqual(["3.0"]);
  });

  it("answers 'how much does the most expensive … cost?' with the amount", () => {
    expect(answer("How much does the most expensive task cost?", "todo")).toEqual(["120.00"]);
  });

  it("reads 'finished' and 'completed' as a Done column's yes", () => {
    expect(answer("How many tasks are finished?", "todo")).toEqual(["3"]);
    expect(answer("How many tasks are completed?", "todo")).toEqual(["3"]);
  });

  it("answers 'which month …' of a column of one month a row with that row's cell", () => {
    expect(answer("Which month had the biggest bill?", "mobile_bill")).toEqual(["Feb"]);
  });

  it("lists the rows 'show me …' asks for, adds up units sold and money taken over a period", () => {
    expect(answer("show me customers from France", "shop_sales")).toEqual(["Mia Fox", "Ella King", "Zoe Lane"]);
    expect(answer("how many lamps did we sell", "shop_sales")).toEqual(["6"]);
    expect(answer("what was the revenue in April", "shop_sales")).toEqual(["152"]);
  });
});
