/**
 * The learned ranker: when no attempt was accepted, which of the question's answers to give. Its
 * raw score of an answer is the log-odds of the best calibrated per-attempt P(correct) among the
 * attempts that found it (`r:logit-p`, weight fixed at 1 when trained) plus what agreement adds to
 * it where it was measured to add something: how many routes found the answer, and
 * whether an SQL-plan attempt and a reading attempt agree, each also by kind of evidence (tables
 * only, a report table with paragraphs, tables with linked passages). (The rule policy's pick and
 * the router's order, weighed the same way, gained 0.3–2.3 points of ranker accuracy in cv on
 * train but overrode P with per-attempt evidence the P already holds: left out.) Those weights are a logistic
 * regression fitted on the training splits with the log-odds as a fixed offset
 * (training/answer-verifier.ts `fitRanker`, `ranker` in models/answer-verifier.json); with no
 * measured agreement effect the ranker gives the highest-P answer. (The per-attempt P already
 * counts the earlier attempts that agree, so agreement is not counted twice unless it pays.) An
 * isotonic calibration of the chosen answer's score gives P that the question's answer is right,
 * so when it reaches the verifier's threshold the answer is accepted at the question level.
 */
import { normaliseForContainment } from "../../text/normalise.js";
import { calibrated, rawScore, type Calibration, type Scorer } from "./answer-model.js";

/** The ranker's model (models/answer-verifier.json `ranker`). */
export interface Ranker {
  scorer: Scorer;
  calibration?: Calibration;
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
  /** Its features (the ranker reads its kind of evidence: `tables-only`, `period-table`). */
  features: Record<string, number>;
}

/** One distinct answer of the question, with its ranking features. */
export interface AnswerGroup {
  answer: string;
  /** Indices of the attempts that produced it. */
  attempts: number[];
  features: Record<string, number>;
}

/** The ranker feature whose weight is the fixed offset 1: the log-odds of the answer's best P. */
export const LOGIT_P = "r:logit-p";

const RULE_VERIFIED = ["rule=sql", "rule=cells"];

function valid(answer: string): boolean {
  const a = answer.trim().toLowerCase();
  return a !== "" && a !== "not found";
}

function bucket(n: number, labels: readonly string[]): string {
  return labels[Math.min(n, labels.length) - 1]!;
}

/** log(p / (1 − p)), p kept inside 0.001..0.999 (calibrated P reaches 0 and 1 at the ends). */
export function logit(p: number): number {
  const q = Math.min(0.999, Math.max(0.001, p));
  return Math.log(q / (1 - q));
}

/** The kind of evidence an attempt had (the same agreement means different things there). */
function evidenceKind(features: Record<string, number>): string {
  if (features["tables-only"]) return "tables";
  if (features["period-table"]) return "report";
  return "linked";
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
  return [...groups.values()].map((g) => {
    const f: Record<string, number> = { bias: 1, [LOGIT_P]: logit(g.best) };
    const kind = evidenceKind(attempts[g.attempts[0]!]!.features);
    const agreement: string[] = [];
    if (g.found === 0) agreement.push("r:alternative-only");
    // Distinct routes, not attempts: a route tried again over much the same evidence is no independent finding.
    else if (g.routes.size > 1) agreement.push(`r:routes=${bucket(g.routes.size, ["1", "2", "3+"])}`);
    if (g.families.size > 1) agreement.push("r:sql-and-read");
    // each agreement feature, alone and by kind of evidence
    for (const a of agreement) f[a] = f[`${a}|${kind}`] = 1;
    // how many answers the attempts gave (the same for every answer of a question: it moves the calibration, not the choice)
    f[`r:answers=${bucket(groups.size, ["1", "2", "3+"])}`] = 1;
    return { answer: g.answer, attempts: g.attempts, features: f };
  });
}

/** The ranker's raw score of a group (log-odds; the order decides the choice). */
export function rankRaw(ranker: Ranker, group: AnswerGroup): number {
  return rawScore(ranker.scorer, group.features);
}

/** The group the ranker prefers (earliest on ties) with its calibrated P, or undefined when there is none. */
export function bestGroup(
  ranker: Ranker,
  groups: readonly AnswerGroup[],
): { group: AnswerGroup; p: number } | undefined {
  let best: AnswerGroup | undefined;
  let bestScore = -Infinity;
  for (const g of groups) {
    const s = rankRaw(ranker, g);
    if (s > bestScore) ((best = g), (bestScore = s));
  }
  return best ? { group: best, p: calibrated(ranker.calibration, bestScore) } : undefined;
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
    return { index: best.group.attempts[0]!, verified: threshold < 1 && best.p >= threshold, p: best.p };
  }
  let best = -1;
  attempts.forEach((a, i) => {
    if (a.verdict !== 0 && valid(a.answer) && (best < 0 || a.p > attempts[best]!.p)) best = i;
  });
  return best < 0 ? undefined : { index: best, verified: false, p: attempts[best]!.p };
}
