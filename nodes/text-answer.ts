/**
 * The TEXT reading over the selected chunks and its provenance: the TEXT node's answer, and the
 * answer of RETRIEVE/HYBRID when the value linker reroutes them (nodes/linked-route.ts); with
 * reader candidates, the reading's other answers too.
 */
import type { State } from "../graph/state.js";
import { NOT_FOUND } from "./answer-validity.js";
import type { RouteProvenance } from "./attempt.js";
import { noteFailure, type UsageMeter } from "./usage-meter.js";
import { passageSentences, tablesMentioning } from "./provenance.js";
import type { Strategies } from "./strategies.js";
import type { AnswerCandidate } from "./types.js";
import { readerFamilyOn, type FeatureMode } from "./offline/feature-families.js";

/**
 * The TEXT reading, also used when the value linker reroutes RETRIEVE/HYBRID. A strategy error
 * fails closed to "not found" and is noted in `meter`.
 */
export async function readTextAnswer(
  strategies: Pick<Strategies, "readText" | "readTextCandidates">,
  state: State,
  meter?: UsageMeter,
  options: { readerCandidates?: boolean; verifierFeatures?: FeatureMode } = {},
): Promise<Reading> {
  const candidates = options.readerCandidates ?? false;
  const readerFeatures = readerFamilyOn(options.verifierFeatures);
  const input = {
    question: state.question,
    subQuery: state.plan!.subQuery,
    plan: state.plan!,
    evidence: state.textEvidence,
  };
  try {
    // (The candidate reader gives the same first answer, with its `rc:` features: only when they are used.)
    if (strategies.readTextCandidates && (candidates || readerFeatures))
      return readingOf(await strategies.readTextCandidates(input), candidates);
    const answer = await strategies.readText(input);
    return { answer: typeof answer === "string" ? answer.trim() : NOT_FOUND };
  } catch (error) {
    noteFailure(meter, "readText failed (not found)", error);
    return { answer: NOT_FOUND };
  }
}

/** A reading's answer, with its reader features and other candidates when the strategy gives them. */
export interface Reading {
  answer: string;
  readerFeatures?: Record<string, number>;
  readerCandidates?: AnswerCandidate[];
}

/**
 * The first candidate is the answer; the others travel with the attempt for the verify node (with
 * `others` false they are dropped: the reading keeps its answer's own features — span score, margin
 * to the next span — for the learned verifier, and proposes no other answer).
 */
export function readingOf(candidates: readonly AnswerCandidate[] | undefined, others = true): Reading {
  const valid = (candidates ?? []).filter((c) => typeof c?.answer === "string" && c.answer.trim() !== "");
  const [first, ...rest] = valid;
  if (!first) return { answer: NOT_FOUND };
  // `rc:alternative` marks the other candidates for the verifier and the ranker (not a route's own answer).
  return {
    answer: first.answer.trim(),
    readerFeatures: first.features,
    ...(others && rest.length > 0
      ? {
          readerCandidates: rest.map((c) => ({
            answer: c.answer.trim(),
            features: { ...c.features, "rc:alternative": 1 },
          })),
        }
      : {}),
  };
}

/** What a TEXT answer was read from: the selected chunks that hold it. */
export function textProvenance(answer: string, state: Pick<State, "chunks">): RouteProvenance {
  return { tables: tablesMentioning(answer, state.chunks), passages: passageSentences(answer, state.chunks) };
}
