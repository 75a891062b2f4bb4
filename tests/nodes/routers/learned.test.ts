/**
 * The learned router: router.json validation (clear errors naming the file and field), and a route
 * through the real graph on the examples index with routerType learned — the student's route is
 * taken, and after the verifier rejects it the failed route is skipped even though the student still
 * ranks it first.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLearnedRouter } from "../../../nodes/routers/learned.js";
import { heuristicRoute } from "../../../nodes/routers/heuristic.js";
import { selectRoute } from "../../../nodes/routers/index.js";
import type { TableSchema } from "../../../indexing/types.js";
import type { SubQueryPlan } from "../../../nodes/types.js";
import type { Strategies } from "../../../nodes/strategies.js";
import { writeRouterModel } from "../../../training/export-model.js";
import { DEFAULT_FEATURE_SETTINGS } from "../../../nodes/routers/hashed-features.js";
import { labelPlan } from "../../../training/labels.js";
import {
  deferToHeuristic,
  readRouterConfig,
  RouterConfigError,
  validateRouterConfig,
} from "../../../nodes/routers/router-config.js";
import { trainStudent } from "../../../training/student.js";
import { askScripted, useExampleIndex } from "../../fixtures/example-index.js";
import { ScriptedChatModel, reply } from "../../fixtures/scripted-model.js";
import { failedAt, label } from "../../training/tiny-labels.js";

const index = useExampleIndex();
const root = mkdtempSync(join(tmpdir(), "atr-learned-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const features = { ...DEFAULT_FEATURE_SETTINGS, dimension: 512 };
const Q = "Who manages Dunmere FC?";
let modelDir = "";

beforeAll(() => {
  // v1 input (no H): for this question the student says TEXT, then SQL — whatever failed before.
  const labels = [
    ...[0, 1].map(() => label("TEXT", Q, { required_modalities: "text" })),
    label("SQL", Q, { required_modalities: "text" }),
    label("SQL", "How many clubs were founded before 1900?", {
      expected_operator: "count",
      required_modalities: "table",
    }),
    label("RETRIEVE", "Where is the stadium of Ashford Rovers?", {
      entity_mentions: ["Ashford Rovers"],
      required_modalities: "table",
    }),
    label("HYBRID", "What is the total attendance of Fenwick City games?", {
      expected_operator: "aggregate",
      entity_mentions: ["Fenwick City"],
    }),
  ];
  const { model, stats } = trainStudent(labels, { features, validationShare: 0, epochs: 40, inputVersion: 1 });
  modelDir = join(root, "student");
  writeRouterModel(modelDir, model, features, 1, stats as unknown as Record<string, unknown>);
});

function editedCopy(name: string, edit: (config: Record<string, unknown>) => void): string {
  const dir = join(root, name);
  cpSync(modelDir, dir, { recursive: true });
  const file = join(dir, "router.json");
  const config = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  edit(config);
  writeFileSync(file, JSON.stringify(config));
  return dir;
}

describe("router.json validation", () => {
  it("rejects a wrong label mapping, a dims mismatch, an unknown version, a missing file — naming file and field", async () => {
    const swapped = editedCopy("swapped", (c) => (c.id2label = { 0: "TEXT", 1: "RETRIEVE", 2: "SQL", 3: "HYBRID" }));
    await expect(createLearnedRouter(swapped)).rejects.toThrow(
      /swapped\/router\.json: field "id2label" must map exactly 0=TEXT, 1=SQL, 2=RETRIEVE, 3=HYBRID/,
    );
    const dims = editedCopy("dims", (c) => (c.input_dim = 256));
    await expect(createLearnedRouter(dims)).rejects.toThrow(/field "features\.dimension" must equal input_dim 256/);
    const version = editedCopy("version", (c) => (c.router_input_version = 3));
    await expect(createLearnedRouter(version)).rejects.toThrow(/field "router_input_version" must be 1 or 2/);
    const onnxName = editedCopy(
      "onnx-input",
      (c) => (c.onnx = { file: "model.onnx", input: "input_ids", output: "scores" }),
    );
    await expect(createLearnedRouter(onnxName)).rejects.toThrow(
      /field "onnx\.input" names "input_ids", but the ONNX graph's inputs are features/,
    );
    const escape = editedCopy("escape", (c) => (c.onnx = { file: "../x.onnx", input: "features", output: "scores" }));
    await expect(createLearnedRouter(escape)).rejects.toThrow(
      /field "onnx\.file" must be a file name inside the model folder/,
    );
    await expect(createLearnedRouter(join(root, "nowhere"))).rejects.toThrow(RouterConfigError);
    expect(() => validateRouterConfig({ format: "atr-ts-learned-router", model_type: "distilbert" }, "r.json")).toThrow(
      /r\.json: field "model_type"/,
    );
  });
});

describe("routerType learned through the graph", () => {
  it("takes the student's route, then skips the failed one on re-selection", async () => {
    const router = await createLearnedRouter(modelDir);
    const l = label("TEXT", Q, { required_modalities: "text" });
    const afterFailure = await router.rank({
      plan: labelPlan(l),
      schema: null,
      history: [failedAt(Q, "TEXT")],
      failureScope: "question",
      reselectIndex: 0,
    });
    expect(afterFailure.slice(0, 2)).toEqual(["TEXT", "SQL"]); // v1: H does not change the ranking

    const model = new ScriptedChatModel([
      reply.decompose(Q, { required_modalities: "text" }),
      reply.text("Tomas Reyes"),
      reply.verify(0),
      reply.sql("SELECT manager FROM clubs WHERE club = 'Dunmere FC'"),
      reply.verify(1),
    ]);
    const r = await askScripted(
      index.dir,
      model,
      { question: Q, table_id: "clubs" },
      { routerType: "learned", routerModelPath: modelDir },
    );
    expect(r.routes).toEqual([{ subQuery: Q, requested: ["TEXT", "SQL"], effective: ["TEXT", "SQL"] }]);
    expect(r.answer).toBe("Oskar Lind");
    expect(model.callsOf("choose_route")).toHaveLength(0);
  });
});

describe("the committed WTQ student (training/models/wtq-distill)", () => {
  it("loads and follows its teacher's rules on unseen sub-queries", async () => {
    const router = await createLearnedRouter(join(import.meta.dirname, "../../../training/models/wtq-distill"));
    const top = async (l: ReturnType<typeof label>) =>
      (
        await router.rank({
          plan: labelPlan(l),
          schema: l.schema,
          history: l.history_H,
          failureScope: "question",
          reselectIndex: 0,
        })
      )[0];
    // Its labels are WTQ plans (modality table): aggregate-like without entities → SQL, then TEXT once
    // SQL failed; lookup with entities → RETRIEVE. (Text-modality plans never occur in them.)
    const count = "how many gold medals did the team win in total?";
    expect(await top(label("SQL", count, { expected_operator: "count", required_modalities: "table" }))).toBe("SQL");
    expect(
      await top(
        label("TEXT", count, {
          expected_operator: "count",
          required_modalities: "table",
          history_H: [failedAt(count, "SQL")],
        }),
      ),
    ).toBe("TEXT");
    expect(
      await top(
        label("RETRIEVE", "which city hosted the 1998 edition?", {
          entity_mentions: ["1998"],
          required_modalities: "table",
        }),
      ),
    ).toBe("RETRIEVE");
  });
});

describe("the committed student on execution-guided labels (training/models/routes-explore)", () => {
  // A report table as TAT-QA-like corpora have (a line-item column and year columns); the questions are this test's own.
  const report: TableSchema = {
    tableId: "report_7",
    physical: "report_7",
    file: "report_7.csv",
    rowCount: 6,
    columns: [
      {
        name: "col_1",
        physical: "col_1",
        rawPhysical: "col_1__raw",
        type: "text",
        examples: ["Revenue", "Cost of sales"],
      },
      { name: "2021", physical: "c2021", rawPhysical: "c2021__raw", type: "real", examples: ["1,204", "880"] },
      { name: "2020", physical: "c2020", rawPhysical: "c2020__raw", type: "real", examples: ["1,118", "812"] },
    ],
  };
  const plan = (subQuery: string, entityMentions: string[] = []): SubQueryPlan => ({
    subQuery,
    expectedOperator: "lookup",
    requiredModalities: "both",
    needGlobalTableView: false,
    entityMentions,
    uncertainty: 0,
  });

  it("sends passage questions over a report table to TEXT where the heuristic picks SQL or HYBRID", async () => {
    const router = await createLearnedRouter(join(import.meta.dirname, "../../../training/models/routes-explore"));
    const first = async (p: SubQueryPlan) =>
      (await router.rank({ plan: p, schema: report, history: [], failureScope: "question", reselectIndex: 0 }))[0];
    const definition = plan("What does the company use the term adjusted EBITDA to describe? (columns: col_1, 2021)");
    expect(heuristicRoute(definition, true, new Set())).toBe("SQL");
    expect(await first(definition)).toBe("TEXT");
    const cause = plan("What caused the increase in cost of sales? (columns: col_1, 2021)", ["Cost of sales"]);
    expect(heuristicRoute(cause, true, new Set())).toBe("HYBRID");
    expect(await first(cause)).toBe("TEXT");
    // A failed TEXT attempt is masked: the next route is one of the others.
    const next = await selectRoute(
      {
        plan: definition,
        schema: report,
        history: [failedAt(definition.subQuery, "TEXT")],
        failureScope: "question",
        currentRoute: "TEXT",
        reselectIndex: 0,
      },
      { routerType: "learned", routerModelPath: join(import.meta.dirname, "../../../training/models/routes-explore") },
      {} as Strategies, // the learned router calls no strategy
    );
    expect(next).not.toBe("TEXT");
  });
});

describe("deferring to the heuristic (router.json heuristic_margin)", () => {
  it("keeps the heuristic's route first unless the student is surer of another by the margin", () => {
    // softmax of [1, 0, 0, 1.3] ≈ TEXT 0.34, SQL 0.12, RETRIEVE 0.12, HYBRID 0.42: HYBRID leads TEXT by ≈ 0.11
    const scores = [1, 0, 0, 1.3];
    expect(deferToHeuristic(scores, "TEXT", new Set(), 0.05)[0]).toBe("HYBRID");
    expect(deferToHeuristic(scores, "TEXT", new Set(), 0.15)).toEqual(["TEXT", "HYBRID", "SQL", "RETRIEVE"]);
    // HYBRID failed: the student's best available route, TEXT, leads the heuristic's SQL by ≈ 0.2: the student's order stays
    expect(deferToHeuristic(scores, "SQL", new Set(["HYBRID"]), 0.15).slice(0, 2)).toEqual(["HYBRID", "TEXT"]);
    expect(deferToHeuristic(scores, "SQL", new Set(["HYBRID"]), 0.25)[0]).toBe("SQL");
  });

  it("refuses a margin outside 0..1, naming router.json and the field", () => {
    const good = JSON.parse(
      readFileSync(join(import.meta.dirname, "../../../training/models/routes-replay/router.json"), "utf8"),
    );
    expect(() => validateRouterConfig({ ...good, heuristic_margin: 2 }, "x/router.json")).toThrow(
      /x\/router\.json: field "heuristic_margin" must be a number in 0\.\.1/,
    );
  });
});

describe("the committed student on replay labels (training/models/routes-replay)", () => {
  const dir = join(import.meta.dirname, "../../../training/models/routes-replay");
  const col = (name: string, type: "text" | "integer") => ({
    name,
    physical: name.toLowerCase().replace(/\W+/g, "_"),
    rawPhysical: `${name.toLowerCase().replace(/\W+/g, "_")}__raw`,
    type,
    examples: [],
  });
  const table = (columns: TableSchema["columns"]): TableSchema => ({
    tableId: "t",
    physical: "t",
    file: "t.csv",
    rowCount: 12,
    columns,
  });
  const plan = (subQuery: string, extra: Partial<SubQueryPlan> = {}): SubQueryPlan => ({
    subQuery,
    expectedOperator: "lookup",
    requiredModalities: "text",
    needGlobalTableView: false,
    entityMentions: [],
    uncertainty: 0,
    ...extra,
  });
  const first = async (p: SubQueryPlan, schema: TableSchema) => {
    const router = await createLearnedRouter(dir);
    return (await router.rank({ plan: p, schema, history: [], failureScope: "question", reselectIndex: 0 }))[0];
  };
  const fleet = table([
    col("Vessel", "text"),
    col("Class", "text"),
    col("Registry ( flag )", "text"),
    col("Owner ( s )", "text"),
    col("Demise", "text"),
  ]);
  const league = table([
    col("Season", "integer"),
    col("Club", "text"),
    col("Points", "integer"),
    col("Goals", "integer"),
  ]);

  it("loads with its margin and routes differently from the heuristic where the replay labels say so", async () => {
    expect(readRouterConfig(dir).heuristic_margin).toBe(0.05);
    // a passage question that names its row by a description of a linked passage: RETRIEVE first, not TEXT
    const bridge = plan(
      "What is the registry of the vessel whose class was seen as fast and nimble and used both for trade and for war ? (columns: Vessel, Registry)",
    );
    expect(heuristicRoute(bridge, true, new Set())).toBe("TEXT");
    expect(await first(bridge, fleet)).toBe("RETRIEVE");
    // a superlative over a table: HYBRID (right as often as SQL on WTQ train, and accepted sooner), not SQL
    const top = plan("which club has the top amount of points? (columns: Club, Points)", {
      expectedOperator: "sort",
      requiredModalities: "table",
      needGlobalTableView: true,
    });
    expect(heuristicRoute(top, true, new Set())).toBe("SQL");
    expect(await first(top, league)).toBe("HYBRID");
  });

  it("keeps the heuristic's route where it is not surer by the margin", async () => {
    const sum = plan("what was the total count of goals in 1998? (columns: Season, Goals)", {
      expectedOperator: "aggregate",
      requiredModalities: "table",
      needGlobalTableView: true,
    });
    expect(heuristicRoute(sum, true, new Set())).toBe("SQL");
    expect(await first(sum, league)).toBe("SQL");
  });
});
