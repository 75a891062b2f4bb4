/** The linked-row features of a reading (answer-features.ts `linkedRowFeatures`, `lr:…`). */
import { describe, expect, it } from "vitest";
import { linkedRowFeatures } from "../../../nodes/offline/answer-features.js";
import type { DescribedRow } from "../../../nodes/offline/bridge.js";

const row: DescribedRow = {
  tableId: "songs",
  rowId: 2,
  columns: ["Year", "Song", "Singer"],
  values: ["2011", "Blue Harbour", "Mara Quell"],
  passages: [
    { id: "p1", title: "Mara Quell", text: "Mara Quell (born 1984) is a singer from Oslo.", file: "songs.json" },
  ],
  score: 4,
  runnerUp: 1,
};

describe("linked-row features", () => {
  it("none without a described row", () => {
    expect(linkedRowFeatures(undefined, "2011", "In what year was Blue Harbour released?")).toEqual({});
  });

  it("how clearly the row won, and an answer that is one of its cells under a named column", () => {
    const f = linkedRowFeatures(row, "2011", "In what year was Blue Harbour released?");
    expect(f["lr:row"]).toBe(1);
    expect(f["lr:row-margin"]).toBe(0.75);
    expect(f["lr:answer=cell"]).toBe(1);
    expect(f["lr:cell-column-named"]).toBe(1);
    expect(f["lr:hop"]).toBeUndefined();
  });

  it("a cell answering a question about the entity the row links to is marked as a hop", () => {
    const f = linkedRowFeatures(row, "2011", "In what year was the singer that recorded Blue Harbour born?");
    expect(f["lr:hop"]).toBe(1);
    expect(f["lr:answer=cell|hop"]).toBe(1);
  });

  it("an answer read from a linked passage, or from elsewhere", () => {
    expect(
      linkedRowFeatures(row, "1984", "In what year was the singer that recorded Blue Harbour born?"),
    ).toMatchObject({
      "lr:answer=linked-passage": 1,
    });
    expect(linkedRowFeatures(row, "1990", "In what year was the singer born?")["lr:answer=elsewhere"]).toBe(1);
    expect(linkedRowFeatures({ ...row, score: 2, runnerUp: 2 }, "2011", "which year?")["lr:row-margin"]).toBe(0);
  });
});
