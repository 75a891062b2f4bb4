/**
 * "Laguna de la Sal", "Pieter van der Hoek": a particle followed by an article inside a name is
 * part of it (nodes/offline/reader.ts `NAME_RE`). Before, the article cut the name in two
 * ("Laguna", "Sal") and neither half was the answer. (English "of the" is left out: "the Fraud
 * Unit of the State Police" names two things.)
 */
import { describe, expect, it } from "vitest";
import { readerOverRow, rowWithPages } from "./fixtures.js";

const ask = readerOverRow(
  rowWithPages(
    "shipyards",
    ["Year", "Shipyard", "Town"],
    ["1871", "Holt Yard", "Eastvale"],
    [
      [
        "Holt Yard",
        "Holt Yard is a shipyard in Eastvale . It was founded in 1871 by the shipwright Pieter van der Hoek .",
        1,
      ],
      ["Eastvale", "Eastvale is a town on the shore of the Laguna de la Sal .", 2],
    ],
  ),
);

describe("a name with a particle and an article", () => {
  it("is read whole", async () => {
    expect(await ask("Which shipwright founded the shipyard of Eastvale in 1871 ?")).toBe("Pieter van der Hoek");
    expect(await ask("On the shore of which lagoon is the town of the shipyard of 1871 ?")).toBe("Laguna de la Sal");
  });
});
