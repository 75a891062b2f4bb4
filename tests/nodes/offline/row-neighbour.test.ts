/**
 * "The shop with the fewest more staff than Harbor Bikes": the question's words name Harbor Bikes, and the
 * bridge took that row; the row asked for is the one whose staff count comes next above it
 * (nodes/offline/row-neighbour.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openSqlStore, readTableSchemas, writeSqlStore } from "../../../indexing/sql-store.js";
import { createRowFinder } from "../../../nodes/offline/bridge.js";
import type { Passage } from "../../../indexing/types.js";

const dir = mkdtempSync(join(tmpdir(), "atr-neighbour-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the row next to the one a question names", () => {
  const path = join(dir, "tables.sqlite");
  writeSqlStore(path, [
    {
      id: "shops",
      file: "shops.csv",
      header: ["Shop", "Town", "Staff", "Height m ( ft )"],
      rows: [
        ["Harbor Bikes", "Avon", "12", "9 ( 30 )"],
        ["Mill Books", "Birch", "30", "14 ( 46 )"],
        ["Lane Tools", "Cedar", "18", "21 ( 69 )"],
        ["Pier Fish", "Dover", "7", "6 ( 20 )"],
      ],
    },
  ]);
  const db = openSqlStore(path);
  const tables = readTableSchemas(db);
  const passages: Passage[] = ["Avon", "Birch", "Cedar", "Dover"].map((town, row) => ({
    id: `/wiki/${town}`,
    title: town,
    text: `${town} is a small town by the sea .`,
    file: "shops.json",
    tableId: "shops",
    cells: [[row, 1]],
  }));
  const findRow = createRowFinder({ db, tables, passages });
  const shop = (q: string) => findRow(q, "shops")?.values[0];

  it("takes the next value above or below the named row's", () => {
    expect(shop("In which town is the shop with the fewest more staff than Harbor Bikes ?")).toBe("Lane Tools");
    expect(shop("What town has the shop with the least amount of fewer staff than Harbor Bikes ?")).toBe("Pier Fish");
    expect(shop("Where is the shop the least amount taller than Harbor Bikes ?")).toBe("Mill Books");
  });
  it("takes the next value beside a number the question writes", () => {
    expect(shop("Where is the shop with a staff just smaller than 20 ?")).toBe("Lane Tools");
  });
  it("still takes the named row when nothing is compared", () => {
    expect(shop("In which town is Harbor Bikes ?")).toBe("Harbor Bikes");
  });
});
