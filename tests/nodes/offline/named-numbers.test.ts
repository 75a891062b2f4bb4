/**
 * "The runner who finished in 27:41.2": the bridge's word match splits the time into 27, 41 and 2, which
 * another row holds as well; the row holding the number whole is the one named (nodes/offline/named-numbers.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cellIsNumber, namedNumbers } from "../../../nodes/offline/named-numbers.js";
import { linkedRowFinder } from "./fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "atr-named-numbers-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("numbers a question names a row by", () => {
  it("reads numbers as written and leaves bounds out", () => {
    expect(namedNumbers("Who ran 10,000 m in 27:41.2 for the 18th time ?")).toEqual(["10000", "27:41.2", "18"]);
    expect(namedNumbers("Which hall seats more than 4,500 but fewer than 9,000 ?")).toEqual([]);
    expect(namedNumbers("Which film came out after 1999 ?")).toEqual([]);
  });
  it("leaves out a date's day and year", () => {
    expect(namedNumbers("Which rider was born June 3 , 1961 ?")).toEqual([]);
    expect(namedNumbers("Which rider was born on 3 June 1961 ?")).toEqual([]);
  });
  it("matches a cell holding the number whole", () => {
    expect(cellIsNumber("8,250", "8250")).toBe(true);
    expect(cellIsNumber("18th", "18")).toBe(true);
    expect(cellIsNumber("8,250 ( est . )", "8250")).toBe(false);
  });

  const findRow = linkedRowFinder(
    dir,
    {
      id: "race",
      file: "race.csv",
      header: ["Place", "Runner", "Time"],
      rows: [
        ["2", "Cid Lark", "41:27.2"],
        ["3", "Bea Moor", "27:41.2"],
        ["5", "Ann Vale", "29:05.8"],
      ],
    },
    [
      ["Cid Lark", "Cid Lark is a runner who finished second in Rome .", 0, 1],
      ["Bea Moor", "Bea Moor is a runner from Oslo .", 1, 1],
      ["Ann Vale", "Ann Vale is a runner from Lyon , born in 1990 .", 2, 1],
    ],
  );

  it("takes the row holding the stated time whole, not the one holding its digit groups", () => {
    expect(findRow("Where is the runner who finished in 27:41.2 from ?", "race")?.values[1]).toBe("Bea Moor");
  });
  it("does not take the row whose place is the day of a date the question states", () => {
    expect(findRow("Where is the runner born June 3 , 1990 from ?", "race")?.values[1]).toBe("Ann Vale");
  });
});
