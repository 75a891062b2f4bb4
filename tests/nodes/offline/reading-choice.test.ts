import { afterEach, describe, expect, it } from "vitest";
import { readTextWith } from "../../../nodes/offline/reader.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { planOf } from "../../../nodes/offline/decompose.js";
import {
  passageWins,
  READING_CHOICE_FEATURES,
  readingChoiceFeatures,
  readingChoiceModel,
  roundsAmount,
  sameAmount,
  setReadingChoiceModel,
} from "../../../nodes/offline/reading-choice.js";
import type { SubQueryPlan } from "../../../nodes/types.js";

const plan = (q: string): SubQueryPlan => planOf(q, analyzeQuestion(q, { hasPassages: true }));

// A store chain's report: its table counts stores by kind; a paragraph states how many it opened.
const EVIDENCE = [
  "[Source: stores.csv]",
  "Table name: stores",
  "| col_1 | 2021 | 2020 |",
  "| --- | --- | --- |",
  "| Stores owned | 410 | 372 |",
  "| Stores leased | 96 | 88 |",
  "| Store revenue | 5,120 | 4,480 |",
  "",
  "[Source: stores.json]",
  "During 2021 the company opened 38 new stores in the northern region, all of them leased.",
  "Store revenue grew with the new openings.",
].join("\n");

const read = (q: string) => readTextWith({ question: q, subQuery: q, plan: plan(q), evidence: EVIDENCE });

describe("the reading choice between a report's cells and its passages", () => {
  afterEach(() => setReadingChoiceModel(undefined));

  it("ships a model over its own features", () => {
    expect(readingChoiceModel()?.features).toEqual([...READING_CHOICE_FEATURES]);
  });

  it("answers from the sentence that holds the whole question when the table's row matches only part of it", () => {
    expect(read("How many stores did the company open in 2021?")).toBe("38");
  });

  it("keeps the cells when the located row is the one the question names", () => {
    expect(read("What were the stores leased in 2021?")).toBe("96");
    expect(read("What was the change in store revenue from 2020 to 2021?")).toBe("640");
  });

  it("keeps the cells without a model (the old rule)", () => {
    setReadingChoiceModel(null);
    expect(read("How many stores did the company open in 2021?")).toBe("410");
  });

  it("lets the cells stand when both readings state the same amount (they carry the table's scale)", () => {
    expect(sameAmount("93,662 thousand", "$93,662")).toBe(true);
    expect(sameAmount("(1,200)", "1,200")).toBe(true);
    expect(sameAmount("178 thousand", "50")).toBe(false);
    const cells = { answer: "93,662 thousand", confidence: 0.5, operation: "lookup" as const };
    expect(passageWins(cells, { answer: "$93,662", coverage: 1, fit: 1, proximity: 1 })).toBe(false);
  });

  it("describes the pair: match of each reading, computed cells, the span's shape", () => {
    const x = readingChoiceFeatures(
      { answer: "25,740 thousand", confidence: 0.75, operation: "difference" },
      { answer: "$25.7 million", coverage: 1, fit: 2.5, proximity: 0.4 },
    );
    expect(x).toEqual([1, 0.75, 1, 1, 1, 1, 0.4, 1, 1]);
    expect(
      readingChoiceFeatures(
        { answer: "410", confidence: 1, operation: "lookup" },
        { answer: "one", coverage: 0.5, fit: 0.5, proximity: 0 },
      ),
    ).toEqual([1, 1, 0, 0.5, 0, 0.5, 0, 0, 0]);
  });

  it("knows a paragraph's rounded statement of the cells' amount", () => {
    expect(roundsAmount("23,740 thousand", "$23.7 million")).toBe(true);
    expect(roundsAmount("-4,061 thousand", "$4.1 million")).toBe(true);
    expect(roundsAmount("7310522", "$7.3 million")).toBe(true);
    expect(roundsAmount("23,740 thousand", "$23.8 million")).toBe(false);
    expect(roundsAmount("23,740 thousand", "$23,740")).toBe(false);
    expect(roundsAmount("12.4%", "$12.4 million")).toBe(false);
  });

  it("answers in the paragraph's words when it states the computed change rounded", () => {
    const evidence = [
      "[Source: income.csv]",
      "Table name: income",
      "| col_1 | 2021 | 2020 |",
      "| --- | --- | --- |",
      "| Royalty income | 31,205 | 7,465 |",
      "| Service income | 12,880 | 11,020 |",
      "",
      "[Source: income.json]",
      "(in thousands)",
      "Royalty income increased $23.7 million in 2021, as the new licences took effect.",
    ].join("\n");
    const q = "What was the increase in royalty income in 2021?";
    expect(readTextWith({ question: q, subQuery: q, plan: plan(q), evidence })).toBe("$23.7 million");
  });
});
