import { describe, expect, it } from "vitest";
import { asksWhichItIs, nameCellOf } from "../../../nodes/offline/this-row.js";
import { askedCell } from "../../../nodes/offline/reader.js";
import type { DescribedRow } from "../../../nodes/offline/bridge.js";
import { readerInput as input } from "./fixtures.js";

// A row of clubs: the club's page tells when it was founded and the league it dropped from.
const row: DescribedRow = {
  tableId: "cups",
  rowId: 1,
  columns: ["Club", "Cups won", "Finals lost"],
  values: ["Orvik Rovers", "3", "2"],
  passages: [
    {
      id: "/wiki/Orvik_Rovers",
      title: "Orvik Rovers",
      text: "Orvik Rovers is a football club from Orvik that dates from 1968 . The club left the Coastal League in 2015 .",
      file: "cups.json",
      tableId: "cups",
      cells: [[1, 0]],
    },
  ],
  score: 2,
  runnerUp: 0,
};

describe("a 'This NOUN …' question with no wh-word asks which thing it is", () => {
  it("knows such a question", () => {
    expect(asksWhichItIs("This club left the Coastal League in 2015 and dates from 1968 ?")).toBe(true);
    expect(asksWhichItIs("This club dates from what year ?")).toBe(false);
    expect(asksWhichItIs("The club dates from 1968 ?")).toBe(false);
  });

  it("finds the row's name cell: Name or Title, else the first text cell", () => {
    expect(nameCellOf(["Year", "Title", "Label"], ["1990", "Blue Tide", "Kest"])).toBe("Blue Tide");
    expect(nameCellOf(["Rank", "Club"], ["4", "Orvik Rovers"])).toBe("Orvik Rovers");
  });

  it("answers with the described row's own name cell", () => {
    expect(askedCell(input("This club left the Coastal League in 2015 and dates from 1968 ?"), row)).toBe(
      "Orvik Rovers",
    );
  });
});
