/**
 * "In what year did the owner of the bakery with three awards die ?" over a row that links the owner's
 * page: the page writes the life in its opening brackets ("Lio Varga ( 2 March 1931 – 14 July 2009 ) was
 * …") and no sentence says "died" again, so the passage reader took another year of the page. The asked
 * birth or death is read from those brackets (nodes/offline/life-dates.ts, used by reader.ts `askedCell`).
 */
import { describe, expect, it } from "vitest";
import { askedCell } from "../../../nodes/offline/reader.js";
import { askedLifeDate, lifeDatesOnPage } from "../../../nodes/offline/life-dates.js";
import { passagePlan, readerOverRow, rowWithPages } from "./fixtures.js";

const row = rowWithPages(
  "bakeries",
  ["Bakery", "Owner", "Awards"],
  ["Crumb Hall", "Lio Varga", "3"],
  [
    ["Crumb Hall", "Crumb Hall ( 1958 – 2015 ) was a bakery in Szeged . Its rye loaf won three awards in 1974 .", 0],
    [
      "Lio Varga",
      "Lio Varga ( 2 March 1931 – 14 July 2009 ) was a Hungarian baker . Varga opened Crumb Hall in 1958 , " +
        "won three awards with it and retired to Pécs in 1996 .",
      1,
    ],
  ],
);
const ask = readerOverRow(row);
const cell = (q: string) => askedCell({ question: q, subQuery: q, plan: passagePlan(q, "bakeries") }, row);

describe("a birth or death of the row's person", () => {
  it("knows which event and which part of its date is asked", () => {
    expect(askedLifeDate("In what year did the owner of the bakery die ?")).toEqual({ event: "death", part: "year" });
    expect(askedLifeDate("When was the baker born ?")).toEqual({ event: "birth", part: "date" });
    expect(askedLifeDate("Which birth month does the baker have ?")).toEqual({ event: "birth", part: "month" });
    // A birth that names the row asks nothing about it.
    expect(askedLifeDate("What month did the baker born in May open a shop ?")).toBeUndefined();
  });

  it("reads the life in the brackets of a page that opens with the cell's person", () => {
    expect(lifeDatesOnPage("Lio Varga", row.passages[1]!.text)).toEqual({
      birth: "2 March 1931",
      death: "14 July 2009",
    });
    expect(lifeDatesOnPage("Ada Lind", "Ada Maria Lind ( born May 4 , 1970 in Lund ) is a rower .")).toEqual({
      birth: "May 4 , 1970",
    });
    expect(
      lifeDatesOnPage("Jo Bell", "Joan Bell , known professionally as Jo Bell , ( c. 1900 – 1950 ) was a singer ."),
    ).toEqual({ birth: "c. 1900", death: "1950" });
    // Another's page: a team named after its owner.
    expect(
      lifeDatesOnPage("Lind Racing Ltd", "Ada Lind ( 1901 – 1980 ) was a driver and owner of Lind Racing ."),
    ).toEqual({});
  });

  it("answers the asked part from the person's page", async () => {
    expect(cell("In what year did the owner of the bakery with three awards die ?")).toBe("2009");
    expect(await ask("In what year did the owner of the bakery with three awards die ?")).toBe("2009");
    expect(await ask("When was the owner of the bakery with three awards born ?")).toBe("2 March 1931");
    expect(await ask("What month was the owner of the bakery with three awards born ?")).toBe("March");
  });
});
