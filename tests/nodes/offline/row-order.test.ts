import { describe, expect, it } from "vitest";
import { holdsRank, namedRank, orderKey, rowAtOrder, rowOrderOf } from "../../../nodes/offline/row-order.js";

const columns = ["Rank", "Team", "Wins", "Founded"];
const rows = [
  ["1", "Oaks", "40", "1901"],
  ["2", "Pines", "52", "1888"],
  ["3", "Elms", "47", "March 2 , 1920"],
];
const values = (ci: number) => rows.map((r) => r[ci]!);

describe("row order of a superlative", () => {
  it("names the column its phrase's head noun names, with direction and rank", () => {
    expect(rowOrderOf("Which team has the most wins ?", columns, values)).toMatchObject({
      column: 2,
      direction: "max",
      rank: 1,
    });
    expect(rowOrderOf("Which team has the third-most wins ?", columns, values)).toMatchObject({ column: 2, rank: 3 });
    expect(rowOrderOf("Which team has the second fewest wins ?", columns, values)).toMatchObject({
      direction: "min",
      rank: 2,
    });
  });

  it("a time superlative takes the first column holding times", () => {
    expect(rowOrderOf("What is the earliest team ?", columns, values)).toMatchObject({
      column: 3,
      direction: "min",
      temporal: true,
    });
    expect(rowOrderOf("Who is the most recent team ?", columns, values)).toMatchObject({ column: 3, direction: "max" });
  });

  it("no order when nothing orderable is named, or for a comparative", () => {
    expect(rowOrderOf("Which team has the most fans ?", columns, values)).toBeUndefined();
    // (A word that is a property of every plain object names no time order.)
    expect(rowOrderOf("Which team used the constructor ?", columns, values)).toBeUndefined();
    expect(rowOrderOf("Which team has more wins than Oaks ?", columns, values)).toBeUndefined();
    expect(
      rowOrderOf("Which team is the best named ?", ["Team", "Motto"], (ci) => rows.map((r) => r[ci + 1]!)),
    ).toBeUndefined();
  });

  it("reads the measure past a long noun phrase, a count's or share's 'of', and a header's unit after 'in'", () => {
    const poll = ["Seat", "Candidate", "Ballots", "%", "Output ( kW )"];
    const cast = [
      ["North", "Ann Vale", "3,100", "12.5", "40"],
      ["South", "Bo Reed", "900", "30.1", "75"],
    ];
    const at = (ci: number) => cast.map((r) => r[ci]!);
    // The head noun is the sixth word after the superlative.
    expect(
      rowOrderOf("Who is the candidate with the second most regional upper house general election ballots ?", poll, at),
    ).toMatchObject({ column: 2, direction: "max", rank: 2 });
    expect(rowOrderOf("Where did the candidate with the lowest number of ballots stand ?", poll, at)).toMatchObject({
      column: 2,
      direction: "min",
    });
    expect(rowOrderOf("Where did the candidate with the largest share of the ballots stand ?", poll, at)).toMatchObject(
      {
        column: 3,
        direction: "max",
      },
    );
    expect(rowOrderOf("Which seat has the most output in kW ?", poll, at)).toMatchObject({ column: 4 });
    // A word after "in" that no header writes is a condition on the rows, not the measure.
    expect(rowOrderOf("Which seat has the most ballots in the north ?", poll, at)).toMatchObject({
      column: 2,
      phrase: new Set(["ballot"]),
    });
  });

  it("a time superlative takes the time column its words name, by its header or the header of what it dates", () => {
    const clubs = ["Club", "Founded", "League title", "Year ( s ) won", "Cup final", "Cup year"];
    const table = [
      ["Rovers", "1890", "Yes", "1999", "Yes", "2004"],
      ["Athletic", "1921", "Yes", "2008", "Yes", "1995"],
    ];
    const at = (ci: number) => table.map((r) => r[ci]!);
    expect(rowOrderOf("Which club won the latest league title ?", clubs, at)).toMatchObject({
      column: 3,
      temporal: true,
    });
    expect(rowOrderOf("Which club won the most recent cup final ?", clubs, at)).toMatchObject({ column: 5 });
    // Words naming no time column: the first time column, as before.
    expect(rowOrderOf("Which is the earliest club ?", clubs, at)).toMatchObject({ column: 1 });
  });

  it("keys: leading numbers, and times down to the day", () => {
    expect(orderKey("1,234 ( est . )", false)).toBe(1234);
    expect(orderKey("March 2 , 1920", true)).toBe(19200302);
    expect(orderKey("1920", true)).toBe(19200000);
    expect(orderKey("unknown", true)).toBeUndefined();
  });

  it("picks the row at the rank among candidates; a tie there is undecidable", () => {
    const order = { column: 2, direction: "max" as const, rank: 1, temporal: false };
    const table = rows.map((v) => ({ values: v }));
    expect(rowAtOrder(order, table, [0, 1, 2])).toBe(1);
    expect(rowAtOrder({ ...order, rank: 2 }, table, [0, 1, 2])).toBe(2);
    expect(rowAtOrder(order, table, [0, 2])).toBe(2);
    expect(rowAtOrder(order, [{ values: ["", "", "5"] }, { values: ["", "", "5"] }], [0, 1])).toBeUndefined();
  });

  it("a rank the question names, and the rank column cells that hold it", () => {
    expect(namedRank("Which club finished in 7th place ?")).toBe(7);
    expect(namedRank("Who came in first place ?")).toBe(1);
    expect(namedRank("Where is the runner ranked 12 from ?")).toBe(12);
    expect(namedRank("Which town has the 7th oldest bridge ?")).toBeUndefined();
    expect(holdsRank("Pos.", "7th", 7)).toBe(true);
    expect(holdsRank("Rank", "T-7", 7)).toBe(true);
    expect(holdsRank("Rank", "17", 7)).toBe(false);
    expect(holdsRank("Wins", "7", 7)).toBe(false);
  });
});
