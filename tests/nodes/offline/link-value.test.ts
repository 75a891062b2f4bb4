import { describe, expect, it } from "vitest";
import { pickCandidate } from "../../../nodes/offline/link-value.js";
import type { CellEntry } from "../../../indexing/types.js";

const cell = (column: string, value: string, freq = 1): CellEntry => ({
  tableId: "t",
  column,
  value,
  freq,
  text: `column: ${column} | value: ${value}`,
});
const pick = (entity: string, candidates: CellEntry[]) => pickCandidate({ entity, subQuery: "q", candidates });

describe("offline linkValue", () => {
  it("prefers the exact candidate, verbatim, with its column", () => {
    expect(pick("Russia", [cell("Nation", "Russian Empire"), cell("Nation", "Russia")])).toEqual({
      matchedValue: "Russia",
      matchedColumn: "Nation",
      confidence: 1,
    });
  });

  it("matches case, accents and punctuation variants", () => {
    expect(pick("jose luis arrieta", [cell("Cyclist", "José Luis Arrieta")]).matchedValue).toBe("José Luis Arrieta");
    expect(pick("St Louis", [cell("City", "St. Louis")]).matchedValue).toBe("St. Louis");
  });

  it("matches numbers and dates by value", () => {
    expect(pick("1,200", [cell("Prize", "1200")])).toMatchObject({ matchedValue: "1200", confidence: 0.8 });
    expect(pick("June 30, 2019", [cell("Date", "2019-06-30")]).matchedValue).toBe("2019-06-30");
  });

  it("accepts an alias only when it names a single value", () => {
    expect(pick("smith", [cell("Winner", "Marilynn Smith"), cell("Winner", "Kim Lee")]).matchedValue).toBe(
      "Marilynn Smith",
    );
    expect(pick("smith", [cell("Winner", "Marilynn Smith"), cell("Winner", "Ana Smith")]).matchedValue).toBe(
      "no_match",
    );
  });

  it("returns no_match for unrelated candidates and empty input", () => {
    expect(pick("gold medals", [cell("Nation", "China")])).toEqual({
      matchedValue: "no_match",
      matchedColumn: "",
      confidence: 0,
    });
    expect(pick("China", [])).toMatchObject({ matchedValue: "no_match" });
  });

  it("breaks ties between columns by the primary column", () => {
    const out = pickCandidate({
      entity: "Kim Lee",
      subQuery: "q",
      candidates: [cell("Runner-up", "Kim Lee", 3), cell("Winner", "Kim Lee", 1)],
      primaryColumn: { tableId: "t", column: "Winner", type: "text", examples: "", text: "" },
    });
    expect(out.matchedColumn).toBe("Winner");
  });
});
