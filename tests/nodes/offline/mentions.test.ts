import { afterAll, describe, expect, it } from "vitest";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { askedWords, findMentions } from "../../../nodes/offline/mentions.js";
import { openFixture } from "./fixtures.js";

const fx = openFixture();
afterAll(() => fx.close());

describe("findMentions", () => {
  it("finds exact cell values, longest span first, with verbatim values and rows", () => {
    const m = findMentions("How many gold medals did the United States win?", fx.catalog("medals"));
    expect(m).toEqual([
      expect.objectContaining({
        text: "united states",
        column: "Nation",
        value: "United States",
        kind: "exact",
        rows: [1],
      }),
    ]);
  });

  it("prefers a longer phrase inside a cell to a shorter exact value it contains", () => {
    const m = findMentions("what is the game after oklahoma state?", fx.catalog("schedule"));
    expect(m).toEqual([
      expect.objectContaining({ text: "oklahoma state", value: "at Oklahoma State", kind: "partial", rows: [1] }),
    ]);
    expect(findMentions("who won the game against oklahoma?", fx.catalog("schedule"))[0]).toMatchObject({
      value: "Oklahoma",
      kind: "exact",
    });
  });

  it("takes a generic word that is a whole cell of a column of a few categories as that category", () => {
    expect(findMentions("how many tickets are still open", fx.catalog("tickets"))).toEqual([
      expect.objectContaining({ column: "status", value: "open", kind: "exact", rows: [0, 2] }),
    ]);
    // A generic word that is no cell stays no mention.
    expect(findMentions("how many tickets are new", fx.catalog("tickets"))).toEqual([]);
  });

  it("avoids only the counted noun of 'how many', not the values named after it", () => {
    expect(askedWords(analyzeQuestion("how many networks show soap operas?"))).toEqual(["networks", "show"]);
    const q = "how many races were held in south korea?";
    expect(findMentions(q, fx.catalog("races"), { avoidWords: askedWords(analyzeQuestion(q)) })[0]).toMatchObject({
      column: "Venue",
      rows: [0, 1],
    });
  });

  it("finds partial mentions covering every cell that contains the phrase", () => {
    const m = findMentions("how many races were held in south korea?", fx.catalog("races"));
    expect(m).toHaveLength(1);
    expect(m[0]).toMatchObject({ column: "Venue", kind: "partial", rows: [0, 1] });
  });

  it("does not ground a partial mention that is too generic or only a header word", () => {
    expect(findMentions("which nation won the most gold?", fx.catalog("medals"))).toEqual([]);
  });

  it("corrects small typing errors in long words", () => {
    const m = findMentions("how many medals did germani win?", fx.catalog("medals"));
    expect(m[0]).toMatchObject({ value: "Germany", kind: "fuzzy" });
  });

  it("treats a short number as a cell only when a neighbour word names its column", () => {
    expect(findMentions("which nations won at least 21 medals?", fx.catalog("medals"))).toEqual([]);
    expect(findMentions("which nation has rank 3?", fx.catalog("medals"))[0]).toMatchObject({
      column: "Rank",
      value: "3",
    });
  });

  it("never grounds the counted noun alone", () => {
    const m = findMentions("how many winners were there?", fx.catalog("races"), { avoidWords: ["winners"] });
    expect(m).toEqual([]);
  });

  it("maps demonyms to their country's cells", () => {
    const m = findMentions("how many gold medals did the germans win?", fx.catalog("medals"));
    expect(m[0]).toMatchObject({ text: "germans", column: "Nation", value: "Germany" });
    expect(findMentions("how many gold medals did the koreans win?", fx.catalog("medals"))[0]).toMatchObject({
      value: "South Korea",
    });
  });
});
