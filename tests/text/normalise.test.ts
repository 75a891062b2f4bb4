import { describe, expect, it } from "vitest";
import {
  collapseSpaces,
  foldAccents,
  joinDigitGroups,
  normaliseAnswerText,
  normaliseForContainment,
  normaliseForGrounding,
  normaliseForMatch,
  normaliseText,
} from "../../text/normalise.js";

describe("text/normalise", () => {
  it("folds accents and case", () => {
    expect(foldAccents("Saint-Étienne São Paulo Zürich")).toBe("Saint-Etienne Sao Paulo Zurich");
    expect(normaliseForMatch("Ångström CAFÉ")).toBe("angstrom cafe");
  });
  it("joins thousands separators but keeps other commas", () => {
    expect(joinDigitGroups("1,234,567 and 3,5 or 12,34")).toBe("1234567 and 3,5 or 12,34");
    expect(normaliseForMatch("Population 12,500, area 3.5")).toBe("population 12500, area 3.5");
  });
  it("normaliseText turns punctuation into spaces and drops citation marks", () => {
    expect(normaliseText("  O'Brien–Smith [1] (Jr.)  ")).toBe("obrien smith jr");
    expect(normaliseText("Köln, Germany")).toBe("koln germany");
    expect(normaliseText("1,234")).toBe("1 234");
  });
  it("normaliseForContainment keeps decimals, percentages and signs", () => {
    expect(normaliseForContainment("Growth was 12.5% (vs. -3.0%).")).toBe("growth was 12.5% vs -3.0%");
    expect(normaliseForContainment("$1,234.50")).toBe("1234.50");
  });
  it("normaliseForGrounding drops currency marks and separators", () => {
    expect(normaliseForGrounding("  €1,234.5 (EUR)!")).toBe("1234.5 eur");
  });
  it("normaliseAnswerText trims edge quotes and punctuation only", () => {
    expect(normaliseAnswerText(' "The  Beatles." ')).toBe("the beatles");
    expect(normaliseAnswerText("(1,000)")).toBe("1000");
    expect(normaliseAnswerText("U.S.")).toBe("u.s");
  });
  it("collapseSpaces", () => {
    expect(collapseSpaces(" a \n\t b  ")).toBe("a b");
  });
});
