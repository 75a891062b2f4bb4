import { describe, expect, it } from "vitest";
import { makerNotNamed } from "../../../nodes/offline/creator-verbs.js";
import { askedCell } from "../../../nodes/offline/reader.js";
import type { DescribedRow } from "../../../nodes/offline/bridge.js";
import { readerInput as input } from "./fixtures.js";

// A row of novels: the Author wrote the book; its page tells who translated it.
const row: DescribedRow = {
  tableId: "novels",
  rowId: 0,
  columns: ["Book", "Author", "Year"],
  values: ["The Salt Road", "Ada Roe", "1979"],
  passages: [
    {
      id: "/wiki/The_Salt_Road",
      title: "The Salt Road",
      text: "The Salt Road is a 1979 novel by Ada Roe . It was translated into English by Pell Ostrander .",
      file: "novels.json",
      tableId: "novels",
      cells: [[0, 0]],
    },
  ],
  score: 2,
  runnerUp: 0,
};

describe("a 'who made …' question and the row's person column", () => {
  it("knows when a header names the maker the verb asks for", () => {
    expect(makerNotNamed("Who translated the novel ?", "Author")).toBe(true);
    expect(makerNotNamed("Who designed the chapel ?", "Church name")).toBe(true);
    expect(makerNotNamed("Who designed the chapel ?", "Architect")).toBe(false);
    expect(makerNotNamed("Who wrote the novel ?", "Author ( s )")).toBe(false);
    expect(makerNotNamed("Who won the race ?", "Driver")).toBe(false);
  });

  it("does not answer with the Author a translator is asked of, but still with the author asked", () => {
    expect(askedCell(input("Who translated the 1979 novel into English ?"), row)).toBeUndefined();
    expect(askedCell(input("Who wrote the 1979 novel ?"), row)).toBe("Ada Roe");
  });
});
