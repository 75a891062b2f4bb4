/**
 * The router student end to end: tiny labels → train (deterministic) → ONNX export → load through
 * nodes/routers/learned.ts → the router ranks unseen sub-queries as trained; the grouped split and
 * the masked agreement.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createLearnedRouter } from "../../nodes/routers/learned.js";
import { DEFAULT_FEATURE_SETTINGS, featurise, routerTokens } from "../../nodes/routers/hashed-features.js";
import { LABELS, rankScores } from "../../nodes/routers/router-config.js";
import { writeRouterModel } from "../../training/export-model.js";
import { evaluateRouter } from "../../training/evaluate.js";
import { labelPlan, labelSummary, labelText } from "../../training/labels.js";
import type { Route } from "../../nodes/types.js";
import { groupKey, groupedSplit, trainStudent } from "../../training/student.js";
import { failedAt, label, tinyLabels } from "./tiny-labels.js";

const root = mkdtempSync(join(tmpdir(), "atr-student-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const features = { ...DEFAULT_FEATURE_SETTINGS, dimension: 1024 };

describe("featurisation", () => {
  it("tags tokens by segment, so [OP] count is not the query word 'count'", () => {
    const l = label("SQL", "count the clubs", {
      expected_operator: "count",
      history_H: [failedAt("count the clubs", "HYBRID")],
    });
    const tokens = routerTokens(labelText(l, 2));
    expect(tokens).toContain("q:count");
    expect(tokens).toContain("OP=count");
    expect(tokens).toContain("F:HYBRID");
    expect(tokens).toContain("coltype:integer");
    const x = featurise(labelText(l, 2), features);
    expect(x).toHaveLength(1024);
    expect(Math.hypot(...x)).toBeCloseTo(1, 5);
  });
});

describe("student", () => {
  it("trains deterministically, exports ONNX, and the learned router ranks unseen sub-queries as trained", async () => {
    const labels = tinyLabels();
    const a = trainStudent(labels, { features, validationShare: 0, epochs: 40 });
    const b = trainStudent(labels, { features, validationShare: 0, epochs: 40 });
    expect(Buffer.from(a.model.weights.buffer).equals(Buffer.from(b.model.weights.buffer))).toBe(true);
    expect(a.stats.trainAgreement).toBe(1);
    expect(a.stats.classWeights).toEqual({ TEXT: 1, SQL: 1, RETRIEVE: 1, HYBRID: 1 });

    const dir = join(root, "tiny");
    writeRouterModel(dir, a.model, features, 2, a.stats as unknown as Record<string, unknown>);
    expect(statSync(join(dir, "model.onnx")).size).toBeLessThan(20_000);
    const config = JSON.parse(readFileSync(join(dir, "router.json"), "utf8"));
    expect(config.id2label).toEqual({ 0: "TEXT", 1: "SQL", 2: "RETRIEVE", 3: "HYBRID" });

    const router = await createLearnedRouter(dir);
    const ask = async (l: ReturnType<typeof label>) =>
      (
        await router.rank({
          plan: labelPlan(l),
          schema: l.schema,
          history: l.history_H,
          failureScope: "question",
          reselectIndex: 0,
        })
      )[0];
    expect(
      await ask(
        label("SQL", "How many referees were founded before 1950?", {
          expected_operator: "count",
          required_modalities: "table",
        }),
      ),
    ).toBe("SQL");
    expect(
      await ask(
        label("RETRIEVE", "Who manages Kelso Town?", { entity_mentions: ["Kelso Town"], required_modalities: "table" }),
      ),
    ).toBe("RETRIEVE");
    expect(
      await ask(
        label("TEXT", "Why did Kelso Town change its crest in the history article?", {
          required_modalities: "text",
          schema: null,
          has_schema: false,
        }),
      ),
    ).toBe("TEXT");
    expect(
      await ask(
        label("HYBRID", "What is the total attendance of Kelso Town home games?", {
          expected_operator: "aggregate",
          entity_mentions: ["Kelso Town"],
        }),
      ),
    ).toBe("HYBRID");

    // ONNX scores equal the in-process model's scores (same featurisation on both sides).
    const probe = labels[1]!;
    const x = featurise(labelText(probe, 2), features);
    const local = [0, 1, 2, 3].map(
      (c) => a.model.bias[c]! + x.reduce((s, v, i) => s + v * a.model.weights[c * 1024 + i]!, 0),
    );
    expect(
      await router.rank({
        plan: labelPlan(probe),
        schema: probe.schema,
        history: [],
        failureScope: "question",
        reselectIndex: 0,
      }),
    ).toEqual(rankScores(local));
  });

  it("splits by question (no leakage) and weights classes max_count / count", () => {
    const labels = tinyLabels().flatMap((l) => [l, { ...l, history_H: [failedAt(l.sub_query, "TEXT")] }]);
    const { train, validation } = groupedSplit(labels, 0.25, 42);
    expect(validation.length).toBeGreaterThan(0);
    const valQ = new Set(validation.map(groupKey));
    expect(train.some((l) => valQ.has(groupKey(l)))).toBe(false);
    expect(train.length + validation.length).toBe(labels.length);
    const skewed = [...tinyLabels(), ...tinyLabels().filter((l) => l.route === "SQL")];
    const { stats } = trainStudent(skewed, { features, validationShare: 0, epochs: 2 });
    expect(stats.classWeights).toEqual({ TEXT: 2, SQL: 1, RETRIEVE: 2, HYBRID: 2 });
  });

  it("eval: masked agreement follows the online rule, unmasked is plain argmax", async () => {
    const labels = tinyLabels();
    const { model, stats } = trainStudent(labels, { features, validationShare: 0, epochs: 40 });
    const dir = join(root, "eval");
    writeRouterModel(dir, model, features, 2, stats as unknown as Record<string, unknown>);
    const router = await createLearnedRouter(dir);
    // A SQL-looking sub-query whose label is RETRIEVE because SQL already failed: only masking gets it.
    const q = "How many clubs were founded before 1900?";
    const masked = label("RETRIEVE", q, {
      expected_operator: "count",
      required_modalities: "table",
      history_H: [failedAt(q, "SQL")],
    });
    const ranked = await router.rank({
      plan: labelPlan(masked),
      schema: masked.schema,
      history: masked.history_H,
      failureScope: "question",
      reselectIndex: 1,
    });
    expect(ranked[0]).toBe("SQL");
    const report = await evaluateRouter(router, [masked]);
    expect(report.unmasked.agreement).toBe(0);
    expect(report.unmasked.confusion[2]![1]).toBe(1);
    // masked: SQL (failed) is skipped, the prediction is the runner-up
    expect(report.masked.confusion[2]![LABELS.indexOf(ranked[1]!)]).toBe(1);
    expect(report.masked.agreement).toBe(ranked[1] === "RETRIEVE" ? 1 : 0);
  });
});

describe("execution-oracle labels (routes_right)", () => {
  // Text-modality questions of one shape: TEXT is right on 3 of 4, SQL on 1 of 4 (always together
  // with TEXT or alone). The cheapest-right label is TEXT for 3 of 4; right_routes targets rank TEXT
  // first as well, because it is right most often. Table counts: SQL right, TEXT never.
  const oracle = (route: Route, right: Route[], subQuery: string, fields: Parameters<typeof label>[2] = {}) => ({
    ...label(route, subQuery, { label_source: "execution_oracle", ...fields }),
    routes_right: right,
  });
  const make = () => [
    ...[0, 1, 2].map((i) =>
      oracle("TEXT", ["TEXT"], `what does the report say about item ${i}?`, {
        required_modalities: "text",
        answer_from: "text",
      }),
    ),
    oracle("SQL", ["SQL", "HYBRID"], "what does the report say about item 9?", {
      required_modalities: "text",
      answer_from: "text",
    }),
    ...[0, 1, 2, 3].map((i) =>
      oracle("SQL", ["SQL"], `how many clubs had more than ${i} wins?`, {
        expected_operator: "count",
        required_modalities: "table",
        answer_from: "table",
      }),
    ),
  ];

  it("right_routes targets rank the route that is right most often; eval compares first routes with the heuristic", async () => {
    const labels = make();
    const { model, stats } = trainStudent(labels, {
      features,
      validationShare: 0,
      epochs: 40,
      targets: "right_routes",
      classWeighting: "none",
    });
    expect(stats.targets).toBe("right_routes");
    expect(stats.classWeights).toEqual({ TEXT: 1, SQL: 1, RETRIEVE: 1, HYBRID: 1 });
    const dir = join(root, "oracle");
    writeRouterModel(dir, model, features, 2, stats as unknown as Record<string, unknown>);
    const report = await evaluateRouter(await createLearnedRouter(dir), labels);
    // The heuristic sends the text-modality questions to TEXT too (rule 1) — and the table counts to SQL.
    expect(report.routes!.studentRoutes).toEqual({ TEXT: 4, SQL: 4 });
    expect(report.routes!.student).toBeCloseTo(7 / 8);
    expect(report.routes!.byType.text).toMatchObject({ labels: 4, student: 0.75, studentOnly: 0, heuristicOnly: 0 });
    expect(report.routes!.byType.table).toMatchObject({ labels: 4, student: 1, heuristic: 1 });
    expect(labelSummary(labels)).toMatchObject({
      labels: 8,
      label_counts: { TEXT: 3, SQL: 5 },
      routes_right_counts: { TEXT: 3, SQL: 5, HYBRID: 1 },
      by_answer_from: { text: { labels: 4 } },
    });
  });

  it("a heuristic that picks a wrong route counts against it: only-student-right questions are counted", async () => {
    // With entities and a schema the heuristic picks HYBRID (rule 3); here only TEXT answers them.
    const labels = [0, 1, 2, 3, 4, 5].map((i) =>
      oracle("TEXT", ["TEXT"], `which passage tells where player ${i} was born?`, {
        entity_mentions: [`Player ${i}`],
        answer_from: "passage",
      }),
    );
    const { model, stats } = trainStudent(labels, { features, validationShare: 0, epochs: 20 });
    const dir = join(root, "oracle-passage");
    writeRouterModel(dir, model, features, 2, stats as unknown as Record<string, unknown>);
    const r = (await evaluateRouter(await createLearnedRouter(dir), labels)).routes!;
    expect(r.heuristicRoutes).toEqual({ HYBRID: 6 });
    expect(r).toMatchObject({ labels: 6, student: 1, heuristic: 0, studentOnly: 6, heuristicOnly: 0, differ: 6 });
  });
});
