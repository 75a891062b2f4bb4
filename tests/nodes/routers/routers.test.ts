import { describe, expect, it } from "vitest";
import { failedSet, priorLinkerAttempts } from "../../../nodes/routers/failed-set.js";
import { historyFeature, routerInputV1, routerInputV2, schemaFeature } from "../../../nodes/routers/features.js";
import { fixedReselect } from "../../../nodes/routers/fixed.js";
import { heuristicRoute } from "../../../nodes/routers/heuristic.js";
import { parseRouteReply, llmRoute } from "../../../nodes/routers/llm.js";
import { routeProfile, selectRoute } from "../../../nodes/routers/index.js";
import type { Strategies } from "../../../nodes/strategies.js";
import type { Route } from "../../../nodes/types.js";
import { CLUBS, failure, plan } from "../../fixtures/plans.js";

const none = new Set<Route>();

describe("heuristic router (§5.1)", () => {
  it("sends text modality, or no schema and no entities, to TEXT", () => {
    expect(heuristicRoute(plan({ requiredModalities: "text" }), true, none)).toBe("TEXT");
    expect(heuristicRoute(plan(), false, none)).toBe("TEXT");
  });
  it("modality text, no entities/schema, TEXT failed → RETRIEVE (§16 test_router)", () => {
    expect(heuristicRoute(plan({ requiredModalities: "text" }), false, new Set<Route>(["TEXT"]))).toBe("RETRIEVE");
  });
  it("schema and entities → HYBRID, then SQL for aggregates, RETRIEVE once HYBRID failed", () => {
    const p = plan({ entityMentions: ["Alpha FC"] });
    expect(heuristicRoute(p, true, none)).toBe("HYBRID");
    expect(heuristicRoute(p, true, new Set<Route>(["HYBRID"]))).toBe("RETRIEVE");
    expect(heuristicRoute(plan({ expectedOperator: "count" }), true, none)).toBe("SQL");
    expect(heuristicRoute(plan({ expectedOperator: "count", needGlobalTableView: true }), true, none)).toBe("SQL");
    expect(heuristicRoute(p, false, none)).toBe("RETRIEVE");
  });
  it("falls back to the first non-failed route, TEXT when all failed", () => {
    expect(heuristicRoute(plan(), true, new Set<Route>(["SQL"]))).toBe("TEXT");
    expect(heuristicRoute(plan(), true, new Set<Route>(["SQL", "TEXT", "RETRIEVE", "HYBRID"]))).toBe("TEXT");
  });
});

describe("failed set and failureScope", () => {
  const history = [failure("other sub-query", "RETRIEVE")];
  it("question scope masks a failure of another sub-query; subquery scope does not (§16)", () => {
    expect(failedSet(history, "Q", "question").has("RETRIEVE")).toBe(true);
    expect(failedSet(history, "Q", "subquery").has("RETRIEVE")).toBe(false);
  });
  it("counts the effective route, not the requested one", () => {
    const h = [failure("Q", "HYBRID", "TEXT")];
    expect([...failedSet(h, "Q", "question")]).toEqual(["TEXT"]);
    expect(priorLinkerAttempts(h, "Q", "question")).toBe(1);
    expect(priorLinkerAttempts(h, "other", "subquery")).toBe(0);
  });
});

describe("features (§5.3)", () => {
  it("history feature of a HYBRID→TEXT failure", () => {
    expect(historyFeature([failure("Q", "HYBRID", "TEXT", { verdict: 0 })])).toBe("Q => HYBRID->TEXT:0.0");
    expect(historyFeature([failure("Q", "RETRIEVE", "RETRIEVE", { verdict: 0.5 })])).toBe("Q => RETRIEVE:0.5");
    expect(historyFeature([])).toBe("none");
  });
  it("schema feature", () => {
    const noExamples = { ...CLUBS, columns: [CLUBS.columns[0]!] };
    expect(schemaFeature(noExamples)).toBe("table=clubs; columns=Club:text");
    expect(schemaFeature(CLUBS)).toBe("table=clubs; columns=Club:text, Founded:integer examples=1971");
    expect(schemaFeature(null)).toBe("none");
  });
  it("v1 and v2 inputs", () => {
    const p = plan({ entityMentions: ["Alpha FC"], needGlobalTableView: true, uncertainty: 0.25 });
    expect(routerInputV1(p, CLUBS)).toBe(
      "[QUERY] Which club was founded in 1971? [OP] lookup [MOD] both [ENT] Alpha FC [SCHEMA] yes",
    );
    const v2 = routerInputV2(p, CLUBS, [failure("Q", "RETRIEVE", "RETRIEVE", { verdict: 0.5 })]);
    expect(v2).toContain("[GLOBAL] yes");
    expect(v2).toContain("[UNCERTAINTY] 0.250");
    expect(v2).toContain("[FAILED] Q => RETRIEVE:0.5");
    expect(v2).toContain("[SCHEMA_DETAIL] table=clubs; columns=Club:text");
  });
});

describe("LLM router (§5.2)", () => {
  const stub = (reply: string | Error) =>
    ({
      chooseRoute: async () => {
        if (reply instanceof Error) throw reply;
        return reply;
      },
    }) as unknown as Strategies;
  it("never returns a failed route: RETRIEVE failed and reply RETRIEVE → SQL", async () => {
    const input = {
      plan: plan(),
      schema: CLUBS,
      history: [failure("Q", "RETRIEVE", "RETRIEVE", { verdict: 0.5 })],
      failureScope: "question" as const,
      reselectIndex: 0,
    };
    expect(await llmRoute(stub("RETRIEVE"), routeProfile(input))).toBe("SQL");
    const profile = routeProfile(input);
    expect(profile.failedRoutes).toEqual(["RETRIEVE"]);
    expect(profile.historyFeature).toBe("Q => RETRIEVE:0.5");
  });
  it("parses in HYBRID, RETRIEVE, SQL, TEXT order and falls back on errors", async () => {
    expect(parseRouteReply("use sql then text", none)).toBe("SQL");
    expect(parseRouteReply("nothing", none)).toBeNull();
    const p = routeProfile({ plan: plan(), schema: null, history: [], failureScope: "question", reselectIndex: 0 });
    expect(await llmRoute(stub(new Error("down")), p)).toBe("RETRIEVE");
  });
});

describe("fixed router (§5.4)", () => {
  it("walks the standard chain without the forced route, then TEXT", () => {
    expect([0, 1, 2, 3].map((i) => fixedReselect("SQL", "standard", i))).toEqual([
      "HYBRID",
      "RETRIEVE",
      "TEXT",
      "TEXT",
    ]);
    expect(fixedReselect("SQL", undefined, 0)).toBe("SQL");
  });
  it("is pure: two interleaved questions get the same sequence", async () => {
    const settings = {
      routerType: "fixed" as const,
      forceRoute: "TEXT" as Route,
      fixedEscalateChain: "standard" as const,
    };
    const s = {} as Strategies;
    const base = { plan: plan(), schema: null, history: [], failureScope: "question" as const };
    expect(await selectRoute({ ...base, reselectIndex: 0 }, settings, s)).toBe("TEXT");
    const a = await selectRoute({ ...base, currentRoute: "TEXT", reselectIndex: 0 }, settings, s);
    const b = await selectRoute({ ...base, currentRoute: "TEXT", reselectIndex: 0 }, settings, s);
    expect([a, b]).toEqual(["HYBRID", "HYBRID"]);
    expect(await selectRoute({ ...base, currentRoute: "HYBRID", reselectIndex: 1 }, settings, s)).toBe("SQL");
  });
});

describe("learned router plug-in (§16 test_router, masking applied here)", () => {
  it("walks classes by score and skips failed routes; failureScope decides which failures count", async () => {
    const { registerLearnedRouter } = await import("../../../nodes/routers/index.js");
    const order: Route[] = ["TEXT", "SQL", "RETRIEVE", "HYBRID"];
    let logits = [0.1, 0.2, 0.9, 0.3];
    registerLearnedRouter(async () => ({
      rank: async () =>
        order
          .map((r, i) => [r, logits[i]!] as const)
          .sort((a, b) => b[1] - a[1])
          .map(([r]) => r),
    }));
    const settings = { routerType: "learned" as const, routerModelPath: "/models/router" };
    const base = { plan: plan({ subQuery: "Q" }), schema: CLUBS, reselectIndex: 0 };
    expect(await selectRoute({ ...base, history: [], failureScope: "question" }, settings, {} as Strategies)).toBe(
      "RETRIEVE",
    );
    logits = [0.1, 0.8, 0.9, 0.3];
    const failedHere = [failure("Q", "RETRIEVE")];
    expect(
      await selectRoute({ ...base, history: failedHere, failureScope: "question" }, settings, {} as Strategies),
    ).toBe("SQL");
    const failedElsewhere = [failure("other", "RETRIEVE")];
    expect(
      await selectRoute({ ...base, history: failedElsewhere, failureScope: "subquery" }, settings, {} as Strategies),
    ).toBe("RETRIEVE");
    expect(
      await selectRoute({ ...base, history: failedElsewhere, failureScope: "question" }, settings, {} as Strategies),
    ).toBe("SQL");
    await expect(
      selectRoute({ ...base, history: [], failureScope: "question" }, { routerType: "learned" }, {} as Strategies),
    ).rejects.toThrow(/routerModelPath/);
  });
});
