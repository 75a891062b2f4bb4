import { describe, expect, it } from "vitest";
import {
  ROW_CHOICE_FEATURES,
  ROW_CHOICE_PRIOR,
  ROW_CHOICE_WEIGHTS,
  chooseRow,
} from "../../../nodes/offline/row-choice.js";

describe("row choice among rows the words leave close", () => {
  it("has one weight per feature", () => {
    expect(ROW_CHOICE_WEIGHTS).toHaveLength(ROW_CHOICE_FEATURES.length);
    expect(ROW_CHOICE_PRIOR).toHaveLength(ROW_CHOICE_FEATURES.length);
  });

  it("the prior is the word score, ties to the first candidate", () => {
    const tied = [
      [1, 1, 0, 0, 0, 0],
      [1, 0, 0.5, 0.5, 1, 0.5],
    ];
    expect(chooseRow(tied, ROW_CHOICE_PRIOR)).toBe(0);
    expect(
      chooseRow(
        [
          [0.9, 1, 0, 0, 0, 0],
          [1, 0, 0, 0, 0, 0],
        ],
        ROW_CHOICE_PRIOR,
      ),
    ).toBe(1);
  });

  it("the fit weights let a tied row that names a cell whole, or holds the question's rare number, win", () => {
    expect(
      chooseRow([
        [1, 1, 0, 0.2, 0, 0],
        [1, 0, 0.3, 0.2, 0, 0],
      ]),
    ).toBe(1);
    expect(
      chooseRow([
        [1, 1, 0, 0.2, 0, 0],
        [0.95, 0, 0, 0.2, 1, 0],
      ]),
    ).toBe(1);
    // A clearly better word score still wins.
    expect(
      chooseRow([
        [1, 1, 0, 0, 0, 0],
        [0.76, 0, 0.1, 0, 0, 0],
      ]),
    ).toBe(0);
  });
});
