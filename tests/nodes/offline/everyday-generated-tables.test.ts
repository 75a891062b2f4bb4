/**
 * Tables as a script writes them (snake_case headers, ISO dates), asked plainly: "the average price" beside
 * an "avg_rating" column averages the prices, and a date written as the column writes it bounds the rows
 * ("after 2024-09-01"). And a table whose rows are numbered by what they are ("Room" 101, 102 …): "how many
 * rooms" counts them, and "the cheapest available room" is a room.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { openTables, planColumn } from "./fixtures.js";

const tables: RawTable[] = [
  {
    id: "products",
    file: "products.csv",
    header: ["product_name", "category", "unit_price", "avg_rating"],
    rows: [
      ["Desk Chair", "furniture", "149.0", "4.3"],
      ["Monitor Arm", "accessories", "39.5", "4.6"],
      ["Standing Desk", "furniture", "389.0", "4.1"],
      ["Bookshelf", "furniture", "119.0", "4.7"],
    ],
  },
  {
    id: "results",
    file: "results.csv",
    header: ["id", "name", "city", "score", "date"],
    rows: [
      ["1", "Ava Stone", "Austin", "59.4", "2024-03-13"],
      ["2", "Ben Ortiz", "Boston", "79.1", "2024-09-27"],
      ["3", "Cleo Park", "Denver", "72.2", "2024-06-19"],
      ["4", "Dara Singh", "Austin", "43.5", "2024-09-07"],
    ],
  },
];

const fixture = openTables(tables);
afterAll(() => fixture.close());
const answer = (question: string, table: string) => planColumn(fixture, question, table);

describe("tables a script writes", () => {
  it("averages the column the word after 'average' names, not an avg_ column", () => {
    expect(answer("What is the average price of furniture?", "products")).toEqual(["219"]);
    expect(answer("What is the average rating of furniture?", "products")).toEqual(["4.37"]);
  });
  it("bounds the rows by a date written as the column writes it", () => {
    expect(answer("Which names have a date after 2024-09-01?", "results")).toEqual(["Ben Ortiz", "Dara Singh"]);
    expect(answer("How many results are dated before 2024-06-19?", "results")).toEqual(["1"]);
  });
});

const hotel = openTables([
  {
    id: "rooms",
    file: "rooms.csv",
    header: ["Room", "Type", "Rate/Night (£)", "Status"],
    rows: [
      ["101", "Single", "79", "Available"],
      ["102", "Double", "109", "Occupied"],
      ["201", "Double", "119", "Available"],
      ["301", "Suite", "210", "Available"],
    ],
  },
]);
afterAll(() => hotel.close());

describe("rows numbered by what they are", () => {
  it("counts the rooms rather than adding up their numbers", () => {
    expect(planColumn(hotel, "How many rooms are available?", "rooms")).toEqual(["3"]);
  });
  it("answers a superlative over the rows with the row's own number", () => {
    expect(planColumn(hotel, "What's the cheapest available room?", "rooms")).toEqual(["101"]);
    expect(planColumn(hotel, "What is the most expensive room?", "rooms")).toEqual(["301"]);
  });
});
