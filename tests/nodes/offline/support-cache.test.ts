import { describe, expect, it } from "vitest";
import { supportOf } from "../../../nodes/offline/answer-checks.js";

// Two passages that both hold "1901"; the question's words are in the first one's sentence only.
const A = "[Source: a.txt]\nHarbour Mill\nHarbour Mill opened in 1901 beside the river .\n\n[Source: b.txt]\nOld Quay\nThe Old Quay was rebuilt in 1901 .";
const B = "[Source: c.txt]\nOld Quay\nThe Old Quay was rebuilt in 1901 .";

describe("support's evidence units are remembered by evidence text", () => {
  it("gives each evidence, answer and sub-query its own support, whatever was asked before", () => {
    const q = "When did Harbour Mill open ?";
    const freshA = supportOf(q, q, "1901", A);
    const freshB = supportOf(q, q, "1901", B);
    expect(freshA).toBeGreaterThan(freshB);
    // other answers over the same evidence: one it does not hold, one it does
    expect(supportOf(q, q, "1850", A)).toBe(0);
    expect(supportOf(q, `${q} (about: Old Quay)`, "1901", B)).toBeGreaterThanOrEqual(freshB);
    expect(supportOf(q, q, "1901", B)).toBe(freshB);
    expect(supportOf(q, q, "1901", A)).toBe(freshA);
  });
});
