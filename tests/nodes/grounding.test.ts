import { describe, expect, it } from "vitest";
import { isGrounded } from "../../nodes/grounding.js";
import { normaliseForGrounding } from "../../text/normalise.js";

describe("programmatic grounding (§8.4)", () => {
  it("normalises currency, commas and punctuation", () => {
    expect(normaliseForGrounding("  $1,234.5 (USD)!")).toBe("1234.5 usd");
  });
  it("treats empty and 'not found' as grounded", () => {
    expect(isGrounded("", "x")).toBe(true);
    expect(isGrounded("not found", "x")).toBe(true);
  });
  it("accepts substrings, near numbers and most content tokens", () => {
    expect(isGrounded("Alpha FC", "Club: Alpha FC | Founded: 1971")).toBe(true);
    expect(isGrounded("1,000", "revenue was 1003 dollars")).toBe(true);
    expect(isGrounded("the Alpha football club", "alpha football club")).toBe(true);
  });
  it("single characters must appear as a token or number", () => {
    expect(isGrounded("7", "rank 7 of 10")).toBe(true);
    expect(isGrounded("x", "box of toys")).toBe(false);
  });
  it("rejects answers that are not in the evidence", () => {
    expect(isGrounded("Beta United", "Club: Alpha FC | Founded: 1971")).toBe(false);
    expect(isGrounded("1850", "Founded: 1971, 1904")).toBe(false);
  });
  it("our fix: a computed difference or percentage change is grounded", () => {
    const evidence = '[{"a": 100, "b": 73}]';
    expect(isGrounded("27", evidence)).toBe(true);
    expect(isGrounded("20%", "2019: 150, 2018: 125")).toBe(true);
    expect(isGrounded("-16.67%", "2019: 125, 2018: 150")).toBe(true);
    expect(isGrounded("27", evidence, { allowComputed: false })).toBe(false);
  });
});
