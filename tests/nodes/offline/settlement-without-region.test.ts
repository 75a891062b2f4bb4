/**
 * "What is the town where the band was formed ?" asks the town: a passage's "Ferndale , Ohio" names it with its
 * region, and gold answers to what/which city, town or village questions leave the region out. The reader now
 * offers the place alone, preferred, for such questions, and takes it from a "Place , Region" cell the same way
 * (nodes/offline/reader.ts `asksForSettlement`); "where …" keeps the region.
 */
import { describe, expect, it } from "vitest";
import { readerOverRow, rowWithPages } from "./fixtures.js";

// The band's row links its page; the station's row holds the town in a cell.
const [band, station] = [
  rowWithPages(
    "bands",
    ["Year", "Band"],
    ["2004", "The Low Pines"],
    [["The Low Pines", "The Low Pines are an American folk band formed in Ferndale , Ohio in 1999 .", 1]],
  ),
  rowWithPages(
    "stations",
    ["Call sign", "Town"],
    ["KXLP", "Ferndale , Ohio"],
    [["KXLP", "KXLP is a radio station that plays country music .", 0]],
  ),
].map(readerOverRow);

describe("a town asked with its region written beside it", () => {
  it("reads the town alone from a passage", async () => {
    expect(await band!("What is the town where the folk band The Low Pines was formed ?")).toBe("Ferndale");
  });
  it("keeps the region for a where question", async () => {
    expect(await band!("Where was the folk band The Low Pines formed ?")).toBe("Ferndale , Ohio");
  });
  it("takes the town alone from a Place , Region cell", async () => {
    expect(await station!("Which town is the radio station that plays country music in ?")).toBe("Ferndale");
  });
});
