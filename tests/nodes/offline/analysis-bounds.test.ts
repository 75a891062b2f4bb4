import { describe, expect, it } from "vitest";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";

describe("year bounds", () => {
  it("reads 'after the year 2000' and 'before the 1950 season' as year conditions", () => {
    expect(analyzeQuestion("how many films were released after the year 2000?").conditions).toEqual([
      expect.objectContaining({ op: ">", value: 2000 }),
    ]);
    expect(analyzeQuestion("how many works were completed before the 1950 season?").conditions).toEqual([
      expect.objectContaining({ op: "<", value: 1950 }),
    ]);
  });
});

describe("year ranges", () => {
  it("reads 'from 1996 to 2009' and 'between 1990 and 2004' as both ends of a year range", () => {
    expect(analyzeQuestion("how many champions were crowned from 1996 to 2009?").conditions).toEqual([
      expect.objectContaining({ op: ">=", value: 1996 }),
      expect.objectContaining({ op: "<=", value: 2009 }),
    ]);
    expect(analyzeQuestion("how many songs were listed between 2004 and 1990?").conditions).toEqual([
      expect.objectContaining({ op: ">=", value: 1990 }),
      expect.objectContaining({ op: "<=", value: 2004 }),
    ]);
    // A period written with a dash ("2006-2010") names a column, not a range of rows.
    expect(analyzeQuestion("which region had the least export growth from 2006-2010?").conditions).toEqual([]);
  });
});

describe("decades", () => {
  it("reads 'in the 1990s' as the decade's years, not in 'which decade'", () => {
    expect(analyzeQuestion("what was the number of trophies in the 1990s?").conditions).toEqual([
      expect.objectContaining({ op: ">=", value: 1990 }),
      expect.objectContaining({ op: "<=", value: 1999 }),
    ]);
    expect(analyzeQuestion("which decade had the most wins, the 1980s or the 1990s?").conditions).toEqual([]);
  });
});
