/**
 * The cascade's prompted tier (docs/CASCADE.md): after an unaccepted offline tier, ONE LLM call
 * answers the question from everything the offline attempts found — the passages they read, the
 * rows and cells they linked, the SQL that ran and its result, their candidate answers — through
 * the `fuse` step (every backbone has it). The answer is then judged without a model call first:
 *
 * - accepted with no further call when the offline verifier does not contradict it (verdict ≥ 0.5
 *   on the same evidence, the other attempts' answers as agreement) and it is grounded in that
 *   evidence (nodes/grounding.ts: the grounding check the verify node applies to every LLM verdict);
 * - otherwise the configured verifier judges it (the second call): 1 accepts; 0.5 (also a 1 the
 *   grounding check demoted) keeps it as the final, unverified answer — the LLM loop's re-routes run
 *   the same retrievers over the same question, so they would pay more calls for the same answer;
 * - "not found", or verdict 0 (the answer is wrong), falls through to the full LLM loop with the
 *   findings as the decomposer's history: a re-route only where it can help.
 *
 * So a question the offline tier could not settle costs 1 or 2 calls unless the LLM finds nothing
 * or its verifier rejects the answer.
 */
import { isValidAnswer } from "../nodes/answer-validity.js";
import { isGrounded } from "../nodes/grounding.js";
import type { NodeResources } from "../nodes/node-resources.js";
import { newUsageMeter, noteFailure, type UsageMeter } from "../nodes/usage-meter.js";
import type { Provenance, SubQueryPlan, Verdict } from "../nodes/types.js";
import { judge, traceDecision, verifierEvidence } from "../nodes/judge.js";
import type { TableSchema } from "../indexing/types.js";
import type { Attempt, State, TraceDecision, Usage } from "./state.js";
import { nodeUsage, sumUsage } from "./state.js";
import type { Configuration } from "./configuration.js";

/** Node names of the prompted tier's two possible calls in `usage`. */
export const FINDINGS_ANSWER = "findings_answer";
export const FINDINGS_VERIFY = "findings_verify";

/** Characters of each evidence part shown to the one call (passages, rows/cells, SQL results). */
const TEXT_LIMIT = 6000;
const ROWS_LIMIT = 3000;
const SQL_LIMIT = 2000;
/** Distinct candidate answers listed. */
const CANDIDATES_LIMIT = 8;

/** An attempt as the offline tier's stream showed it, with the sub-query context it ran in. */
export interface SeenAttempt {
  attempt: Attempt;
  plan: SubQueryPlan | null;
  textEvidence: string;
  schema: TableSchema | null;
}

/** Untrusted text (cells, passages, produced answers) in one line: no tags, bounded. */
export function oneLine(text: string, limit = 200): string {
  const one = text
    .replace(/<\/?[A-Za-z_][\w-]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return one.length > limit ? `${one.slice(0, limit)}…` : one;
}

/**
 * Distinct blocks of the parts (split at `split`: the same passage or cell block read by several
 * attempts is shown once), cut at whole blocks to `limit` characters, joined by `join`.
 */
function bounded(parts: readonly string[], limit: number, split: RegExp = /\n\s*\n/, join = "\n\n"): string {
  const out: string[] = [];
  let used = 0;
  const blocks = parts
    .flatMap((p) => p.split(split))
    .map((b) => b.trim())
    .filter((b) => b !== "");
  for (const part of new Set(blocks)) {
    if (used + part.length > limit) {
      if (out.length === 0) out.push(part.slice(0, limit));
      break;
    }
    out.push(part);
    used += part.length + 2;
  }
  return out.join(join);
}

/** What the offline attempts found, as the one call and the checks see it. */
export interface FindingsEvidence {
  /** Passages the attempts read. */
  text: string;
  /** Rows and cells the attempts linked (route evidence). */
  rows: string;
  /** The SQL that ran, each with its result. */
  sql: string;
  /** The attempts' distinct candidate answers with route and verdict (leads, not evidence). */
  candidates: string;
}

/** The evidence of the offline attempts (verdicts from the offline trace, in attempt order). */
export function findingsEvidence(
  seen: readonly SeenAttempt[],
  verdicts: readonly (number | undefined)[],
): FindingsEvidence {
  const candidates = new Map<string, string>();
  seen.forEach((s, i) => {
    const answer = s.attempt.answer.trim();
    if (!isValidAnswer(answer) || candidates.has(answer.toLowerCase()) || candidates.size >= CANDIDATES_LIMIT) return;
    candidates.set(
      answer.toLowerCase(),
      `- "${oneLine(answer, 160)}" (${s.attempt.effectiveRoute}, verdict ${verdicts[i] ?? 0.5})`,
    );
  });
  return {
    text: bounded(
      seen.map((s) => s.textEvidence),
      TEXT_LIMIT,
      /\n(?=\[Source: )/,
      "\n",
    ),
    // Route evidence: schema lines, linked-cell lines and row blocks, each once.
    rows: bounded(
      seen.map((s) => s.attempt.evidence),
      ROWS_LIMIT,
      /\n(?=\S)/,
      "\n",
    ),
    sql: bounded(
      seen
        .filter((s) => s.attempt.sql)
        .map((s) => `SQL: ${oneLine(s.attempt.sql, 400)}\n${s.attempt.sqlResult || "(no rows)"}`),
      SQL_LIMIT,
    ),
    candidates: [...candidates.values()].join("\n"),
  };
}

/** The prompted tier's outcome: accepted, kept unverified, or handed on to the LLM loop (with a note for its decomposer). */
export interface FindingsOutcome {
  answer: string;
  /** "accepted": final and verified; "kept": final, unverified; "handed_on": the LLM loop runs. */
  status: "accepted" | "kept" | "handed_on";
  /** The decision row of the answer (absent when the call produced none). */
  decision?: TraceDecision;
  /** The provenance of an offline attempt with the same answer ([] when none gave it). */
  provenance: Provenance[];
  /** For the decomposer when handed on. */
  note: string;
  usage: Usage;
  errors: string[];
}

function usageOf(node: string, meter: UsageMeter, started: number): Usage {
  const ms = Math.round((performance.now() - started) * 1000) / 1000;
  return nodeUsage(node, {
    llmCalls: meter.llmCalls,
    inputTokens: meter.inputTokens,
    outputTokens: meter.outputTokens,
    ms,
  });
}

/**
 * Answers from the findings (one call), then accepts, keeps or hands on (above). `tierConfig` is the
 * offline tier's configuration (its verifier judges first, without a call); `final` the offline
 * tier's end state, `seen` its attempts.
 */
export async function answerFromFindings(
  question: string,
  c: Configuration,
  tierConfig: Configuration,
  final: State,
  seen: readonly SeenAttempt[],
  resources: NodeResources,
): Promise<FindingsOutcome> {
  const verdicts = seen.map((_, i) => final.trace[i]?.verdict);
  const evidence = findingsEvidence(seen, verdicts);
  const firstPlan = seen.find((s) => s.plan)?.plan ?? final.plan;
  const singleHop = new Set(seen.map((s) => s.plan?.subQuery)).size <= 1;
  // A single-hop question keeps the offline decomposition; several sub-queries are answered as the whole question.
  const plan: SubQueryPlan =
    firstPlan && singleHop
      ? firstPlan
      : {
          subQuery: question,
          expectedOperator: firstPlan?.expectedOperator ?? "lookup",
          requiredModalities: "both",
          needGlobalTableView: false,
          entityMentions: [],
          uncertainty: 0,
        };
  const schemaEvidence = [
    evidence.rows,
    evidence.candidates
      ? `Candidate answers of a deterministic first pass (leads, not facts):\n${evidence.candidates}`
      : "",
  ]
    .filter((p) => p !== "")
    .join("\n\n");

  const meter = newUsageMeter();
  const started = performance.now();
  let answer = "";
  try {
    const strategies = await resources.strategies(c, "main", meter);
    answer = String(
      await strategies.fuse({
        question,
        subQuery: plan.subQuery,
        plan,
        route: "HYBRID",
        textEvidence: evidence.text,
        schemaEvidence,
        sqlResult: evidence.sql,
        markdown: "",
      }),
    ).trim();
  } catch (error) {
    noteFailure(meter, "answer from the offline findings failed (the LLM loop runs)", error);
  }
  let usage = usageOf(FINDINGS_ANSWER, meter, started);
  const errors = meter.errors.map((e) => `${FINDINGS_ANSWER}: ${e}`);
  if (!isValidAnswer(answer)) {
    return {
      answer: "",
      status: "handed_on",
      provenance: [],
      note: "Answering from these findings in one step found nothing.",
      usage,
      errors,
    };
  }

  // The answer as an attempt of the whole question over the union of the findings.
  const attempt: Attempt = {
    number: 1,
    requestedRoute: "HYBRID",
    effectiveRoute: "HYBRID",
    answer,
    evidence: evidence.rows,
    sqlResult: evidence.sql,
    sql: "",
    valueLinkerAttempted: false,
    linkedValues: seen.flatMap((s) => s.attempt.linkedValues),
    verdict: null,
    reason: "",
  };
  const context = {
    ...final,
    plan,
    textEvidence: evidence.text,
    schema: seen.find((s) => s.schema)?.schema ?? final.schema,
  } as State;
  const grounded = isGrounded(answer, verifierEvidence(evidence.text, evidence.rows, evidence.sql));
  const same = seen.find((s) => s.attempt.answer.trim().toLowerCase() === answer.toLowerCase());
  const provenance = same?.attempt.provenance ? [same.attempt.provenance] : [];
  const decide = (verdict: Verdict, reason: string) =>
    traceDecision(context, { ...attempt, verdict, reason }, verdict, reason);

  // The offline verifier first (no call): a grounded answer it does not contradict is accepted.
  const offlineMeter = newUsageMeter();
  const offline = await judge(
    await resources.strategies(tierConfig, "verifier", offlineMeter),
    { question, state: context, attempt },
    offlineMeter,
  );
  errors.push(...offlineMeter.errors.map((e) => `${FINDINGS_ANSWER}: ${e}`));
  if (grounded && offline.verdict >= 0.5) {
    const reason = `${FINDINGS_ANSWER}: grounded in the offline evidence, offline verdict ${offline.verdict}${offline.reason ? ` (${oneLine(offline.reason, 120)})` : ""}`;
    return { answer, status: "accepted", decision: decide(1, reason), provenance, note: "", usage, errors };
  }

  // Otherwise the configured verifier (the second call), grounding check included.
  const verifyMeter = newUsageMeter();
  const verifyStarted = performance.now();
  const judged = await judge(
    await resources.strategies(c, "verifier", verifyMeter),
    { question, state: context, attempt },
    verifyMeter,
  );
  usage = sumUsage(usage, usageOf(FINDINGS_VERIFY, verifyMeter, verifyStarted));
  errors.push(...verifyMeter.errors.map((e) => `${FINDINGS_VERIFY}: ${e}`));
  const why = `${FINDINGS_VERIFY}: ${judged.reason}`.trim();
  if (judged.verdict === 1)
    return { answer, status: "accepted", decision: decide(1, why), provenance, note: "", usage, errors };
  if (judged.verdict === 0.5)
    return { answer, status: "kept", decision: decide(0.5, why), provenance, note: "", usage, errors };
  return {
    answer,
    status: "handed_on",
    decision: decide(0, why),
    provenance,
    note: `Answering from these findings in one step gave "${oneLine(answer)}"; the verifier judged it 0${judged.reason ? ` (${oneLine(judged.reason, 120)})` : ""}.`,
    usage,
    errors,
  };
}
