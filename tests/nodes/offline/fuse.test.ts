import { describe, expect, it } from "vitest";
import { fuse } from "../../../nodes/offline/fuse.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import type { FuseInput } from "../../../nodes/strategies.js";
import type { SubQueryPlan } from "../../../nodes/types.js";

function plan(q: string): SubQueryPlan {
  const a = analyzeQuestion(q);
  return {
    subQuery: q,
    requiredModalities: "both",
    expectedOperator: a.operator,
    needGlobalTableView: false,
    entityMentions: [],
    uncertainty: 0,
    analysis: a as unknown as Record<string, unknown>,
  };
}

const MARKDOWN = [
  "[Source: bookings.csv]",
  "Table name: bookings",
  "| Item | 2019 | 2018 |",
  "| --- | --- | --- |",
  "| Net bookings | $6,388 | $7,262 |",
  "| In-game net bookings | $3,366 | $4,203 |",
].join("\n");

function input(q: string, sqlResult: string, extra: Partial<FuseInput> = {}): FuseInput {
  return {
    question: q,
    subQuery: q,
    plan: plan(q),
    route: "SQL",
    textEvidence: "Net bookings were as follows (amounts in millions):",
    schemaEvidence: "",
    sqlResult,
    markdown: MARKDOWN,
    ...extra,
  };
}

describe("offline fusion", () => {
  it("returns the SQL scalar for counts, with no scale", async () => {
    expect(await fuse(input("How many items had net bookings above 5,000 in 2019 ?", '[{"COUNT(*)": 1}]'))).toBe("1");
  });

  it("formats a percentage change with % and an amount with the declared scale", async () => {
    expect(
      await fuse(
        input(
          "What was the percentage change for in-game net bookings from 2018 to 2019?",
          '[{"pct": -19.914346895074946}]',
        ),
      ),
    ).toBe("-19.91%");
    expect(await fuse(input("What was the change in net bookings between 2018 and 2019?", "[[-874]]"))).toBe(
      "-874 million",
    );
  });

  it("turns several rows into a list of the asked column", async () => {
    const r = '[{"nation":"Norway","gold":14},{"nation":"Germany","gold":14}]';
    expect(await fuse(input("Which nations won 14 gold medals ?", r))).toBe("Norway | Germany");
  });

  it("keeps a superlative's tie as the list, not a cell read again from the chunks", async () => {
    const r = '[{"employee__raw":"Paula Reyes"},{"employee__raw":"Quinn Hart"}]';
    const other = [
      "[Source: leave.csv]",
      "| Request | Employee |",
      "| --- | --- |",
      "| LV-1 | Paula Reyes |",
      "| LV-2 | Quinn Hart |",
      "| LV-3 | Paula Reyes |",
      "| LV-4 | Quinn Hart |",
      "| LV-5 | Rhea Das |",
    ].join("\n");
    expect(
      await fuse(input("Which employee has the most leave requests?", r, { markdown: other, textEvidence: "" })),
    ).toBe("Paula Reyes | Quinn Hart");
  });

  it("keeps every row a comparison with a named row selects, not a cell read again from the table", async () => {
    const staff = [
      "[Source: staff.csv]",
      "Table name: staff",
      "| Name | Salary |",
      "| --- | --- |",
      "| Ada Kern | 51000 |",
      "| Bo Lund | 62000 |",
      "| Cy Marr | 70500 |",
      "| Di Noor | 58000 |",
    ].join("\n");
    const rows = '[{"name__raw": "Bo Lund"}, {"name__raw": "Cy Marr"}]';
    expect(await fuse(input("Who earns more than Di Noor?", rows, { markdown: staff, textEvidence: "" }))).toBe(
      "Bo Lund | Cy Marr",
    );
  });

  it("does not trust a zero lookup when the table says otherwise", async () => {
    const q = "What were the in-game net bookings in 2018?";
    expect(await fuse(input(q, "[[0]]"))).toBe("$4,203 million");
  });

  it("falls back to the passages when SQL failed, and says not found when all is empty", async () => {
    const q = "What drove the decrease in net bookings ?";
    const text = "[Source: p.json]\nThe decrease in net bookings was primarily due to lower sales of Hearthstone .";
    expect(await fuse(input(q, "SQL execution failed: no such column", { textEvidence: text, markdown: "" }))).toBe(
      "primarily due to lower sales of Hearthstone",
    ); // a reason question reads the cause clause (reader-description.test.ts)
    expect(await fuse(input("Who won ?", "", { textEvidence: "", markdown: "" }))).toBe("not found");
  });
});
