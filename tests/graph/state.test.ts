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

describe("begin: every run starts from its own input", () => {
  it("starts every non-input channel again from its default, bypassing the reducers", async () => {
    const { Overwrite } = await import("@langchain/langgraph");
    const { freshRunChannels } = await import("../../nodes/begin.js");
    const { InputAnnotation, StateAnnotation } = await import("../../graph/state.js");
    const fresh = freshRunChannels() as Record<string, unknown>;
    const nonInput = Object.keys(StateAnnotation.spec).filter((k) => !(k in InputAnnotation.spec));
    expect(Object.keys(fresh).sort()).toEqual(nonInput.sort());
    for (const key of nonInput) expect(fresh[key]).toBeInstanceOf(Overwrite);
    expect((fresh.steps as InstanceType<typeof Overwrite>).value).toEqual([]);
    expect((fresh.usage as InstanceType<typeof Overwrite>).value).toMatchObject({ llmCalls: 0, byNode: {} });
  });

  it('clears the optional inputs a run left out (parsed to "") and keeps the ones it sent', async () => {
    const { begin } = await import("../../nodes/begin.js");
    const { InputSchema } = await import("../../graph/state.js");
    const parsed = InputSchema.parse({ question: "Who manages Dunmere FC?" });
    expect(parsed).toEqual({ question: "Who manages Dunmere FC?", question_id: "", table_id: "" });
    const update = (await begin({ ...parsed } as never)) as Record<string, unknown>;
    expect("table_id" in update && update.table_id === undefined).toBe(true);
    expect("question_id" in update && update.question_id === undefined).toBe(true);
    const kept = (await begin({ question: "q", question_id: "q-7", table_id: "clubs" } as never)) as Record<
      string,
      unknown
    >;
    expect(kept.table_id).toBe("clubs");
    expect(kept.question_id).toBe("q-7");
  });
});
