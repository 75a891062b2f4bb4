/**
 * "Which best position did the rower of the crew with two titles reach ?": a rank, standing or
 * placement is answered with an ordinal ("8th", "seventh"), which the passage reader read as one number
 * among others ("2,000 metres") or not at all (an ordinal word). For such a question the sentence's
 * ordinals fit best (reader.ts `rankPreference`); "what position does she row ?" asks a role and is read
 * as before.
 */
import { describe, expect, it } from "vitest";
import { readerOverRow, rowWithPages } from "./fixtures.js";

const row = rowWithPages(
  "crews",
  ["Crew", "Rower", "Titles"],
  ["Lake Blue", "Ines Palo", "2"],
  [
    [
      "Ines Palo",
      "Ines Palo ( born 1990 ) is a Chilean rower who rows at stroke . Her best position was achieved at " +
        "the 2016 Games , 8th over 2,000 metres , after 120 days of training .",
      1,
    ],
    [
      "Lake Blue",
      "Lake Blue is a rowing crew of Valdivia . In the 1998 national league the crew ended seventh of 14 clubs .",
      0,
    ],
  ],
);
const ask = readerOverRow(row);

describe("a rank asked of the row", () => {
  it("answers with the ordinal of the sentence", async () => {
    expect(await ask("Which best position did the rower of the crew with two titles reach ?")).toBe("8th");
    expect(await ask("What was the 1998 league standing of the crew with two titles ?")).toBe("seventh");
  });

  it("reads a bare position as a role", async () => {
    expect(await ask("What position does the rower of the crew with two titles row at ?")).not.toBe("8th");
  });
});
