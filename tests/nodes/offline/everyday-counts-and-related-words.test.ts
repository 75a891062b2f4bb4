/**
 * A count whose verb names a measure counts the rows where that measure is above zero: "how many days did it
 * snow?" over a "Snow cm" column, "parcels that arrived late" over "Days late"; a date column with blanks counts
 * its dated rows ("how many parcels have been dispatched?"). A month is never a typo of a person's name; a
 * related word orders by its measure ("most calorific" by Calories, "pays the most" by a fee) or is the
 * count asked ("how many people went?" of a Travellers column).
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables } from "./fixtures.js";

const fx = openTables([
  {
    id: "snowfall",
    file: "snowfall.csv",
    header: ["Date", "Resort", "Snow cm", "Lifts open"],
    rows: [
      ["2026-01-05", "Alpbach", "12", "9"],
      ["2026-01-05", "Zermatt", "0", "30"],
      ["2026-01-06", "Alpbach", "0", "10"],
      ["2026-01-06", "Zermatt", "25", "28"],
      ["2026-01-07", "Alpbach", "4", "10"],
    ],
  },
  {
    id: "parcels",
    file: "parcels.csv",
    header: ["Parcel", "Courier", "Dispatched", "Days late", "Late fee"],
    rows: [
      ["P-1", "Swiftly", "2026-03-02", "0", "0"],
      ["P-2", "Parcelo", "2026-03-04", "3", "4"],
      ["P-3", "Swiftly", "", "0", "0"],
      ["P-4", "Parcelo", "2026-03-09", "6", "8"],
      ["P-5", "Swiftly", "2026-03-11", "0", "0"],
    ],
  },
  {
    id: "dishes",
    file: "dishes.csv",
    header: ["Dish", "Calories", "Price"],
    rows: [
      ["Lentil soup", "320", "6.5"],
      ["Lasagne", "780", "11"],
      ["Green salad", "150", "7"],
    ],
  },
  {
    id: "subscribers",
    file: "subscribers.csv",
    header: ["Subscriber", "Tier", "Monthly fee"],
    rows: [
      ["Ivo Stark", "Basic", "9"],
      ["Rhea Lund", "Gold", "25"],
      ["Tom Ash", "Basic", "9"],
      ["Ola Berg", "Silver", "15"],
    ],
  },
  {
    id: "outings",
    file: "outings.csv",
    header: ["Outing", "Destination", "Travellers", "Cost"],
    rows: [
      ["O1", "Bergen", "4", "820"],
      ["O2", "Ghent", "2", "410"],
      ["O3", "Bergen", "3", "600"],
    ],
  },
  {
    id: "orders",
    file: "orders.csv",
    header: ["Date", "Rep", "Amount"],
    rows: [
      ["2026-02-11", "Ada Marsh", "300"],
      ["2026-03-02", "Ben Holt", "120"],
      ["2026-03-19", "Ben Holt", "80"],
      ["2026-04-07", "Ada Marsh", "210"],
    ],
  },
] satisfies RawTable[]);
afterAll(() => fx.close());

const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("a count of the rows where a named measure is above zero", () => {
  it("counts the days it snowed, not the centimetres", () => {
    expect(answer("How many days did it snow at Alpbach?", "snowfall")).toEqual(["2"]);
    expect(answer("How many days had snow?", "snowfall")).toEqual(["3"]);
    expect(answer("How much snow fell at Zermatt?", "snowfall")).toEqual(["25"]);
  });
  it("reads 'late' in a 'Days late' column, and the column's own name as the measure", () => {
    expect(answer("How many parcels arrived late?", "parcels")).toEqual(["2"]);
    expect(answer("What is the total number of days late?", "parcels")).toEqual(["9"]);
    expect(answer("What is the average late fee?", "parcels")).toEqual(["2.4"]);
  });
  it("counts the dated rows of a date column with blanks", () => {
    expect(answer("How many parcels have been dispatched?", "parcels")).toEqual(["4"]);
    expect(answer("Which parcel hasn't been dispatched?", "parcels")).toEqual(["P-3"]);
    expect(answer("When was P-4 dispatched?", "parcels")).toEqual(["2026-03-09"]);
  });
});

describe("a month is no typo of a name", () => {
  it("reads March as the month, not the rep Marsh", () => {
    expect(answer("How many orders were placed in March?", "orders")).toEqual(["2"]);
    expect(answer("What was the order amount on March 19?", "orders")).toEqual(["80"]);
  });
});

describe("a related word names the measure a superlative orders by", () => {
  it("orders by Calories for 'most calorific' and by the fee for 'pays the most'", () => {
    expect(answer("What is the most calorific dish?", "dishes")).toEqual(["Lasagne"]);
    expect(answer("Which subscriber pays the most?", "subscribers")).toEqual(["Rhea Lund"]);
  });
  it("reads 'how many people' in a column of travellers", () => {
    expect(answer("How many people went to Ghent?", "outings")).toEqual(["2"]);
  });
});
