/**
 * The learned route order (`routeOrder: "learned"`, docs/ROUTER.md "Learned route order"): after an
 * attempt the verifier did not accept and the stop policy did not end, which route next?
 *
 * The heuristic router re-selects by its fixed rules (after SQL: TEXT, then RETRIEVE, HYBRID). With
 * the stop policy (./stop-policy.ts) ending a question once its answer is settled, the next route
 * decides how soon that happens: on WTQ a HYBRID attempt after SQL often settles the answer where
 * TEXT leaves it open. What the first attempt found is known here — its answer, P(correct), rule
 * outcome and evidence checks, the ranker's choice so far (the stop policy's features) — and that is
 * what tells those questions apart; the question's words alone do not (docs/ROUTER.md).
 *
 * For each untried route r other than the heuristic's, a model estimates P(taking r next gives the
 * same final answer, accepted or not as with the heuristic's order, in fewer attempts); r replaces
 * the heuristic's route when the best such P reaches the model's threshold, chosen on the training
 * splits so that no split loses a right or accepted-right answer (training/next-route.ts,
 * `atr train-router next`). It applies where the stop policy does.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Configuration } from "../../graph/configuration.js";
import type { TraceDecision } from "../../graph/state.js";
import type { Features } from "../offline/answer-features.js";
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
import type { Route } from "../types.js";
import { stopFeatures, stopModel } from "./stop-policy.js";

/** The committed model file (training/next-route.ts writes it). */
export const NEXT_ROUTE_MODEL_PATH = join(dirname(fileURLToPath(import.meta.url)), "models", "next-route.json");

export interface NextRouteModel {
  format: "atr-next-route-v1";
  scorer: Scorer;
  calibration?: Calibration;
  /** Take another route than the heuristic's at P ≥ this (1 = never). */
  threshold: number;
  /** What it was trained on and how it did there. */
  trainedOn: Record<string, unknown>;
}

/** What the policy decided at a re-selection, for the trace. */
export interface NextRouteDecision {
  route: Route;
  /** The heuristic's route, which `route` replaces when they differ. */
  heuristic: Route;
  /** P of the route taken instead (undefined when the heuristic's stays). */
  p?: number;
  reason: string;
}

/** The model file's content, checked (a ModelFileError naming the file and field otherwise). */
export function checkNextRouteModel(raw: unknown, path = NEXT_ROUTE_MODEL_PATH): NextRouteModel {
  const m = (raw ?? {}) as Record<string, unknown>;
  if (m.format !== "atr-next-route-v1")
    throw new ModelFileError(path, `format: expected "atr-next-route-v1", got ${String(m.format)}`);
  // the scorer, calibration and threshold are checked as the verifier's are (answer-model.ts)
  const checked = checkAnswerModel(
    { format: "atr-answer-verifier-v2", scorer: m.scorer, calibration: m.calibration, threshold: m.threshold },
    path,
  );
  return {
    format: "atr-next-route-v1",
    scorer: checked.scorer,
    ...(checked.calibration ? { calibration: checked.calibration } : {}),
    threshold: checked.threshold,
    trainedOn: (m.trainedOn ?? {}) as Record<string, unknown>,
  };
}

const model = new ModelFile<NextRouteModel>(NEXT_ROUTE_MODEL_PATH, checkNextRouteModel);

/** The shipped model, or null without one. */
export function nextRouteModel(): NextRouteModel | null {
  return model.get();
}

/** Replaces the model (null = none, undefined = read the file again): tests and training. */
export function setNextRouteModel(m: NextRouteModel | null | undefined): void {
  model.set(m === null || m === undefined ? m : checkNextRouteModel(m, "the model given to setNextRouteModel"));
}

/**
 * The features of taking `candidate` next instead of `heuristic`: the stop policy's view of the
 * question so far (what the attempts found), the candidate, and the candidate against the last route
 * and the heuristic's. Undefined when no attempt carries the offline verifier's P(correct).
 */
export function nextRouteFeatures(
  trace: readonly TraceDecision[],
  ranker: AnswerModel["ranker"],
  candidate: Route,
  heuristic: Route,
): Features | undefined {
  const base = stopFeatures(trace, ranker);
  if (!base) return undefined;
  const last =
    Object.keys(base)
      .find((k) => k.startsWith("last=") && !k.includes("|"))
      ?.slice(5) ?? "none";
  return {
    ...base,
    [`cand=${candidate}`]: 1,
    [`heur=${heuristic}`]: 1,
    [`cand=${candidate}|heur=${heuristic}`]: 1,
    [`cand=${candidate}|last=${last}`]: 1,
  };
}

/** P(taking `candidate` next settles the same answer sooner) under a model. */
export function nextRouteProbability(m: Pick<NextRouteModel, "scorer" | "calibration">, features: Features): number {
  return calibrated(m.calibration, rawScore(m.scorer, features));
}

/**
 * The next route over the question's trace so far: the heuristic's, unless an untried other route's
 * P reaches the threshold (the highest such P wins; ties go to the earlier of `untried`).
 */
export function chooseNextRoute(
  trace: readonly TraceDecision[],
  heuristic: Route,
  untried: readonly Route[],
  verifier: Pick<AnswerModel, "ranker"> | null,
  m: NextRouteModel | null = nextRouteModel(),
): NextRouteDecision | undefined {
  if (!m || !verifier || m.threshold >= 1) return undefined;
  let best: { route: Route; p: number } | undefined;
  for (const r of untried) {
    if (r === heuristic) continue;
    const features = nextRouteFeatures(trace, verifier.ranker, r, heuristic);
    if (!features) return undefined;
    const p = nextRouteProbability(m, features);
    if (p >= m.threshold && (!best || p > best.p)) best = { route: r, p };
  }
  if (!best) return { route: heuristic, heuristic, reason: `route order: ${heuristic} (the heuristic's)` };
  return {
    route: best.route,
    heuristic,
    p: best.p,
    reason: `route order: ${best.route} before ${heuristic}, P(same answer sooner) ${best.p.toFixed(3)} ≥ ${m.threshold}`,
  };
}

/**
 * The graph's next route after an unaccepted attempt the stop policy let go on (nodes/route.ts):
 * undefined — the router's own — unless `routeOrder` is "learned", the router is the heuristic and
 * the stop policy applies (stop-policy.ts `stopAfterAttempt`: the offline ranker gives the final
 * answer at the shipped thresholds).
 */
export function nextRouteAfterAttempt(
  trace: readonly TraceDecision[],
  heuristic: Route,
  untried: readonly Route[],
  c: Pick<
    Configuration,
    "routeOrder" | "routerType" | "stopPolicy" | "decomposerBackbone" | "noDecomposition" | "acceptThreshold"
  >,
): NextRouteDecision | undefined {
  if (c.routeOrder !== "learned" || c.routerType !== "heuristic") return undefined;
  if (c.stopPolicy !== "learned" || c.acceptThreshold !== undefined || !stopModel()) return undefined;
  if (c.decomposerBackbone !== "offline" && !c.noDecomposition) return undefined;
  return chooseNextRoute(trace, heuristic, untried, answerModel());
}
