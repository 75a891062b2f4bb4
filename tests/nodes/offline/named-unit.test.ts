/**
 * "How large is the area in square miles …": a question naming its measure's unit prefers the number written with
 * that unit ("236 square miles") over the one beside it in another unit ("610 square kilometres"), as a "how many
 * acres" question prefers the number before "acres" (nodes/offline/reader.ts `namedUnit`, `unitPreference`).
 */
import { describe, expect, it } from "vitest";
import { readerOverRow, rowWithPages } from "./fixtures.js";

const ask = readerOverRow(
  rowWithPages(
    "towns",
    ["Rank", "Town", "Titles"],
    ["1", "Orvik", "12"],
    [
      [
        "Orvik",
        "Orvik is a harbour town on the north coast . " +
          "The town has 81,200 inhabitants over a land area of about 610 square kilometres ( 236 square miles ) .",
        1,
      ],
    ],
  ),
);

describe("a measure's unit the question names", () => {
  it("picks the number written in that unit", async () => {
    expect(await ask("How large is the land area in square miles of the town with 12 titles ?")).toBe("236");
  });
});
