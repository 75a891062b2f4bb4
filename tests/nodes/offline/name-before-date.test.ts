/**
 * "… premiered in Vienna on March 3": a date written month first after "on" is not part of the name before
 * it (nodes/offline/reader.ts `nameSpans`, as "on 6 June" already was), so "Which city …" reads "Vienna", not
 * "Vienna on March 3".
 */
import { describe, expect, it } from "vitest";
import { readerOverRow, rowWithPages } from "./fixtures.js";

const ask = readerOverRow(
  rowWithPages(
    "operas",
    ["Year", "Opera", "Role"],
    ["1911", "The Glass Orchard", "Mira"],
    [
      [
        "The Glass Orchard",
        "The Glass Orchard is an opera in three acts by Lena Varga . " +
          "The opera premiered in Vienna on March 3 , 1911 , with the composer conducting .",
        1,
      ],
    ],
  ),
);

describe("a name before a month-first date", () => {
  it("ends before the date", async () => {
    expect(await ask("In which city did the opera in which Mira is a role premiere ?")).toBe("Vienna");
  });
});
