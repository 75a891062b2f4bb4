/** `atr train-router compare`: official metric, attempts, latency, first routes, paired flips per question type. */
import { describe, expect, it } from "vitest";
import type { Route } from "../../nodes/types.js";
import { compareRouterRuns, renderComparison } from "../../training/compare-routers.js";

const gold = [
  { question_id: "a", question: "Which river crosses the city?", answer: ["Vell"], answer_from: "passage" },
  { question_id: "b", question: "How many clubs are there?", answer: ["3"], answer_from: "table" },
  { question_id: "c", question: "Who founded the club?", answer: ["Ada Moss"], answer_from: "passage" },
];
const rec = (id: string, answer: string, first: Route, attempts: number, latency: number) => ({
  question_id: id,
  agentic_tablerag_answer: answer,
  atr_stats: { first_requested_route: first, attempts, latency_ms: latency },
});

describe("compareRouterRuns", () => {
  it("scores each run with the official metric and counts paired flips against the first", () => {
    const heuristic = [
      rec("a", "Vell", "TEXT", 1, 100),
      rec("b", "2", "SQL", 4, 300),
      rec("c", "not found", "HYBRID", 4, 500),
    ];
    const learned = [rec("a", "Vell", "TEXT", 1, 100), rec("b", "3", "SQL", 2, 200)]; // c missing: scores 0
    const [h, l] = compareRouterRuns("hybridqa", gold, [
      { label: "heuristic", records: heuristic },
      { label: "learned", records: learned },
    ]);
    expect(h!.score).toBeCloseTo(100 / 3);
    expect(l!.score).toBeCloseTo(200 / 3);
    expect(h).toMatchObject({
      attempts: 3,
      latencyMeanMs: 300,
      firstRoutes: { TEXT: 1, SQL: 1, HYBRID: 1 },
      better: 0,
      worse: 0,
    });
    expect(l).toMatchObject({ attempts: 1.5, better: 1, worse: 0, firstRoutes: { TEXT: 1, SQL: 1 } });
    expect(l!.byType.table).toMatchObject({ questions: 1, score: 100, better: 1, worse: 0 });
    expect(l!.byType.passage).toMatchObject({ questions: 2, score: 50, better: 0, worse: 0 });
    expect(renderComparison([h!, l!])).toContain("| learned | 66.67 | 1.50 | 150 / 200 | 1 / 0 | TEXT 1, SQL 1 |");
  });
});
