/**
 * "What year was the singer of Blue Rain born ?" over a row of hits (Year, Song, Singer): the row's Year is the
 * song's, and the reader answered it; the singer's page says when she was born. A birth or death asked of a
 * time question is now left to the passages unless a header names it (nodes/offline/reader.ts
 * `lifeEventElsewhere`); a birth that describes the row ("the singer born on 3 May 1977") still does not.
 */
import { describe, expect, it } from "vitest";
import type { DescribedRow } from "../../../nodes/offline/bridge.js";
import { readerOverRow } from "./fixtures.js";

function readerOver(columns: string[], values: string[]) {
  const row: DescribedRow = {
    tableId: "hits",
    rowId: 0,
    columns,
    values,
    passages: [
      {
        id: "/wiki/Mia_Holt",
        title: "Mia Holt",
        text: "Mia Holt ( born 3 May 1977 ) is a singer from Leeds . She recorded Blue Rain with her band .",
        file: "hits.json",
        tableId: "hits",
        cells: [[0, 2]],
      },
    ],
    score: 3,
    runnerUp: 1,
  };
  return readerOverRow(row);
}

describe("a birth asked of a row whose time cell is another event's", () => {
  it("reads the birth year from the person's page, not the row's Year", async () => {
    const ask = readerOver(["Year", "Song", "Singer"], ["2012", "Blue Rain", "Mia Holt"]);
    expect(await ask("What year was the singer of Blue Rain born ?")).toBe("1977");
    expect(await ask("What year did Blue Rain come out ?")).toBe("2012");
  });
  it("still reads a header that names the birth", async () => {
    const ask = readerOver(["Born", "Song", "Singer"], ["1976", "Blue Rain", "Mia Holt"]);
    expect(await ask("What year was the singer of Blue Rain born ?")).toBe("1976");
  });
});
