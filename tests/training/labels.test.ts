/** Router labels: from_inference keeps accepted decisions only; distill asks the §5.2 teacher under simulated failures. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { teacherRoute } from "../../nodes/offline/choose-route.js";
import {
  distillLabels,
  explorationLabels,
  labelsFromInference,
  labelText,
  LabelFileError,
  oracleLabels,
  readJsonl,
} from "../../training/labels.js";
import { SCHEMA, failedAt } from "./tiny-labels.js";

const decision = (over: Record<string, unknown>) => ({
  sub_query: "Who manages Dunmere FC?",
  expected_operator: "lookup",
  required_modalities: "table",
  entity_mentions: ["Dunmere FC"],
  need_global_table_view: false,
  uncertainty: 0.2,
  schema: SCHEMA,
  has_schema: true,
  history_H: [],
  attempt: 1,
  ...over,
});

const run = [
  {
    question_id: "a",
    question: "Who manages Dunmere FC?",
    table_id: "clubs",
    atr_trace: {
      verifier_decisions: [
        decision({
          route: "HYBRID",
          effective_route: "HYBRID",
          requested_route: "HYBRID",
          accepted: false,
          verdict: 0,
        }),
        decision({
          route: "RETRIEVE",
          effective_route: "RETRIEVE",
          requested_route: "RETRIEVE",
          accepted: true,
          verdict: 1,
          attempt: 2,
          history_H: [failedAt("Who manages Dunmere FC?", "HYBRID")],
        }),
      ],
    },
  },
  {
    question_id: "b",
    question: "Nothing accepted",
    atr_trace: { verifier_decisions: [decision({ route: "SQL", effective_route: "SQL", accepted: false })] },
  },
  { question_id: "c", question: "No trace" },
];

const root = mkdtempSync(join(tmpdir(), "atr-labels-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("labels", () => {
  it("from_inference: one label per accepted decision, with its metadata, schema and H", () => {
    const labels = labelsFromInference(run);
    expect(labels).toHaveLength(1);
    expect(labels[0]).toMatchObject({
      question_id: "a",
      table_id: "clubs",
      route: "RETRIEVE",
      uncertainty: 0.2,
      has_schema: true,
      label_source: "verified_inference",
    });
    expect(labels[0]!.history_H.map((h) => h.effectiveRoute)).toEqual(["HYBRID"]);
    const text = labelText(labels[0]!, 2);
    expect(text).toContain("[FAILED] Who manages Dunmere FC? => HYBRID:0.0");
    expect(text).toContain("[SCHEMA_DETAIL] table=clubs; columns=Club:text examples=Dunmere FC");
  });

  it("from_inference with an answer check drops accepted decisions whose answer is wrong", () => {
    const [rejected, accepted] = run[0]!.atr_trace!.verifier_decisions as Array<Record<string, unknown>>;
    const withAnswer = (produced: string) => [
      {
        ...run[0]!,
        answer: ["Oskar Lind"],
        atr_trace: { verifier_decisions: [rejected!, { ...accepted!, produced_answer: produced }] },
      },
    ];
    const isCorrect = (record: Record<string, unknown>, answer: string) => (record.answer as string[]).includes(answer);
    expect(labelsFromInference(withAnswer("Tomas Reyes"), isCorrect)).toEqual([]);
    expect(labelsFromInference(withAnswer("Oskar Lind"), isCorrect).map((l) => l.route)).toEqual(["RETRIEVE"]);
  });

  it("distill: the teacher re-routes the first sub-query after each simulated failure, never repeating a route", () => {
    const labels = distillLabels(run, teacherRoute);
    const a = labels.filter((l) => l.question_id === "a");
    // lookup with entities → RETRIEVE, then SQL (schema), then TEXT, then the fallback HYBRID
    expect(a.map((l) => l.route)).toEqual(["RETRIEVE", "SQL", "TEXT", "HYBRID"]);
    expect(a.map((l) => l.history_H.length)).toEqual([0, 1, 2, 3]);
    expect(a[3]!.history_H.map((h) => [h.effectiveRoute, h.step])).toEqual([
      ["RETRIEVE", 1],
      ["SQL", 2],
      ["TEXT", 3],
    ]);
    expect(a.every((l) => l.schema?.columns.length === 2 && l.label_source === "teacher_distill")).toBe(true);
    expect(labels.filter((l) => l.question_id === "c")).toEqual([]);
    expect(distillLabels(run, teacherRoute, 2).filter((l) => l.question_id === "a")).toHaveLength(2);
  });

  it("oracle: the cheapest route whose final answer is right labels the first sub-query; unanswered questions are skipped", () => {
    const rec = (id: string, route: string, answer: string) => ({
      question_id: id,
      question: id,
      answer: ["Oskar Lind"],
      agentic_tablerag_answer: answer,
      atr_trace: {
        verifier_decisions: [
          decision({ route, effective_route: route, accepted: true, history_H: [failedAt("x", "TEXT")] }),
        ],
      },
    });
    const runs = new Map([
      ["TEXT", [rec("a", "TEXT", "Tomas Reyes"), rec("b", "TEXT", "no")]],
      ["SQL", [rec("a", "SQL", "Oskar Lind"), rec("b", "SQL", "no")]],
      ["HYBRID", [rec("a", "HYBRID", "Oskar Lind"), rec("b", "HYBRID", "no")]],
    ] as const);
    const isCorrect = (record: Record<string, unknown>, answer: string) => (record.answer as string[]).includes(answer);
    const labels = oracleLabels(new Map([...runs].map(([k, v]) => [k, [...v]])), isCorrect);
    expect(labels.map((l) => [l.question_id, l.route, l.history_H.length, l.label_source, l.routes_right])).toEqual([
      ["a", "SQL", 0, "execution_oracle", ["SQL", "HYBRID"]],
    ]);
  });

  it("exploration: the cheapest route right on the first sub-query of one run that tried every route; later sub-queries and unanswered questions are ignored", () => {
    const d = (sub: string, route: string, attempt: number, answer: string) =>
      decision({ sub_query: sub, route, effective_route: route, attempt, accepted: false, produced_answer: answer });
    const records = [
      {
        question_id: "a",
        question: "a",
        answer: ["Oskar Lind"],
        answer_from: "passage",
        atr_trace: {
          verifier_decisions: [
            d("who manages Dunmere FC?", "SQL", 1, "Tomas Reyes"),
            d("who manages Dunmere FC?", "RETRIEVE", 2, "Oskar Lind"),
            d("who manages Dunmere FC?", "HYBRID", 3, "Oskar Lind"),
            d("who manages Dunmere FC?", "TEXT", 4, "Dunmere"),
            d("the manager's name?", "TEXT", 1, "Oskar Lind"), // a later sub-query: not the first one's route
          ],
        },
      },
      {
        question_id: "b",
        question: "b",
        answer: ["x"],
        atr_trace: { verifier_decisions: [d("q", "TEXT", 1, "y"), d("q", "SQL", 2, "z")] },
      },
    ];
    const isCorrect = (record: Record<string, unknown>, answer: string) => (record.answer as string[]).includes(answer);
    const labels = explorationLabels(records, isCorrect);
    expect(
      labels.map((l) => [l.question_id, l.route, l.routes_right, l.history_H.length, l.answer_from, l.sub_query]),
    ).toEqual([["a", "RETRIEVE", ["RETRIEVE", "HYBRID"], 0, "passage", "who manages Dunmere FC?"]]);
  });

  it("a broken labels line is an error naming the file and line", () => {
    const file = join(root, "bad.jsonl");
    writeFileSync(file, '{"a":1}\n{"cut');
    expect(() => readJsonl(file)).toThrow(LabelFileError);
    expect(() => readJsonl(file)).toThrow(/bad\.jsonl:2/);
  });
});
