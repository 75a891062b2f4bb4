import { describe, expect, it } from "vitest";
import { operationWordFor, undoTypedSlips } from "../../text/typed-words.js";

describe("typed slips of operation words, months and quarters", () => {
  it("undoes one missing, extra or swapped letter of an operation word", () => {
    expect(undoTypedSlips("hieghest rate per night")).toBe("highest rate per night");
    expect(undoTypedSlips("totl cost")).toBe("total cost");
    expect(undoTypedSlips("averge wait")).toBe("average wait");
    expect(undoTypedSlips("whcih room is biggest")).toBe("which room is biggest");
    expect(undoTypedSlips("readings more then 600")).toBe("readings more than 600");
  });

  it("leaves real words, plurals and names alone", () => {
    // (No letter substituted, the first letter kept: "last", "east", "lease" are words of their own.)
    for (const w of ["last", "east", "lease", "totals", "averages", "highest", "most"])
      expect(operationWordFor(w)).toBeUndefined();
    expect(undoTypedSlips("Lowes sales")).toBe("Lowes sales");
  });

  it("reads month abbreviations after a word of time or before a day, and quarters as month ranges", () => {
    expect(undoTypedSlips("how many in feb")).toBe("how many in february");
    expect(undoTypedSlips("after aug 15")).toBe("after august 15");
    expect(undoTypedSlips("orders on Oct 3")).toBe("orders on october 3");
    // (The typed "q1" stays before its months: a table of quarters has a "Q1" column.)
    expect(undoTypedSlips("total in q1")).toBe("total q1 from january to march");
    expect(undoTypedSlips("sales in the third quarter")).toBe("sales from july to september");
    // "jan" and "jun" are names too.
    expect(undoTypedSlips("how many times is jan listed")).toBe("how many times is jan listed");
    expect(undoTypedSlips("the ruler besides si jun")).toBe("the ruler besides si jun");
  });
});
