/**
 * The learned stop policy (`stopPolicy: "learned"`, docs/ROUTER.md "Stop re-routing"): after an
 * attempt the verifier did not accept, should the loop try the next route, or stop and answer now?
 *
 * When no attempt is accepted the final answer is the ranker's choice over every attempt of the
 * question (nodes/synthesize.ts bestScoredCandidate), so a later route only matters when it would
 * change that choice. The policy estimates P(the ranker's choice after every route equals its choice
 * over the attempts so far) from what the graph knows after the attempt — the attempts' routes,
 * P(correct) and features, the ranker's current choice and margin, the question-level acceptor's
 * view of it, the question's kind of evidence and plan — and stops at P ≥ its threshold, chosen on
 * the training splits so that stopping loses at most 0.2 points on each (training/stop-policy.ts,
 * `atr train-router stop`). It only applies where the ranker gives the final answer: every attempt
 * scored by the offline verifier, every sub-query asking the question itself.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Configuration } from "../../graph/configuration.js";
import type { TraceDecision } from "../../graph/state.js";
import type { Features } from "../offline/answer-features.js";
import {
  acceptorJudgement,
  answerGroups,
  rankRaw,
  type AnswerGroup,
  type RankedAttempt,
  type Ranker,
} from "../offline/answer-ranker.js";
import {
  answerModel,
  calibrated,
  checkAnswerModel,
  rawScore,
  type AnswerModel,
  type Calibration,
  type Scorer,
} from "../offline/answer-model.js";
import { ModelFile, ModelFileError } from "../offline/model-file.js";
import { ROUTES } from "../types.js";

/** The committed model file (training/stop-policy.ts writes it). */
export const STOP_MODEL_PATH = join(dirname(fileURLToPath(import.meta.url)), "models", "stop-policy.json");

export interface StopModel {
  format: "atr-stop-policy-v1";
  scorer: Scorer;
  calibration?: Calibration;
  /** Stop at P(final answer already found) ≥ this (questions of no kind in `thresholdBy`). */
  threshold: number;
  /**
   * Questions whose stop features carry `feature` (their first attempt's kind of evidence, e.g.
   * "q:tables-only": an index without passages; "q:period-table": a report table) stop at this
   * threshold instead — the first that applies; each chosen on the training splits (1 = never).
   */
  thresholdBy?: Array<{ feature: string; threshold: number }>;
  /** Stop only where the question-level acceptor cannot accept, or accepts the answer kept (`atr train-router stop --acceptance_safe`). */
  acceptanceSafe?: boolean;
  /** What it was trained on and how it did there. */
  trainedOn: Record<string, unknown>;
}

/** What the policy decided after an attempt, as the trace records it. */
export interface StopDecision {
  stop: boolean;
  /** P(the final answer is already the ranker's choice). */
  p: number;
  threshold: number;
  /** Attempts of the question so far (route attempts, not their candidates). */
  attempts: number;
  /** The answer the ranker gives now ("" when none). */
  answer: string;
  reason: string;
}

/** The model file's content, checked (a ModelFileError naming the file and field otherwise). */
export function checkStopModel(raw: unknown, path = STOP_MODEL_PATH): StopModel {
  const m = (raw ?? {}) as Record<string, unknown>;
  if (m.format !== "atr-stop-policy-v1")
    throw new ModelFileError(path, `format: expected "atr-stop-policy-v1", got ${String(m.format)}`);
  // the scorer, calibration and threshold are checked as the verifier's are (answer-model.ts)
  const checked = checkAnswerModel(
    { format: "atr-answer-verifier-v2", scorer: m.scorer, calibration: m.calibration, threshold: m.threshold },
    path,
  );
  let thresholdBy: StopModel["thresholdBy"];
  if (m.thresholdBy !== undefined) {
    if (!Array.isArray(m.thresholdBy))
      throw new ModelFileError(path, "thresholdBy: expected an array of {feature, threshold}");
    thresholdBy = (m.thresholdBy as unknown[]).map((raw, i) => {
      const t = (raw ?? {}) as Record<string, unknown>;
      if (typeof t.feature !== "string")
        throw new ModelFileError(path, `thresholdBy[${i}].feature: expected a feature name`);
      if (typeof t.threshold !== "number" || !(t.threshold >= 0 && t.threshold <= 1))
        throw new ModelFileError(path, `thresholdBy[${i}].threshold: expected a number in 0..1`);
      return { feature: t.feature, threshold: t.threshold };
    });
  }
  return {
    format: "atr-stop-policy-v1",
    scorer: checked.scorer,
    ...(checked.calibration ? { calibration: checked.calibration } : {}),
    threshold: checked.threshold,
    ...(thresholdBy ? { thresholdBy } : {}),
    ...(m.acceptanceSafe === true ? { acceptanceSafe: true } : {}),
    trainedOn: (m.trainedOn ?? {}) as Record<string, unknown>,
  };
}

const model = new ModelFile<StopModel>(STOP_MODEL_PATH, checkStopModel);

/** The shipped stop model, or null without one. */
export function stopModel(): StopModel | null {
  return model.get();
}

/** Replaces the model (null = none, undefined = read the file again): tests and training. */
export function setStopModel(m: StopModel | null | undefined): void {
  model.set(m === null || m === undefined ? m : checkStopModel(m, "the model given to setStopModel"));
}

const bucket = (n: number, labels: readonly string[]) => labels[Math.min(n, labels.length) - 1]!;
const isAttempt = (d: TraceDecision) => !d.alternative && d.candidate === undefined;
/** The question's kind and evidence, read from its first attempt's verifier features. */
const QUESTION_FEATURE = /^(kind=|op=|tpl=|tables-only$|passages$|period-table$|about-note$|linked-row$|mod=)/;
/** The latest attempt's rule outcome and evidence checks. */
const ATTEMPT_FEATURE =
  /^(rule=|kind-mismatch$|grounded$|ungrounded$|grounding=|agree=|disagree=|from-sql$|rows=|support=|cells=|gen=)/;
/** The choice's ranking features passed on (which routes found it, how many, rule pick, first attempt). */
const CHOICE_FEATURE = /^r:(set=|count=|routes=|first=|rule-pick$|sql-and-read$|alternative-only$|answers=|share$)/;

/** The scored attempts of a trace (alternative SQL candidates aside), as the ranker reads them. */
function rankedOf(trace: readonly TraceDecision[]): { rows: TraceDecision[]; ranked: RankedAttempt[] } {
  const rows = trace.filter((d) => d.p_correct !== undefined && d.features && !d.alternative);
  const ranked = rows.map((d) => ({
    answer: d.produced_answer,
    route: d.effective_route,
    subQuery: d.sub_query,
    verdict: d.verdict,
    p: d.p_correct!,
    features: d.features!,
  }));
  return { rows, ranked };
}

/**
 * What the graph knows after an attempt, as the policy's features; undefined when no attempt of the
 * trace carries the offline verifier's P(correct) (the policy does not apply).
 */
export function stopFeatures(trace: readonly TraceDecision[], ranker: Ranker | undefined): Features | undefined {
  const { rows, ranked } = rankedOf(trace);
  const routeAttempts = rows.filter(isAttempt);
  if (routeAttempts.length === 0) return undefined;
  const n = routeAttempts.length;
  const last = routeAttempts[n - 1]!;
  const first = routeAttempts[0]!;
  const nBucket = bucket(n, ["1", "2", "3", "4", "5+"]);
  const f: Features = { bias: 1, attempts: n, "p:last": last.p_correct! };
  f[`n=${nBucket}`] = 1;
  f[`last=${last.effective_route}`] = 1;
  f[`last-n=${nBucket}|${last.effective_route}`] = 1;
  f[`sq=${bucket(new Set(routeAttempts.map((d) => d.sub_query)).size, ["1", "2+"])}`] = 1;
  const current = routeAttempts.filter((d) => d.sub_query === last.sub_query).map((d) => d.effective_route);
  for (const r of ROUTES) f[current.includes(r) ? `tried=${r}` : `untried=${r}`] = 1;
  f["p:max"] = Math.max(...ranked.map((a) => a.p));
  f[`xop=${first.expected_operator}`] = 1;
  f[`xmod=${first.required_modalities}`] = 1;
  for (const k of Object.keys(first.features!)) if (QUESTION_FEATURE.test(k)) f[`q:${k}`] = 1;
  for (const [k, v] of Object.entries(last.features!)) if (ATTEMPT_FEATURE.test(k)) f[`l:${k}`] = v;
  const groups = answerGroups(ranked);
  f[`groups=${groups.length === 0 ? "0" : bucket(groups.length, ["1", "2", "3", "4+"])}`] = 1;
  const choice = ranker ? rankerChoice(ranker, groups) : undefined;
  if (!ranker || !choice) return f;
  const { group, score, runnerUp } = choice;
  f["rank:p"] = calibrated(ranker.calibration, score);
  f["rank:margin"] = Math.min(10, score - runnerUp);
  f["choice:p"] = Math.max(...group.attempts.map((i) => ranked[i]!.p));
  for (const [k, v] of Object.entries(group.features)) if (CHOICE_FEATURE.test(k)) f[`c:${k}`] = v;
  if (group.attempts.includes(rows.indexOf(last))) f["choice-is-last"] = 1;
  if (ranker.acceptor) {
    const j = acceptorJudgement(ranker.acceptor, group, ranked);
    f["acc:p"] = j.p;
    if (j.threshold >= 1) f["acc:never"] = 1;
    else if (j.p >= j.threshold) f["acc:ok"] = 1;
  }
  return f;
}

/** The group the ranker prefers (earliest on ties, as answer-ranker.ts bestGroup), its raw score and the next one's (−10 below it when alone). */
function rankerChoice(
  ranker: Ranker,
  groups: readonly AnswerGroup[],
): { group: AnswerGroup; score: number; runnerUp: number } | undefined {
  let best: AnswerGroup | undefined;
  let score = -Infinity;
  let runnerUp = -Infinity;
  for (const g of groups) {
    const s = rankRaw(ranker, g);
    if (s > score) ((runnerUp = score), (best = g), (score = s));
    else if (s > runnerUp) runnerUp = s;
  }
  if (!best) return undefined;
  return { group: best, score, runnerUp: Number.isFinite(runnerUp) ? runnerUp : score - 10 };
}

/** The threshold for a question with these stop features (its kind's, else the model's). */
export function stopThreshold(m: Pick<StopModel, "threshold" | "thresholdBy">, features: Features): number {
  return m.thresholdBy?.find((t) => (features[t.feature] ?? 0) !== 0)?.threshold ?? m.threshold;
}

/** P(the final answer is already found) under a stop model. */
export function stopProbability(m: Pick<StopModel, "scorer" | "calibration">, features: Features): number {
  return calibrated(m.calibration, rawScore(m.scorer, features));
}

/**
 * The policy's decision after an unaccepted attempt, over the question's trace so far (the attempt's
 * own rows included); undefined when it does not apply (no model, no verifier ranker, no scored attempt).
 */
export function decideStop(
  trace: readonly TraceDecision[],
  verifier: Pick<AnswerModel, "ranker"> | null,
  m: StopModel | null = stopModel(),
): StopDecision | undefined {
  if (!m || !verifier?.ranker) return undefined;
  const features = stopFeatures(trace, verifier.ranker);
  if (!features) return undefined;
  const exact = stopProbability(m, features);
  const p = Math.round(exact * 1000) / 1000;
  const attempts = features.attempts!;
  const threshold = stopThreshold(m, features);
  const acceptorAgrees = !m.acceptanceSafe || features["acc:never"] === 1 || features["acc:ok"] === 1;
  // (a threshold of 1 is never: its kind never stops)
  const stop = threshold < 1 && exact >= threshold && acceptorAgrees;
  const answer = rankerChoice(verifier.ranker, answerGroups(rankedOf(trace).ranked))?.group.answer ?? "";
  const after = `after ${attempts} attempt${attempts === 1 ? "" : "s"}`;
  const reason = stop
    ? `stop policy: P(final answer found) ${p.toFixed(3)} ≥ ${threshold} ${after} (answer: ${answer || "none"})`
    : threshold < 1 && exact >= threshold
      ? `stop policy: go on, the question-level acceptor could accept after more routes (P(final answer found) ${p.toFixed(3)}) ${after}`
      : `stop policy: go on, P(final answer found) ${p.toFixed(3)} < ${threshold} ${after}`;
  return { stop, p, threshold, attempts, answer, reason };
}

/**
 * The graph's stop decision after an unaccepted attempt (nodes/route.ts before re-routing,
 * nodes/verify.ts when the sub-query is out of attempts), over the question's trace with that
 * attempt's rows. Undefined — go on, as without the policy — unless `stopPolicy` is "learned", the
 * ranker gives the final answer (the offline decomposer, or no decomposition: every sub-query asks
 * the question itself) and the verifier's thresholds are the shipped ones (an `acceptThreshold`,
 * e.g. 1 for exploration runs that try every route, turns the policy off).
 */
export function stopAfterAttempt(
  trace: readonly TraceDecision[],
  c: Pick<Configuration, "stopPolicy" | "decomposerBackbone" | "noDecomposition" | "acceptThreshold">,
): StopDecision | undefined {
  if (c.stopPolicy !== "learned" || c.acceptThreshold !== undefined) return undefined;
  if (c.decomposerBackbone !== "offline" && !c.noDecomposition) return undefined;
  return decideStop(trace, answerModel());
}
