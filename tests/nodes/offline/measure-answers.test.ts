import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fitsKind } from "../../../nodes/offline/answer-kind.js";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { setAnswerModel } from "../../../nodes/offline/answer-model.js";
import { verifyAnswer } from "../../../nodes/offline/verifier.js";
import type { VerifyInput } from "../../../nodes/strategies.js";

// A measure the question asks without its unit is written with the unit its passage gives
// (reader.ts withMeasureUnit): a scale word and a two-word unit are still a number.
describe("a measure with its scale word and unit", () => {
  it("fits a number", () => {
    for (const a of ["2.4 million hectares", "640 square kilometres", "1.2 million square miles", "12 km"])
      expect(fitsKind(a, "number")).toBe(true);
    expect(fitsKind("many hectares", "number")).toBe(false);
    expect(fitsKind("2.4 million of the residents", "number")).toBe(false);
  });

  beforeAll(() => setAnswerModel(null));
  afterAll(() => setAnswerModel(undefined));

  it("is not rejected as the wrong kind when the reader answers with it", () => {
    const q = "What is the area of the county where the old tide mill stands ?";
    const a = analyzeQuestion(q);
    const input: VerifyInput = {
      question: q,
      subQuery: q,
      plan: {
        subQuery: q,
        requiredModalities: "text",
        expectedOperator: a.operator,
        needGlobalTableView: false,
        entityMentions: [],
        uncertainty: 0,
        analysis: a as unknown as Record<string, unknown>,
      },
      route: "TEXT",
      answer: "2.4 million hectares",
      evidence:
        "[Source: mills.json]\nBrackwater County : Brackwater County is a county on the east coast . The county covers over 2.4 million hectares and holds the old tide mill .",
      sqlResult: "",
    };
    expect(verifyAnswer(input).code).not.toBe("wrong-kind");
  });
});
