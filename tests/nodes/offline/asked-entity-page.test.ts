import { describe, expect, it } from "vitest";
import { askedEntityPages, pageSaysItIs } from "../../../nodes/offline/asked-entity-page.js";
import { describedRowSpans } from "../../../nodes/offline/reader.js";
import { readerInput as input, rowWithPages } from "./fixtures.js";

const shrinePage =
  "Harlow Shrine\nHarlow Shrine ( Old Name ) is a Shinto shrine in Emberton . Its main deity is Orlan .";
const townPage =
  "Emberton\nEmberton is a town known as the pottery capital of Norland . The main square lies by the Vale river and holds a deity statue .";

const shrineRow = rowWithPages(
  "shrines",
  ["Shrine", "Town"],
  ["Harlow Shrine", "Emberton"],
  [
    ["Emberton", townPage, 1],
    ["Harlow Shrine", shrinePage, 0],
  ],
);

const question = "What is the main deity of this shrine located in the town known as the pottery capital of Norland ?";

describe("asked entity page: the page of the thing asked about, not of the things describing it", () => {
  it("reads what a page says its subject is, past its title line", () => {
    expect([...pageSaysItIs("Emberton is a town in the north .")]).toEqual(["town"]);
    expect(askedEntityPages(question, ["main", "deity"], [townPage, shrinePage])).toEqual(new Set([1]));
  });

  it("takes the first noun phrase of the main clause after 'of / does / was … the', beyond the asked phrase", () => {
    // "of the town" opens the main clause's noun phrase: the town's page
    expect(askedEntityPages("Which founder of the town that holds this shrine ?", [], [townPage, shrinePage])).toEqual(
      new Set([0]),
    );
    // "at the shrine" is in the relative clause ("who serves …"): it describes the priest, it does not ask
    expect(
      askedEntityPages("The priest who serves at the shrine was born in what town ?", ["town"], [townPage, shrinePage]),
    ).toEqual(new Set());
    // a noun every page says names none of them
    expect(askedEntityPages("What is the size of the shrine ?", ["size"], [shrinePage, shrinePage])).toEqual(new Set());
  });

  it("reads the shrine's deity before the town page's names", () => {
    const spans = describedRowSpans(input(question), shrineRow, 4).map((s) => s.answer);
    expect(spans[0]).toBe("Orlan");
  });
});
