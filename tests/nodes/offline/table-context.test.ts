import { describe, expect, it } from "vitest";
import { passageScaleContext, tableIdsIn } from "../../../nodes/offline/table-context.js";
import { createFuse } from "../../../nodes/offline/fuse.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { answerFromCells } from "../../../nodes/offline/table-cells.js";
import { parseMarkdownRows } from "../../../nodes/offline/evidence.js";

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

describe("a table's own passages decide the scale of its values", () => {
  const rows = [
    "[Source: own.csv]",
    "Table name: own",
    "| col_1 | 2021 | 2020 |",
    "| --- | --- | --- |",
    "| Licence revenue | 12,401,880 | 9,600,120 |",
  ].join("\n");
  const context = passageScaleContext([
    { id: "a", text: "Licence revenue grew with new customers.", file: "own.json", tableId: "own" },
    { id: "b", text: "Amounts are in thousands.", file: "other.json", tableId: "other" },
  ]);
  const other = "[Source: other.json]\nAmounts are in thousands.";

  it("gives one table's passages by its id, and none for a table without passages", () => {
    expect(context.ofTable?.("own")).toContain("Licence revenue grew");
    expect(context.ofTable?.("missing")).toBe("");
  });

  it("ignores another report's declaration when the table's own passages declare none", () => {
    const evidence = `${other}\n\n${rows}`;
    const q = "What was the Licence revenue in 2021 and 2020?";
    const cells = parseMarkdownRows(rows.split("\n").slice(1).join("\n"));
    expect(answerFromCells(q, cells, evidence)?.answer).toBe("12,401,880 | 9,600,120 thousand");
    expect(answerFromCells(q, cells, evidence, { passagesOf: context.ofTable })?.answer).toBe("12,401,880 | 9,600,120");
  });

  it("reads a unit cell anywhere in the table before its passages", () => {
    const md = [
      "Table name: own",
      "| col_1 | 2021 | 2020 |",
      "| --- | --- | --- |",
      "| $ MILLION | Q1 | Q2 |",
      "| Sales | 1,420 | 1,381 |",
    ].join("\n");
    const q = "What is the average sales for 2021 and 2020?";
    expect(answerFromCells(q, parseMarkdownRows(md), other, { passagesOf: context.ofTable })?.answer).toBe(
      "1400.5 million",
    );
  });
});
