/**
 * Scores a results file against a gold question file: the benchmark's official metric, the paper's
 * metric set, and breakdowns (answer type/source, routes, attempts, escalations, cost, latency).
 *
 * Joining: predictions are matched to gold questions by `question_id` (question text when there is
 * none), as a multiset; a gold question without a prediction is scored as an empty answer (0), and
 * averages are always over every gold question. Predictions for questions not in the gold file are
 * counted and ignored. Records with an `error` are scored with their answer ("error": wrong).
 */
import { questionKey, type QuestionRecord } from "./dataset.js";
import { routeSummary, type RouteSummary } from "./route-summary.js";
import { scoreHybridqa } from "./scoring/hybridqa.js";
import { paperGoldText, scorePaper, type PaperScore } from "./scoring/paper-metrics.js";
import { scoreTatqa, tatPredictionFromText } from "./scoring/tatqa.js";
import { wtqCorrect } from "./scoring/wtq.js";
import { forEachConcurrently } from "./worker-pool.js";

export const BENCHES = ["wtq", "tatqa", "hybridqa"] as const;
export type Bench = (typeof BENCHES)[number];

/** One question's scores. */
export interface QuestionScore {
  key: string;
  question_id?: string;
  prediction: string;
  missing: boolean;
  error: boolean;
  /** The official metric(s): wtq → accuracy; tatqa → em, f1, scale; hybridqa → em, f1. */
  official: Record<string, number>;
  paper: PaperScore | undefined;
  /** 1/0 from the LLM judge, undefined when not judged or unparsable. */
  judge?: number;
  /** Why the judge call failed (the question is then not judged). */
  judgeError?: string;
  /** Answer type / source group(s) of the benchmark. */
  groups: Record<string, string>;
  route: RouteSummary;
  /** `atr_stats.answer_verified` of the record (undefined when it does not say). */
  verified?: boolean;
  /** The record's answer was picked by the oracle verifier (`atr run --oracle_verifier`, reads the gold). */
  oracle: boolean;
}

/** What a record's `atr_stats` says about verification and the oracle verifier. */
function verificationOf(pred: Record<string, unknown> | undefined): { verified?: boolean; oracle: boolean } {
  const stats = pred?.atr_stats;
  if (!stats || typeof stats !== "object") return { oracle: false };
  const s = stats as Record<string, unknown>;
  return {
    ...(typeof s.answer_verified === "boolean" ? { verified: s.answer_verified } : {}),
    oracle: s.oracle_verifier !== undefined,
  };
}

export interface Mean {
  n: number;
  mean: number;
}

export interface ScoreReport {
  bench: Bench;
  /** `oracle`: records answered through the oracle verifier (a diagnostic that read the gold). */
  counts: {
    gold: number;
    predicted: number;
    missing: number;
    errors: number;
    extraPredictions: number;
    oracle: number;
  };
  /** Official metric means over every gold question (percentages 0–100). */
  official: Record<string, number>;
  /** Paper metric means (0–100) over gold questions that have a non-empty gold string. */
  paper: {
    n: number;
    exact: number;
    normalizedEm: number;
    relaxed: number;
    tokenF1: number;
    llmJudge?: number;
    llmJudgeN?: number;
    llmJudgeErrors?: { count: number; first: string };
  };
  /** Official metric means per group value, e.g. { answer_type: { span: { n, em, f1 } } }. */
  breakdowns: Record<string, Record<string, Record<string, number>>>;
  cost: {
    llmCalls: Stats;
    tokens: Stats;
    latencyMs: Stats;
    attempts: Stats;
    escalations: Stats;
  };
  perQuestion: QuestionScore[];
}

export interface Stats {
  n: number;
  total: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentiles (p in 0–100) over the values present. */
export function stats(values: Array<number | undefined>): Stats {
  const v = values.filter((x): x is number => typeof x === "number" && Number.isFinite(x)).sort((a, b) => a - b);
  const pick = (p: number) =>
    v.length === 0 ? 0 : v[Math.min(v.length - 1, Math.max(0, Math.ceil((p / 100) * v.length) - 1))]!;
  const total = v.reduce((s, x) => s + x, 0);
  return {
    n: v.length,
    total,
    mean: v.length ? total / v.length : 0,
    p50: pick(50),
    p90: pick(90),
    p99: pick(99),
    max: v.length ? v[v.length - 1]! : 0,
  };
}

function answerText(record: Record<string, unknown> | undefined): string {
  const a = record?.agentic_tablerag_answer;
  return typeof a === "string" ? a : a === undefined || a === null ? "" : String(a);
}

function stringList(v: unknown): string[] {
  return Array.isArray(v)
    ? v.map((x) => String(x))
    : typeof v === "string"
      ? [v]
      : v === undefined || v === null
        ? []
        : [String(v)];
}

/** The official metric of one question. */
export function officialScore(
  bench: Bench,
  gold: QuestionRecord,
  prediction: Record<string, unknown> | undefined,
): Record<string, number> {
  const text = answerText(prediction);
  switch (bench) {
    case "wtq": {
      const list = prediction?.agentic_tablerag_answer_list;
      const pred = Array.isArray(list) ? list.map(String) : text;
      const canon = Array.isArray(gold.answer_canon) ? (gold.answer_canon as Array<string | null>) : null;
      return {
        accuracy: prediction && wtqCorrect({ answer: stringList(gold.answer), answer_canon: canon }, pred) ? 1 : 0,
      };
    }
    case "tatqa": {
      const explicitScale =
        typeof prediction?.agentic_tablerag_scale === "string"
          ? (prediction.agentic_tablerag_scale as string)
          : undefined;
      const pred = prediction ? tatPredictionFromText(text, explicitScale) : undefined;
      const s = scoreTatqa(
        {
          answer: stringList(gold.answer),
          answer_type: String(gold.answer_type ?? ""),
          scale: String(gold.scale ?? ""),
        },
        pred,
      );
      return { em: s.em, f1: s.f1, scale: s.scaleCorrect ? 1 : 0 };
    }
    case "hybridqa":
      return scoreHybridqa(stringList(gold.answer), prediction ? text : "");
  }
}

function groupsOf(bench: Bench, gold: QuestionRecord): Record<string, string> {
  const g = (v: unknown) => (v === undefined || v === null || v === "" ? "(none)" : String(v));
  switch (bench) {
    case "wtq":
      return {
        answer_type: g(gold.answer_canon_type),
        answer_count: stringList(gold.answer).length > 1 ? "multiple" : "single",
      };
    case "tatqa":
      return {
        answer_type: g(gold.answer_type),
        answer_from: g(gold.answer_from),
        "answer_type×answer_from": `${g(gold.answer_type)} × ${g(gold.answer_from)}`,
        scale: g(gold.scale),
      };
    case "hybridqa":
      return { answer_from: g(gold.answer_from) };
  }
}

/** Judges one (question, gold, prediction) → 1, 0, or undefined when the judge's reply is unusable. */
export type Judge = (question: string, gold: string, prediction: string) => Promise<number | undefined>;

export interface ScoreOptions {
  bench: Bench;
  gold: QuestionRecord[];
  predictions: Array<Record<string, unknown>>;
  judge?: Judge;
  /** Concurrent judge calls. Default 4. */
  judgeConcurrency?: number;
}

const pct = (x: number) => Math.round(x * 100 * 100) / 100;

export async function scoreResults(options: ScoreOptions): Promise<ScoreReport> {
  const { bench, gold, predictions } = options;
  const byKey = new Map<string, Array<Record<string, unknown>>>();
  for (const p of predictions) {
    const key = questionKey(p);
    byKey.set(key, [...(byKey.get(key) ?? []), p]);
  }
  const perQuestion: QuestionScore[] = gold.map((q) => {
    const key = questionKey(q);
    const pred = byKey.get(key)?.shift();
    const goldText = paperGoldText(q);
    const prediction = answerText(pred);
    return {
      key,
      ...(q.question_id !== undefined ? { question_id: String(q.question_id) } : {}),
      prediction,
      missing: pred === undefined,
      error: pred?.error !== undefined && pred?.error !== null,
      official: officialScore(bench, q, pred),
      paper: goldText === undefined ? undefined : scorePaper(goldText, prediction),
      groups: groupsOf(bench, q),
      route: routeSummary(pred ?? {}),
      ...verificationOf(pred),
    };
  });
  const extraPredictions = [...byKey.values()].reduce((s, l) => s + l.length, 0);

  if (options.judge) {
    const judge = options.judge;
    await forEachConcurrently(perQuestion, options.judgeConcurrency ?? 4, async (s, i) => {
      const goldText = paperGoldText(gold[i]!);
      if (goldText === undefined || s.missing) return;
      try {
        s.judge = await judge(String(gold[i]!.question), goldText, s.prediction);
      } catch (error) {
        s.judge = undefined;
        s.judgeError = error instanceof Error ? error.message : String(error);
      }
    });
  }

  const metricNames = Object.keys(perQuestion[0]?.official ?? {});
  const meanOf = (rows: QuestionScore[], name: string) =>
    rows.length ? rows.reduce((s, r) => s + (r.official[name] ?? 0), 0) / rows.length : 0;
  const official: Record<string, number> = {};
  for (const name of metricNames) official[name] = pct(meanOf(perQuestion, name));

  // Official breakdowns by group, and by route / attempts.
  const breakdowns: ScoreReport["breakdowns"] = {};
  const addBreakdown = (dimension: string, valueOf: (s: QuestionScore) => string) => {
    const groups = new Map<string, QuestionScore[]>();
    for (const s of perQuestion) {
      const v = valueOf(s);
      groups.set(v, [...(groups.get(v) ?? []), s]);
    }
    const table: Record<string, Record<string, number>> = {};
    for (const [value, rows] of [...groups.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      table[value] = { n: rows.length };
      for (const name of metricNames) table[value]![name] = pct(meanOf(rows, name));
      const withPaper = rows.filter((r) => r.paper);
      if (withPaper.length)
        table[value]!.token_f1 = pct(withPaper.reduce((s, r) => s + r.paper!.tokenF1, 0) / withPaper.length);
    }
    breakdowns[dimension] = table;
  };
  for (const dim of Object.keys(perQuestion[0]?.groups ?? {})) addBreakdown(dim, (s) => s.groups[dim]!);
  addBreakdown("first_requested_route", (s) => (s.missing ? "(missing)" : s.route.firstRequested));
  addBreakdown("first_effective_route", (s) => (s.missing ? "(missing)" : s.route.firstEffective));
  addBreakdown("final_route", (s) => (s.missing ? "(missing)" : s.route.final));
  addBreakdown("attempts", (s) =>
    s.route.attempts === undefined ? "unknown" : String(s.route.attempts).padStart(2, " "),
  );
  addBreakdown("escalations", (s) =>
    s.route.escalations === undefined ? "unknown" : String(s.route.escalations).padStart(2, " "),
  );
  addBreakdown("outcome", (s) =>
    s.missing
      ? "missing"
      : s.error
        ? "error"
        : /^\s*not found\s*$/i.test(s.prediction)
          ? "not found"
          : s.verified === true
            ? "answered, verified"
            : s.verified === false
              ? "answered, unverified"
              : "answered",
  );

  const withPaper = perQuestion.filter((s) => s.paper);
  const avg = (f: (p: PaperScore) => number) =>
    withPaper.length ? pct(withPaper.reduce((s, r) => s + f(r.paper!), 0) / withPaper.length) : 0;
  const judged = perQuestion.filter((s) => s.judge !== undefined);
  const paper: ScoreReport["paper"] = {
    n: withPaper.length,
    exact: avg((p) => p.exact),
    normalizedEm: avg((p) => p.normalizedEm),
    relaxed: avg((p) => p.relaxed),
    tokenF1: avg((p) => p.tokenF1),
  };
  if (options.judge) {
    paper.llmJudge = judged.length ? pct(judged.reduce((s, r) => s + r.judge!, 0) / judged.length) : 0;
    paper.llmJudgeN = judged.length;
    const failed = perQuestion.filter((s) => s.judgeError !== undefined);
    if (failed.length) paper.llmJudgeErrors = { count: failed.length, first: failed[0]!.judgeError!.slice(0, 300) };
  }

  const present = perQuestion.filter((s) => !s.missing);
  return {
    bench,
    counts: {
      gold: gold.length,
      predicted: present.length,
      missing: perQuestion.length - present.length,
      errors: perQuestion.filter((s) => s.error).length,
      extraPredictions,
      oracle: perQuestion.filter((s) => s.oracle).length,
    },
    official,
    paper,
    breakdowns,
    cost: {
      llmCalls: stats(present.map((s) => s.route.llmCalls)),
      tokens: stats(present.map((s) => s.route.tokens)),
      latencyMs: stats(present.map((s) => s.route.latencyMs)),
      attempts: stats(present.map((s) => s.route.attempts)),
      escalations: stats(present.map((s) => s.route.escalations)),
    },
    perQuestion,
  };
}
