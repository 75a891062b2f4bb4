/**
 * "… the Ivory Lock ( Modified neck hold ) …": a capitalised participle opening a bracket is a gloss's first word,
 * no name, as one opening a sentence ("Founded in 1810 , …") already was (nodes/offline/reader.ts `nameSpans`).
 * Before, "Modified" was read as a name beside the hold's.
 */
import { describe, expect, it } from "vitest";
import { readerOverRow, rowWithPages } from "./fixtures.js";

const ask = readerOverRow(
  rowWithPages(
    "wrestlers",
    ["Year", "Wrestler", "Promotion"],
    ["1951", "Tomas Rell", "Northern Ring"],
    [["Tomas Rell", "Rell is credited with innovating the Ivory Lock ( Modified neck stretch ) submission hold .", 1]],
  ),
);

describe("a participle opening a bracket", () => {
  it("is no name: the hold's name answers", async () => {
    expect(await ask("What submission hold did the wrestler of the Northern Ring invent in 1951 ?")).toBe("Ivory Lock");
  });
});
