import { describe, expect, it } from "vitest";
import { askedCell, headerFit, matchWords } from "../../../nodes/offline/reader.js";
import type { DescribedRow } from "../../../nodes/offline/bridge.js";
import { readerInput as input } from "./fixtures.js";

// A row of dyes, its headers in British spelling; the dye's page tells of its plant.
const row: DescribedRow = {
  tableId: "dyes",
  rowId: 0,
  columns: ["Name", "Colour", "Centre of trade"],
  values: ["Marsh madder", "Rust-red", "Orvik"],
  passages: [
    {
      id: "/wiki/Marsh_madder",
      title: "Marsh madder",
      text: "Marsh madder is a dye pressed from the roots of a bog plant that fades quickly in sunlight .",
      file: "dyes.json",
      tableId: "dyes",
      cells: [[0, 0]],
    },
  ],
  score: 2,
  runnerUp: 0,
};

describe("asked cell: a header in the other spelling", () => {
  it("fits 'color' to Colour and 'center' to Centre, not other words", () => {
    expect(headerFit(matchWords("color"), true, "Colour")).toBeGreaterThan(0);
    expect(headerFit(matchWords("center"), false, "Centre of trade")).toBeGreaterThan(0);
    expect(headerFit(matchWords("hour"), true, "Colour")).toBe(0);
  });

  it("answers the color asked of the row from its Colour cell", () => {
    expect(askedCell(input("Which color is the dye that fades quickly in sunlight ?"), row)).toBe("Rust-red");
  });
});
