/**
 * "Which middle name did the rower with seven titles have ?" over a row that writes the rower short ("Ada
 * Lind"): her page opens with the whole name ("Ada Maria Lind ( born … )"), which holds the answer; a "full
 * name" question takes that whole name, also from a page that says the person is known by the cell's name
 * (nodes/offline/name-parts.ts, used by reader.ts `askedCell`).
 */
import { describe, expect, it } from "vitest";
import { askedCell } from "../../../nodes/offline/reader.js";
import { askedNamePart, fullNameOnPage } from "../../../nodes/offline/name-parts.js";
import { passagePlan, readerOverRow, rowWithPages } from "./fixtures.js";

const row = rowWithPages(
  "rowers",
  ["Rower", "Club", "Titles"],
  ["Ada Lind", "Pier Oars", "7"],
  [
    [
      "Ada Lind",
      "Ada Maria Lind ( born 4 May 1970 ) is a Swedish rower . She won seven national titles for Pier Oars .",
      0,
    ],
    ["Pier Oars", "Pier Oars is a rowing club of Lund , founded in 1911 .", 1],
  ],
);
const ask = readerOverRow(row);
const cell = (q: string) => askedCell({ question: q, subQuery: q, plan: passagePlan(q, "rowers") }, row);

describe("a part of the row's person's name", () => {
  it("knows which part is asked", () => {
    expect(askedNamePart("Which middle name did the rower have ?")).toBe("middle");
    expect(askedNamePart("Give the full name of the rower .")).toBe("full");
    expect(askedNamePart("Give the name of the rower .")).toBeUndefined();
  });

  it("reads the whole name a page opens with for the short name of a cell", () => {
    expect(fullNameOnPage("Ada Lind", row.passages[0]!.text)).toEqual({
      full: "Ada Maria Lind",
      middle: ["Maria"],
    });
    expect(fullNameOnPage("Bo Ek", "Bo Karl Ek III ( born 1961 ) is a coach .")?.middle).toEqual(["Karl"]);
    expect(
      fullNameOnPage("Jo Bell", "Joan Ada Bell ( born 1980 ) , known professionally as Jo Bell , is a singer .")?.full,
    ).toBe("Joan Ada Bell");
    // Another person's page, or a page that opens with no name, gives none.
    expect(fullNameOnPage("Ada Lind", "Eva Lind ( born 1971 ) is a rower .")).toBeUndefined();
    expect(fullNameOnPage("Pier Oars", row.passages[1]!.text)).toBeUndefined();
  });

  it("answers the middle or the full name from the person's page", async () => {
    expect(cell("Which middle name did the rower with seven titles have ?")).toBe("Maria");
    expect(cell("Give the full name of the rower with seven titles .")).toBe("Ada Maria Lind");
    expect(await ask("Which middle name did the rower with seven titles have ?")).toBe("Maria");
    // Other questions about the row are read as before.
    expect(cell("Which rower has seven titles ?")).toBe("Ada Lind");
  });
});
