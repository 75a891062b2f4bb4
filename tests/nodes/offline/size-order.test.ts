/**
 * "Which district is the second largest hall in ?": the superlative names no header ("hall" is no
 * column's word), so every row tied and the first one won. A venue is as large as it seats and a town
 * as its population: the size superlative orders the rows by the "Capacity" or "Population" column
 * (nodes/offline/size-order.ts, used by the bridge after row-order.ts and age-order.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { rowSizeOrder } from "../../../nodes/offline/size-order.js";
import { linkedRowFinder } from "./fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "atr-size-order-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HALLS = {
  id: "halls",
  file: "halls.csv",
  header: ["Club", "Town", "Hall", "Capacity"],
  rows: [
    ["Lark BC", "Ostra", "Lark Dome", "4,100"],
    ["Moor BC", "Velm", "Moor Hall", "9,250"],
    ["Vale BC", "Dunby", "Vale Arena", "6,800"],
  ],
};

describe("a size superlative read through its noun", () => {
  const values = (ci: number) => HALLS.rows.map((r) => r[ci]!);
  it("orders venues by what they seat and towns by their population", () => {
    expect(rowSizeOrder("Which district is the second largest hall in ?", HALLS.header, values)).toMatchObject({
      column: 3,
      direction: "max",
      rank: 2,
    });
    expect(
      rowSizeOrder("the most populous town", ["Town", "Population ( 2011 )"], () => ["1,200", "800"]),
    ).toMatchObject({ column: 1, direction: "max", rank: 1 });
    // No column holds what the noun's size is.
    expect(rowSizeOrder("Which club has the biggest rivals ?", HALLS.header, values)).toBeUndefined();
    expect(rowSizeOrder("the smallest town", HALLS.header, values)).toBeUndefined();
  });

  const findRow = linkedRowFinder(dir, HALLS, [
    ["Ostra", "Ostra is a town in the district of Brenn .", 0, 1],
    ["Velm", "Velm is a town in the district of Kessel .", 1, 1],
    ["Dunby", "Dunby is a town in the district of Harl .", 2, 1],
  ]);

  it("picks the row at the asked rank of that column", () => {
    expect(findRow("Which district is the second largest hall located in ?", "halls")?.rowId).toBe(2);
    expect(findRow("Which district is the largest hall located in ?", "halls")?.rowId).toBe(1);
  });
});
