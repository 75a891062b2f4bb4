import { describe, expect, it } from "vitest";
import { wrapChatModel } from "../../graph/model-factory.js";
import { callStructured, StructuredReplyError } from "../../nodes/prompted/call.js";
import { newUsageMeter, noteFailure } from "../../nodes/usage-meter.js";
import { coercePlan, coerceVerdict } from "../../nodes/prompted/coerce.js";
import { DecomposeReply } from "../../nodes/prompted/schemas.js";
import { cleanAnswer, formatHistory, PromptedStrategies } from "../../nodes/prompted/strategies.js";
import { fillPrompt, PROMPTS_VERSION } from "../../nodes/prompts.js";
import { routeProfile } from "../../nodes/routers/index.js";
import { CLUBS, failure, plan } from "../fixtures/plans.js";
import { ScriptedChatModel, reply } from "../fixtures/scripted-model.js";

const options = (model: ScriptedChatModel) => ({
  model: wrapChatModel(model, "scripted/test", { timeoutMs: 1000, maxRetries: 0 }),
  modelId: "scripted/test",
  usage: newUsageMeter(),
});

describe("structured calls", () => {
  it("repairs one invalid reply and counts both calls", async () => {
    const model = new ScriptedChatModel([
      { name: "verify", output: { verdict: 1 }, invalid: true },
      reply.verify(1, "ok"),
    ]);
    const opts = options(model);
    const out = await callStructured(opts, "verify", "judge this");
    expect(out).toEqual({ verdict: 1, reason: "ok" });
    expect(model.calls[1]!.prompt).toContain("could not be used");
    expect(model.calls[1]!.prompt).toContain("reason");
    expect(opts.usage.llmCalls).toBe(2);
    expect(opts.usage.inputTokens).toBeGreaterThan(0);
  });

  it("gives up after the repair retry", async () => {
    const bad = { name: "fuse" as const, output: { nope: 1 }, invalid: true as const };
    const model = new ScriptedChatModel([bad, bad]);
    await expect(callStructured(options(model), "fuse", "x")).rejects.toBeInstanceOf(StructuredReplyError);
  });

  it("does not retry a transport error (the retry policy did)", async () => {
    const model = new ScriptedChatModel([
      { name: "fuse", error: Object.assign(new Error("HTTP 401"), { status: 401 }) },
    ]);
    await expect(callStructured(options(model), "fuse", "x")).rejects.toThrow(/401/);
    expect(model.calls).toHaveLength(1);
  });

  it("notes a failed call once: the failing-closed caller does not repeat it, other errors are noted", async () => {
    const model = new ScriptedChatModel([
      { name: "fuse", error: Object.assign(new Error("HTTP 401"), { status: 401 }) },
    ]);
    const opts = options(model);
    const error = await callStructured(opts, "fuse", "x").catch((e: unknown) => e);
    noteFailure(opts.usage, "fuse failed", error);
    expect(opts.usage.errors).toEqual(["fuse (scripted/test): HTTP 401"]);
    noteFailure(opts.usage, "readText failed", new Error("index gone"));
    expect(opts.usage.errors[1]).toBe("readText failed: index gone");
  });
});

describe("coercion (§3.3, §8.4 root semantics)", () => {
  it("coerces decomposer fields", () => {
    const p = coercePlan(
      DecomposeReply.parse({
        sub_query: " terminate ",
        required_modalities: "TABLE",
        expected_operator: "maximum",
        need_global_table_view: "True",
        entity_mentions: " Alpha FC ",
        uncertainty: "2",
      }),
    );
    expect(p).toEqual({
      subQuery: "TERMINATE",
      requiredModalities: "table",
      expectedOperator: "lookup",
      needGlobalTableView: true,
      entityMentions: ["Alpha FC"],
      uncertainty: 1,
    });
    expect(
      coercePlan(
        DecomposeReply.parse({
          sub_query: "q",
          required_modalities: "x",
          expected_operator: "count",
          need_global_table_view: false,
          entity_mentions: ["a", " ", "a", "b"],
          uncertainty: 0.3,
        }),
      ),
    ).toMatchObject({
      requiredModalities: "both",
      expectedOperator: "count",
      needGlobalTableView: false,
      entityMentions: ["a", "b"],
      uncertainty: 0.3,
    });
  });

  it("accepts only exactly 0, 0.5 or 1 as a verdict", () => {
    expect([0, 0.5, 1, "1", "0.5", 0.7, true, "yes", Number.NaN].map(coerceVerdict)).toEqual([
      0, 0.5, 1, 1, 0.5, 0.5, 0.5, 0.5, 0.5,
    ]);
  });

  it("post-processes final answers", () => {
    expect(cleanAnswer("<final_answer>: Answer: River Tamsin.\nbecause…")).toBe("River Tamsin");
    expect(cleanAnswer("Final answer: 42..")).toBe("42");
  });
});

describe("prompts", () => {
  it("fill every placeholder or fail loudly", () => {
    expect(fillPrompt("a {x} b", { x: 1 })).toBe("a 1 b");
    expect(() => fillPrompt("a {y}", {})).toThrow(/\{y\}/);
    expect(PROMPTS_VERSION).toMatch(/^atr-prompts-/);
  });

  it("show failed steps as NOT FOUND with a do-not-repeat banner", () => {
    const text = formatHistory([
      { subQuery: "Q1", answer: "A1", failed: false },
      { subQuery: "Q2", answer: "wrong", failed: true },
    ]);
    expect(text).toContain("A: A1");
    expect(text).not.toContain("wrong");
    expect(text).toMatch(/do not repeat[\s\S]*- Q2/);
    expect(formatHistory([])).toBe("(none yet)");
  });

  it("the LLM router prompt carries the profile lines (§16 test_router)", async () => {
    const model = new ScriptedChatModel([reply.route("RETRIEVE")]);
    const s = new PromptedStrategies(options(model));
    const profile = routeProfile({
      plan: plan({ needGlobalTableView: true }),
      schema: { ...CLUBS, columns: [CLUBS.columns[0]!] },
      history: [failure("Q", "RETRIEVE", "RETRIEVE", { verdict: 0.5 })],
      failureScope: "question",
      reselectIndex: 0,
    });
    expect(await s.chooseRoute(profile)).toBe("RETRIEVE");
    const prompt = model.calls[0]!.prompt;
    expect(prompt).toContain("Need global table view : yes");
    expect(prompt).toContain("Restored schema        : table=clubs; columns=Club:text");
    expect(prompt).toContain("Already-failed routes  : [RETRIEVE]");
    expect(prompt).toContain("Failure history H      : Q => RETRIEVE:0.5");
  });

  it("the decomposer sees the hint and a recovery hint after failures", async () => {
    const model = new ScriptedChatModel([reply.decompose("Who?"), reply.decompose("Who?")]);
    const s = new PromptedStrategies(options(model));
    await s.decompose({ question: "Q", tableId: "clubs", history: [], consecutiveFailures: 1, schemaPreview: "" });
    await s.decompose({ question: "Q", history: [], consecutiveFailures: 2, schemaPreview: "" });
    expect(model.calls[0]!.prompt).toContain("expected to be found in table clubs");
    expect(model.calls[0]!.prompt).toContain("fundamentally different approach");
    expect(model.calls[1]!.prompt).toContain("Re-plan from scratch");
    expect(model.calls[1]!.prompt).not.toContain("table_hint");
  });
});
