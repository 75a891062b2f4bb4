import { describe, expect, it } from "vitest";
import {
  asPercent,
  cleanAnswer,
  formatForQuestion,
  formatNumber,
  formatScalar,
  isSentinel,
  joinList,
  scaleFromEvidence,
  splitList,
  withScale,
} from "../../../nodes/offline/answer-format.js";
import { tatPredictionFromText } from "../../../evals/scoring/tatqa.js";
import { wtqPredictionItems } from "../../../evals/scoring/wtq.js";
import type { SubQueryPlan } from "../../../nodes/types.js";

const plan = (subQuery: string, requiredModalities: SubQueryPlan["requiredModalities"] = "both"): SubQueryPlan => ({
  subQuery,
  requiredModalities,
  expectedOperator: "lookup",
  needGlobalTableView: false,
  entityMentions: [],
  uncertainty: 0,
});

describe("answer-format", () => {
  it("recognises sentinels and the executor's failure text", () => {
    for (const s of ["", "not found", "None", "ERROR", "[]", "SQL execution failed: no such column"])
      expect(isSentinel(s)).toBe(true);
    for (const s of ["0", "no", "Nonesuch", "1983"]) expect(isSentinel(s)).toBe(false);
  });

  it("cleans answer tags, quotes and trailing periods but keeps abbreviations", () => {
    expect(cleanAnswer('<Answer>: "Madison Square Garden".')).toBe("Madison Square Garden");
    expect(cleanAnswer("Answer: 42\nbecause…")).toBe("42");
    expect(cleanAnswer("Apple Inc.")).toBe("Apple Inc.");
  });

  it("keeps the quotes of a quoted title among other words (round six)", () => {
    expect(cleanAnswer('"Low Tide" (acoustic)')).toBe('"Low Tide" (acoustic)');
    expect(cleanAnswer('"Ferry Song" / "Song of the Ferry"')).toBe('"Ferry Song" / "Song of the Ferry"');
    expect(cleanAnswer('"Low Tide"')).toBe("Low Tide");
    expect(cleanAnswer('Mae "Sparrow" Lund')).toBe('Mae "Sparrow" Lund');
  });

  it("formats computed numbers minimally", () => {
    expect(formatNumber(12)).toBe("12");
    expect(formatNumber(-19.914346)).toBe("-19.91");
    expect(formatScalar(3.0)).toBe("3");
    expect(formatScalar("12.0")).toBe("12");
    expect(formatScalar("3.14159")).toBe("3.14159");
    expect(formatScalar(15011.666666666666)).toBe("15011.6666667");
    expect(formatScalar("$3,795")).toBe("$3,795");
    expect(formatScalar(null)).toBe("");
  });

  it("finds the scale the evidence declares its amounts in", () => {
    expect(scaleFromEvidence("Net bookings were as follows (amounts in millions):")).toBe("million");
    expect(scaleFromEvidence("| | (In thousands) | 2019 |")).toBe("thousand");
    expect(scaleFromEvidence("($ in billions)")).toBe("billion");
    expect(scaleFromEvidence("| | 2019 $’000 | 2018 $’000 |")).toBe("thousand");
    expect(scaleFromEvidence("| | RMB’Million | RMB’Million |")).toBe("million");
    expect(scaleFromEvidence("| All figures in USD ‘000, except rates | 2019 |")).toBe("thousand");
    expect(scaleFromEvidence("| Number of shares (1,000) | 2019 |")).toBe("thousand");
    expect(scaleFromEvidence("summarized as follows (in\nthousands):")).toBe("thousand");
    expect(scaleFromEvidence("| USDm | 2021 | 2020 |")).toBe("million");
    expect(scaleFromEvidence("| $ million | 2021 | 2020 |")).toBe("million");
    expect(scaleFromEvidence("Results for the year (in 000’s)")).toBe("thousand");
    expect(scaleFromEvidence("The population was 112,525 in 2010.")).toBe("");
    expect(scaleFromEvidence("He paid $ 5 million for it.")).toBe("");
    expect(scaleFromEvidence("It sold 1,000 units (1,000 more than before).")).toBe("");
    expect(scaleFromEvidence("| Mountain | Height ( m ) | Drop (m) |")).toBe("");
  });

  it("adds a scale word to bare numbers only, and % to percentages", () => {
    expect(withScale("6,388", "thousand")).toBe("6,388 thousand");
    expect(withScale("2019 | 2018", "thousand")).toBe("2019 | 2018");
    expect(withScale("$480 million", "thousand")).toBe("$480 million");
    expect(withScale("18.3%", "million")).toBe("18.3%");
    expect(withScale("Europe", "million")).toBe("Europe");
    expect(asPercent("-19.91")).toBe("-19.91%");
    expect(asPercent("12%")).toBe("12%");
  });

  it("formats for the question: percentages, scaled table amounts, passage values as written, bare counts", () => {
    const ev = "Amounts in thousands";
    expect(
      formatForQuestion(
        "-19.91",
        { question: "", subQuery: "What was the percentage change in revenue?", plan: plan("") },
        ev,
      ),
    ).toBe("-19.91%");
    expect(
      formatForQuestion(
        "874",
        { question: "", subQuery: "What was the change in revenue from 2018 to 2019?", plan: plan("") },
        ev,
        true,
      ),
    ).toBe("874 thousand");
    expect(
      formatForQuestion(
        "$6,388",
        { question: "", subQuery: "What was the revenue in 2019?", plan: plan("") },
        ev,
        true,
      ),
    ).toBe("$6,388 thousand");
    expect(
      formatForQuestion("$6,388", { question: "", subQuery: "What was the revenue in 2019?", plan: plan("") }, ev),
    ).toBe("$6,388");
    expect(withScale("193 | 167", "thousand")).toBe("193 | 167 thousand");
    // Over tables alone (WTQ) numbers keep their form.
    expect(
      formatForQuestion(
        "-19.91",
        { question: "", subQuery: "What was the percentage change in revenue?", plan: plan("", "table") },
        ev,
        true,
      ),
    ).toBe("-19.91");
    expect(
      formatForQuestion(
        "4",
        { question: "", subQuery: "How many years had revenue above 5,000?", plan: plan("") },
        ev,
        true,
      ),
    ).toBe("4");
  });

  it("joins lists the way the WTQ and TAT-QA scorers split them", () => {
    const joined = joinList(["$3,795", "Europe", "europe", "not found", "1,200"]);
    expect(joined).toBe("$3,795 | Europe | 1,200");
    expect(splitList(joined)).toEqual(["$3,795", "Europe", "1,200"]);
    expect(wtqPredictionItems(joined)).toEqual(["$3,795", "Europe", "1,200"]);
    expect(tatPredictionFromText(joined).answer).toEqual(["$3,795", "Europe", "1,200"]);
    expect(tatPredictionFromText(withScale("6,388", "thousand"))).toEqual({ answer: ["6,388"], scale: "thousand" });
  });
});
