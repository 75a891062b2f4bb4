import { describe, expect, it } from "vitest";
import type { ColumnSchema, TableSchema } from "../../../indexing/types.js";
import { catalogFromRows } from "../../../nodes/offline/table-catalog.js";

function schemaOf(header: string[], types: ColumnSchema["type"][]): TableSchema {
  const columns = header.map((name, i) => ({
    name,
    physical: `c${i}`,
    rawPhysical: `c${i}__raw`,
    type: types[i]!,
    examples: [],
  }));
  return { tableId: "t", physical: "t_t", file: "t.csv", rowCount: 0, columns };
}

describe("catalogFromRows summary rows", () => {
  it("marks a leading Total / All / all-places cell as a summary row", () => {
    const schema = schemaOf(["Place", "Victims"], ["text", "integer"]);
    const rows = [
      ["Novi Sad", "1246"],
      ["Total", "2000"],
      ["All places", "2000"],
      ["All", "2000"],
      ["all 13", "2000"],
    ];
    expect([...catalogFromRows(schema, rows).summaryRows]).toEqual([1, 2, 3, 4]);
  });

  it("does not take a title that starts with 'all' for a summary row", () => {
    const schema = schemaOf(["Song", "Year"], ["text", "integer"]);
    const rows = [
      ['"All of You"', "2012"],
      ['"Atomic"', "2013"],
      ["All Along the Watchtower", "1968"],
    ];
    expect(catalogFromRows(schema, rows).summaryRows.size).toBe(0);
  });

  it("marks an unlabelled last row whose amounts are the column sums as a summary row", () => {
    const schema = schemaOf(["Rank", "Nation", "Gold", "Silver"], ["integer", "text", "integer", "integer"]);
    const rows = [
      ["1", "China", "5", "2"],
      ["2", "Japan", "3", "4"],
      ["3", "Korea", "1", "1"],
      ["", "", "9", "7"],
    ];
    expect([...catalogFromRows(schema, rows).summaryRows]).toEqual([3]);
    // A last row that is merely large is data.
    const data = [
      ["1", "China", "5", "2"],
      ["2", "Japan", "3", "4"],
      ["3", "Korea", "1", "1"],
      ["4", "India", "12", "3"],
    ];
    expect(catalogFromRows(schema, data).summaryRows.size).toBe(0);
  });
});
