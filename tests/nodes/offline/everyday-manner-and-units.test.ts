/**
 * Questions that name their column by a manner, a unit or a verb: "how was it paid?" (a Method column),
 * "how hard is …?" (Difficulty, not the cell "Hard"), "how long is it in km?" (the column in km, not the
 * one in hours), "where is it playing?" (a Screen), "seen" (a Last Visit), "when is it due?" (a Deadline
 * beside a Received date); a price that repeats on every row of an item is read once; and durations:
 * "an hour and a half", "under 3 hours" against times written "2:58:33".
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { openTables, planColumn } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "trails",
    file: "trails.csv",
    header: ["Trail", "Region", "Length (km)", "Dur. (h)", "Difficulty"],
    rows: [
      ["Heron Way", "Lakes", "9.4", "3.5", "Moderate"],
      ["Fox Ridge", "Hills", "12.1", "5", "Hard"],
      ["Mill Loop", "Lakes", "4.2", "1.5", "Easy"],
    ],
  },
  {
    id: "donations",
    file: "donations.csv",
    header: ["Receipt No.", "Donor", "Amount", "Method"],
    rows: [
      ["R-1", "Ana Holm", "£61.00", "Cash"],
      ["R-2", "Ben Cole", "£250.00", "Cheque"],
    ],
  },
  {
    id: "screenings",
    file: "screenings.csv",
    header: ["Film", "Country", "Screen", "Runtime (min)"],
    rows: [
      ["Velvet Orchard", "Mexico", "Studio", "84"],
      ["Paper Tides", "Norway", "Screen 1", "121"],
      ["Winter Echoes", "Chile", "Screen 2", "95"],
    ],
  },
  {
    id: "recalls",
    file: "recalls.csv",
    header: ["Patient", "DOB", "Last Visit"],
    rows: [
      ["Joan Hale", "1992-02-14", "2023-12-31"],
      ["Katya Bran", "1960-05-02", "2024-03-08"],
      ["Leo Grant", "2001-09-30", "2024-01-15"],
    ],
  },
  {
    id: "jobs",
    file: "jobs.csv",
    header: ["Job Ref", "Client", "Received", "Deadline"],
    rows: [
      ["J-1", "Kite & Co", "2024-02-11", "2024-02-17"],
      ["J-2", "Orbit Labs", "2024-04-27", "2024-05-08"],
    ],
  },
  {
    id: "bakery",
    file: "bakery.csv",
    header: ["Date", "Item", "Qty Sold", "Unit Price"],
    rows: [
      ["2025-02-03", "Rye Loaf", "12", "£4.20"],
      ["2025-02-04", "Rye Loaf", "15", "£4.20"],
      ["2025-02-04", "Baguette", "30", "£2.10"],
    ],
  },
  {
    id: "gigs",
    file: "gigs.csv",
    header: ["Event", "Venue", "Tickets Sold", "Price"],
    rows: [
      ["Jazz Night", "Harbour Hall", "734", "40"],
      ["Folk Session", "Old Mill", "213", "25"],
    ],
  },
  {
    id: "golf",
    file: "golf.csv",
    header: ["Pos", "Player", "Ctry", "Total", "Earnings"],
    rows: [
      ["1", "Viktor Lund", "SWE", "267", "$3,600,000"],
      ["2", "Sam Hale", "USA", "270", "$2,100,000"],
      ["3", "Joe Park", "USA", "272", "$1,300,000"],
    ],
  },
  {
    id: "volunteer_shifts",
    file: "volunteer_shifts.csv",
    header: ["Shift ID", "Volunteer", "Day", "Hrs"],
    rows: [
      ["SH-1", "Callum Reid", "Mon", "3.5"],
      ["SH-2", "Ada Lowe", "Mon", "4"],
      ["SH-3", "Callum Reid", "Tue", "6"],
    ],
  },
  {
    id: "phones",
    file: "phones.csv",
    header: ["Model", "Price", "Weight (g)"],
    rows: [
      ["Nova 5", "$359", "140"],
      ["Arc Pro", "$899", "205"],
    ],
  },
  {
    id: "race",
    file: "race.csv",
    header: ["Pos", "Rider", "Time"],
    rows: [
      ["1", "Kasper Holm", "2:51:10"],
      ["2", "Pieter Dekker", "2:58:33"],
      ["3", "Emeka Gruber", "3:04:02"],
    ],
  },
];

const fixture = openTables(tables);
afterAll(() => fixture.close());
const answer = (question: string, table: string) => planColumn(fixture, question, table);

describe("the column a manner, a unit or a verb names", () => {
  it("reads 'how was it paid?' as the Method", () => {
    expect(answer("How was R-2 paid?", "donations")).toEqual(["Cheque"]);
  });
  it("reads 'how hard' as the Difficulty and 'in km' as the column in km", () => {
    expect(answer("How hard is Fox Ridge?", "trails")).toEqual(["Hard"]);
    expect(answer("How long is Heron Way in km?", "trails")).toEqual(["9.4"]);
  });
  it("reads 'where is it playing?' as the Screen, 'seen' as the last visit, 'due' as the Deadline", () => {
    expect(answer("Where is Paper Tides playing?", "screenings")).toEqual(["Screen 1"]);
    expect(answer("Who was seen most recently?", "recalls")).toEqual(["Katya Bran"]);
    expect(answer("When is J-2 due?", "jobs")).toEqual(["2024-05-08"]);
  });
  it("reads 'how much are tickets' as the price, though a column counts tickets sold", () => {
    expect(answer("How much are tickets for Jazz Night?", "gigs")).toEqual(["40"]);
  });
  it("reads a price that repeats on every row of the item once", () => {
    expect(answer("How much is a rye loaf?", "bakery")).toEqual(["£4.20"]);
  });
});

describe("durations", () => {
  it("reads 'an hour and a half' as 90 minutes", () => {
    expect(answer("How many films are shorter than an hour and a half?", "screenings")).toEqual(["1"]);
  });
  it("compares hours with times written h:mm:ss", () => {
    expect(answer("How many riders finished in under 3 hours?", "race")).toEqual(["2"]);
  });
});

describe("three wordings the suites hold", () => {
  it("adds up the column the closing verb names, not the Total of strokes", () => {
    expect(answer("How much did the players from the USA earn in total?", "golf")).toEqual(["3400000"]);
  });
  it("reads 'per shift' and 'per day' as a rate over the rows, not one line per group", () => {
    expect(answer("average hrs per shift", "volunteer_shifts")).toEqual(["4.5"]);
    expect(answer("On average, how many hours were worked per day?", "volunteer_shifts")).toEqual(["4.5"]);
  });
  it("reads 'how much does the lightest phone weigh?' as the weight", () => {
    expect(answer("How much does the lightest phone weigh?", "phones")).toEqual(["140"]);
  });
});
