/**
 * Some tables put zero-width spaces between a cell's list items ("4 ZWSP 5 ZWSP 6"): no white space to `\s`, so
 * they stayed in the answer as words of their own and the answer never equalled "4 , 5 , 6" or "4 5 6".
 * `cleanAnswer` (nodes/offline/answer-format.ts, through text/normalise.ts `invisiblesToSpaces`) reads them as
 * spaces.
 */
import { describe, expect, it } from "vitest";
import { cleanAnswer } from "../../../nodes/offline/answer-format.js";
import { readerOverRow, rowWithPages } from "./fixtures.js";

const ZWSP = "\u200b";

describe("zero-width spaces in an answer", () => {
  it("become spaces when the answer is cleaned", () => {
    expect(cleanAnswer(`4 ${ZWSP} 5 ${ZWSP} 6`)).toBe("4 5 6");
    expect(cleanAnswer(`Harbor${ZWSP}Line`)).toBe("Harbor Line");
  });

  it("leave a row cell's answer clean", async () => {
    const ask = readerOverRow(
      rowWithPages(
        "stations",
        ["Station", "Services", "Opened"],
        ["Quay Street", `4 ${ZWSP} 5 ${ZWSP} 6`, "1904"],
        [["Quay Street", "Quay Street is a station on the harbour line .", 0]],
      ),
    );
    expect(await ask("What services does Quay Street station have ?")).toBe("4 5 6");
  });
});
