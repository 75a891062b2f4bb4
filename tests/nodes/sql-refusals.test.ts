import { describe, expect, it } from "vitest";
import { sqlRefusals } from "../../nodes/sql-route.js";

describe("sqlRefusals (the trace's sql_refused)", () => {
  it("lists each refused statement with the guard's reasons, writer failures bare, and the pre-check's refusal first", () => {
    expect(
      sqlRefusals({
        answer: "3",
        confidence: 1,
        sql: "SELECT COUNT(*) FROM clubs",
        sqlResult: "[[3]]",
        attempts: [
          { sql: "DELETE FROM clubs", violations: ["only SELECT is allowed", "writes"], confidence: 0, result: "" },
          { sql: "", violations: ["SQL writer failed: no template fits"], confidence: 0, result: "" },
          { sql: "SELECT COUNT(*) FROM clubs", violations: [], confidence: 1, result: "[[3]]" },
        ],
      } as never),
    ).toEqual(["DELETE FROM clubs → only SELECT is allowed; writes", "SQL writer failed: no template fits"]);
    expect(
      sqlRefusals({
        answer: "not found",
        confidence: 0,
        sql: "",
        sqlResult: "",
        attempts: [],
        refused: "no allowed columns",
      } as never),
    ).toEqual(["no allowed columns"]);
    expect(
      sqlRefusals({
        answer: "3",
        confidence: 1,
        sql: "x",
        sqlResult: "",
        attempts: [{ sql: "x", violations: [], confidence: 1, result: "" }],
      } as never),
    ).toEqual([]);
  });
});
