/**
 * Cells of Wikipedia tables carry words of their links and names in another script beside the English one:
 * a results table's "2030 Lund details" (the Games, then its "details" link), a heritage list's
 * "Moss Hall 苔の館 Koke no yakata" (the English name, the native name and its reading). The answer is the
 * value before them (nodes/offline/reader.ts `withoutTrailingNote`, used for asked cells and the row's cells).
 */
import { describe, expect, it } from "vitest";
import { readerOverRow, rowWithPages } from "./fixtures.js";

// [what the cell holds, question, row] → the cell's value before its link word or native name.
const cases: Array<[string, string, ReturnType<typeof rowWithPages>, string]> = [
  [
    "a results table's details link",
    "In which games did Ada Lind skate the relay ?",
    rowWithPages(
      "medals",
      ["Games", "Event", "Skater"],
      ["2030 Lund details", "Relay", "Ada Lind"],
      [["Ada Lind", "Ada Lind is a Norwegian speed skater .", 2]],
    ),
    "2030 Lund",
  ],
  [
    "a native name and its reading after the English name",
    "Which site is in the town of 5,120 people ?",
    rowWithPages(
      "sites",
      ["Site", "Town"],
      ["Moss Hall 苔の館 Koke no yakata", "Kaga"],
      [["Kaga", "Kaga is a town of 5,120 people on the coast .", 1]],
    ),
    "Moss Hall",
  ],
];

describe("a cell's link words and native name are left out", () => {
  it.each(cases)("%s", async (_what, question, row, expected) => {
    expect(await readerOverRow(row)(question)).toBe(expected);
  });
});
