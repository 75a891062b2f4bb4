/**
 * "What was the keeper known for wearing ?", "The hamlet was settled by who ?": a question that ends on
 * its verb phrase asks for what the passage writes right after the same words, often in lower case
 * ("… known for wearing green leather gloves , …"), which no other span proposer read
 * (nodes/offline/verb-tail.ts, used by reader.ts `readPassageSpans`).
 */
import { describe, expect, it } from "vitest";
import { questionTails, tailPhraseSpans } from "../../../nodes/offline/verb-tail.js";
import { readerOverRow, rowWithPages } from "./fixtures.js";

const row = rowWithPages(
  "harbours",
  ["Harbour", "Keeper", "Opened"],
  ["Port Alvik", "Tova Brisk", "1890"],
  [
    [
      "Port Alvik",
      "Port Alvik is a small harbour town in Vennland . It was settled by a group of fishermen from Lomsby in 1702 . " +
        "Its regatta takes place every three years .",
      0,
    ],
    [
      "Tova Brisk",
      "Tova Brisk ( born 1950 ) is a Vennish sailor . She was known for wearing green leather gloves , and a red cap .",
      1,
    ],
  ],
);
const ask = readerOverRow(row);

describe("the words after the question's closing verb phrase", () => {
  it("takes a closing verb phrase, not a closing noun phrase", () => {
    expect(questionTails("What was the keeper known for wearing ?")).toEqual([
      ["known", "for", "wearing"],
      ["for", "wearing"],
    ]);
    expect(questionTails("The town was settled by who ?")).toEqual([["settled", "by"]]);
    expect(questionTails("Which player scored the most career goals ?")).toEqual([]);
  });

  it("stops the phrase at a clause boundary", () => {
    const spans = (s: string, tail: string[]) => tailPhraseSpans(s, tail).map((x) => x.text);
    expect(spans("She was known for wearing green gloves , and a cap", ["known", "for"])).toEqual([
      "wearing green gloves",
    ]);
    expect(spans("It was settled by a few fishermen in 1702", ["settled", "by"])).toEqual(["a few fishermen"]);
    expect(spans("The fair took place every year", ["take", "place"])).toEqual([]);
    // After the verb's object, a phrase opening with a preposition is an adjunct the name spans read.
    expect(spans("She won a national title in curling", ["national", "title"])).toEqual([]);
    expect(spans("The fair takes place every year .", ["take", "place"])).toEqual(["every year"]);
  });

  it("answers with the words the passage writes after the verb phrase", async () => {
    expect(await ask("What was the sailor of the harbour opened in 1890 known for wearing ?")).toBe(
      "green leather gloves",
    );
    expect(await ask("The harbour town opened in 1890 was settled by who ?")).toBe("a group of fishermen from Lomsby");
  });
});
