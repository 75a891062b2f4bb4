import { describe, expect, it } from "vitest";
import { readText } from "../../../nodes/offline/reader.js";
import { fuse } from "../../../nodes/offline/fuse.js";
import { answerKindOf, asksForDescription } from "../../../nodes/offline/answer-kind.js";
import type { SubQueryPlan } from "../../../nodes/types.js";
import { readerInput } from "./fixtures.js";

const plan = (q: string): SubQueryPlan => readerInput(q).plan;

// A report table (row label × period) with passages around it, as in TAT-QA.
const TABLE = [
  "[Source: report.csv]",
  "| | 2019 | 2018 |",
  "| --- | --- | --- |",
  "| Interest expense | 621 | 509 |",
  "| Operating income | 1,204 | 1,310 |",
];
const PASSAGES = [
  "[Source: report.json]",
  "Interest expense was $621 million in 2019. The increase in interest expense in 2019 was primarily driven by a higher average debt balance and higher interest rates.",
  "",
  "[Source: report.json]",
  "Operating income decreased by $106 million in fiscal 2019. In fiscal 2019 operating income decreased primarily as a result of lower volume and price erosion, partially offset by lower material costs.",
  "",
  "[Source: report.json]",
  "(1) Marketing costs primarily include advertising and promotion expenses. Property and equipment are stated at cost, net of accumulated depreciation.",
  "",
  "[Source: report.json]",
  "Goodwill is considered impaired if the carrying value of its unit exceeds its recoverable amount. Restructuring costs are primarily related to third party advisory services. Subsidiary undertakings are disclosed within note 35 to the financial statements.",
  "",
  "[Source: report.json]",
  "Total debt outstanding consisted of revenue bonds due to the state authority. The principal activities of the Group were insurance sales and mortgage brokerage. Therefore, these awards met the award criteria as defined within the plan.",
  "",
  "[Source: report.json]",
  "The valuation allowance increased by $14 million in fiscal 2019. The increase is mainly attributable to changes in deferred tax assets.",
];
const evidence = [...TABLE, "", ...PASSAGES].join("\n");

describe("description questions (why / how is X stated / what does X include)", () => {
  it("recognises reason, manner and contents questions, not value questions", () => {
    expect(asksForDescription("Why did interest expense increase in 2019?")).toBe(true);
    expect(asksForDescription("How are property and equipment stated in the report?")).toBe(true);
    expect(asksForDescription("What does marketing costs include?")).toBe(true);
    expect(asksForDescription("What caused interest expense to increase in 2019?")).toBe(true);
    expect(asksForDescription("What is Audit Fees?")).toBe(true);
    expect(asksForDescription("What is the total revenue?")).toBe(false);
    expect(asksForDescription("How much was interest expense in 2019?")).toBe(false);
    expect(asksForDescription("What was the interest expense in 2019?")).toBe(false);
  });

  it("answers a reason question with the cause clause, not the table cell", async () => {
    const q = "Why did operating income decrease during fiscal 2019?";
    expect(await readText({ question: q, subQuery: q, plan: plan(q), evidence })).toBe(
      "primarily as a result of lower volume and price erosion, partially offset by lower material costs",
    );
  });

  it("answers a manner question with what follows its participle", async () => {
    const q = "How are property and equipment stated in the report?";
    expect(await readText({ question: q, subQuery: q, plan: plan(q), evidence })).toBe(
      "at cost, net of accumulated depreciation",
    );
  });

  it("answers a contents question with what the sentence's restated verb is followed by", async () => {
    const q = "What does marketing costs include?";
    expect(await readText({ question: q, subQuery: q, plan: plan(q), evidence })).toBe(
      "advertising and promotion expenses",
    );
  });

  it("a when/what question closing on a participle reads what follows it, and is a text question", async () => {
    const when = "When is goodwill considered impaired?";
    expect(answerKindOf(plan(when), when)).toBe("text");
    expect(await readText({ question: when, subQuery: when, plan: plan(when), evidence })).toBe(
      "if the carrying value of its unit exceeds its recoverable amount",
    );
    const related = "What are restructuring costs primarily related to?";
    expect(asksForDescription(related)).toBe(true);
    expect(await readText({ question: related, subQuery: related, plan: plan(related), evidence })).toBe(
      "third party advisory services",
    );
  });

  it("a where question on a report's reporting verb reads the place the sentence gives", async () => {
    const q = "Where are subsidiary undertakings disclosed?";
    expect(asksForDescription(q)).toBe(true);
    expect(asksForDescription("Where is the stadium located?")).toBe(false);
    expect(await readText({ question: q, subQuery: q, plan: plan(q), evidence })).toBe(
      "within note 35 to the financial statements",
    );
  });

  it("a sentence restating the question answers after its restatement, without a leading connective", async () => {
    const ask = async (q: string) => readText({ question: q, subQuery: q, plan: plan(q), evidence });
    expect(await ask("What does total debt outstanding consist of?")).toBe("revenue bonds due to the state authority");
    expect(await ask("What were the principal activities of the Group?")).toBe(
      "insurance sales and mortgage brokerage",
    );
    expect(await ask("Where is the award criteria defined in?")).toBe(
      "these awards met the award criteria as defined within the plan",
    );
  });

  it("a reason question whose best sentence states only the change reads the cause in the next sentence", async () => {
    const q = "Why did valuation allowance increase during fiscal 2019?";
    expect(await readText({ question: q, subQuery: q, plan: plan(q), evidence })).toBe(
      "mainly attributable to changes in deferred tax assets",
    );
  });

  it("fusion reads the passages for a description question instead of the table cells", async () => {
    const q = "What caused interest expense to increase in 2019?";
    const answer = await fuse({
      question: q,
      subQuery: q,
      plan: plan(q),
      sqlResult: "",
      markdown: TABLE.join("\n"),
      textEvidence: PASSAGES.join("\n"),
      schemaEvidence: "",
    } as never);
    expect(answer).toBe("primarily driven by a higher average debt balance and higher interest rates");
  });
});

describe("name spans", () => {
  it("a date after a particle is not part of a name", async () => {
    const { spansFor } = await import("../../../nodes/offline/reader.js");
    const names = spansFor(
      "The financial statements were approved by the Board of Directors on 6 June 2019 .",
      "person",
    ).map((s) => s.text);
    expect(names).toContain("Board of Directors");
    expect(names.some((n) => /June/.test(n) && /Board/.test(n))).toBe(false);
  });
});
