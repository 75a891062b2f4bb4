/**
 * "What type of school is the academy with 300 pupils ?", "In which sport did the keeper of the club
 * win a title ?": a class of things is asked, and the row's pages write it in lower case ("… is a
 * private music school", "… she also competed in curling"). The reader's spans were names, numbers
 * and dates only, so the answer was never a candidate; for such a question the sentences' lower-case
 * noun phrases are spans too (nodes/offline/class-nouns.ts, used by reader.ts `readPassageSpans`).
 */
import { describe, expect, it } from "vitest";
import { askedClass, classNounSpans } from "../../../nodes/offline/class-nouns.js";
import { readerOverRow, rowWithPages } from "./fixtures.js";

const row = rowWithPages(
  "academies",
  ["Academy", "Keeper", "Pupils"],
  ["Orlen Academy", "Tova Brisk", "300"],
  [
    [
      "Orlen Academy",
      "Orlen Academy is a private music school in Harrowgate , Vennland . It was founded by Mira Orlen in 1921 .",
      0,
    ],
    [
      "Tova Brisk",
      "Tova Brisk ( born 1980 ) is a Vennish teacher from Lomsby . In 2004 she won a national title in curling . " +
        "Her grandfather Ivo Brisk died of pneumonia " +
        "in Lomsby in 1951 .",
      1,
    ],
  ],
);
const ask = readerOverRow(row);

describe("a class of things asked of the row", () => {
  it("knows a question that asks a class and the noun it classifies", () => {
    expect(askedClass("What type of school is the academy ?")).toEqual({ noun: "type", of: "school" });
    expect(askedClass("In which sport did the keeper win ?")).toEqual({ noun: "sport" });
    expect(askedClass("What Olympic medal did she win ?")).toEqual({ noun: "medal" });
    expect(askedClass("What is the bell made of ?")).toEqual({ noun: "material" });
    expect(askedClass("Which team did the keeper join ?")).toBeUndefined();
    expect(askedClass("What is the city which holds the prison ?")).toBeUndefined();
  });

  it("proposes a sentence's lower-case noun phrases, not its verbs or adjectives", () => {
    const spans = (s: string, named: string[] = []) => classNounSpans(s, (w) => named.includes(w)).map((x) => x.text);
    expect(spans("He received a bronze medal at the Games", ["medal"])).toEqual(["bronze", "medal"]);
    expect(spans("The bell is made of brass or copper", [])).toContain("brass or copper");
    const wolf = spans("The howl of a wolf startled a guard , who alerted the oldest soldiers");
    expect(wolf).toContain("wolf");
    expect(wolf).not.toContain("startled");
    expect(wolf).not.toContain("oldest");
    expect(spans("It is a type of thin-film display technology", ["technology"])[0]).toBe("thin-film display");
  });

  it("answers a class question with the lower-case noun phrase", async () => {
    expect(await ask("What type of school is the academy with 300 pupils ?")).toBe("private music");
    expect(await ask("In which sport did the keeper of the academy with 300 pupils win a national title ?")).toBe(
      "curling",
    );
    expect(await ask("What disease killed the grandfather of the keeper of the academy with 300 pupils ?")).toBe(
      "pneumonia",
    );
  });

  it("reads other questions as before", async () => {
    expect(await ask("Who founded the academy with 300 pupils ?")).toBe("Mira Orlen");
  });
});
