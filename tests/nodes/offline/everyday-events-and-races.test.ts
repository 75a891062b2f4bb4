/**
 * A club's events, a bakery counter's daily sales and a fun run's results, asked as people ask: days
 * written "Tue" asked as "Tuesday", the column a verb names summed over the rows a day selects, times of
 * day ("after 7 pm"), "the end of March", a "Free" price, a speed in km/h, "did not finish" of DNF, and
 * "the youngest runner's age".
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { openTables, planColumn } from "./fixtures.js";

const EVENTS: RawTable = {
  id: "club_events",
  file: "club_events.csv",
  header: ["Event", "Date", "Venue", "Price", "Start", "Length (min)"],
  rows: [
    ["Jazz Night", "14/01/2025", "Hall A", "£12.00", "19:30", "150"],
    ["Poetry Slam", "02/02/2025", "Room 3", "£5.00", "18:00", "90"],
    ["Film Club", "20/02/2025", "Room 3", "£4.00", "20:15", "110"],
    ["Chess Open", "08/03/2025", "Hall B", "£8.50", "10:00", "240"],
    ["Quiz Night", "29/03/2025", "Hall A", "£6.00", "19:00", "120"],
    ["Book Swap", "12/04/2025", "Library", "Free", "11:00", "60"],
    ["Salsa Class", "10/05/2025", "Hall A", "£10.00", "20:30", "75"],
  ],
};
const SALES: RawTable = {
  id: "counter_sales",
  file: "counter_sales.csv",
  header: ["Date", "Day", "Product", "Seller", "Qty Made", "Qty Sold"],
  rows: [
    ["2025-03-03", "Mon", "Rye Bread", "Nina", "20", "18"],
    ["2025-03-03", "Mon", "Bagel", "Omar", "50", "41"],
    ["2025-03-03", "Mon", "Muffin", "Pia", "30", "30"],
    ["2025-03-04", "Tue", "Rye Bread", "Omar", "20", "15"],
    ["2025-03-04", "Tue", "Bagel", "Pia", "50", "50"],
    ["2025-03-04", "Tue", "Muffin", "Nina", "30", "22"],
    ["2025-03-05", "Wed", "Bagel", "Nina", "60", "47"],
    ["2025-03-05", "Wed", "Muffin", "Omar", "30", "27"],
  ],
};
const RUN: RawTable = {
  id: "fun_run",
  file: "fun_run.csv",
  header: ["Pos", "Bib", "Runner", "Team", "Age", "Time", "Avg km/h"],
  rows: [
    ["1", "17", "Lena Fox", "Harbour Harriers", "29", "0:41:12", "14.6"],
    ["2", "4", "Tom Reyes", "Park Runners", "34", "0:43:05", "13.9"],
    ["3", "22", "Ada Moss", "Harbour Harriers", "41", "0:45:50", "13.1"],
    ["4", "12", "Sam Okoro", "Hill Striders", "19", "0:58:44", "10.2"],
    ["", "6", "Kit Byrne", "Park Runners", "38", "DNF", ""],
    ["", "27", "Ivo Salas", "Hill Striders", "45", "DNF", ""],
  ],
};

const fixture = openTables([EVENTS, SALES, RUN]);
const answer = (question: string, table: string) => planColumn(fixture, question, table);
afterAll(() => fixture.close());

describe("a bakery counter's daily sales", () => {
  it("adds up the column the verb names, over the rows a weekday written short selects", () => {
    expect(answer("How many items did we sell on Tuesday?", "counter_sales")).toEqual(["87"]);
    expect(answer("How many bagels did we sell in total?", "counter_sales")).toEqual(["138"]);
  });
  it("reads one row that a product and a weekday select together", () => {
    expect(answer("Who sold the muffins on Tuesday?", "counter_sales")).toEqual(["Nina"]);
  });
});

describe("a club's events", () => {
  it("compares a time of day with a column of hh:mm times", () => {
    expect(answer("Which events start after 7 pm?", "club_events")?.sort()).toEqual(
      ["Film Club", "Jazz Night", "Salsa Class"].sort(),
    );
    expect(answer("How many events start before 12:00?", "club_events")).toEqual(["2"]);
  });
  it("reads 'after the end of February' as from March on", () => {
    expect(answer("How many events were held after the end of February 2025?", "club_events")).toEqual(["4"]);
  });
  it("reads a Free price as 0", () => {
    expect(answer("What is the cheapest event's venue?", "club_events")).toEqual(["Library"]);
  });
});

describe("a fun run's results", () => {
  it("reads a speed from a km/h column", () => {
    expect(answer("What was the fastest average speed?", "fun_run")).toEqual(["14.6"]);
  });
  it("reads 'did not finish' as the DNF cells", () => {
    expect(answer("How many runners did not finish?", "fun_run")).toEqual(["2"]);
  });
  it("answers the value a superlative row's possessive names", () => {
    expect(answer("youngest runner's age", "fun_run")).toEqual(["19"]);
  });
});

const RESULTS: RawTable = {
  id: "road_race",
  file: "road_race.csv",
  header: ["Pos", "Bib", "Rider", "DOB", "Entered"],
  rows: [
    ["1", "3", "Ola Berg", "4 May 1990", "2 Feb 2025"],
    ["2", "1", "Pia Moe", "9 Jun 1988", "31 Jan 2025"],
    ["3", "2", "Tor Aas", "1 Mar 1995", "16 Jan 2025"],
  ],
};
const SHOWS: RawTable = {
  id: "late_shows",
  file: "late_shows.csv",
  header: ["#", "Title", "Date", "Start"],
  rows: [
    ["14", "Blue Harbour", "2025-10-14", "18:00"],
    ["15", "Paper Kites", "2025-10-16", "21:15"],
    ["16", "Iron Meadow", "2025-10-16", "17:45"],
    ["17", "Night Ferry", "2025-10-17", "16:30"],
  ],
};
const more = openTables([RESULTS, SHOWS]);
afterAll(() => more.close());

describe("a road race's entries and a run of late shows", () => {
  it("reads a number by the column its neighbour word names when two columns hold it", () => {
    expect(planColumn(more, "Who wore bib 2?", "road_race")).toEqual(["Tor Aas"]);
  });
  it("reads an entry date from an Entered column", () => {
    expect(planColumn(more, "entry date Pia Moe", "road_race")).toEqual(["31 Jan 2025"]);
  });
  it("reads '16 October 2025' as a date, not the row numbered 16", () => {
    expect(planColumn(more, "Which title starts earliest on 16 October 2025?", "late_shows")).toEqual(["Iron Meadow"]);
    expect(planColumn(more, "How many shows are on 16 Oct?", "late_shows")).toEqual(["2"]);
  });
});

const CHART: RawTable = {
  id: "chart_toppers",
  file: "chart_toppers.csv",
  header: ["Title", "Artist", "Weeks at No. 1"],
  rows: [
    ["Blue Harbour", "The Kites", "3"],
    ["Paper Moon", "Ada Ray", "1"],
    ["Night Ferry", "The Kites", "7"],
  ],
};
const chart = openTables([CHART]);
afterAll(() => chart.close());

describe("a chart of number ones", () => {
  it("reads 'at no. 1' as the header it spells, not as a cell holding 1", () => {
    expect(planColumn(chart, "how many weeks was Night Ferry at no. 1?", "chart_toppers")).toEqual(["7"]);
  });
});
