import { describe, expect, it } from "vitest";
import { boundedMemo } from "../../text/bounded-memo.js";
import { boundedMemo as fromIndexing } from "../../indexing/bounded-memo.js";

describe("bounded memo", () => {
  it("computes each key once while it is held, keeps what was used since the last turnover, and holds at most 2 × limit", () => {
    const calls: string[] = [];
    const memo = boundedMemo(2, (k) => {
      calls.push(k);
      return { k };
    });
    const a = memo("a");
    expect(memo("a")).toBe(a);
    memo("b"); // young: a, b
    memo("c"); // turnover: old a, b; young c
    expect(memo("a")).toBe(a); // from the old generation, moved back: young c, a
    memo("d"); // turnover: old c, a; young d — b is dropped
    expect(memo.size).toBe(3);
    memo("b"); // computed again; young d, b
    expect(memo.size).toBe(4);
    memo("a");
    expect(calls).toEqual(["a", "b", "c", "d", "b"]);
    memo.clear();
    expect(memo.size).toBe(0);
    expect(() => boundedMemo(0, (k) => k)).toThrow(/positive integer/);
  });

  it("remembers undefined results too, and stays bounded over many keys", () => {
    let computed = 0;
    const memo = boundedMemo(100, (): undefined => {
      computed++;
      return undefined;
    });
    memo("x");
    memo("x");
    expect(computed).toBe(1);
    for (let i = 0; i < 10_000; i++) memo(`k${i}`);
    expect(memo.size).toBeLessThanOrEqual(200);
  });

  it("is the same memo at its old indexing/ path", () => {
    expect(fromIndexing).toBe(boundedMemo);
  });
});
