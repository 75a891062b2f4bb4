import { describe, expect, it } from "vitest";
import { passageScaleContext, tableIdsIn } from "../../../nodes/offline/table-context.js";
import { createFuse } from "../../../nodes/offline/fuse.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";

describe("scale context from the passages of the evidence's tables", () => {
  it("finds table ids in every evidence form", () => {
    const ev =
      "[Source: t1.csv]\nTable name: t1\n| a |\n\n[Table t2, row 3]\n  a: 1\n\nTable: t3 | Column: x (integer) | Examples: 1";
    expect(tableIdsIn(ev).sort()).toEqual(["t1", "t2", "t3"]);
  });

  it("gives a computed amount the scale declared in a passage the evidence left out", async () => {
    const context = passageScaleContext([
      { id: "p1", text: "Net bookings were as follows (amounts in millions):", file: "t1.json", tableId: "t1" },
      { id: "p2", text: "Other table in thousands", file: "t9.json", tableId: "t9" },
    ]);
    const fuse = createFuse(context);
    const q = "What was the change in net bookings from 2018 to 2019?";
    const a = analyzeQuestion(q);
    const md = [
      "[Source: t1.csv]",
      "Table name: t1",
      "| col_1 | 2019 | 2018 |",
      "| --- | --- | --- |",
      "| Net bookings | $6,388 | $7,262 |",
    ].join("\n");
    const plan = {
      subQuery: q,
      requiredModalities: "table" as const,
      expectedOperator: a.operator,
      needGlobalTableView: false,
      entityMentions: [],
      uncertainty: 0,
      analysis: a as unknown as Record<string, unknown>,
    };
    const answer = await fuse({
      question: q,
      subQuery: q,
      plan,
      route: "SQL",
      textEvidence: md,
      schemaEvidence: "",
      sqlResult: "",
      markdown: md,
    });
    expect(answer).toBe("-874 million");
  });
});
