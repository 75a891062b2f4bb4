/**
 * A month column written "2024-06" is no span of years, and "how long … in km" asks for another unit: the
 * length is looked up, not years counted. "The earliest time" of a table with a date and a clock column is the
 * clock's earliest value, not the first day's. "Last walked in 2022" is a condition on a "Last Walked" column,
 * not the last row; a dash before "how many" keeps the year. "How many pieces were fired?" over a "Fired"
 * quantity column adds the quantities up. "Date of the earliest request" asks for its date, under whatever header.
 * "The longest visit" is the longest Length (min), not the latest Time.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables, planGenerator } from "./fixtures.js";

const fx = openTables([
  {
    id: "walks",
    file: "walks.csv",
    header: ["Walk", "Area", "Length (km)", "Time (h)", "Grade", "Last Walked"],
    rows: [
      ["Mill Lane", "Vale", "6.1", "2", "Easy", "2023-04"],
      ["Kite Hill", "Fells", "14.8", "5.5", "Hard", "2021-09"],
      ["Brook Path", "Vale", "4.3", "1.5", "Easy", "2024-02"],
      ["Crag Top", "Fells", "11.0", "4", "Moderate", "2022-11"],
    ],
  },
  {
    id: "kiln_log",
    file: "kiln_log.csv",
    header: ["Date", "Day", "Piece", "Potter", "Qty Fired", "Qty Sold", "Out of Kiln"],
    rows: [
      ["2025-03-03", "Mon", "Bowl", "Ines", "12", "9", "09:40"],
      ["2025-03-03", "Mon", "Jug", "Ola", "6", "6", "07:15"],
      ["2025-03-04", "Tue", "Bowl", "Ines", "4", "1", "11:05"],
      ["2025-03-05", "Wed", "Plate", "Ola", "20", "15", "06:50"],
    ],
  },
  {
    id: "requests",
    file: "requests.csv",
    header: ["Request #", "Logged", "Client", "Area", "Hours"],
    rows: [
      ["301", "2025-04-09", "Larch Ltd", "Roof", "6"],
      ["302", "2025-03-27", "Pell & Sons", "Boiler", "3"],
      ["303", "2025-05-02", "Larch Ltd", "Roof", "9"],
    ],
  },
  {
    id: "visits",
    file: "visits.csv",
    header: ["Ref", "Patient", "Date", "Time", "Length (min)", "Fee ($)"],
    rows: [
      ["71", "Ola Berg", "2025-06-02", "09:00", "20", "60"],
      ["72", "Ivo Lind", "2025-06-02", "16:30", "15", "45"],
      ["73", "Mae Cole", "2025-06-03", "11:15", "50", "120"],
    ],
  },
  {
    id: "tenures",
    file: "tenures.csv",
    header: ["Head", "School", "Years"],
    rows: [
      ["Ada Marsh", "North", "1981–2007"],
      ["Ben Loy", "South", "1996–99"],
      ["Cy Hart", "East", "2001–2012"],
    ],
  },
] satisfies RawTable[]);
afterAll(() => fx.close());

const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("how long, in another unit than years", () => {
  it("looks the length up instead of reading a month as a span of years", () => {
    expect(answer("How long is Kite Hill in km?", "walks")).toEqual(["14.8"]);
    expect(planGenerator(fx, "How long is Kite Hill in km?", "walks")).not.toBe("aggregate.range-span");
    expect(answer("How long do the easy walks take on average, in hours?", "walks")).toEqual(["1.75"]);
  });
  it("still counts the years of a span", () => {
    expect(answer("How long did Ada Marsh serve?", "tenures")).toEqual(["26 years"]);
    expect(answer("How long was Ben Loy head?", "tenures")).toEqual(["3 years"]);
  });
});

describe("the earliest or latest time of day", () => {
  it("orders by the clock column, not the date", () => {
    expect(answer("What's the earliest time anything came out of the kiln?", "kiln_log")).toEqual(["06:50"]);
    expect(answer("latest out of kiln time", "kiln_log")).toEqual(["11:05"]);
  });
  it("still orders by the date when no time is asked", () => {
    expect(answer("Which piece has the latest date?", "kiln_log")).toEqual(["Plate"]);
  });
});

describe("a position word that is a header's", () => {
  it("reads 'last walked in 2022' as a condition on the Last Walked column", () => {
    expect(answer("Which walks were last walked in 2022?", "walks")).toEqual(["Crag Top"]);
    expect(answer("Which walks were last walked in 2023 or later?", "walks").sort()).toEqual([
      "Brook Path",
      "Mill Lane",
    ]);
  });
  it("keeps the year of a fragment that ends with a dash and 'how many'", () => {
    expect(answer("walks last walked in 2021 - how many", "walks")).toEqual(["1"]);
  });
});

describe("how many were done, over a column the verb names", () => {
  it("adds up the quantity column", () => {
    expect(answer("How many pieces were sold on 2025-03-03?", "kiln_log")).toEqual(["15"]);
    expect(answer("How many pieces were fired in total?", "kiln_log")).toEqual(["42"]);
  });
  it("still counts the different values when nothing is done to them", () => {
    expect(answer("How many pieces are there?", "kiln_log")).toEqual(["3"]);
  });
});

describe("the date of a row", () => {
  it("answers the date column, whatever its header", () => {
    expect(answer("date of the earliest request", "requests")).toEqual(["2025-03-27"]);
    expect(answer("What was the date of the longest request?", "requests")).toEqual(["2025-05-02"]);
  });
});

describe("the longest of a table with a clock and a length", () => {
  it("orders by the length, not the time of day", () => {
    expect(answer("how long was the longest visit", "visits")).toEqual(["50"]);
    expect(answer("who had the shortest visit?", "visits")).toEqual(["Ivo Lind"]);
  });
});
