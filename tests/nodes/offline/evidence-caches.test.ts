import { describe, expect, it } from "vitest";
import { supportOf } from "../../../nodes/offline/answer-checks.js";

// Two passages that both hold "1901"; the question's words are in the first one's sentence only.
const A =
  "[Source: a.txt]\nHarbour Mill\nHarbour Mill opened in 1901 beside the river .\n\n[Source: b.txt]\nOld Quay\nThe Old Quay was rebuilt in 1901 .";
const B = "[Source: c.txt]\nOld Quay\nThe Old Quay was rebuilt in 1901 .";

describe("support's evidence units are remembered by evidence text", () => {
  it("gives each evidence, answer and sub-query its own support, whatever was asked before", () => {
    const q = "When did Harbour Mill open ?";
    const freshA = supportOf(q, q, "1901", A);
    const freshB = supportOf(q, q, "1901", B);
    expect(freshA).toBeGreaterThan(freshB);
    // other answers over the same evidence: one it does not hold, one it does
    expect(supportOf(q, q, "1850", A)).toBe(0);
    expect(supportOf(q, `${q} (about: Old Quay)`, "1901", B)).toBeGreaterThanOrEqual(freshB);
    expect(supportOf(q, q, "1901", B)).toBe(freshB);
    expect(supportOf(q, q, "1901", A)).toBe(freshA);
  });
});

describe("described report-table grids are remembered by the rows list", () => {
  it("answers each list of rows for its own cells", async () => {
    const { answerFromCells, hasPeriodTable } = await import("../../../nodes/offline/table-cells.js");
    const row = (r: number, cells: Array<[string, string]>) => ({
      tableId: "t",
      rowIdx: r,
      cells: cells.map(([column, value]) => ({ column, value })),
    });
    const report = [
      row(0, [
        ["Item", "Revenue"],
        ["2019", "120"],
        ["2018", "100"],
      ]),
      row(1, [
        ["Item", "Costs"],
        ["2019", "80"],
        ["2018", "70"],
      ]),
    ];
    const plain = [
      row(0, [
        ["Item", "Revenue"],
        ["Region", "North"],
      ]),
    ];
    expect(hasPeriodTable(report)).toBe(true);
    expect(hasPeriodTable(plain)).toBe(false);
    expect(hasPeriodTable(report)).toBe(true);
    const q = "What was the revenue in 2019?";
    expect(answerFromCells(q, report)?.answer).toBe("120");
    // another list with other values is described anew, not taken for the first
    const changed = report.map((r) => ({
      ...r,
      cells: r.cells.map((c) => (c.value === "120" ? { ...c, value: "125" } : c)),
    }));
    expect(answerFromCells(q, changed)?.answer).toBe("125");
    expect(answerFromCells(q, report)?.answer).toBe("120");
  });
});

describe("evidence rows are shared between evidences holding the same rows", () => {
  const table = "[Source: t.csv]\n| Year | Revenue |\n| --- | --- |\n| 2019 | 120 |\n| 2018 | 100 |";
  it("gives the same list when only a text after the table differs, and each table its own rows", async () => {
    const { evidenceRows } = await import("../../../nodes/offline/answer-checks.js");
    const one = evidenceRows(`${table}\n\n[{"revenue":120}]`);
    const two = evidenceRows(`${table}\n\n[{"revenue":100}]`);
    expect(two).toBe(one);
    expect(one.map((r) => r.cells.map((c) => c.value))).toEqual([
      ["2019", "120"],
      ["2018", "100"],
    ]);
    const other = evidenceRows(table.replace("| 2018 | 100 |", "| 2018 | 90 |"));
    expect(other).not.toBe(one);
    expect(other[1]!.cells[1]!.value).toBe("90");
  });
});
