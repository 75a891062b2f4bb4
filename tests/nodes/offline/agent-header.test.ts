import { describe, expect, it } from "vitest";
import { askedCell, headerFit, matchWords } from "../../../nodes/offline/reader.js";
import type { DescribedRow } from "../../../nodes/offline/bridge.js";
import { readerInput as input } from "./fixtures.js";

// A season row: the captain is a person, the kit's maker a firm.
const row: DescribedRow = {
  tableId: "seasons",
  rowId: 0,
  columns: ["Season", "Captain", "Kit manufacturer", "Stadium"],
  values: ["1998", "Ivo Lund", "Korvo Sport", "Quay Park"],
  passages: [
    {
      id: "/wiki/Ivo_Lund",
      title: "Ivo Lund",
      text: "Ivo Lund ( born 4 March 1970 ) is a retired defender .",
      file: "seasons.json",
      tableId: "seasons",
      cells: [[0, 1]],
    },
  ],
  score: 2,
  runnerUp: 0,
};

describe("asked cell: a header that names who does the asked verb", () => {
  it("fits a header's agent noun to the asked verb ('manufactured' → Manufacturer, 'composed' → Composer)", () => {
    expect(headerFit(matchWords("manufactured"), false, "Kit manufacturer")).toBeGreaterThan(0);
    expect(headerFit(matchWords("composed"), false, "Composer")).toBeGreaterThan(0);
    expect(headerFit(matchWords("played"), false, "Stadium")).toBe(0);
  });

  it("answers 'who made …' with the maker's cell, not the row's person", () => {
    expect(askedCell(input("Who manufactured the kit of the side whose captain was born in 1970 ?"), row)).toBe(
      "Korvo Sport",
    );
    expect(askedCell(input("Who captained the side in 1998 ?"), row)).toBe("Ivo Lund");
  });
});
