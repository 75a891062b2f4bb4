/**
 * The ATR loop end to end over the examples/ index, every LLM step on a scripted chat model:
 * termination, re-routing and the failure history, attempt limits, the stop controller, synthesis,
 * constrained SQL refusal + repair, failureScope.
 */
import { describe, expect, it } from "vitest";
import { ensureConfiguration } from "../../graph/configuration.js";
import {
  DEFAULT_RECURSION_LIMIT,
  GRAPH_NAME,
  afterDecompose,
  afterRoute,
  afterSubQuery,
  afterVerify,
  graph,
  recursionLimitFor,
} from "../../graph/graph.js";
import { askScripted, useExampleIndex } from "../fixtures/example-index.js";
import { plan } from "../fixtures/plans.js";
import { ScriptedChatModel, reply, type ScriptedReply } from "../fixtures/scripted-model.js";

const index = useExampleIndex();

const noMatch = { link_value: () => ({ matched_value: "no_match", matched_column: "", confidence: 0 }) };
const limits = { maxIter: 5, maxAttempts: 4, verifierThreshold: 0.1 };

describe("wiring", () => {
  it("has the reference's node names (plus the cascade's offline tier) and a name", () => {
    expect(graph.name).toBe(GRAPH_NAME);
    const nodes = Object.keys(graph.getGraph().nodes).filter((n) => !n.startsWith("__"));
    expect(nodes.sort()).toEqual(
      [
        "HYBRID",
        "RETRIEVE",
        "SQL",
        "TEXT",
        "begin",
        "decompose",
        "gather",
        "route",
        "synthesize",
        "verify",
        "offline_tier",
      ].sort(),
    );
  });

  it("edge functions are pure decisions over state", () => {
    expect(afterDecompose({ plan: plan({ subQuery: " terminate " }) })).toBe("synthesize");
    expect(afterDecompose({ plan: null })).toBe("synthesize");
    expect(afterDecompose({ plan: plan() })).toBe("gather");
    const running = { subQueryDone: false, stop: false, iteration: 1, limits };
    expect(afterVerify(running)).toBe("route");
    expect(afterVerify({ ...running, subQueryDone: true })).toBe("decompose");
    expect(afterVerify({ ...running, subQueryDone: true, stop: true })).toBe("synthesize");
    expect(afterVerify({ ...running, subQueryDone: true, iteration: 5 })).toBe("synthesize");
    expect(afterRoute({ ...running, nextRoute: "SQL" })).toBe("SQL");
    expect(afterRoute({ ...running, nextRoute: null, subQueryDone: true })).toBe("decompose");
    expect(afterSubQuery({ stop: false, iteration: 1, limits: { ...limits, maxIter: 1 } })).toBe("synthesize");
  });

  it("sets a recursion limit that covers every iteration and attempt", () => {
    expect(recursionLimitFor(ensureConfiguration({}))).toBe(1 + 5 * 15 + 5);
    expect(
      recursionLimitFor(ensureConfiguration({ configurable: { noEscalation: true, noDecomposition: true } })),
    ).toBe(12);
  });

  it("carries the default configuration's recursion limit, so a run without one is not cut at 25", () => {
    expect(DEFAULT_RECURSION_LIMIT).toBe(81);
    expect(graph.config?.recursionLimit).toBe(DEFAULT_RECURSION_LIMIT);
    expect(graph.name).toBe(GRAPH_NAME);
  });
});

describe("the loop (scripted model)", () => {
  it("TERMINATE at once → not found, with no attempt", async () => {
    const model = new ScriptedChatModel([reply.terminate()]);
    const r = await askScripted(index.dir, model, { question: "What is the meaning of life?", question_id: "q0" });
    expect(r.answer).toBe("not found");
    expect(r.trace.verifier_decisions).toEqual([]);
    expect(r.trace).toMatchObject({ question_id: "q0", n_escalations: 0, final_answer: "not found" });
    expect(model.calls.map((c) => c.name)).toEqual(["decompose"]);
    expect(r.usage.llmCalls).toBe(1);
    expect(r.usage.byNode.decompose!.llmCalls).toBe(1);
  });

  it("a decomposer failure fails closed to TERMINATE", async () => {
    const model = new ScriptedChatModel([{ name: "decompose", error: new Error("quota") }]);
    const r = await askScripted(index.dir, model, { question: "Who manages Dunmere FC?" });
    expect(r.answer).toBe("not found");
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatch(/^decompose: decompose \(scripted\/m\d+\): quota$/);
  });

  it("a backbone that cannot be built is an error, not a silent 'not found'", async () => {
    const saved = { a: process.env.VERTEXAI_CREDENTIALS_PATH, b: process.env.GOOGLE_APPLICATION_CREDENTIALS };
    delete process.env.VERTEXAI_CREDENTIALS_PATH;
    delete process.env.GOOGLE_APPLICATION_CREDENTIALS;
    try {
      const { answerQuestion } = await import("../../graph/answer.js");
      await expect(
        answerQuestion(
          { question: "Who manages Dunmere FC?" },
          { configurable: { indexPath: index.dir, backbone: "vertexai/gemini-2.5-flash" } },
        ),
      ).rejects.toThrow(/VERTEXAI_CREDENTIALS_PATH or GOOGLE_APPLICATION_CREDENTIALS/);
    } finally {
      if (saved.a !== undefined) process.env.VERTEXAI_CREDENTIALS_PATH = saved.a;
      if (saved.b !== undefined) process.env.GOOGLE_APPLICATION_CREDENTIALS = saved.b;
    }
  });

  it("HYBRID requested, the linker falls back inside → effective TEXT in H, TEXT not chosen again", async () => {
    const model = new ScriptedChatModel(
      [
        reply.decompose("Who manages DFC?", { entity_mentions: ["DFC"], required_modalities: "table" }),
        reply.sql("SELECT manager FROM clubs WHERE club = 'Ashford Rovers'"),
        reply.verify(0),
        reply.text("Tomas Reyes"),
        reply.verify(0),
        reply.rows("Oskar Lind"),
        reply.verify(1),
      ],
      noMatch,
    );
    const r = await askScripted(index.dir, model, { question: "Who manages DFC?", table_id: "clubs" });
    expect(r.answer).toBe("Oskar Lind");
    expect(r.routes).toEqual([
      {
        subQuery: "Who manages DFC?",
        requested: ["HYBRID", "RETRIEVE", "RETRIEVE"],
        effective: ["HYBRID", "TEXT", "RETRIEVE"],
      },
    ]);
    const last = r.trace.verifier_decisions[2]!;
    expect(last.history_H.map((h) => [h.requestedRoute, h.effectiveRoute, h.valueLinkerAttempted])).toEqual([
      ["HYBRID", "HYBRID", true],
      ["RETRIEVE", "TEXT", true],
    ]);
    expect(model.callsOf("read_text")).toHaveLength(1);
    expect(r.trace.n_escalations).toBe(2);
  });

  it("records requested HYBRID / effective TEXT when the linker reroutes inside HYBRID (fixed chain)", async () => {
    const model = new ScriptedChatModel(
      [
        reply.decompose("Who manages DFC?", { entity_mentions: ["DFC"] }),
        reply.rows("Dana Whitlock"),
        reply.verify(0),
        reply.text("Tomas Reyes"),
        reply.verify(0),
        reply.sql("SELECT manager FROM clubs WHERE club = 'Dunmere FC'"),
        reply.verify(1),
      ],
      noMatch,
    );
    const r = await askScripted(
      index.dir,
      model,
      { question: "Who manages DFC?", table_id: "clubs" },
      { routerType: "fixed", forceRoute: "RETRIEVE", fixedEscalateChain: "standard" },
    );
    expect(r.answer).toBe("Oskar Lind");
    const decisions = r.trace.verifier_decisions;
    expect(decisions.map((d) => [d.requested_route, d.route])).toEqual([
      ["RETRIEVE", "RETRIEVE"],
      ["HYBRID", "TEXT"],
      ["SQL", "SQL"],
    ]);
    expect(decisions[2]!.history_H[1]).toMatchObject({
      requestedRoute: "HYBRID",
      effectiveRoute: "TEXT",
      valueLinkerAttempted: true,
      step: 2,
    });
    expect(decisions[1]!.produced_answer).toBe("Tomas Reyes");
  });

  it("four rejected attempts end the sub-query; the next iteration starts", async () => {
    const sub = "How many clubs were founded before 1900?";
    const model = new ScriptedChatModel([
      reply.decompose(sub, { expected_operator: "count", uncertainty: 0 }),
      reply.text("2"),
      reply.verify(0),
      reply.sql("SELECT COUNT(*) FROM clubs WHERE founded < 1800"),
      reply.verify(0),
      reply.sql("SELECT COUNT(*) FROM clubs WHERE founded < 1850"),
      reply.verify(0),
      reply.rows("1"),
      reply.verify(0),
      reply.terminate(),
    ]);
    const r = await askScripted(
      index.dir,
      model,
      { question: sub, table_id: "clubs" },
      { routerType: "fixed", forceRoute: "TEXT", fixedEscalateChain: "standard", schemaTopK: 6 },
    );
    expect(r.trace.verifier_decisions.map((d) => d.attempt)).toEqual([1, 2, 3, 4]);
    expect(r.routes[0]!.requested).toEqual(["TEXT", "HYBRID", "SQL", "RETRIEVE"]);
    expect(model.callsOf("decompose")).toHaveLength(2);
    expect(r.steps).toEqual([{ subQuery: sub, answer: "1", failed: true }]);
    expect(r.answer).toBe("not found");
    // the decomposer saw the failed step as NOT FOUND, not its rejected answer
    expect(model.callsOf("decompose")[1]!.prompt).toContain("NOT FOUND");
  });

  it("no escalation: one attempt per sub-query and H stays empty", async () => {
    const model = new ScriptedChatModel([
      reply.decompose("Who manages Dunmere FC?"),
      reply.text("Mill Lane"),
      reply.verify(0),
      reply.terminate(),
    ]);
    const r = await askScripted(
      index.dir,
      model,
      { question: "Who manages Dunmere FC?", table_id: "clubs" },
      { noEscalation: true, routerType: "fixed", forceRoute: "TEXT" },
    );
    expect(r.trace.verifier_decisions).toHaveLength(1);
    expect(r.trace.verifier_decisions[0]!.history_H).toEqual([]);
    expect(r.answer).toBe("not found");
  });

  it("stops on an accepted answer whose uncertainty is below the threshold", async () => {
    const q = "What is the name of Fenwick City's stadium?";
    const certain = new ScriptedChatModel([
      reply.decompose(q, { uncertainty: 0.05 }),
      reply.text("Station Field"),
      reply.verify(1),
    ]);
    const r1 = await askScripted(
      index.dir,
      certain,
      { question: q, table_id: "clubs" },
      { routerType: "fixed", forceRoute: "TEXT" },
    );
    expect(r1.answer).toBe("Station Field");
    expect(certain.callsOf("decompose")).toHaveLength(1);

    const unsure = new ScriptedChatModel([
      reply.decompose(q, { uncertainty: 0.1 }),
      reply.text("Station Field"),
      reply.verify(1),
      reply.terminate(),
    ]);
    const r2 = await askScripted(
      index.dir,
      unsure,
      { question: q, table_id: "clubs" },
      { routerType: "fixed", forceRoute: "TEXT" },
    );
    expect(unsure.callsOf("decompose")).toHaveLength(2); // 0.1 is not < 0.1
    expect(r2.answer).toBe("Station Field");
  });

  it("the verifier sees the original question and its 1 is demoted when the answer is not grounded", async () => {
    const q = "What is the name of Fenwick City's stadium?";
    const model = new ScriptedChatModel([
      reply.decompose("Which stadium does Fenwick City use?", { uncertainty: 0 }),
      reply.text("Wembley Arena"),
      reply.verify(1),
      reply.terminate(),
    ]);
    const r = await askScripted(
      index.dir,
      model,
      { question: q, table_id: "clubs" },
      { routerType: "fixed", forceRoute: "TEXT" },
    );
    expect(model.callsOf("verify")[0]!.prompt).toContain(q);
    expect(r.trace.verifier_decisions[0]).toMatchObject({ verdict: 0.5, accepted: false });
    // plausibleFallback (default): the demoted (verdict 0.5) answer is the final answer, marked unverified.
    expect(r.answer).toBe("Wembley Arena");
    expect(r.answerVerified).toBe(false);
    const strict = new ScriptedChatModel([
      reply.decompose("Which stadium does Fenwick City use?", { uncertainty: 0 }),
      reply.text("Wembley Arena"),
      reply.verify(1),
      reply.terminate(),
    ]);
    const released = await askScripted(
      index.dir,
      strict,
      { question: q, table_id: "clubs" },
      { routerType: "fixed", forceRoute: "TEXT", plausibleFallback: false },
    );
    expect(released.answer).toBe("not found");
  });
});

describe("final synthesis", () => {
  const q = "Which river runs beside the stadium of the oldest club?";
  const twoSteps = (): ScriptedReply[] => [
    reply.decompose("Which club is the oldest?", { uncertainty: 0.9 }),
    reply.text("Ashford Rovers"),
    reply.verify(1),
    reply.decompose("Which river runs beside Mill Lane?", { uncertainty: 0.5 }),
    reply.text("River Tamsin"),
    reply.verify(1),
    reply.terminate(),
  ];

  it("combines ≥ 2 accepted steps", async () => {
    const model = new ScriptedChatModel([...twoSteps(), reply.synthesize("<final_answer>: the River Tamsin.")]);
    const r = await askScripted(
      index.dir,
      model,
      { question: q },
      { finalSynthesis: true, routerType: "fixed", forceRoute: "TEXT" },
    );
    expect(r.answer).toBe("the River Tamsin");
    expect(model.callsOf("synthesize")[0]!.prompt).toContain("A: Ashford Rovers");
  });

  it("never returns an invalid synthesis over a valid best answer", async () => {
    const model = new ScriptedChatModel([...twoSteps(), reply.synthesize("not found")]);
    const r = await askScripted(
      index.dir,
      model,
      { question: q },
      { finalSynthesis: true, routerType: "fixed", forceRoute: "TEXT" },
    );
    expect(r.answer).toBe("River Tamsin");
  });

  it("is not called with a single accepted step", async () => {
    const model = new ScriptedChatModel([
      reply.decompose("Which club is the oldest?", { uncertainty: 0.9 }),
      reply.text("Ashford Rovers"),
      reply.verify(1),
      reply.terminate(),
    ]);
    const r = await askScripted(
      index.dir,
      model,
      { question: q },
      { finalSynthesis: true, routerType: "fixed", forceRoute: "TEXT" },
    );
    expect(model.callsOf("synthesize")).toHaveLength(0);
    expect(r.answer).toBe("Ashford Rovers");
  });
});

describe("constrained SQL from the model (through the guard and the repair loop)", () => {
  const sub = "How many clubs were founded before 1900?";
  const good = "SELECT COUNT(*) FROM clubs WHERE founded < 1900";
  const bad: Array<[string, string]> = [
    ["writes", "DELETE FROM clubs WHERE founded < 1900"],
    ["attaches", "ATTACH DATABASE '/tmp/evil.db' AS evil"],
    ["uses PRAGMA", "PRAGMA table_info(clubs)"],
    ["stacks statements", "SELECT COUNT(*) FROM clubs WHERE founded < 1900; DROP TABLE clubs"],
    ["touches a column outside C", "SELECT COUNT(*) FROM clubs WHERE founded < 1900 AND manager <> ''"],
  ];

  for (const [what, sql] of bad) {
    it(`refuses SQL that ${what}, repairs once, answers from the repaired query`, async () => {
      const model = new ScriptedChatModel([
        reply.decompose(sub, { expected_operator: "count" }),
        reply.sql(sql),
        reply.sql(good),
        reply.verify(1),
      ]);
      // schemaTopK 2: C = {Founded, Club} for this sub-query (Manager is outside C)
      const r = await askScripted(index.dir, model, { question: sub, table_id: "clubs" }, { schemaTopK: 2 });
      expect(r.routes[0]!.effective).toEqual(["SQL"]);
      expect(r.answer).toBe("3");
      const [, second] = model.callsOf("write_sql");
      expect(second!.prompt).toContain("STRICT CONSTRAINT REPAIR REQUIRED");
      expect(second!.prompt).toContain(sql);
      expect(r.trace.verifier_decisions[0]!.sql).toBe(good);
      // the trace says what the guard refused, and why
      const refused = r.trace.verifier_decisions[0]!.sql_refused!;
      expect(refused).toHaveLength(1);
      expect(refused[0]!.startsWith(`${sql} → `)).toBe(true);
      expect(refused[0]!.length).toBeGreaterThan(sql.length + 3);
    });
  }

  it("refuses SQL that drops a required value predicate (HYBRID binding), then repairs", async () => {
    const q = "How many players play for Dunmere FC?";
    const model = new ScriptedChatModel([
      reply.decompose(q, { expected_operator: "count", entity_mentions: ["Dunmere FC"] }),
      reply.link("Dunmere FC", "Club"),
      reply.sql("SELECT COUNT(*) FROM players"),
      reply.sql("SELECT COUNT(*) FROM players WHERE club = 'Dunmere FC'"),
      reply.verify(1),
    ]);
    const r = await askScripted(index.dir, model, { question: q, table_id: "players" }, { schemaTopK: 7 });
    expect(r.routes[0]!.effective).toEqual(["HYBRID"]);
    expect(model.callsOf("write_sql")[1]!.prompt).toMatch(/missing exact WHERE binding/);
    expect(r.answer).toBe("2");
  });

  it("the failure sentinel never becomes the answer: two refusals → fusion over the other evidence", async () => {
    const model = new ScriptedChatModel([
      reply.decompose("Which club was founded in 1887?", { expected_operator: "filter" }),
      reply.sql("DELETE FROM clubs"),
      reply.sql("UPDATE clubs SET founded = 1"),
      reply.fuse("Ashford Rovers"),
      reply.verify(1),
    ]);
    const r = await askScripted(
      index.dir,
      model,
      { question: "Which club was founded in 1887?", table_id: "clubs" },
      { routerType: "fixed", forceRoute: "SQL" },
    );
    expect(r.answer).toBe("Ashford Rovers");
    const fused = model.callsOf("fuse")[0]!.prompt;
    expect(fused).toMatch(/<source_c_sql_result route="SQL">\s*\(none\)/);
    expect(r.trace.verifier_decisions[0]!.produced_answer).toBe("Ashford Rovers");
    expect(r.trace.verifier_decisions[0]!.sql_refused!.map((s) => s.split(" → ")[0])).toEqual([
      "DELETE FROM clubs",
      "UPDATE clubs SET founded = 1",
    ]);
  });
});

describe("failureScope", () => {
  // Answers come from responders; the queue fixes the plans and verdicts. Sub-query 1 fails on TEXT.
  const responders = {
    ...noMatch,
    read_text: () => ({ answer: "River Tamsin" }),
    read_rows: () => ({ answer: "Mill Lane" }),
    write_sql: () => ({ sql: "SELECT stadium FROM clubs WHERE club = 'Ashford Rovers'" }),
    fuse: () => ({ answer: "Mill Lane" }),
  };
  const script = (): ScriptedReply[] => [
    reply.decompose("Which club is the oldest?", { required_modalities: "text", uncertainty: 0.9 }),
    reply.verify(0),
    reply.verify(1),
    reply.decompose("Which river runs beside Mill Lane?", { required_modalities: "text", uncertainty: 0 }),
    reply.verify(1),
  ];
  const q = { question: "Which river runs beside the stadium of the oldest club?", table_id: "clubs" };

  it("question: a route that failed for an earlier sub-query stays masked", async () => {
    const model = new ScriptedChatModel(script(), responders);
    const r = await askScripted(index.dir, model, q, { failureScope: "question" });
    expect(r.routes[0]!.effective[0]).toBe("TEXT");
    expect(r.routes[1]!.requested[0]).not.toBe("TEXT");
    expect(r.answer).toBe("Mill Lane");
  });

  it("subquery: each sub-query starts with a clean failed set", async () => {
    const model = new ScriptedChatModel(script(), responders);
    const r = await askScripted(index.dir, model, q, { failureScope: "subquery" });
    expect(r.routes[1]!.requested[0]).toBe("TEXT");
    expect(r.answer).toBe("River Tamsin");
  });
});

describe("threads", () => {
  it("a second question on the same thread starts with empty history, steps, trace and usage", async () => {
    const { MemorySaver } = await import("@langchain/langgraph");
    const { buildGraph } = await import("../../graph/graph.js");
    const { answerQuestion } = await import("../../graph/answer.js");
    const { scriptedBackbone } = await import("../fixtures/example-index.js");
    const g = buildGraph(undefined, { checkpointer: new MemorySaver() });
    const model = new ScriptedChatModel([
      reply.decompose("Who manages Dunmere FC?"),
      reply.text("Mill Lane"),
      reply.verify(0),
      reply.terminate(),
      reply.decompose("What is the name of Fenwick City's stadium?"),
      reply.text("Station Field"),
      reply.verify(1),
    ]);
    const configurable = {
      indexPath: index.dir,
      backbone: scriptedBackbone(model),
      routerType: "fixed" as const,
      forceRoute: "TEXT" as const,
      noEscalation: true,
      thread_id: "t1",
    };
    const graphLike = { invoke: (input: unknown, config: Record<string, unknown>) => g.invoke(input as never, config) };
    const first = await answerQuestion(
      { question: "Who manages Dunmere FC?", table_id: "clubs" },
      { configurable, graph: graphLike },
    );
    expect(first.answer).toBe("not found");
    const second = await answerQuestion(
      { question: "What is the name of Fenwick City's stadium?", table_id: "clubs" },
      { configurable, graph: graphLike },
    );
    expect(second.answer).toBe("Station Field");
    expect(second.steps).toEqual([
      { subQuery: "What is the name of Fenwick City's stadium?", answer: "Station Field", failed: false },
    ]);
    expect(second.trace.verifier_decisions).toHaveLength(1);
    expect(second.usage.llmCalls).toBe(3);
  });

  it("a run that does not send table_id or question_id clears them; an unfinished run leaves nothing behind", async () => {
    const { MemorySaver } = await import("@langchain/langgraph");
    const { buildGraph } = await import("../../graph/graph.js");
    const { scriptedBackbone } = await import("../fixtures/example-index.js");
    const g = buildGraph(undefined, { checkpointer: new MemorySaver() });
    const model = new ScriptedChatModel([
      reply.decompose("Who manages Dunmere FC?"), // the run stopped after gather
      reply.decompose("Who manages Dunmere FC?"),
      reply.text("Oskar Lind"),
      reply.verify(1),
      reply.decompose("What is the population of Brookhaven?"),
      reply.text("48,200"),
      reply.verify(1),
    ]);
    const base = {
      indexPath: index.dir,
      backbone: scriptedBackbone(model),
      routerType: "fixed" as const,
      forceRoute: "TEXT" as const,
      noEscalation: true,
    };
    const thread = { configurable: { ...base, thread_id: "t-clear" } };
    // A run stopped half-way (recursion limit): the next run must not continue its loop.
    await expect(
      g.invoke(
        { question: "Who manages Dunmere FC?", question_id: "q-1", table_id: "clubs" },
        { ...thread, recursionLimit: 3 },
      ),
    ).rejects.toThrow(/Recursion limit/);
    const half = await g.getState(thread);
    expect(half.values.table_id).toBe("clubs");
    expect(half.values.answer).toBe("");
    const second = await g.invoke({ question: "Who manages Dunmere FC?" }, { ...thread, recursionLimit: 40 });
    expect(second.table_id).toBeUndefined();
    expect(second.question_id).toBeUndefined();
    expect(second.answer).toBe("Oskar Lind");
    expect(second.iteration).toBe(1);
    expect(second.trace).toHaveLength(1);
    const third = await g.invoke(
      { question: "What is the population of Brookhaven?", table_id: "cities" },
      { ...thread, recursionLimit: 40 },
    );
    expect(third.table_id).toBe("cities");
    expect(third.steps).toEqual([
      { subQuery: "What is the population of Brookhaven?", answer: "48,200", failed: false },
    ]);
    expect(third.trace.map((d) => d.produced_answer)).toEqual(["48,200"]);
  });
});

describe("ablation switches", () => {
  const q = { question: "Who manages Dunmere FC?", table_id: "clubs" };

  it("noDecomposition: the raw question is the only sub-query, no decomposer call, K = 1", async () => {
    const model = new ScriptedChatModel([reply.text("Oskar Lind"), reply.verify(0)]);
    const r = await askScripted(index.dir, model, q, {
      noDecomposition: true,
      routerType: "fixed",
      forceRoute: "TEXT",
    });
    expect(model.callsOf("decompose")).toHaveLength(0);
    expect(r.routes).toEqual([{ subQuery: q.question, requested: ["TEXT"], effective: ["TEXT"] }]);
    expect(r.answer).toBe("not found");
  });

  it("noValueLinker: HYBRID runs without a linker call and without bindings", async () => {
    const model = new ScriptedChatModel([
      reply.decompose(q.question, { entity_mentions: ["Dunmere FC"] }),
      reply.sql("SELECT manager FROM clubs WHERE club = 'Dunmere FC'"),
      reply.verify(1),
    ]);
    const r = await askScripted(index.dir, model, q, { noValueLinker: true, schemaTopK: 6 });
    expect(model.callsOf("link_value")).toHaveLength(0);
    expect(model.callsOf("write_sql")[0]!.prompt).toMatch(/Value bindings:\n\(none\)/);
    expect(r.trace.verifier_decisions[0]).toMatchObject({ requested_route: "HYBRID", value_linker_attempted: false });
    expect(r.answer).toBe("Oskar Lind");
  });

  it("llm router: the model picks the route, a failed route is never picked again", async () => {
    const model = new ScriptedChatModel([
      reply.decompose(q.question),
      reply.route("TEXT"),
      reply.text("Mill Lane"),
      reply.verify(0),
      reply.route("TEXT please"), // TEXT failed: parsed as no match → first of RETRIEVE, SQL, HYBRID, TEXT
      reply.rows("Oskar Lind"),
      reply.verify(1),
    ]);
    const r = await askScripted(index.dir, model, q, { routerType: "llm" });
    expect(r.routes[0]!.requested).toEqual(["TEXT", "RETRIEVE"]);
    expect(model.callsOf("choose_route")[1]!.prompt).toContain("Already-failed routes  : [TEXT]");
    expect(r.answer).toBe("Oskar Lind");
  });

  it("useSchemaPreview: the decomposer sees the first table's header and rows", async () => {
    const model = new ScriptedChatModel([reply.terminate()]);
    await askScripted(index.dir, model, q, { useSchemaPreview: true });
    const prompt = model.callsOf("decompose")[0]!.prompt;
    expect(prompt).toMatch(/Source table: clubs\n\|/);
    expect(prompt).toContain("COUNT/aggregate");
  });

  it("concurrent questions never share router state (fixed chain)", async () => {
    const script = () =>
      new ScriptedChatModel(
        [
          reply.decompose(q.question),
          reply.text("x"),
          reply.verify(0),
          reply.verify(0),
          reply.verify(0),
          reply.verify(0),
          reply.terminate(),
        ],
        {
          read_text: () => ({ answer: "x" }),
          read_rows: () => ({ answer: "x" }),
          write_sql: () => ({ sql: "SELECT manager FROM clubs WHERE club = 'Ashford Rovers'" }),
          link_value: () => ({ matched_value: "no_match", matched_column: "", confidence: 0 }),
        },
      );
    const cfg = {
      routerType: "fixed" as const,
      forceRoute: "TEXT" as const,
      fixedEscalateChain: "standard" as const,
      schemaTopK: 6,
    };
    const [a, b] = await Promise.all([
      askScripted(index.dir, script(), q, cfg),
      askScripted(index.dir, script(), q, cfg),
    ]);
    expect(a.routes[0]!.requested).toEqual(["TEXT", "HYBRID", "SQL", "RETRIEVE"]);
    expect(b.routes[0]!.requested).toEqual(["TEXT", "HYBRID", "SQL", "RETRIEVE"]);
  });
});

describe("external guarded SQL service (sqlServiceUrl, reference §7)", () => {
  it("SQL goes to <url>/atr-guarded-v1 with the constraints; its result is guarded again and answers", async () => {
    const { startJsonService } = await import("../retrievers/sql-fixtures.js");
    const replies = [
      { sql_str: "SELECT COUNT(*) FROM clubs; DROP TABLE clubs", sql_execution_result: "[]" },
      { sql_str: "SELECT COUNT(*) AS n FROM clubs WHERE founded < 1900", sql_execution_result: '[{"n": 3}]' },
    ];
    const service = await startJsonService((_url, body) => {
      const next = replies.shift()!;
      const query = (body as { query: string }).query;
      return {
        status: 200,
        text: JSON.stringify({
          ...next,
          query,
          table_name_list: ["clubs"],
          nl2sql_prompt: "",
          nl2sql_response: "",
          atr_guard_version: 1,
        }),
      };
    });
    try {
      const sub = "How many clubs were founded before 1900?";
      const model = new ScriptedChatModel([reply.decompose(sub, { expected_operator: "count" }), reply.verify(1)]);
      const r = await askScripted(
        index.dir,
        model,
        { question: sub, table_id: "clubs" },
        { sqlServiceUrl: `${service.base}/get_tablerag_response`, schemaTopK: 6 },
      );
      expect(r.answer).toBe("3");
      expect(service.seen.map((s) => s.url)).toEqual([
        "/get_tablerag_response/atr-guarded-v1",
        "/get_tablerag_response/atr-guarded-v1",
      ]);
      const first = service.seen[0]!.body as { table_name_list: string[]; constraints: { allowed_tables: string[] } };
      expect(first.table_name_list).toEqual(["clubs"]);
      expect(first.constraints.allowed_tables).toEqual(["clubs"]);
      expect((service.seen[1]!.body as { query: string }).query).toContain("STRICT CONSTRAINT REPAIR REQUIRED");
      expect(model.callsOf("write_sql")).toHaveLength(0);
    } finally {
      await service.close();
    }
  });
});
