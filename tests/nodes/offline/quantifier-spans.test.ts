/**
 * A quantifier opening a sentence is capitalised ("Many riders of the club are graduates of …"), and the
 * passage reader took it for a name; alone it names nothing, so it is no span (nodes/offline/reader.ts
 * `nameSpans`). Before, "Many" sat beside the question's words and won.
 */
import { describe, expect, it } from "vitest";
import { readerOverRow, rowWithPages } from "./fixtures.js";

const ask = readerOverRow(
  rowWithPages(
    "riders",
    ["Club", "Town"],
    ["Lund Riders", "Lund"],
    [
      [
        "Lund Riders",
        "Lund Riders is a riding club in Lund . Many riders of the club are graduates of the Lund Horse Academy .",
        0,
      ],
    ],
  ),
);

describe("a quantifier opening a sentence", () => {
  it("is no name: the reader takes the name the sentence gives", async () => {
    expect(await ask("Riders of the club Lund Riders are graduates of what ?")).toBe("Lund Horse Academy");
  });
});
