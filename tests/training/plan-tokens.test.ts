/**
 * The learned router where routes differ: labels and their headroom from a constructed exploration
 * run, the plan tokens (the offline analysis the v1/v2 text does not carry), a student that sends a
 * passage question to TEXT where the heuristic says SQL and masks the routes that failed, and the
 * analysis attached to a traced run by re-running the offline decomposer over the index.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { analyzeQuestion } from "../../nodes/offline/analysis.js";
import { createDecompose } from "../../nodes/offline/decompose.js";
import { createBridge } from "../../nodes/offline/bridge.js";
import { DEFAULT_FEATURE_SETTINGS } from "../../nodes/routers/hashed-features.js";
import { heuristicRoute } from "../../nodes/routers/heuristic.js";
import { selectRoute } from "../../nodes/routers/index.js";
import { createLearnedRouter } from "../../nodes/routers/learned.js";
import { planTokens } from "../../nodes/routers/plan-features.js";
import type { Strategies } from "../../nodes/strategies.js";
import type { Route } from "../../nodes/types.js";
import { openSearchableIndex } from "../../retrievers/open-search.js";
import { writeRouterModel } from "../../training/export-model.js";
import { explorationLabels, labelPlan, labelSummary, type RouterLabel } from "../../training/labels.js";
import { attachPlanAnalysis } from "../../training/plan-analysis.js";
import { trainStudent } from "../../training/student.js";
import { buildExampleIndex } from "../fixtures/example-index.js";
import { failedAt, label } from "./tiny-labels.js";

const root = mkdtempSync(join(tmpdir(), "atr-plan-tokens-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A decision of an exploration run: the plan the heuristic sends to SQL (schema, no entities, lookup). */
const decision = (route: Route, attempt: number, answer: string) => ({
  sub_query: "What nickname did the founders give Ashford Rovers?",
  expected_operator: "lookup",
  required_modalities: "both",
  entity_mentions: [],
  need_global_table_view: false,
  uncertainty: 0,
  schema: label("TEXT", "x").schema,
  has_schema: true,
  history_H: [],
  route,
  effective_route: route,
  attempt,
  accepted: false,
  produced_answer: answer,
});

describe("execution-guided labels and their headroom", () => {
  it("labels the cheapest right route; the summary counts only-right routes and the heuristic's misses", () => {
    const record = (id: string, answers: Record<Route, string>, gold: string) => ({
      question_id: id,
      question: id,
      answer: [gold],
      answer_from: "passage",
      atr_trace: {
        verifier_decisions: (["SQL", "HYBRID", "RETRIEVE", "TEXT"] as Route[]).map((r, i) =>
          decision(r, i + 1, answers[r]),
        ),
      },
    });
    const records = [
      // only TEXT reads the nickname from the passage; the heuristic's SQL returns the city
      record("a", { SQL: "Ashford", HYBRID: "Ashford", RETRIEVE: "Mill Lane", TEXT: "the Millers" }, "the Millers"),
      // SQL and TEXT both right: the cheaper TEXT is the label, the heuristic is right too
      record("b", { SQL: "1887", HYBRID: "1887", RETRIEVE: "1888", TEXT: "1887" }, "1887"),
      // nobody right: no label
      record("c", { SQL: "x", HYBRID: "x", RETRIEVE: "x", TEXT: "x" }, "y"),
    ];
    const isCorrect = (r: Record<string, unknown>, answer: string) => (r.answer as string[]).includes(answer);
    const labels = explorationLabels(records, isCorrect);
    expect(labels.map((l) => [l.question_id, l.route, l.routes_right])).toEqual([
      ["a", "TEXT", ["TEXT"]],
      ["b", "TEXT", ["TEXT", "SQL", "HYBRID"]],
    ]);
    const summary = labelSummary(labels);
    expect(summary.only_right_counts).toEqual({ TEXT: 1 });
    expect(summary.heuristic).toEqual({ route_counts: { SQL: 2 }, right: 1, wrong_other_right: 1 });
    expect(summary.by_answer_from.passage!.heuristic_wrong_other_right).toBe(1);
    expect(summary.replay).toBeUndefined();
  });

  it("replay labels: the summary gives the heuristic's and a perfect router's end-to-end score and attempts", () => {
    const replayed = (routesRight: Route[], replay: RouterLabel["replay"]) =>
      label(routesRight[0]!, "What nickname did the founders give Ashford Rovers?", {
        label_source: "execution_replay",
        routes_right: routesRight,
        replay,
      });
    const labels = [
      // the heuristic's SQL first ends wrong; TEXT first ends right
      replayed(["TEXT"], {
        TEXT: { right: true, attempts: 4 },
        SQL: { right: false, attempts: 4 },
        RETRIEVE: { right: false, attempts: 4 },
        HYBRID: { right: false, attempts: 4 },
      }),
      // every order right; HYBRID first is accepted one attempt sooner
      replayed(["HYBRID"], {
        TEXT: { right: true, attempts: 4 },
        SQL: { right: true, attempts: 4 },
        RETRIEVE: { right: true, attempts: 4 },
        HYBRID: { right: true, attempts: 3 },
      }),
    ];
    expect(labelSummary(labels).replay).toEqual({
      heuristic_right: 1,
      oracle_right: 2,
      heuristic_attempts: 8,
      oracle_attempts: 7,
    });
  });
});

/** A plan's analysis as the offline decomposer writes it: passage questions have no cell mention and no SQL template. */
function analysed(question: string, cell: boolean): Record<string, unknown> {
  const a = analyzeQuestion(question, { hasPassages: true });
  a.grounding = cell
    ? {
        tableId: "clubs",
        hinted: true,
        mentions: [
          {
            text: "dunmere fc",
            column: "Club",
            columnIndex: 0,
            value: "Dunmere FC",
            kind: "exact",
            score: 1,
            start: 0,
            end: 2,
            rows: [3],
          },
        ],
        template: "lookup",
        generator: "lookup",
        columns: ["Club", "Founded"],
        confidence: 0.8,
        features: { template: "lookup", grounding: "exact", mentions: "1", target: "named" },
      }
    : { tableId: "clubs", hinted: true, mentions: [] };
  return a as unknown as Record<string, unknown>;
}

describe("plan tokens", () => {
  it("read the analysis (answer kind, mentions, template, passage bridge) and nothing without one", () => {
    const plain = labelPlan(label("TEXT", "What nickname does Ashford Rovers have?"));
    expect(planTokens(plain)).toEqual([]);
    const passage = { ...plain, analysis: analysed("What nickname does Ashford Rovers have?", false) };
    expect(planTokens(passage)).toEqual(expect.arrayContaining(["G:mentions#=0", "G:hinted=true"]));
    expect(planTokens(passage).some((t) => t.startsWith("G:tpl="))).toBe(false);
    const cell = { ...plain, analysis: analysed("When was Dunmere FC founded?", true) };
    expect(planTokens(cell)).toEqual(expect.arrayContaining(["G:tpl=lookup", "G:mention=exact", "G:ground=exact"]));
    // the bridge rewrote a table question into a passage one
    const bridged = { ...cell, requiredModalities: "text" as const };
    expect(planTokens(bridged)).toContain("B:bridged");
  });

  it("the student sends a passage question to TEXT where the heuristic says SQL, and masks a failed TEXT", async () => {
    const passageQuestions = [
      "What nickname did the founders give Ashford Rovers?",
      "Who founded Brookhaven United?",
      "What colours does Carrow Athletic play in?",
      "Why is Dunmere FC called the Castle?",
      "What stands beside the ground of Ashford Rovers?",
      "Which workers started Brookhaven United?",
    ];
    const cellQuestions = [
      "When was Dunmere FC founded?",
      "What is the capacity of Carrow Athletic?",
      "Who manages Brookhaven United?",
      "Which city is Ashford Rovers in?",
      "What stadium does Dunmere FC use?",
      "When was Carrow Athletic founded?",
    ];
    // Same v1/v2 fields for both kinds (lookup, both modalities, schema, no entities): only the analysis differs.
    const labels: RouterLabel[] = [
      ...passageQuestions.map((q) => label("TEXT", q, { analysis: analysed(q, false) })),
      ...cellQuestions.map((q) => label("SQL", q, { analysis: analysed(q, true) })),
    ];
    const features = { ...DEFAULT_FEATURE_SETTINGS, dimension: 1024, planTokens: true };
    const { model, stats } = trainStudent(labels, { features, validationShare: 0, epochs: 40 });
    const dir = join(root, "plan-student");
    writeRouterModel(dir, model, features, 2, stats as unknown as Record<string, unknown>);

    const unseenPassage = label("TEXT", "What is the motto painted over the gate of Carrow Athletic?", {
      analysis: analysed("What is the motto painted over the gate of Carrow Athletic?", false),
    });
    const unseenCell = label("SQL", "What is the capacity of Dunmere FC?", {
      analysis: analysed("What is the capacity of Dunmere FC?", true),
    });
    const plan = labelPlan(unseenPassage);
    expect(heuristicRoute(plan, true, new Set())).toBe("SQL");
    const settings = { routerType: "learned" as const, routerModelPath: dir };
    const route = (l: RouterLabel, history = l.history_H) =>
      selectRoute(
        { plan: labelPlan(l), schema: l.schema, history, failureScope: "question", reselectIndex: 0 },
        settings,
        {} as Strategies, // the learned router calls no strategy
      );
    expect(await route(unseenPassage)).toBe("TEXT");
    expect(await route(unseenCell)).toBe("SQL");
    // TEXT failed: masked, the next-ranked route is taken
    const next = await route(unseenPassage, [failedAt(unseenPassage.sub_query, "TEXT")]);
    expect(next).not.toBe("TEXT");

    // The same labels without plan tokens cannot tell the two kinds apart on these plans.
    const blind = { ...DEFAULT_FEATURE_SETTINGS, dimension: 1024 };
    const b = trainStudent(labels, { features: blind, validationShare: 0, epochs: 40 });
    expect(b.stats.trainAgreement).toBeLessThan(stats.trainAgreement);
    const policy = await createLearnedRouter(dir);
    expect(
      (
        await policy.rank({
          plan,
          schema: unseenPassage.schema,
          history: [],
          failureScope: "question",
          reselectIndex: 0,
        })
      )[0],
    ).toBe("TEXT");
  });
});

describe("atr train-router plans", () => {
  it("attaches the decomposer's analysis where it writes the traced sub-query, and leaves the others", async () => {
    const built = await buildExampleIndex();
    const index = await openSearchableIndex(built.dir);
    try {
      const question = "In what year was Dunmere FC founded?";
      const plan = await createDecompose(
        index,
        createBridge(index),
      )({
        question,
        history: [],
        consecutiveFailures: 0,
        schemaPreview: "",
      });
      const traced = (subQuery: string) => ({
        sub_query: subQuery,
        expected_operator: plan.expectedOperator,
        required_modalities: plan.requiredModalities,
        attempt: 1,
      });
      const records = [
        { question_id: "a", question, atr_trace: { verifier_decisions: [traced(plan.subQuery)] } },
        { question_id: "b", question, atr_trace: { verifier_decisions: [traced("another sub-query")] } },
        { question_id: "c", question, atr_trace: { verifier_decisions: [] } },
      ];
      const tally = await attachPlanAnalysis(records, index);
      expect(tally).toEqual({ records: 3, attached: 1, differs: 1, untraced: 1 });
      const attached = records[0]!.atr_trace.verifier_decisions[0] as { plan_analysis?: { normalized?: string } };
      expect(attached.plan_analysis?.normalized).toContain("dunmere");
      expect("plan_analysis" in records[1]!.atr_trace.verifier_decisions[0]!).toBe(false);
    } finally {
      index.close();
      built.cleanup();
    }
  });
});
