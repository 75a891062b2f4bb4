import { describe, expect, it } from "vitest";
import { parseSqlRows, yearOfCell } from "../../../nodes/offline/sql-result.js";
import { fuse } from "../../../nodes/offline/fuse.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import type { SubQueryPlan } from "../../../nodes/types.js";

function tablePlan(q: string): SubQueryPlan {
  const a = analyzeQuestion(q);
  return {
    subQuery: q,
    requiredModalities: "table",
    expectedOperator: a.operator,
    needGlobalTableView: false,
    entityMentions: [],
    uncertainty: 0,
    analysis: a as unknown as Record<string, unknown>,
  };
}

/** The SQL route's answer from a statement's result (and, when given, the table chunks retrieved beside it). */
const sqlAnswer = (q: string, sqlResult: string, markdown = "") =>
  fuse({
    question: q,
    subQuery: q,
    plan: tablePlan(q),
    route: "SQL",
    textEvidence: "",
    schemaEvidence: "",
    sqlResult,
    markdown,
  });

describe("SQL result cells", () => {
  it("parses the result shapes", () => {
    expect(parseSqlRows('[{"a": 1, "b": "x"}]')).toEqual([[1, "x"]]);
    expect(parseSqlRows("[[2]]")).toEqual([[2]]);
    expect(parseSqlRows("not json")).toBeUndefined();
  });

  it("reads the one year of a date or event cell", () => {
    expect(yearOfCell("14 March 2016")).toBe("2016");
    expect(yearOfCell("June 3, 1987")).toBe("1987");
    expect(yearOfCell("1998 Spring Festival")).toBe("1998");
    expect(yearOfCell("2004(runner-up)")).toBe("2004");
    expect(yearOfCell("2011")).toBe("2011");
    // (A whole date written with dashes or slashes, which a range's would otherwise hide.)
    expect(yearOfCell("2020-01-06")).toBe("2020");
    expect(yearOfCell("2025-01-10 06:00")).toBe("2025");
    expect(yearOfCell("30/10/2012")).toBe("2012");
  });

  it("leaves seasons, ranges, two years and other numbers alone", () => {
    expect(yearOfCell("2008/09")).toBe("2008/09");
    expect(yearOfCell("1995–96")).toBe("1995–96");
    expect(yearOfCell("1949-1987")).toBe("1949-1987");
    expect(yearOfCell("May 1990 to June 1994")).toBe("May 1990 to June 1994");
    expect(yearOfCell("12,000")).toBe("12,000");
    expect(yearOfCell("1990s")).toBe("1990s");
    expect(yearOfCell("Room 12")).toBe("Room 12");
  });

  it("answers a year question from a date cell with its year, and a date question with the date", async () => {
    expect(await sqlAnswer("In what year was Dana Ortiz hired?", '[{"hire_date__raw": "14 March 2016"}]')).toBe("2016");
    expect(await sqlAnswer("When was Dana Ortiz hired?", '[{"hire_date__raw": "14 March 2016"}]')).toBe(
      "14 March 2016",
    );
    expect(await sqlAnswer("What is Dana Ortiz's office?", '[{"office__raw": "Room 2016"}]')).toBe("Room 2016");
  });

  it("answers the rows of the first date as a tie, not a list to read again from the chunks", async () => {
    const tie = '[{"name__raw": "Hal Roy"}, {"name__raw": "Jo Patel"}]';
    const chunks =
      "| name | admitted |\n|---|---|\n| Ana Ng | 2025-03-05 |\n| Hal Roy | 2025-03-01 |\n| Jo Patel | 2025-03-01 |";
    expect(await sqlAnswer("who was admitted first", tie, chunks)).toBe("Hal Roy | Jo Patel");
  });
});
