import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadQuestions } from "../../evals/dataset.js";
import { readResults } from "../../evals/results-file.js";
import { scoreResults, stats } from "../../evals/score.js";
import { renderMarkdown, renderSummary } from "../../evals/report.js";
import { wtqCorrect } from "../../evals/scoring/wtq.js";

const FIXTURE = join(import.meta.dirname, "..", "fixtures", "evals", "wtq-dev-offline");

describe("atr score on a fixed prediction file", () => {
  it("reproduces the WTQ dev offline figure: denotation accuracy 35.00 over 400 questions", async () => {
    const gold = loadQuestions(join(FIXTURE, "gold.jsonl"));
    const predictions = readResults(join(FIXTURE, "predictions.jsonl")).records;
    const report = await scoreResults({ bench: "wtq", gold, predictions });
    expect(report.counts).toEqual({ gold: 400, predicted: 400, missing: 0, errors: 0, extraPredictions: 0, oracle: 0 });
    expect(report.official.accuracy).toBe(35);
    expect(report.paper).toMatchObject({ n: 400, normalizedEm: 34.75, relaxed: 37.5, tokenF1: 36.9 });
    // Breakdown rows add up to the whole.
    const byType = report.breakdowns.answer_type!;
    expect(Object.values(byType).reduce((s, r) => s + r.n!, 0)).toBe(400);
    const correct = Object.values(byType).reduce((s, r) => s + (r.n! * r.accuracy!) / 100, 0);
    expect(Math.round(correct)).toBe(140);
    expect(report.breakdowns.final_route!["none accepted"]).toMatchObject({ accuracy: 0 });
    expect(renderMarkdown(report)).toContain("| 35 |");
  });

  it("scores a missing prediction as 0, averages over every gold question, ignores extra predictions", async () => {
    const gold = [
      { question_id: "a", question: "q1", answer: ["5"], answer_canon: ["5.0"] },
      { question_id: "b", question: "q2", answer: ["Paris"], answer_canon: ["Paris"] },
    ];
    const predictions = [
      { question_id: "a", agentic_tablerag_answer: "5.0", atr_stats: { latency_ms: 10, llm_calls: 2, tokens: 100 } },
      { question_id: "zzz", agentic_tablerag_answer: "x" },
    ];
    const report = await scoreResults({ bench: "wtq", gold, predictions });
    expect(report.official.accuracy).toBe(50);
    expect(report.counts).toMatchObject({ missing: 1, extraPredictions: 1 });
    expect(report.breakdowns.outcome).toMatchObject({
      answered: { n: 1, accuracy: 100 },
      missing: { n: 1, accuracy: 0 },
    });
    expect(report.cost.llmCalls).toMatchObject({ n: 1, total: 2 });
  });

  it("splits answered questions into verified and unverified, and flags answers picked by the oracle verifier", async () => {
    const gold = ["a", "b", "c", "d"].map((id) => ({
      question_id: id,
      question: id,
      answer: ["5"],
      answer_canon: ["5.0"],
    }));
    const predictions = [
      { question_id: "a", agentic_tablerag_answer: "5", atr_stats: { answer_verified: true } },
      { question_id: "b", agentic_tablerag_answer: "5", atr_stats: { answer_verified: false } },
      { question_id: "c", agentic_tablerag_answer: "6", atr_stats: { answer_verified: false } },
      {
        question_id: "d",
        agentic_tablerag_answer: "5",
        atr_stats: { answer_verified: false, oracle_verifier: { system_answer: "7", matched: true } },
      },
    ];
    const report = await scoreResults({ bench: "wtq", gold, predictions });
    expect(report.breakdowns.outcome).toEqual({
      "answered, unverified": { n: 3, accuracy: 66.67, token_f1: 66.67 },
      "answered, verified": { n: 1, accuracy: 100, token_f1: 100 },
    });
    expect(report.counts.oracle).toBe(1);
    expect(renderSummary(report)).toContain("ORACLE VERIFIER: 1 records were answered with the gold in hand");
    expect(renderMarkdown(report)).toContain("**oracle verifier**: 1 records were answered with the gold in hand");
    const clean = await scoreResults({ bench: "wtq", gold, predictions: predictions.slice(0, 3) });
    expect(renderSummary(clean)).not.toContain("ORACLE");
  });

  it("TAT-QA reads the scale from the answer text, never from the gold `scale` copied into the record", async () => {
    const gold = [
      {
        question_id: "t",
        question: "q",
        answer: ["-19.91"],
        answer_type: "arithmetic",
        answer_from: "table",
        scale: "percent",
      },
    ];
    const withPercent = await scoreResults({
      bench: "tatqa",
      gold,
      predictions: [{ ...gold[0], agentic_tablerag_answer: "-19.91%" }],
    });
    expect(withPercent.official).toMatchObject({ em: 100, f1: 100, scale: 100 });
    const bare = await scoreResults({
      bench: "tatqa",
      gold,
      predictions: [{ ...gold[0], agentic_tablerag_answer: "-19.91" }],
    });
    expect(bare.official).toMatchObject({ em: 0, scale: 0 });
  });

  const hybridGold = () => [
    { question_id: "1", question: "q", answer: ["April"], answer_from: "passage" },
    { question_id: "2", question: "q", answer: ["Judo"], answer_from: "table" },
  ];

  it("HybridQA breaks EM/F1 down by table/passage; the LLM judge's mean is over parsable replies", async () => {
    const gold = hybridGold();
    const predictions = [
      { question_id: "1", agentic_tablerag_answer: "april" },
      { question_id: "2", agentic_tablerag_answer: "Wrestling" },
    ];
    const replies = [1, undefined];
    const report = await scoreResults({
      bench: "hybridqa",
      gold,
      predictions,
      judge: async () => replies.shift(),
      judgeConcurrency: 1,
    });
    expect(report.breakdowns.answer_from).toMatchObject({ passage: { em: 100 }, table: { em: 0 } });
    expect(report.paper).toMatchObject({ llmJudge: 100, llmJudgeN: 1 });
    expect(report.paper.llmJudgeErrors).toBeUndefined();
  });

  it("a failing judge call leaves the question unjudged and is counted with its message in the summary", async () => {
    const gold = hybridGold();
    const predictions = [
      { question_id: "1", agentic_tablerag_answer: "april" },
      { question_id: "2", agentic_tablerag_answer: "Judo" },
    ];
    const judge = async (_q: string, goldText: string) => {
      if (goldText === "Judo") throw new Error("HTTP 401 from the judge model");
      return 1;
    };
    const report = await scoreResults({ bench: "hybridqa", gold, predictions, judge, judgeConcurrency: 1 });
    expect(report.paper).toMatchObject({
      llmJudge: 100,
      llmJudgeN: 1,
      llmJudgeErrors: { count: 1, first: "HTTP 401 from the judge model" },
    });
    expect(report.perQuestion[1]!.judgeError).toBe("HTTP 401 from the judge model");
    expect(renderSummary(report)).toContain("LLM judge failed on 1 question(s), first: HTTP 401 from the judge model");
  });

  it("percentiles are nearest-rank over present values", () => {
    expect(stats([5, 1, undefined, 3, 2, 4])).toMatchObject({ n: 5, total: 15, p50: 3, p90: 5, max: 5 });
  });

  it("the fixture's predictions agree item by item with the evaluator port", () => {
    const gold = readFileSync(join(FIXTURE, "gold.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const pred = readFileSync(join(FIXTURE, "predictions.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(gold.filter((g, i) => wtqCorrect(g, pred[i].agentic_tablerag_answer)).length).toBe(140);
  });
});

describe("LLM judge", () => {
  it("parses [[1]], rating: 0 and a bare digit; anything else is unparsable", async () => {
    const { parseJudgeScore, createJudge } = await import("../../evals/judge.js");
    expect(parseJudgeScore("Same entity. [[1]]")).toBe(1);
    expect(parseJudgeScore("Rating: 0")).toBe(0);
    expect(parseJudgeScore(" 1 ")).toBe(1);
    expect(parseJudgeScore("I think it is right")).toBeUndefined();
    const { TextChatModel } = await import("./helpers/text-chat-model.js");
    const model = new TextChatModel(["The answer names the gold city. [[1]]"]);
    expect(await createJudge(model)("Where?", "Paris", "Paris, France")).toBe(1);
    expect(model.prompts[0]).toContain("<gold_answer>Paris</gold_answer>");
  });
});

describe("comparing runs", () => {
  it("pairs questions against the first run: better / worse counts on the official metric", async () => {
    const { pairedFlips, renderComparison } = await import("../../evals/compare.js");
    const gold = ["1", "2", "3"].map((id) => ({
      question_id: id,
      question: `q${id}`,
      answer: [id],
      answer_canon: [`${id}.0`],
    }));
    const base = await scoreResults({
      bench: "wtq",
      gold,
      predictions: [
        { question_id: "1", agentic_tablerag_answer: "1" },
        { question_id: "2", agentic_tablerag_answer: "x" },
        { question_id: "3", agentic_tablerag_answer: "3" },
      ],
    });
    const other = await scoreResults({
      bench: "wtq",
      gold,
      predictions: [
        { question_id: "1", agentic_tablerag_answer: "x" },
        { question_id: "2", agentic_tablerag_answer: "2" },
        { question_id: "3", agentic_tablerag_answer: "3.0" },
      ],
    });
    expect(pairedFlips(base, other)).toEqual({ better: 1, worse: 1 });
    const table = renderComparison([
      { label: "full", report: base },
      { label: "no-linker", report: other },
    ]);
    expect(table).toContain("| no-linker | 66.67 |");
    expect(table).toContain("| 1 / 1 |");
  });
});
