import { describe, expect, it } from "vitest";
import { editDistance } from "../../retrievers/edit-distance.js";

describe("editDistance", () => {
  it("counts substitutions, insertions and deletions, and stops early past the limit", () => {
    expect(editDistance("ashfiend", "ashfield", 2)).toBe(1);
    expect(editDistance("ashfield", "ashfeld", 1)).toBe(1);
    expect(editDistance("abc", "xyzxyz", 1)).toBe(2);
    expect(editDistance("kitten", "sitting", 5)).toBe(3);
  });

  it("counts a swap of adjacent letters as two edits, or one with transpositions", () => {
    expect(editDistance("sapin", "spain", 2)).toBe(2);
    expect(editDistance("sapin", "spain", 1, { transpositions: true })).toBe(1);
    expect(editDistance("hsot", "host", 1, { transpositions: true })).toBe(1);
    expect(editDistance("abcd", "badc", 2, { transpositions: true })).toBe(2);
  });
});
