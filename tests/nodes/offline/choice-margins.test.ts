/** The margins of the learned link, column and row choices as verifier features (nodes/offline/choice-margins.ts). */
import { describe, expect, it } from "vitest";
import { marginShare, rowChoiceMargins } from "../../../nodes/offline/choice-margins.js";
import { chooseRow, rowChoiceMargin } from "../../../nodes/offline/row-choice.js";

describe("choice margins", () => {
  it("maps a margin to 0..1 (none or negative is 0, a large one nears 1)", () => {
    expect(marginShare(0)).toBe(0);
    expect(marginShare(-2)).toBe(0);
    expect(marginShare(1)).toBe(0.632);
    expect(marginShare(20)).toBe(1);
  });

  it("the row choice's margin is the lead of the row chooseRow takes over the next one", () => {
    const weights = [1, 0, 0, 0, 0, 0];
    const rows = [
      [0.9, 1, 0, 0, 0, 0],
      [0.5, 0, 0, 0, 0, 0],
      [0.7, 0, 0, 0, 0, 0],
    ];
    expect(chooseRow(rows, weights)).toBe(0);
    expect(rowChoiceMargin(rows, weights)).toBeCloseTo(0.2, 9);
    expect(rowChoiceMargin([rows[0]!], weights)).toBe(Infinity);
    expect(rowChoiceMargins({ choiceMargin: 0.2 })).toEqual({ "mg:row-choice-margin": 0.181 });
    expect(rowChoiceMargins({})).toEqual({});
    expect(rowChoiceMargins(undefined)).toEqual({});
  });
});
