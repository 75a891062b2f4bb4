import { describe, expect, it } from "vitest";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";

describe("year bounds", () => {
  it("reads 'after the year 2000' and 'before the 1950 season' as year conditions", () => {
    expect(analyzeQuestion("how many films were released after the year 2000?").conditions).toEqual([expect.objectContaining({ op: ">", value: 2000 })]);
    expect(analyzeQuestion("how many works were completed before the 1950 season?").conditions).toEqual([expect.objectContaining({ op: "<", value: 1950 })]);
  });
});
