import { describe, expect, it } from "vitest";
import { aboutTitles, questionPart, sentences, withoutAboutNote } from "../../../nodes/offline/evidence.js";
import { readPassages } from "../../../nodes/offline/reader.js";

describe("offline evidence: the bridge note of a sub-query", () => {
  const subQuery =
    "What is the state of the senator ? (about: Republican Party (United States); Steve King (Colorado legislator)) (columns: Name, Party)";

  it("reads titles that hold parentheses", () => {
    expect(aboutTitles(subQuery)).toEqual(["Republican Party (United States)", "Steve King (Colorado legislator)"]);
    expect(aboutTitles("Who won ? (about: Ashley Coleman; Manchester, New Hampshire)")).toEqual([
      "Ashley Coleman",
      "Manchester, New Hampshire",
    ]);
    expect(aboutTitles("Who won ?")).toEqual([]);
  });

  it("removes the whole note, so its titles never pass for question words", () => {
    expect(withoutAboutNote(subQuery)).toBe("What is the state of the senator ? (columns: Name, Party)");
    expect(questionPart(subQuery)).toBe("What is the state of the senator ?");
  });

  it("removes a column note whose column names hold brackets", () => {
    expect(questionPart("What were the total fees in 2021 and 2020? (columns: col_1, Increase (Decrease))")).toBe(
      "What were the total fees in 2021 and 2020?",
    );
  });
});

describe("sentences", () => {
  it("end at '. ' and at a tokenised ' . ', but not after an initial or a title", () => {
    expect(
      sentences("The novel is by J.K . Rowan of Leeds . It sold well. Music by T. S. Brand and Dr. Lee. Then 1990."),
    ).toEqual([
      "The novel is by J.K . Rowan of Leeds",
      "It sold well.",
      "Music by T. S. Brand and Dr. Lee.",
      "Then 1990.",
    ]);
  });

  it("let the reader read a name whose initial is written apart from its period", () => {
    const evidence =
      "[Source: book.json]\nThe Long Field is a novel written by J.K . Rowan in 1980 . It is set in a valley .";
    expect(readPassages("Who wrote The Long Field ?", "Who wrote The Long Field ?", undefined, evidence)?.answer).toBe(
      "J.K . Rowan",
    );
  });
});
