/**
 * Hard cases of the official metrics. Every expected value here was checked against the official
 * Python scorers (WTQ evaluator.py, TAT-QA tatqa_metric.py, HybridQA evaluate_script.py) run on the
 * same inputs; the ports also agreed with them on 11,400 generated cases during development.
 */
import { describe, expect, it } from "vitest";
import { normalizeWtq, wtqCorrect, wtqPredictionItems } from "../../evals/scoring/wtq.js";
import { scoreTatqa, tatAnswerString, tatPredictionFromText } from "../../evals/scoring/tatqa.js";
import { normalizeSquad, scoreHybridqa } from "../../evals/scoring/hybridqa.js";
import { cleanAnswer, normalizePaper, paperGoldText, scorePaper } from "../../evals/scoring/paper-metrics.js";
import { pyFloatStr, pyFormatFixed } from "../../evals/scoring/python-numbers.js";

describe("Python number semantics", () => {
  it("rounds exact ties half to even and prints floats as Python does", () => {
    expect(pyFormatFixed(0.125, 2)).toBe("0.12");
    expect(pyFormatFixed(0.375, 2)).toBe("0.38");
    expect(pyFormatFixed(2.5, 0)).toBe("2");
    expect([100, 1e-5, 1.2e16, -19.91].map(pyFloatStr)).toEqual(["100.0", "1e-05", "1.2e+16", "-19.91"]);
  });
});

describe("WTQ denotation accuracy (official evaluator)", () => {
  const num = { answer: ["1,234"], answer_canon: ["1234.0"] };
  it("matches 1,234 against 1234, 1234.0 and 1,234 through answer_canon", () => {
    expect(wtqCorrect(num, "1234")).toBe(true);
    expect(wtqCorrect(num, "1234.0")).toBe(true);
    expect(wtqCorrect(num, "1,234")).toBe(true); // equal normalised strings
    expect(wtqCorrect(num, "1234.5")).toBe(false);
    expect(wtqCorrect(num, "1 234")).toBe(false);
  });
  it("without answer_canon the gold 1,234 stays a string (train split): 1234 is wrong", () => {
    expect(wtqCorrect({ answer: ["1,234"] }, "1234")).toBe(false);
    expect(wtqCorrect({ answer: ["1,234"] }, "1,234")).toBe(true);
  });
  it("dates: yyyy-mm-dd matches the CoreNLP canon, other spellings only by string", () => {
    const gold = { answer: ["October 7, 2012"], answer_canon: ["2012-10-07"] };
    expect(wtqCorrect(gold, "2012-10-07")).toBe(true);
    expect(wtqCorrect(gold, "october 7, 2012.")).toBe(true);
    expect(wtqCorrect(gold, "7 October 2012")).toBe(false);
    expect(wtqCorrect({ answer: ["November"], answer_canon: ["xxxx-11-xx"] }, "xx-11-xx")).toBe(true);
    // A year-only date is a number.
    expect(wtqCorrect({ answer: ["1997"], answer_canon: ["1997-xx-xx"] }, "1997.0")).toBe(true);
  });
  it("multi-answers are sets: order and duplicates do not matter, size does", () => {
    const gold = { answer: ["Kildare", "Cork Mid"], answer_canon: ["Kildare", "Cork Mid"] };
    expect(wtqCorrect(gold, "Cork Mid | Kildare")).toBe(true);
    expect(wtqCorrect(gold, "Kildare|Cork Mid|kildare")).toBe(true);
    expect(wtqCorrect(gold, "Kildare")).toBe(false);
    expect(wtqCorrect(gold, "Kildare | Cork Mid | Meath")).toBe(false);
    expect(wtqCorrect(gold, ["Cork Mid", "Kildare"])).toBe(true);
  });
  it("normalises accents, curly quotes, citations, parentheticals and a final period", () => {
    expect(normalizeWtq("“Kildaré”[1]")).toBe("kildare");
    expect(normalizeWtq("Foo  Bar (band)[2]")).toBe("foo bar");
    expect(normalizeWtq("Foo (band)†.")).toBe("foo (band)†"); // the final period is removed last
    expect(wtqCorrect({ answer: ["Kildare"], answer_canon: ["Kildare"] }, "“Kildaré”[1]")).toBe(true);
  });
  it("empty and missing predictions are wrong", () => {
    expect(wtqPredictionItems("")).toEqual([]);
    expect(wtqCorrect(num, "")).toBe(false);
    expect(wtqCorrect(num, undefined)).toBe(false);
    expect(wtqCorrect(num, "not found")).toBe(false);
  });
});

describe("TAT-QA EM / numeracy F1 with scale (official metric)", () => {
  it("requires the right scale: -19.91 percent", () => {
    const gold = { answer: ["-19.91"], answer_type: "arithmetic", scale: "percent" };
    expect(scoreTatqa(gold, { answer: ["-19.91"], scale: "percent" })).toEqual({ em: 1, f1: 1, scaleCorrect: true });
    expect(scoreTatqa(gold, { answer: ["-19.91%"], scale: "percent" }).em).toBe(1);
    // No predicted scale: the raw value is also tried, so the fraction -0.1991 is right, -19.91 is not.
    expect(scoreTatqa(gold, { answer: ["-0.1991"], scale: "" }).em).toBe(1);
    expect(scoreTatqa(gold, { answer: ["-19.91"], scale: "" }).em).toBe(0);
    expect(scoreTatqa(gold, { answer: ["-19.91"], scale: "million" }).em).toBe(0);
  });
  it("scales numbers: 1.2 million equals 1200 thousand; (12) is -12; commas and $ are ignored", () => {
    const gold = { answer: ["1200"], answer_type: "arithmetic", scale: "thousand" };
    expect(scoreTatqa(gold, { answer: ["1.2"], scale: "million" }).em).toBe(1);
    expect(tatAnswerString(["(12)"], "")).toBe("-12.0000");
    expect(tatAnswerString(["$1,234"], "million")).toBe("1234000000.0000");
  });
  it("multi-span answers are order-free; F1 is token-bag F1 for spans, EM for arithmetic", () => {
    const gold = { answer: ["2019", "2018"], answer_type: "multi-span", scale: "" };
    expect(scoreTatqa(gold, { answer: ["2018", "2019"], scale: "" }).em).toBe(1);
    const partial = scoreTatqa(gold, { answer: ["2019"], scale: "" });
    expect(partial.em).toBe(0);
    expect(partial.f1).toBe(0.67);
    const arith = scoreTatqa(
      { answer: ["2019", "2018"], answer_type: "arithmetic", scale: "" },
      { answer: ["2019"], scale: "" },
    );
    expect(arith.f1).toBe(0);
  });
  it("missing and empty predictions score 0", () => {
    const gold = { answer: ["Revenue"], answer_type: "span", scale: "" };
    expect(scoreTatqa(gold, undefined)).toEqual({ em: 0, f1: 0, scaleCorrect: false });
    expect(scoreTatqa(gold, tatPredictionFromText(""))).toEqual({ em: 0, f1: 0, scaleCorrect: false });
  });
  it("turns one answer string into (spans, scale) as the published eval_tatqa.py", () => {
    expect(tatPredictionFromText("12.5%")).toEqual({ answer: ["12.5%"], scale: "percent" });
    expect(tatPredictionFromText("3,366 million")).toEqual({ answer: ["3,366"], scale: "million" });
    expect(tatPredictionFromText("a | b")).toEqual({ answer: ["a", "b"], scale: "" });
    expect(tatPredictionFromText("2019 and 2018")).toEqual({ answer: ["2019", "2018"], scale: "" });
    expect(tatPredictionFromText("cash and equivalents")).toEqual({ answer: ["cash and equivalents"], scale: "" });
    expect(tatPredictionFromText("1,234, 5,678")).toEqual({ answer: ["1,234, 5,678"], scale: "" });
    expect(tatPredictionFromText("Revenue, Cost of sales")).toEqual({
      answer: ["Revenue", "Cost of sales"],
      scale: "",
    });
    expect(tatPredictionFromText("12", "thousand").scale).toBe("thousand");
  });
});

describe("HybridQA SQuAD EM/F1", () => {
  it("normalises case, punctuation and articles", () => {
    expect(normalizeSquad("The  Beatles'!")).toBe("beatles");
    expect(scoreHybridqa(["The Beatles"], "beatles")).toEqual({ em: 1, f1: 1 });
  });
  it("F1 on token multisets; empty vs non-empty is 0", () => {
    expect(scoreHybridqa(["Abubaker Ali Kamal of Qatar"], "Ali Kamal").f1).toBeCloseTo((2 * 1 * 0.4) / 1.4, 10);
    expect(scoreHybridqa(["April"], "")).toEqual({ em: 0, f1: 0 });
    expect(scoreHybridqa(["April"], undefined)).toEqual({ em: 0, f1: 0 });
  });
});

describe("paper metric set (reference §12.1)", () => {
  it("cleans tags and prefixes", () => {
    expect(cleanAnswer("<final_answer>: The answer is 42.")).toBe("42");
    expect(cleanAnswer("Based on the table, Paris")).toBe("Paris");
    expect(cleanAnswer("N/A")).toBe("");
  });
  it("normalisation A multiplies scale words, B keeps them; number words become digits", () => {
    expect(normalizePaper("1.5 million")).toBe("1500000");
    expect(normalizePaper("1.5 million", true)).toBe("1 5 million");
    expect(normalizePaper("Twelve, 1,234")).toBe("12 1234");
  });
  it("relaxed match accepts a whole-word containment, token F1 is SQuAD style", () => {
    const s = scorePaper("Paris", "The city of Paris");
    expect(s.normalizedEm).toBe(0);
    expect(s.relaxed).toBe(1);
    expect(s.tokenF1).toBeCloseTo(0.5, 10);
    expect(scorePaper("Paris", "").relaxed).toBe(0);
    expect(scorePaper("12", "120").relaxed).toBe(0);
  });
  it("builds the gold string from the answer list (and the TAT-QA scale)", () => {
    expect(paperGoldText({ answer: ["a", "b"] })).toBe("a | b");
    expect(paperGoldText({ answer: ["-19.91"], scale: "percent" })).toBe("-19.91 percent");
    expect(paperGoldText({ "answer-text": "x", answer: ["y"] })).toBe("x");
    expect(paperGoldText({ answer: [] })).toBeUndefined();
  });
});
