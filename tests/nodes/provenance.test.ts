import { describe, expect, it } from "vitest";
import type { TraceDecision } from "../../graph/state.js";
import { passageSentences, provenanceOfAnswer, rowCells } from "../../nodes/provenance.js";
import type { Provenance } from "../../nodes/types.js";
import { rowsQuery } from "../../retrievers/sql-rows.js";

describe("rowsQuery: the row numbers a SELECT read", () => {
  it("a plain SELECT keeps its WHERE, ORDER BY and LIMIT (the rows it returned)", () => {
    const q = rowsQuery(`SELECT "club__raw" FROM "clubs" WHERE "founded" < 1900 ORDER BY "founded" DESC LIMIT 1`, [
      "club__raw",
    ]);
    expect(q).toEqual({
      table: "clubs",
      sql: `SELECT "_row", "club__raw" FROM "clubs" WHERE "founded" < 1900 ORDER BY "founded" DESC LIMIT 1`,
    });
  });

  it("an aggregate or grouped SELECT keeps its WHERE only (the rows it went over)", () => {
    expect(rowsQuery(`SELECT COUNT(*) FROM "clubs" WHERE "founded" < 1900 LIMIT 5`, [])).toEqual({
      table: "clubs",
      sql: `SELECT "_row" FROM "clubs" WHERE "founded" < 1900`,
    });
    const grouped = rowsQuery(
      `SELECT "region", SUM("population") FROM "cities" GROUP BY "region" ORDER BY 2 DESC LIMIT 1`,
      ["region__raw"],
    );
    expect(grouped).toEqual({ table: "cities", sql: `SELECT "_row", "region__raw" FROM "cities"` });
  });

  it("a WHERE sub-query stays; joins, set operations and CTEs have no single row set", () => {
    const sub = rowsQuery(`SELECT "city" FROM "cities" WHERE "area" = (SELECT MIN("area") FROM "cities")`, []);
    expect("sql" in sub && sub.sql).toBe(
      `SELECT "_row" FROM "cities" WHERE "area" = (SELECT MIN("area") FROM "cities")`,
    );
    expect(
      rowsQuery(`SELECT a."club" FROM "clubs" AS a, "clubs" AS b WHERE a."founded" < b."founded"`, []),
    ).toMatchObject({ unavailable: expect.stringMatching(/join/) });
    expect(rowsQuery(`SELECT "club" FROM "clubs" UNION SELECT "city" FROM "cities"`, [])).toMatchObject({
      unavailable: expect.stringMatching(/set operations/),
    });
    expect(rowsQuery(`WITH t AS (SELECT "club" FROM "clubs") SELECT * FROM t`, [])).toMatchObject({
      unavailable: expect.stringMatching(/CTE/),
    });
    expect(rowsQuery(`SELEC nothing`, [])).toMatchObject({ unavailable: expect.stringMatching(/does not parse/) });
  });
});

describe("locating the answer in what a route read", () => {
  it("passageSentences: the sentence holding the answer, numbers with or without separators", () => {
    const chunks = [
      {
        id: 0,
        type: "text" as const,
        source: "towns.json",
        passageId: "town/lowen",
        text: "File name: towns.json\nLowen lies on the coast. Its harbour handled 1,250 ships in 1900. It is quiet now.",
      },
      {
        id: 1,
        type: "table" as const,
        source: "ships.csv",
        tableId: "ships",
        text: "File name: ships.csv\n| Year | Ships |\n| 1900 | 1250 |",
      },
    ];
    expect(passageSentences("1250", chunks)).toEqual([
      { id: "town/lowen", file: "towns.json", sentence: "Its harbour handled 1,250 ships in 1900." },
    ]);
    expect(passageSentences("125", chunks)).toEqual([]); // whole words only
    expect(passageSentences("not found", chunks)).toEqual([]);
  });

  it("rowCells: the first row holding the answer, with the cells its linked value matched", () => {
    const rows = [
      { tableId: "t", rowIdx: 4, text: "", values: { Team: "Gulls", Wins: "4", Draws: "1" } },
      { tableId: "t", rowIdx: 7, text: "", values: { Team: "Millers", Wins: "2", Draws: "4" } },
    ];
    const linked = [
      {
        entity: "the Gulls",
        tableId: "t",
        column: "Team",
        matchedValue: "Gulls",
        confidence: 1,
        fallbackLevel: 0 as const,
      },
    ];
    expect(rowCells("4", rows, linked)).toEqual([
      { tableId: "t", row: 4, column: "Team", value: "Gulls" },
      { tableId: "t", row: 4, column: "Wins", value: "4" },
    ]);
    expect(rowCells("11", rows, linked)).toEqual([{ tableId: "t", row: 4, column: "Team", value: "Gulls" }]);
  });
});

describe("provenanceOfAnswer: the attempt that produced the final answer", () => {
  const prov = (subQuery: string, attempt: number): Provenance => ({
    subQuery,
    attempt,
    route: "SQL",
    tables: ["t"],
    cells: [],
    passages: [],
  });
  const decision = (subQuery: string, attempt: number, answer: string, verdict: 0 | 0.5 | 1): TraceDecision =>
    ({
      sub_query: subQuery,
      attempt,
      produced_answer: answer,
      verdict,
      accepted: verdict === 1,
      provenance: prov(subQuery, attempt),
    }) as unknown as TraceDecision;
  const trace = [
    decision("a", 1, "X", 0.5),
    decision("a", 2, "X", 0.5),
    decision("a", 3, "Y", 1),
    decision("b", 1, "Y", 1),
    decision("b", 2, "Z", 0),
  ];

  it("a verified answer: the latest accepted attempt with it; a plausible one: the earliest verdict-0.5 attempt", () => {
    expect(provenanceOfAnswer("Y", true, trace)).toEqual([prov("b", 1)]);
    expect(provenanceOfAnswer("x", false, trace)).toEqual([prov("a", 1)]);
    // Whatever chose the answer (the learned P may pick any attempt's), its provenance follows it.
    expect(provenanceOfAnswer("Z", false, trace)).toEqual([prov("b", 2)]);
    expect(provenanceOfAnswer("W", false, trace)).toEqual([]);
    expect(provenanceOfAnswer("not found", false, trace)).toEqual([]);
  });

  it("a synthesis: the accepted attempt of each step it combined", () => {
    expect(provenanceOfAnswer("X and Y", true, trace, ["a", "b"])).toEqual([prov("a", 3), prov("b", 1)]);
  });
});
