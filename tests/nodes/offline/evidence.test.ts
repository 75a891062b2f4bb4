import { describe, expect, it } from "vitest";
import { aboutTitles, questionPart, withoutAboutNote } from "../../../nodes/offline/evidence.js";

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
});
