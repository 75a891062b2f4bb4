/**
 * "Which studio made the film released after 2001 in which the actor played Mira ?": the row of 2001 held
 * the question's "2001" as surely as the right row held "Mira", and the first of the tied rows won. A
 * number after "after / before / than / over / under / above / below" is a bound: the bridge's word match
 * does not count it (nodes/offline/named-numbers.ts `boundNumbers`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { boundNumbers } from "../../../nodes/offline/named-numbers.js";
import { linkedRowFinder } from "./fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "atr-bound-numbers-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("numbers a question compares rows with", () => {
  it("reads the number after a comparison's word", () => {
    expect(boundNumbers("the film released after 2001 in which she played Mira")).toEqual(["2001"]);
    expect(boundNumbers("the club with more than 1,200 members and under 40 staff")).toEqual(["1200", "40"]);
    expect(boundNumbers("the film released in 2001")).toEqual([]);
  });

  const findRow = linkedRowFinder(
    dir,
    {
      id: "roles",
      file: "roles.csv",
      header: ["Year", "Film", "Role"],
      rows: [
        ["2001", "Paper Harbour", "Girl on a bus"],
        ["2004", "Dune Sparrow", "Mira"],
        ["2009", "Kettle Lake", "Nurse"],
      ],
    },
    [
      ["Paper Harbour", "Paper Harbour is a drama film made by Tallow Pictures .", 0, 1],
      ["Dune Sparrow", "Dune Sparrow is an animated film made by Brisk Studio .", 1, 1],
      ["Kettle Lake", "Kettle Lake is a thriller film made by Owl Films .", 2, 1],
    ],
  );

  it("does not count a bound as a cell the row holds", () => {
    expect(
      findRow("Which studio made the film released after 2001 in which the actor played Mira ?", "roles")?.rowId,
    ).toBe(1);
  });
});
