/**
 * "How many …" asks a count: an ordinal ("16th"), a share ("40 %") or one end of a range ("1998-2004") is
 * no count, so the passage reader does not offer them for a count question (nodes/offline/reader.ts
 * `spansFor`, kind "count"). Before, the ordinal in the sentence holding the question's words won.
 */
import { describe, expect, it } from "vitest";
import { readerOverRow, rowWithPages } from "./fixtures.js";

const ask = readerOverRow(
  rowWithPages(
    "skaters",
    ["Club", "Skater"],
    ["Oslo", "Ada Lind"],
    [
      [
        "Ada Lind",
        "Ada Lind is a Norwegian speed skater with two Olympic appearances . " +
          "She finished 16th in the relay at the Winter Games she skated at .",
        1,
      ],
    ],
  ),
);

describe("a count question's spans", () => {
  it("skip an ordinal and read the count", async () => {
    expect(await ask("How many Winter Games did the skater Ada Lind skate at ?")).toBe("two");
  });
});
