import { describe, expect, it } from "vitest";
import {
  alternation,
  MONTH_NAME_PATTERN,
  MONTH_PATTERN,
  monthNumber,
  nounPattern,
  NUMBER_WORD_PATTERN,
  numberWordValue,
  ORDINAL_PATTERN,
  ordinalValue,
  PERSON_NOUNS,
  PLACE_NOUNS,
  superlativeDirection,
  SUPERLATIVE_PATTERN,
} from "../../text/lexicons.js";

describe("text/lexicons", () => {
  it("months: names, abbreviations, dots and case", () => {
    expect(monthNumber("January")).toBe(1);
    expect(monthNumber("sept.")).toBe(9);
    expect(monthNumber("SEP")).toBe(9);
    expect(monthNumber("May")).toBe(5);
    expect(monthNumber("constructor")).toBeUndefined();
    expect(monthNumber("mayor")).toBeUndefined();
    expect(new RegExp(`^(?:${MONTH_PATTERN})$`).test("sept")).toBe(true);
    expect(new RegExp(`^(?:${MONTH_NAME_PATTERN})$`).test("sept")).toBe(false);
    expect(new RegExp(`\\b(${MONTH_PATTERN})\\b`).exec("on september 3")?.[1]).toBe("september");
  });
  it("ordinals", () => {
    expect(ordinalValue("first")).toBe(1);
    expect(ordinalValue("Tenth")).toBe(10);
    expect(ordinalValue("12th")).toBe(12);
    expect(ordinalValue("22nd")).toBe(22);
    expect(ordinalValue("firstly")).toBeUndefined();
    expect(new RegExp(`\\b(${ORDINAL_PATTERN})\\b`).exec("came in third place")?.[1]).toBe("third");
  });
  it("number words", () => {
    expect(numberWordValue("seven")).toBe(7);
    expect(numberWordValue("Seventeen")).toBe(17);
    expect(numberWordValue("forty")).toBe(40);
    expect(numberWordValue("twenty-one")).toBe(21);
    expect(numberWordValue("hundred")).toBe(100);
    expect(numberWordValue("twenty-ten")).toBeUndefined();
    expect("seventeen seven".match(new RegExp(`\\b(?:${NUMBER_WORD_PATTERN})\\b`, "g"))).toEqual([
      "seventeen",
      "seven",
    ]);
  });
  it("superlatives and comparatives", () => {
    expect(superlativeDirection("Highest")).toBe("max");
    expect(superlativeDirection("fewer")).toBe("min");
    expect(superlativeDirection("cheapest")).toBe("min");
    expect(superlativeDirection("table")).toBeUndefined();
    expect(new RegExp(`\\b(${SUPERLATIVE_PATTERN})\\b`).exec("the oldest bridge")?.[1]).toBe("oldest");
  });
  it("person and place nouns with plurals", () => {
    const person = new RegExp(`^(?:${nounPattern(PERSON_NOUNS)})$`);
    const place = new RegExp(`^(?:${nounPattern(PLACE_NOUNS)})$`);
    for (const w of ["player", "players", "coaches", "women", "people"]) expect(person.test(w)).toBe(true);
    for (const w of ["city", "cities", "countries", "venues"]) expect(place.test(w)).toBe(true);
    expect(person.test("score")).toBe(false);
  });
  it("alternation puts longer words first and escapes", () => {
    expect(alternation(["sep", "sept", "a.b"])).toBe("sept|a\\.b|sep");
  });
});
