import { describe, expect, it } from "vitest";
import type { DocChunk, TableSchema } from "../../indexing/types.js";
import type { SubQueryPlan } from "../../nodes/types.js";
import { schemaScope, subQueryScope, tablesForHint, withGroundedColumns } from "../../nodes/schema-scope.js";
import { CLUBS } from "../fixtures/plans.js";

const t = (tableId: string): TableSchema => ({ ...CLUBS, tableId });
const tables = new Map([
  ["clubs", CLUBS],
  ["Cities-2020", t("Cities-2020")],
  ["book#Sheet1", t("book#Sheet1")],
  ["book#Sheet2", t("book#Sheet2")],
]);
const chunk = (tableId: string): DocChunk => ({ id: 0, type: "table", source: `${tableId}.csv`, text: "", tableId });

describe("schema scope", () => {
  it("resolves hints by id, name variant and workbook sheets", () => {
    expect(tablesForHint("clubs", tables)).toEqual(["clubs"]);
    expect(tablesForHint("cities_2020", tables)).toEqual(["Cities-2020"]);
    expect(tablesForHint("book", tables)).toEqual(["book#Sheet1", "book#Sheet2"]);
    expect(tablesForHint("nothing", tables)).toEqual([]);
  });
  it("uses the hinted tables alone, else the restored table, else the retrieved tables, else everything", () => {
    expect(
      schemaScope({ tableHint: "clubs", schema: t("Cities-2020"), chunks: [chunk("book#Sheet1")], tables }),
    ).toEqual(["clubs"]);
    expect(schemaScope({ tableHint: "book", schema: CLUBS, chunks: [], tables })).toEqual([
      "book#Sheet1",
      "book#Sheet2",
    ]);
    expect(schemaScope({ tableHint: "nothing", schema: t("Cities-2020"), chunks: [], tables })).toEqual([
      "Cities-2020",
    ]);
    expect(schemaScope({ schema: CLUBS, chunks: [chunk("book#Sheet1"), chunk("unknown")], tables })).toEqual(["clubs"]);
    expect(schemaScope({ schema: null, chunks: [chunk("book#Sheet1"), chunk("unknown")], tables })).toEqual([
      "book#Sheet1",
    ]);
    expect(schemaScope({ schema: null, chunks: [], tables })).toBeUndefined();
  });

  it("without a hint, draws C from the table the decomposer grounded the question in, before the restored one", () => {
    expect(schemaScope({ groundedTable: "Cities-2020", schema: CLUBS, chunks: [chunk("clubs")], tables })).toEqual([
      "Cities-2020",
    ]);
    // A hint still wins; a grounded table the index does not have is ignored.
    expect(schemaScope({ tableHint: "clubs", groundedTable: "Cities-2020", schema: null, chunks: [], tables })).toEqual(
      ["clubs"],
    );
    expect(schemaScope({ groundedTable: "gone", schema: CLUBS, chunks: [], tables })).toEqual(["clubs"]);
    // The sub-query's plan carries the grounding (the offline decomposer's analysis).
    const plan = {
      subQuery: "how many sales in march",
      analysis: {
        version: 1,
        normalized: "how many sales in march",
        grounding: { tableId: "Cities-2020", mentions: [] },
      },
    } as unknown as SubQueryPlan;
    expect(subQueryScope({ table_id: undefined, schema: CLUBS, chunks: [], plan }, tables)).toEqual(["Cities-2020"]);
    expect(subQueryScope({ table_id: undefined, schema: CLUBS, chunks: [], plan: null }, tables)).toEqual(["clubs"]);
  });

  it("adds to C the columns the decomposer's plan reads in its grounded table, when that table is in scope", () => {
    const club = { tableId: "clubs", column: "Club", type: "text" as const, examples: "", text: "" };
    const plan = {
      subQuery: "when was the club founded",
      analysis: { version: 1, normalized: "", grounding: { tableId: "clubs", mentions: [], columns: ["Founded"] } },
    } as unknown as SubQueryPlan;
    expect(withGroundedColumns([club], { plan }, tables, ["clubs"]).map((c) => c.column)).toEqual(["Club", "Founded"]);
    // (Already there, out of scope, or no grounding: C unchanged.)
    expect(withGroundedColumns([club], { plan }, tables, ["Cities-2020"])).toEqual([club]);
    expect(withGroundedColumns([club], { plan: null }, tables, ["clubs"])).toEqual([club]);
    const both = withGroundedColumns([club], { plan }, tables, undefined);
    expect(withGroundedColumns(both, { plan }, tables, undefined)).toEqual(both);
  });
});
