import { describe, expect, it } from "vitest";
import {
  allocateQuotas,
  cellEntries,
  entityLikeness,
  rowEntries,
  schemaEntries,
  searchText,
} from "../../indexing/cell-selection.js";
import { tableSchemaFor } from "../../indexing/sql-store.js";
import type { RawTable } from "../../indexing/types.js";

function loaded(raw: RawTable) {
  return { raw, schema: tableSchemaFor(raw, raw.id) };
}

function table(id: string, rows: number, cols = 3, long = false): RawTable {
  return {
    id,
    file: `${id}.csv`,
    header: Array.from({ length: cols }, (_, c) => `Col ${c}`),
    rows: Array.from({ length: rows }, (_, r) =>
      Array.from({ length: cols }, (_, c) => (long ? `${"x".repeat(300)} ${r} ${c}` : `Name ${id} ${r}-${c}`)),
    ),
  };
}

describe("cell budget (reference §4.7 with the coverage fix)", () => {
  it("reaches every table: the quota shrinks to budget / tables", () => {
    const quotas = allocateQuotas(Array(400).fill(100), { budget: 10_000, perTableQuota: 50 });
    expect(quotas.every((q) => q === 25)).toBe(true);
    expect(quotas.reduce((a, b) => a + b, 0)).toBe(10_000);
  });

  it("gives what small tables leave to the others, never above the per-table quota", () => {
    const quotas = allocateQuotas([3, 200, 200, 1], { budget: 60, perTableQuota: 50 });
    expect(quotas).toEqual([3, 28, 28, 1]);
    const capped = allocateQuotas([500, 500], { budget: 10_000, perTableQuota: 50 });
    expect(capped).toEqual([50, 50]);
  });

  it("indexes cells of the 300th table too (the published code stopped after 200)", () => {
    const tables = Array.from({ length: 300 }, (_, i) => loaded(table(`t${i}`, 30)));
    const cells = cellEntries(tables, { budget: 10_000, perTableQuota: 50 });
    const perTable = new Map<string, number>();
    for (const c of cells) perTable.set(c.tableId, (perTable.get(c.tableId) ?? 0) + 1);
    expect(perTable.size).toBe(300);
    expect(Math.max(...perTable.values())).toBeLessThanOrEqual(50);
    expect(cells.length).toBeLessThanOrEqual(10_000);
  });

  it("prefers names, codes and dates over small numbers and free text", () => {
    expect(entityLikeness("Saint Etienne")).toBeGreaterThan(entityLikeness("3"));
    expect(entityLikeness("USA")).toBeGreaterThan(entityLikeness("12"));
    expect(entityLikeness("March 3, 1999")).toBeGreaterThan(entityLikeness("0.5"));
    expect(entityLikeness("1971")).toBeGreaterThan(entityLikeness("7"));
    expect(entityLikeness("Alpha FC")).toBeGreaterThan(
      entityLikeness("this is a long sentence of free text that goes on and on for a while"),
    );
    const raw: RawTable = {
      id: "t",
      file: "t.csv",
      header: ["Rank", "Club", "Notes"],
      rows: Array.from({ length: 20 }, (_, r) => [String((r % 3) + 1), `Club ${String.fromCharCode(65 + r)}`, ""]),
    };
    const cells = cellEntries([loaded(raw)], { budget: 10, perTableQuota: 10 });
    // frequent small ranks ("1" appears 7 times) lose to the club names
    expect(cells.every((c) => c.column === "Club")).toBe(true);
  });

  it("embeds the column and value in the cell text, and the table title when known", () => {
    const raw: RawTable = { id: "t", file: "t.csv", title: "Clubs", header: ["Club"], rows: [["Alpha FC"]] };
    expect(cellEntries([loaded(raw)], { budget: 5, perTableQuota: 5 })[0]).toMatchObject({
      column: "Club",
      value: "Alpha FC",
      freq: 1,
      text: "column: Club | value: Alpha FC | table: Clubs",
    });
  });
});

describe("row index (reference §4.8, test_row_retrieval)", () => {
  it("keeps every row and the full text by default", () => {
    const rows = rowEntries([loaded(table("a", 150, 3, true))], { budget: 0, perTableQuota: 0, maxChars: 0 });
    expect(rows).toHaveLength(150);
    expect(rows[0]!.text.length).toBeGreaterThan(700);
    expect(rows[0]!.text.startsWith("Table a | Col 0: ")).toBe(true);
    expect(rows[149]!.rowIdx).toBe(149);
  });

  it("applies explicit caps: budget 120, per table 110, 20 chars → 110 + 10 rows", () => {
    const rows = rowEntries([loaded(table("a", 150)), loaded(table("b", 150))], {
      budget: 120,
      perTableQuota: 110,
      maxChars: 20,
    });
    expect(rows.filter((r) => r.tableId === "a")).toHaveLength(110);
    expect(rows.filter((r) => r.tableId === "b")).toHaveLength(10);
    expect(rows.every((r) => r.text.length <= 20)).toBe(true);
  });

  it("omits empty cells from the text but keeps them in values", () => {
    const raw: RawTable = { id: "c", file: "c.csv", header: ["Club", "Founded"], rows: [["Gamma", ""]] };
    const [row] = rowEntries([loaded(raw)], { budget: 0, perTableQuota: 0, maxChars: 0 });
    expect(row!.text).toBe("Table c | Club: Gamma");
    expect(row!.values).toEqual({ Club: "Gamma", Founded: "" });
  });

  it("adds the opening of passages linked from a row's cells to its searchable text (HybridQA)", () => {
    const raw: RawTable = {
      id: "m",
      file: "m.csv",
      header: ["Museum", "District"],
      rows: [
        ["Pushkin Museum", "Khamovniki"],
        ["Tretyakov", "Yakimanka"],
      ],
    };
    const passages = [
      {
        id: "/wiki/Khamovniki",
        file: "m.json",
        tableId: "m",
        text: "Khamovniki District is home to the embassy of Austria.",
        cells: [[0, 1]] as Array<[number, number]>,
      },
      {
        id: "/wiki/Header",
        file: "m.json",
        tableId: "m",
        text: "Header link.",
        cells: [[-1, 0]] as Array<[number, number]>,
      },
    ];
    const rows = rowEntries([loaded(raw)], { budget: 0, perTableQuota: 0, maxChars: 0 }, passages);
    expect(rows[0]!.linked).toBe("Khamovniki District is home to the embassy of Austria.");
    expect(rows[0]!.text).toBe("Table m | Museum: Pushkin Museum | District: Khamovniki");
    expect(searchText(rows[0]!)).toContain("embassy of Austria");
    expect(rows[1]!.linked).toBeUndefined();
  });

  it("rejects negative caps", () => {
    expect(() => rowEntries([], { budget: -1, perTableQuota: 0, maxChars: 0 })).toThrow(/row_budget/);
  });
});

describe("schema entries (View 3)", () => {
  it("carry the table id/title, type and three examples in the embedded text", () => {
    const raw: RawTable = {
      id: "clubs",
      file: "clubs.csv",
      title: "Football clubs",
      header: ["Club", "Founded"],
      rows: [
        ["A", "1971"],
        ["B", "1990"],
        ["C", "1902"],
        ["D", "1950"],
      ],
    };
    const [club, founded] = schemaEntries([loaded(raw)]);
    expect(club!.text).toBe("table: Football clubs (clubs) | column: Club | type: text | examples: A, B, C");
    expect(founded!.type).toBe("integer");
  });
});

describe("the best pairs of a table", () => {
  it("are the first of the full ranking, ties included, and the count is every distinct pair", async () => {
    const { bestPairs, rankedPairs } = await import("../../indexing/cell-selection.js");
    // many equal scores: repeated values, equal first rows across columns
    const raw: RawTable = {
      id: "t",
      file: "t.csv",
      header: ["a", "b", "c"],
      rows: Array.from({ length: 400 }, (_, r) => [
        `Name ${r % 37}`,
        String(r % 11),
        r % 3 === 0 ? "Same" : `Place ${r % 53}`,
      ]),
    } as RawTable;
    const full = rankedPairs(raw);
    for (const k of [0, 1, 5, 50, full.length - 1, full.length, full.length + 5]) {
      const { count, best } = bestPairs(raw, k);
      expect(count).toBe(full.length);
      expect(best).toEqual(full.slice(0, k));
    }
  });
});
