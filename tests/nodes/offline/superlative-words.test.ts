import { describe, expect, it } from "vitest";
import { besideSuperlative } from "../../../nodes/offline/superlative-words.js";
import { askedCell } from "../../../nodes/offline/reader.js";
import type { DescribedRow } from "../../../nodes/offline/bridge.js";
import { readerInput as input } from "./fixtures.js";

// A fleet row: the year the ship was launched ordered the rows; its page tells when it ran aground.
const row: DescribedRow = {
  tableId: "fleet",
  rowId: 3,
  columns: ["Ship", "Year launched", "Tonnage"],
  values: ["Sea Wren", "1953", "4,100"],
  passages: [
    {
      id: "/wiki/Sea_Wren",
      title: "Sea Wren",
      text: "Sea Wren was a cargo ship built in Orvik . She ran aground on a sandbar on 8 January 1971 .",
      file: "fleet.json",
      tableId: "fleet",
      cells: [[3, 0]],
    },
  ],
  score: 2,
  runnerUp: 0,
};

describe("time cells: the words beside a superlative pick the row", () => {
  it("finds the words up to two before a superlative and the one after it", () => {
    expect([...besideSuperlative("When did the newest launched trawler run aground ?")]).toEqual(["did", "launched"]);
    expect([...besideSuperlative("What year was the club that won the latest title founded ?")]).toEqual([
      "won",
      "title",
    ]);
    expect(besideSuperlative("When did the ship run aground ?").size).toBe(0);
  });

  it("does not answer with the time cell those words name", () => {
    expect(askedCell(input("When did the newest launched trawler run aground ?"), row)).toBeUndefined();
    expect(askedCell(input("In what year was the ship launched ?"), row)).toBe("1953");
  });
});
