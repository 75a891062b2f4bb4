import { describe, expect, it } from "vitest";
import { boundedMemo } from "../../indexing/bounded-memo.js";

describe("bounded memo", () => {
  it("computes each key once while it is held, and drops the least recently used past its limit", () => {
    const calls: string[] = [];
    const memo = boundedMemo(2, (k) => {
      calls.push(k);
      return { k };
    });
    const a = memo("a");
    expect(memo("a")).toBe(a);
    memo("b");
    memo("a"); // a is now the most recent
    memo("c"); // drops b
    expect(memo.size).toBe(2);
    memo("a");
    memo("b");
    expect(calls).toEqual(["a", "b", "c", "b"]);
    memo.clear();
    expect(memo.size).toBe(0);
    expect(() => boundedMemo(0, (k) => k)).toThrow(/positive integer/);
  });
});
