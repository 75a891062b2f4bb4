import { describe, expect, it } from "vitest";
import { stem, stemSet, wordFamily } from "../../text/stem.js";
import { HEADER_WORDS, isStopWord, STOP_WORDS } from "../../text/stop-words.js";
import { contentWords, questionWords, wordsOf } from "../../text/tokenise.js";

describe("text/tokenise", () => {
  it("splits letters and digits after normalising", () => {
    expect(wordsOf("Saint-Étienne scored 1,234 goals!")).toEqual(["saint", "etienne", "scored", "1234", "goals"]);
  });
  it("contentWords drops stop words, and keeps header words when asked", () => {
    expect(contentWords("What is the total number of goals by Smith?")).toEqual(["goals", "smith"]);
    expect(contentWords("What is the total number of goals by Smith?", { keepHeaderWords: true })).toEqual([
      "total",
      "number",
      "goals",
      "smith",
    ]);
    expect(contentWords("Name")).toEqual([]);
    expect(contentWords("Name", { keepHeaderWords: true })).toEqual(["name"]);
  });
  it("questionWords keeps apostrophes, hyphens and decimals inside words", () => {
    expect(questionWords("o'neil's co-op made 3.5 runs.")).toEqual(["o'neil's", "co-op", "made", "3.5", "runs"]);
  });
});

describe("text/stop-words", () => {
  it("one list; header words are in it but can be kept", () => {
    for (const w of ["the", "of", "what", "how", "please"]) expect(STOP_WORDS.has(w)).toBe(true);
    for (const w of HEADER_WORDS) {
      expect(isStopWord(w)).toBe(true);
      expect(isStopWord(w, { keepHeaderWords: true })).toBe(false);
    }
    expect(isStopWord("salary")).toBe(false);
  });
});

describe("text/stem", () => {
  it("removes plural and -ed/-ing endings", () => {
    expect(stem("Medals")).toBe("medal");
    expect(stem("cities")).toBe("city");
    expect(stem("flies")).toBe("fly");
    expect(stem("boxes")).toBe("box");
    expect(stem("matches")).toBe("match");
    expect(stem("classes")).toBe("class");
    expect(stem("founded")).toBe("found");
    expect(stem("founding")).toBe("found");
    expect(stem("opened")).toBe("open");
  });
  it("leaves short words and -ss/-us/-is words alone", () => {
    for (const w of ["bus", "status", "tennis", "glass", "gas", "red", "sing"]) expect(stem(w)).toBe(w);
  });
  it("stemSet and wordFamily", () => {
    expect([...stemSet(["goals", "goal", "Goal"])]).toEqual(["goal"]);
    expect(wordFamily("player")).toBe(wordFamily("players"));
    expect(wordFamily("player")).toBe(wordFamily("played"));
    expect(wordFamily("spain")).not.toBe(wordFamily("spa"));
  });
});
