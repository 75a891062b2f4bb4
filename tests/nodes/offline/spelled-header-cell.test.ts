/**
 * "What is the catchment area of the school that …": the phrase's last noun ("area") asks a measure
 * elsewhere, but a header holding every word of the asked phrase names the column whatever its
 * cells' shape (nodes/offline/reader.ts `askedCellValue`, `spellsPhrase`). Before, the text cell
 * was dropped for want of digits and a number of the school's page answered.
 */
import { describe, expect, it } from "vitest";
import { readerOverRow, rowWithPages } from "./fixtures.js";

const ask = readerOverRow(
  rowWithPages(
    "schools",
    ["School", "Catchment area", "Pupils"],
    ["Hollin Grammar", "North Ward", "640"],
    [["Hollin Grammar", "Hollin Grammar is a school founded in 1882 . It teaches 640 pupils in two buildings .", 0]],
  ),
);

describe("a header that spells the whole asked phrase", () => {
  it("answers with its cell though the phrase's last noun asks a number", async () => {
    expect(await ask("What is the catchment area of the school founded in 1882 ?")).toBe("North Ward");
  });
});
