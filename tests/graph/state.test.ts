import { describe, expect, it } from "vitest";
import { appendItems, emptyUsage, nodeUsage, sumUsage } from "../../graph/state.js";

describe("state reducers", () => {
  it("appendItems appends one item or a list and ignores undefined", () => {
    expect(appendItems([1], 2)).toEqual([1, 2]);
    expect(appendItems([1], [2, 3])).toEqual([1, 2, 3]);
    expect(appendItems([1], undefined)).toEqual([1]);
  });

  it("sumUsage adds totals and per-node counts", () => {
    let u = emptyUsage();
    u = sumUsage(u, nodeUsage("verify", { llmCalls: 1, inputTokens: 10, outputTokens: 2, ms: 5 }));
    u = sumUsage(u, nodeUsage("verify", { llmCalls: 1, inputTokens: 4, outputTokens: 1, ms: 1 }));
    u = sumUsage(u, nodeUsage("TEXT", { llmCalls: 1, inputTokens: 0, outputTokens: 0, ms: 3 }));
    expect(u.llmCalls).toBe(3);
    expect(u.inputTokens).toBe(14);
    expect(u.ms).toBe(9);
    expect(u.byNode.verify).toEqual({ llmCalls: 2, inputTokens: 14, outputTokens: 3, ms: 6 });
    expect(u.byNode.TEXT!.llmCalls).toBe(1);
  });
});
