/** Question analysis as lists of named detectors (analysis.ts): the first proposal decides, its name is recorded. */
import { describe, expect, it } from "vitest";
import {
  analyzeQuestion,
  ANSWER_KIND_DETECTORS,
  firstProposal,
  OPERATOR_DETECTORS,
  type Detector,
} from "../../../nodes/offline/analysis.js";

describe("operator detectors", () => {
  it("name the detector that decided the operator", () => {
    expect(analyzeQuestion("how many orders did the north store ship?").detectors?.operator).toBe("count");
    expect(analyzeQuestion("what is the average price of a lamp?").detectors?.operator).toBe("average");
    expect(analyzeQuestion("who sold more chairs, ana or ben?").detectors?.operator).toBe("choice");
    expect(analyzeQuestion("what is the percentage change in revenue from 2020 to 2021?").detectors?.operator).toBe(
      "percent-change",
    );
    expect(analyzeQuestion("what colour is the blue kettle?").detectors?.operator).toBe("default-lookup");
  });

  it("decide by list order: an average of a count is an average", () => {
    const a = analyzeQuestion("what is the average number of orders per store?");
    expect(OPERATOR_DETECTORS.findIndex((d) => d.name === "average")).toBeLessThan(
      OPERATOR_DETECTORS.findIndex((d) => d.name === "count"),
    );
    expect(a.operator).toBe("aggregate");
    expect(a.aggregate).toBe("avg");
  });

  it("record the refinements that changed the detected operator", () => {
    const a = analyzeQuestion("which store had the highest sales?");
    expect(a.operator).toBe("sort");
    expect(a.detectors?.refinements).toContain("superlative");
    expect(analyzeQuestion("which orders weigh more than 5 kg?").detectors?.refinements).toContain("conditions-filter");
  });
});

describe("answer-kind detectors", () => {
  it("name the detector behind the answer kind", () => {
    expect(analyzeQuestion("when did the shop open?").detectors?.answerKind).toBe("date");
    expect(analyzeQuestion("who manages the east office?").answerType).toBe("person");
    expect(analyzeQuestion("who manages the east office?").detectors?.answerKind).toBe("who");
    expect(analyzeQuestion("is the red lamp cheaper than the blue lamp?").detectors?.answerKind).toBe("yes-no");
    expect(analyzeQuestion("which item is sold in the kitchen aisle?").detectors?.answerKind).toBe("default-entity");
  });

  it("a comparison's kind comes first in the list", () => {
    expect(ANSWER_KIND_DETECTORS[0]!.name).toBe("comparison-choice");
    const a = analyzeQuestion("who sold more chairs, ana or ben?");
    expect(a.answerType).toBe("choice");
    expect(a.detectors?.answerKind).toBe("comparison-choice");
  });
});

describe("firstProposal", () => {
  it("returns the first detector that proposes, not a later higher-scored one, and null when none does", () => {
    const list: Array<Detector<null, { v: string }>> = [
      { name: "never", detect: () => null },
      { name: "weak", detect: () => ({ v: "a", score: 0.2 }) },
      { name: "strong", detect: () => ({ v: "b", score: 1 }) },
    ];
    expect(firstProposal(list, "q", null)).toEqual({ name: "weak", proposal: { v: "a", score: 0.2 } });
    expect(firstProposal([list[0]!], "q", null)).toBeNull();
  });
});
