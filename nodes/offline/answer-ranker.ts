/**
 * The learned ranker: when no attempt was accepted, which of the question's answers to give. It
 * sees what the per-attempt verifier could not — every attempt of the question: how many attempts
 * and routes found each answer, its best P(correct), and which answer the rule policy would have
 * given (the first rule-verified answer, else the first uncontradicted answer of the latest
 * sub-query that has one). A logistic regression over these (the scorer kinds of answer-model.ts)
 * with an isotonic calibration, trained with the verifier (training/answer-verifier.ts, `ranker`
 * in models/answer-verifier.json): its P is the probability that the question's best answer is
 * right, so when it reaches the verifier's threshold the answer is accepted at the question level —
 * every route having been tried, answers several routes agree on are accepted although no single
 * attempt was.
 */
import { normaliseForContainment } from "../../text/normalise.js";
import { calibrated, rawScore, type Acceptor, type Calibration, type Scorer } from "./answer-model.js";

/** The ranker's model (models/answer-verifier.json `ranker`); with an acceptor, the acceptor gives the P of its choice. */
export interface Ranker {
  scorer: Scorer;
  calibration?: Calibration;
  acceptor?: Acceptor;
}

/** One traced attempt, as the ranker reads it. */
export interface RankedAttempt {
  answer: string;
  route: string;
  subQuery: string;
  /** The verdict the graph gave it (0 = contradicted: never a fallback). */
  verdict: number;
  /** The per-attempt verifier's P(correct). */
  p: number;
  /** Its features (the ranker reads its rule code, question kind and evidence, and its `rc:`/`pm:`/`lr:` features). */
  features: Record<string, number>;
}

/** One distinct answer of the question, with its ranking features. */
export interface AnswerGroup {
  answer: string;
  /** Indices of the attempts that produced it. */
  attempts: number[];
  features: Record<string, number>;
}

const RULE_VERIFIED = ["rule=sql", "rule=cells"];
/** Attempt features the ranker reads from each answer's best attempt (kind=…, kind-mismatch, op=…, rule=…; no route × … crosses). */
const PASSED_ON = /^(kind|op|rule|tables-only|passages|about-note|linked-row|mod=|period-table|cells=)[^|]*$/;
/**
 * The best attempt's reader-candidate (`rc:` span score, margin, rank …), plan-match (`pm:`) and
 * linked-row (`lr:`) features, passed on with their values (each is binary or in 0..1): how sure
 * the reading, the SQL plan's columns or the bridged row were decides what its P means.
 */
const PASSED_WITH_VALUE = /^(rc|pm|lr):[^|]*$/;

function valid(answer: string): boolean {
  const a = answer.trim().toLowerCase();
  return a !== "" && a !== "not found";
}

function bucket(n: number, labels: readonly string[]): string {
  return labels[Math.min(n, labels.length) - 1]!;
}

/** The attempt the rule policy would answer with (verifier.ts's rule verdicts), or -1. */
export function rulePick(attempts: readonly RankedAttempt[]): number {
  const verified = attempts.findIndex((a) => valid(a.answer) && RULE_VERIFIED.some((f) => a.features[f]));
  if (verified >= 0) return verified;
  for (let i = attempts.length - 1; i >= 0; i--) {
    const a = attempts[i]!;
    if (a.verdict === 0 || !valid(a.answer)) continue;
    return attempts.findIndex((b) => b.subQuery === a.subQuery && b.verdict !== 0 && valid(b.answer));
  }
  return -1;
}

/** The question's uncontradicted distinct answers with their features, in order of first appearance. */
export function answerGroups(attempts: readonly RankedAttempt[]): AnswerGroup[] {
  const pick = rulePick(attempts);
  const groups = new Map<
    string,
    AnswerGroup & { found: number; routes: Set<string>; families: Set<string>; best: number }
  >();
  attempts.forEach((a, i) => {
    if (a.verdict === 0 || !valid(a.answer)) return;
    const key = normaliseForContainment(a.answer);
    const g = groups.get(key) ?? {
      answer: a.answer.trim(),
      attempts: [],
      found: 0,
      features: {},
      routes: new Set(),
      families: new Set(),
      best: 0,
    };
    g.attempts.push(i);
    // Another candidate of a reading (reader-candidates.ts) is not a route's finding: it does not count as one.
    if (!a.features["rc:alternative"]) {
      g.found++;
      g.routes.add(a.route);
      g.families.add(a.route === "SQL" || a.route === "HYBRID" ? "sql" : "read");
    }
    g.best = Math.max(g.best, a.p);
    groups.set(key, g);
  });
  const ranked = [...groups.values()].sort((x, y) => y.best - x.best);
  const top = ranked[0]?.best ?? 0;
  const withAnswer = [...groups.values()].reduce((n, g) => n + g.attempts.length, 0);
  return [...groups.values()].map((g) => {
    const f: Record<string, number> = { bias: 1, "r:p": g.best };
    // how far ahead of the next answer it is, how many of the attempts found it, which routes
    const rival = ranked.find((o) => o !== g)?.best ?? 0;
    f["r:margin"] = Math.max(0, g.best - rival);
    f["r:share"] = g.attempts.length / withAnswer;
    f["r:mean-p"] = g.attempts.reduce((s, i) => s + attempts[i]!.p, 0) / g.attempts.length;
    f[`r:set=${[...g.routes].sort().join("+")}`] = 1;
    // what kind of question and evidence its best attempt had (the same P means different things there)
    const best = g.attempts.reduce((b, i) => (attempts[i]!.p > attempts[b]!.p ? i : b), g.attempts[0]!);
    f[`r:best-route=${attempts[best]!.route}`] = 1;
    for (const [k, v] of Object.entries(attempts[best]!.features))
      if (PASSED_WITH_VALUE.test(k)) f[`r:${k}`] = v;
      else if (PASSED_ON.test(k)) f[`r:${k}`] = 1;
    // (Other candidates of a reading, with --reader_candidates, are no route's finding: not counted.)
    if (g.found === 0) f["r:alternative-only"] = 1;
    else {
      f[`r:count=${bucket(g.found, ["1", "2", "3+"])}`] = 1;
      f[`r:routes=${bucket(g.routes.size, ["1", "2", "3+"])}`] = 1;
    }
    f[`r:first=${bucket(g.attempts[0]! + 1, ["1", "2", "3", "4+"])}`] = 1;
    if (g.families.size > 1) f["r:sql-and-read"] = 1;
    if (g.best === top) f["r:top-p"] = 1;
    if (pick >= 0 && g.attempts.includes(pick)) f["r:rule-pick"] = 1;
    f[`r:answers=${bucket(groups.size, ["1", "2", "3+"])}`] = 1;
    return { answer: g.answer, attempts: g.attempts, features: f };
  });
}

/** Ranking features that are the per-attempt P or follow from it: the acceptor judges the evidence, not P again. */
const FROM_P = new Set(["r:p", "r:mean-p", "r:margin", "r:top-p"]);
const ROUTES = ["SQL", "HYBRID", "TEXT", "RETRIEVE"];

/**
 * The question-level verifier's features of the answer the ranker gives: its ranking features
 * without the per-attempt P (which routes and how many attempts found it, the rule pick, the best
 * attempt's rule, kind, plan-match and reading features), the best attempt's own features (`b:`,
 * no route × … crosses), and which routes were tried (`q:tried=ROUTE`). The per-attempt P is left
 * out so that the acceptor, trained over the shipped scorer's P on the training questions, does not
 * learn how far to trust a P that saw those questions.
 */
export function acceptorFeatures(
  group: AnswerGroup,
  attempts: readonly RankedAttempt[],
  ranking: { margin?: number } = {},
): Record<string, number> {
  const f: Record<string, number> = {};
  for (const [k, v] of Object.entries(group.features)) if (!FROM_P.has(k)) f[k] = v;
  const best = group.attempts.reduce((b, i) => (attempts[i]!.p > attempts[b]!.p ? i : b), group.attempts[0]!);
  for (const [k, v] of Object.entries(attempts[best]!.features)) if (!k.includes("|") && k !== "bias") f[`b:${k}`] = v;
  for (const r of ROUTES) if (attempts.some((a) => a.route === r)) f[`q:tried=${r}`] = 1;
  Object.assign(f, routeAgreement(group, attempts));
  if (ranking.margin !== undefined) Object.assign(f, rankMargin(ranking.margin));
  return f;
}

/**
 * Independent routes against the answer: each route (its own findings, not a reading's other
 * candidates) that gave another answer (`q:against=ROUTE`), how many did (`q:routes-against=…`),
 * and the share of the routes with an answer that gave this one (`q:route-share`, 0..1). Which
 * routes found it is `r:set=…`; a SQL answer the TEXT reading confirms is `r:set=SQL+TEXT`.
 */
export function routeAgreement(group: AnswerGroup, attempts: readonly RankedAttempt[]): Record<string, number> {
  const key = normaliseForContainment(group.answer);
  const agreeing = new Set<string>();
  const against = new Set<string>();
  for (const a of attempts) {
    if (a.verdict === 0 || !valid(a.answer) || a.features["rc:alternative"]) continue;
    (normaliseForContainment(a.answer) === key ? agreeing : against).add(a.route);
  }
  const f: Record<string, number> = {};
  for (const r of against) if (!agreeing.has(r)) f[`q:against=${r}`] = 1;
  const n = Object.keys(f).length;
  f[`q:routes-against=${n === 0 ? "0" : n === 1 ? "1" : "2+"}`] = 1;
  const routes = new Set([...agreeing, ...against]).size;
  if (routes > 0) f["q:route-share"] = Math.round((agreeing.size / routes) * 1000) / 1000;
  return f;
}

/**
 * How far the ranker's choice is ahead of the next answer, in its raw log-odds (`margin`; Infinity
 * when it is the only answer): `q:rank-margin` = 1 − e^(−margin) in 0..1, `q:alone` for a single answer.
 */
export function rankMargin(margin: number): Record<string, number> {
  if (!Number.isFinite(margin)) return { "q:alone": 1, "q:rank-margin": 1 };
  return { "q:rank-margin": Math.round((1 - Math.exp(-Math.max(0, margin))) * 1000) / 1000 };
}

/**
 * Do these features make a question of this kind of evidence? A kind is a feature ("tables-only") or
 * several joined by "&", all of which must be present ("tables-only&pm:table-clean=1": an index
 * without passages whose first SQL plan ran over a table of clean values).
 */
export function carriesKind(features: Readonly<Record<string, number>>, kind: string): boolean {
  return kind.split("&").every((f) => (features[f] ?? 0) !== 0);
}

/** The acceptor's kind of evidence of a question (the first of its kinds the attempts carry), with its calibration and threshold. */
export function acceptorKind(
  acceptor: Acceptor,
  attempts: readonly RankedAttempt[],
): Acceptor["rest"] & { feature?: string } {
  const features = attempts[0]?.features ?? {};
  return acceptor.kinds.find((k) => carriesKind(features, k.feature)) ?? acceptor.rest;
}

/** The acceptor's P(correct) of a group and its kind's threshold. */
export function acceptorJudgement(
  acceptor: Acceptor,
  group: AnswerGroup,
  attempts: readonly RankedAttempt[],
  ranking: { margin?: number } = {},
): { p: number; threshold: number } {
  const kind = acceptorKind(acceptor, attempts);
  return {
    p: calibrated(
      kind.calibration,
      rawScore(kind.scorer ?? acceptor.scorer, acceptorFeatures(group, attempts, ranking)),
    ),
    threshold: kind.threshold,
  };
}

/** The ranker's raw score of a group (log-odds; the order decides the choice). */
export function rankRaw(ranker: Ranker, group: AnswerGroup): number {
  return rawScore(ranker.scorer, group.features);
}

/**
 * The group the ranker prefers (earliest on ties) with its calibrated P and its raw margin over the
 * next group (Infinity when it is the only one), or undefined when there is none.
 */
export function bestGroup(
  ranker: Ranker,
  groups: readonly AnswerGroup[],
): { group: AnswerGroup; p: number; margin: number } | undefined {
  let best: AnswerGroup | undefined;
  let bestScore = -Infinity;
  let second = -Infinity;
  for (const g of groups) {
    const s = rankRaw(ranker, g);
    if (s > bestScore) ((best = g), (second = bestScore), (bestScore = s));
    else if (s > second) second = s;
  }
  return best ? { group: best, p: calibrated(ranker.calibration, bestScore), margin: bestScore - second } : undefined;
}

/**
 * The final answer among a question's attempts that carry P(correct): the first accepted one
 * (verdict 1); else the ranker's choice (its first attempt), accepted when the ranker's P reaches `threshold` (give 1
 * or more for never); else the highest-P uncontradicted one; undefined when no attempt has an answer
 * to give. `p` is the P(correct) of the answer: the attempt's, or the ranker's.
 */
export function chooseAnswer(
  attempts: readonly RankedAttempt[],
  ranker?: Ranker,
  threshold = 1,
): { index: number; verified: boolean; p: number } | undefined {
  const accepted = attempts.findIndex((a) => a.verdict === 1 && valid(a.answer));
  if (accepted >= 0) return { index: accepted, verified: true, p: attempts[accepted]!.p };
  if (ranker) {
    const best = bestGroup(ranker, answerGroups(attempts));
    if (!best) return undefined;
    // the answer's first attempt gives its text and provenance (later ones are re-routes of it)
    const index = best.group.attempts[0]!;
    if (ranker.acceptor) {
      // the question-level verifier judges the ranker's choice at its own kind's threshold (never when threshold ≥ 1)
      const j = acceptorJudgement(ranker.acceptor, best.group, attempts, best);
      return { index, verified: threshold < 1 && j.p >= j.threshold, p: j.p };
    }
    return { index, verified: threshold < 1 && best.p >= threshold, p: best.p };
  }
  let best = -1;
  attempts.forEach((a, i) => {
    if (a.verdict !== 0 && valid(a.answer) && (best < 0 || a.p > attempts[best]!.p)) best = i;
  });
  return best < 0 ? undefined : { index: best, verified: false, p: attempts[best]!.p };
}
