import { describe, expect, it } from "vitest";
import { cutInBracket, doubtfulLast, doubtfulSpan } from "../../../nodes/offline/span-doubts.js";
import { describedRowSpans } from "../../../nodes/offline/reader.js";
import type { DescribedRow } from "../../../nodes/offline/bridge.js";
import { readerInput as input } from "./fixtures.js";

function rowWith(text: string): DescribedRow {
  return {
    tableId: "halls",
    rowId: 0,
    columns: ["Year", "Hall", "Town"],
    values: ["1931", "Glass Hall", "Orvik"],
    passages: [
      {
        id: "/wiki/Glass_Hall",
        title: "Glass Hall",
        text,
        file: "halls.json",
        tableId: "halls",
        cells: [[0, 1]],
      },
    ],
    score: 2,
    runnerUp: 0,
  };
}

describe("span doubts: spans that cannot be a whole answer", () => {
  it("knows a span cut inside a bracket from a whole one", () => {
    expect(cutInBracket("Tova Renn ( Danish")).toBe(true);
    expect(cutInBracket("Orvik ( /ˈɔrvɪk/")).toBe(true);
    expect(cutInBracket("Tova Renn")).toBe(false);
    expect(cutInBracket("7 ( 112 )")).toBe(false);
  });

  it("doubts an abbreviation only when a person is asked", () => {
    expect(doubtfulSpan("U.S", "person")).toBe(true);
    expect(doubtfulSpan("NHL", "person")).toBe(true);
    expect(doubtfulSpan("NHL", "entity")).toBe(false);
    expect(doubtfulSpan("Tova Renn", "person")).toBe(false);
  });

  it("puts the doubtful spans behind the others, each group in its order", () => {
    const spans = [
      { answer: "GM" },
      { answer: "Ada Roe ( Danish" },
      { answer: "Pell Ostrander" },
      { answer: "Ivo Lund" },
    ];
    expect(doubtfulLast(spans, "person").map((s) => s.answer)).toEqual([
      "Pell Ostrander",
      "Ivo Lund",
      "GM",
      "Ada Roe ( Danish",
    ]);
    expect(doubtfulLast(spans, "entity").map((s) => s.answer)).toEqual([
      "GM",
      "Pell Ostrander",
      "Ivo Lund",
      "Ada Roe ( Danish",
    ]);
  });

  it("reads a described row's person behind an abbreviation the sentence puts nearer the question's words", () => {
    const row = rowWith(
      "Glass Hall is a concert hall in Orvik . The hall was designed for the GM works by the architect Pell Ostrander in 1931 .",
    );
    const spans = describedRowSpans(input("Who designed the hall in Orvik ?"), row, 4).map((s) => s.answer);
    expect(spans[0]).toBe("Pell Ostrander");
    expect(spans).toContain("GM");
  });

  it("reads a named river rather than a page's subject cut at its bracket", () => {
    const row = rowWith(
      "Glass Hall ( Norse : Glassal ) is a concert hall . It has 4,000 seats , making it the third largest concert hall of the coast . The town lies on the banks of the Tarn River .",
    );
    const q = "Which river flows by the town with the third largest concert hall of the coast ?";
    const spans = describedRowSpans(input(q), row, 4).map((s) => s.answer);
    expect(spans[0]).toBe("Tarn River");
    expect(spans).toContain("Glass Hall ( Norse");
  });
});
