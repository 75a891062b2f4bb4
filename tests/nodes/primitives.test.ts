/**
 * Node-level acceptance cases of reference §16 test_inference_contract, over hand-written fakes of
 * the index search and the strategies.
 */
import { describe, expect, it } from "vitest";
import { afterSubQuery } from "../../graph/graph.js";
import { StateAnnotation, type Attempt, type State } from "../../graph/state.js";
import type { CellEntry, DocChunk, Hit, RowEntry, SchemaEntry } from "../../indexing/types.js";
import { decompose } from "../../nodes/decompose.js";
import { hybrid } from "../../nodes/hybrid.js";
import type { NodeResources } from "../../nodes/node-resources.js";
import { retrieve } from "../../nodes/retrieve.js";
import { route } from "../../nodes/route.js";
import { fuseAnswer } from "../../nodes/sql-route.js";
import type { ReadRowsInput, Strategies, VerifyInput } from "../../nodes/strategies.js";
import { finishSubQuery } from "../../nodes/finish-sub-query.js";
import { verify } from "../../nodes/verify.js";
import type { IndexSearch } from "../../retrievers/types.js";
import { CLUBS, failure, plan } from "../fixtures/plans.js";

function baseState(overrides: Partial<State> = {}): State {
  const defaults = Object.fromEntries(
    Object.entries(StateAnnotation.spec).map(([k, ch]) => [
      k,
      (ch as unknown as { ValueType?: unknown; initialValueFactory?: () => unknown }).initialValueFactory?.(),
    ]),
  );
  const tableChunk: DocChunk = {
    id: 1,
    type: "table",
    source: "clubs.csv",
    text: "| Club | Founded |",
    tableId: "clubs",
  };
  const textChunk: DocChunk = { id: 0, type: "text", source: "clubs.json", text: "Alpha FC was founded in 1971." };
  return {
    ...(defaults as unknown as State),
    question: "Which club was founded in 1971?",
    question_id: "q1",
    table_id: "clubs",
    iteration: 1,
    limits: { maxIter: 5, maxAttempts: 4, verifierThreshold: 0.1 },
    plan: plan({ subQuery: "Which club was founded in 1971?" }),
    chunks: [textChunk, tableChunk],
    schema: CLUBS,
    textEvidence: "[Source: clubs.json]\nAlpha FC was founded in 1971.",
    failedRoutes: [],
    steps: [],
    trace: [],
    ...overrides,
  };
}

const col = (column: string): SchemaEntry => ({ tableId: "clubs", column, type: "text", examples: "", text: column });
const row = (rowIdx: number, values: Record<string, string>): Hit<RowEntry> => ({
  entry: { tableId: "clubs", rowIdx, text: "", values },
  score: 1,
});

function fakeSearch(rows: Array<Hit<RowEntry>>, candidates: Record<string, CellEntry[]> = {}) {
  const rowCalls: Array<{ query: string; k: number; tableId: string }> = [];
  const search: IndexSearch = {
    documents: async () => [],
    schema: async () => [{ entry: col("Club"), score: 1 }],
    cells: async () => [],
    rows: async (query, k, { tableId }) => {
      rowCalls.push({ query, k, tableId });
      return rows.slice(0, k);
    },
    schemaCells: async () => ({ columns: [col("Club"), col("Founded")], candidates }),
  };
  return { search, rowCalls };
}

function resources(search: IndexSearch, strategies: Partial<Strategies>): NodeResources {
  return {
    index: async () => ({ dir: "/fake", tables: new Map([["clubs", CLUBS]]), search }),
    strategies: async () => strategies as Strategies,
    sqlExecutor: async () => {
      throw new Error("no SQL in this test");
    },
  };
}

const config = { configurable: { indexPath: "mem:fake" } };

describe("RETRIEVE (§16)", () => {
  it("searches rows once with the sub-query, top 10, in the first table chunk's table", async () => {
    const rows = Array.from({ length: 12 }, (_, i) => row(i, { Club: `Club ${i}` }));
    const { search, rowCalls } = fakeSearch(rows);
    let seen: ReadRowsInput | undefined;
    const update = await retrieve(
      baseState(),
      config,
      resources(search, { readRows: async (i) => ((seen = i), "Club 9") }),
    );
    expect(rowCalls).toEqual([{ query: "Which club was founded in 1971?", k: 10, tableId: "clubs" }]);
    expect(seen!.tableContext).toContain("row 9]");
    expect(seen!.tableContext).not.toContain("row 10]");
    expect((update.attempt as Attempt).answer).toBe("Club 9");
  });

  it("passes exactly the row block as table context and keeps it in the route evidence", async () => {
    const { search } = fakeSearch([row(7, { Club: "Alpha FC", Founded: "1971", Stadium: "" })]);
    let seen: ReadRowsInput | undefined;
    const update = await retrieve(
      baseState(),
      config,
      resources(search, { readRows: async (i) => ((seen = i), "Alpha FC") }),
    );
    expect(seen!.tableContext).toBe("[Table clubs, row 7]\n  Club: Alpha FC\n  Founded: 1971");
    const a = update.attempt as Attempt;
    expect(a.evidence).toContain("[Table clubs, row 7]\n  Club: Alpha FC\n  Founded: 1971");
    expect(a.evidence).toContain("Column: Club");
    expect(a).toMatchObject({
      effectiveRoute: "RETRIEVE",
      requestedRoute: "RETRIEVE",
      sqlResult: "",
      valueLinkerAttempted: false,
    });
  });
});

describe("failing closed leaves a trace in errors", () => {
  it("RETRIEVE: retrieval and reading errors give not found and each is named in errors", async () => {
    const down = async (): Promise<never> => {
      throw new Error("index file unreadable");
    };
    const search: IndexSearch = { ...fakeSearch([]).search, schemaCells: down, rows: down };
    const update = await retrieve(
      baseState(),
      config,
      resources(search, {
        readRows: async () => {
          throw new Error("model crashed");
        },
      }),
    );
    expect((update.attempt as Attempt).answer).toBe("not found");
    expect(update.errors).toEqual([
      "RETRIEVE: schema/cell retrieval failed (no allowed columns): index file unreadable",
      "RETRIEVE: row retrieval failed (table chunks used instead): index file unreadable",
      "RETRIEVE: readRows failed (not found): model crashed",
    ]);
  });

  it("decompose: a failing or empty plan ends the loop (TERMINATE) and says why", async () => {
    const search = fakeSearch([]).search;
    const state = baseState({ answer: "", iteration: 0 });
    const thrown = await decompose(
      state,
      config,
      resources(search, {
        decompose: async () => {
          throw new Error("planner crashed");
        },
      }),
    );
    expect(thrown.plan).toMatchObject({ subQuery: "TERMINATE" });
    expect(thrown.errors).toContainEqual("decompose: decompose failed (TERMINATE): planner crashed");
    const empty = await decompose(state, config, resources(search, { decompose: async () => plan({ subQuery: " " }) }));
    expect(empty.plan).toMatchObject({ subQuery: "TERMINATE" });
    expect(empty.errors).toContainEqual("decompose: decompose failed (TERMINATE): the plan has no sub-query");
  });

  it("route: a failing LLM chooser falls to the first route not failed and says why", async () => {
    const state = baseState({ nextRoute: null, attempt: null });
    const update = await route(
      state,
      { configurable: { indexPath: "mem:fake", routerType: "llm" } },
      resources(fakeSearch([]).search, {
        chooseRoute: async () => {
          throw new Error("timeout");
        },
      }),
    );
    expect(update.errors).toEqual(["route: chooseRoute failed (first route not failed): timeout"]);
  });
});

describe("HYBRID linker reroute (§16)", () => {
  it("answers from TEXT with no SQL result and no route evidence", async () => {
    const { search } = fakeSearch([], {});
    const state = baseState({
      plan: plan({ entityMentions: ["Alpha"] }),
      failedRoutes: [
        failure("Which club was founded in 1971?", "HYBRID"),
        failure("Which club was founded in 1971?", "RETRIEVE", "RETRIEVE", { step: 2 }),
      ],
    });
    const update = await hybrid(state, config, resources(search, { readText: async () => "text answer" }));
    expect(update.attempt).toMatchObject({
      answer: "text answer",
      sqlResult: "",
      evidence: "",
      effectiveRoute: "TEXT",
      requestedRoute: "HYBRID",
      valueLinkerAttempted: true,
    });
    expect((update.attempt as Attempt).linkedValues[0]!.fallbackLevel).toBe(3);
  });
});

describe("verify and re-selection (§16)", () => {
  const attempt = (fields: Partial<Attempt>): Attempt => ({
    number: 1,
    requestedRoute: "RETRIEVE",
    effectiveRoute: "RETRIEVE",
    answer: "Alpha FC",
    evidence: "[Table clubs, row 7]\n  Club: Alpha FC",
    sqlResult: "",
    sql: "",
    valueLinkerAttempted: false,
    linkedValues: [],
    verdict: null,
    reason: "",
    ...fields,
  });

  it("forwards document evidence and the row block to the verifier, with the original question", async () => {
    let seen: VerifyInput | undefined;
    const state = baseState({ attempt: attempt({}) });
    const update = await verify(
      state,
      config,
      resources(fakeSearch([]).search, { verify: async (i) => ((seen = i), { verdict: 1, reason: "ok" }) }),
    );
    expect(seen!.evidence).toContain("Alpha FC was founded in 1971.");
    expect(seen!.evidence).toContain("[Table clubs, row 7]");
    expect(seen!.question).toBe("Which club was founded in 1971?");
    expect(update.subQueryDone).toBe(true);
    expect(update.trace).toMatchObject({ accepted: true, route: "RETRIEVE", history_H: [] });
  });

  it("judges an attempt's SQL alternatives and its reader candidates apart: each traced with its own mark", async () => {
    // One attempt carrying both kinds (Attempt.sqlAlternatives and Attempt.readerCandidates).
    const a = attempt({
      answer: "Beta FC",
      sqlAlternatives: [
        {
          answer: "Gamma FC",
          sql: 'SELECT "Club" FROM "clubs" LIMIT 1',
          sqlResult: "Club\nGamma FC",
          plan: { name: "lookup.other", template: "lookup", features: {} },
        },
      ],
      readerCandidates: [{ answer: "Alpha FC", features: { "rc:rank": 2, "rc:alternative": 1 } }],
    });
    const seen: VerifyInput[] = [];
    const p: Record<string, number> = { "Beta FC": 0.2, "Gamma FC": 0.4, "Alpha FC": 0.9 };
    const update = await verify(
      baseState({ attempt: a }),
      config,
      resources(fakeSearch([]).search, {
        verify: async (i) => {
          seen.push(i);
          const pCorrect = p[i.answer]!;
          return { verdict: pCorrect >= 0.5 ? 1 : 0.5, reason: "p", pCorrect, features: { bias: 1 } };
        },
      }),
    );
    // The accepted reader candidate becomes the attempt's answer; the SQL alternative stays a trace row.
    expect((update.attempt as Attempt).answer).toBe("Alpha FC");
    expect(update.subQueryDone).toBe(true);
    const rows = update.trace as Array<{ produced_answer: string; alternative?: boolean; candidate?: number }>;
    expect(rows.map((r) => [r.produced_answer, r.alternative ?? false, r.candidate ?? 1])).toEqual([
      ["Alpha FC", false, 1],
      ["Gamma FC", true, 1],
      ["Beta FC", false, 2],
    ]);
    // The reader candidate's own features reach the verifier.
    expect(seen.find((i) => i.answer === "Alpha FC")!.readerFeatures).toEqual({ "rc:rank": 2, "rc:alternative": 1 });
    // The statement's answer and its SQL alternative each see the other's answer (sibling agreement).
    expect(seen.find((i) => i.answer === "Beta FC")!.sqlSiblingAnswers).toEqual(["Gamma FC"]);
    expect(seen.find((i) => i.answer === "Gamma FC")!.sqlSiblingAnswers).toEqual(["Beta FC"]);
  });

  it("earlier trace rows of SQL alternatives and reader candidates are not other routes' findings", async () => {
    let seen: VerifyInput | undefined;
    const earlier = { effective_route: "SQL", produced_answer: "Alpha FC", sub_query: "s" };
    const trace = [
      { ...earlier, produced_answer: "Found FC" },
      { ...earlier, alternative: true },
      { ...earlier, produced_answer: "Other FC", candidate: 2 },
    ] as never[];
    await verify(
      baseState({ attempt: attempt({ number: 2 }), trace }),
      config,
      resources(fakeSearch([]).search, { verify: async (i) => ((seen = i), { verdict: 0.5, reason: "" }) }),
    );
    expect(seen!.earlier!.map((e) => e.answer)).toEqual(["Found FC"]);
  });

  it("rejected HYBRID→TEXT attempt whose re-selection is TEXT ends as (answer, 0.5)", async () => {
    const a = attempt({
      requestedRoute: "HYBRID",
      effectiveRoute: "TEXT",
      answer: "rejected text",
      valueLinkerAttempted: true,
      evidence: "",
    });
    const strategies = { verify: async () => ({ verdict: 0 as const, reason: "no" }) };
    const res = resources(fakeSearch([]).search, strategies);
    const verified = await verify(
      baseState({ attempt: a }),
      { configurable: { ...config.configurable, routerType: "fixed", forceRoute: "TEXT" } },
      res,
    );
    expect(verified.failedRoutes).toMatchObject({
      requestedRoute: "HYBRID",
      effectiveRoute: "TEXT",
      valueLinkerAttempted: true,
      step: 1,
    });
    expect(verified.trace).toMatchObject({ route: "TEXT", requested_route: "HYBRID", accepted: false });
    expect(verified.subQueryDone).toBeUndefined();
    const after = baseState({ attempt: verified.attempt as Attempt, failedRoutes: [verified.failedRoutes as never] });
    const routed = await route(
      after,
      { configurable: { ...config.configurable, routerType: "fixed", forceRoute: "TEXT" } },
      res,
    );
    expect(routed).toMatchObject({ cExec: 0.5, subQueryDone: true, steps: { answer: "rejected text", failed: true } });
  });

  it("stop rule and verified answers (§16)", () => {
    const cases: Array<[number, number, number, boolean]> = [
      [1, 0.15, 0.1, false],
      [1, 0.15, 0.2, true],
      [0.5, 0.01, 0.1, false],
      [1, 0.1, 0.1, false],
      [1, 0.09, 0.1, true],
    ];
    for (const [cExec, uncertainty, threshold, stops] of cases) {
      const state = baseState({
        plan: plan({ uncertainty }),
        limits: { maxIter: 5, maxAttempts: 4, verifierThreshold: threshold },
      });
      const u = finishSubQuery(state, attempt({ answer: "supported" }), cExec === 1);
      expect(
        afterSubQuery({ stop: u.stop as boolean, iteration: 1, limits: state.limits }),
        `${cExec}/${uncertainty}/${threshold}`,
      ).toBe(stops ? "synthesize" : "decompose");
    }
    const s = baseState();
    expect(finishSubQuery(s, attempt({ answer: "supported" }), false).steps).toMatchObject({ failed: true });
    expect(finishSubQuery(s, attempt({ answer: "supported" }), true).steps).toMatchObject({ failed: false });
    const nf = finishSubQuery(baseState({ plan: plan({ uncertainty: 0 }) }), attempt({ answer: "not found" }), true);
    expect(nf).toMatchObject({ steps: { failed: true }, stop: false, consecutiveFailures: 1, bestAnswer: "" });
  });
});

describe("SQL evidence fusion (§8.2)", () => {
  const fuse = async (sqlResult: string, useMarkdownFusion: boolean, operator: "lookup" | "count" = "lookup") => {
    const calls: string[] = [];
    const answer = await fuseAnswer(
      { fuse: async (i) => (calls.push(i.sqlResult), "fused") },
      {
        state: baseState({ plan: plan({ expectedOperator: operator }) }),
        route: "SQL",
        sqlResult,
        schemaEvidence: "",
        useMarkdownFusion,
      },
    );
    return { answer, calls };
  };

  it("legacy fast path returns the scalar, never the failure sentinel", async () => {
    expect(await fuse('[{"n": 3}]', false)).toEqual({ answer: "3", calls: [] });
    expect(await fuse("", false)).toEqual({ answer: "fused", calls: [""] });
    expect((await fuse("not found", false)).answer).toBe("fused");
  });

  it("markdown fusion: only lookup/filter scalars that are not 0/empty skip the fusion call", async () => {
    expect((await fuse('[{"n": 0}]', true)).answer).toBe("fused");
    expect((await fuse('[{"n": 3}]', true, "count")).answer).toBe("fused");
    expect((await fuse('[{"c": "Alpha FC"}]', true)).answer).toBe("Alpha FC");
  });
});
