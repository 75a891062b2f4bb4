/**
 * The batch runner: answers every question of a dataset with bounded concurrency and writes one
 * JSON line per question as soon as it is answered (reference §2.6, §9), then rewrites the file in
 * input order. The answer function is a parameter (the graph's `answerQuestion`, a baseline, or a
 * test fake), so the runner knows nothing about the graph.
 *
 * Differences from the published BatchRunner (decided, DESIGN.md "does better"):
 * - resume by `question_id` (question text only when there is none), as a multiset, so duplicate
 *   question texts are not all skipped; a truncated last line is repaired, not parsed as garbage;
 * - the final file is in input order; a written answer is never lost (records of questions that
 *   are not in the input are kept at the end);
 * - one question's exception is a record with an `error` field and the answer "error";
 * - refused before any work: two questions with the same `question_id` (records are keyed by it), and
 *   resuming a file written with another configuration (`atr_stats.config_hash` of its records).
 */
import { questionKey, type QuestionRecord } from "./dataset.js";
import { readResults, repairTruncatedTail, ResultsWriter, rewriteResultsAtomically } from "./results-file.js";
import { routeSummary } from "./route-summary.js";
import { goldText, oracleChoice } from "./oracle-verifier.js";
import { forEachConcurrently } from "./worker-pool.js";

/** What the runner passes to the answer function (the question's identity only; gold never goes in). */
export interface AnswerInput {
  question: string;
  question_id?: string;
  table_id?: string;
}

export interface AnswerCallOptions {
  configurable: Record<string, unknown>;
  runName?: string;
  tags?: string[];
  metadata?: Record<string, unknown>;
  callbacks?: unknown;
  /** Aborted when the question times out (`questionTimeoutMs`), so the answer function can stop its work. */
  signal?: AbortSignal;
  /** Whether the record gets the trace (`emitTrace`): when false, the answer function may skip what only the trace holds. */
  trace?: boolean;
  /**
   * Set for answer functions that queue questions (evals/answer-workers.ts): call it when this
   * question's work begins (it reached a worker). The time limit and `latency_ms` count from then,
   * not from a wait for a worker that is being replaced.
   */
  started?: () => void;
}

export interface AnswerOutput {
  answer: string;
  /** The `atr_trace` object of reference §9.2 (written with emitTrace). */
  trace?: unknown;
  /** Usage summed over the question: LLM calls and tokens (field names are read leniently). */
  usage?: unknown;
  /** Routes taken (requested/effective/final), as the graph reports them. */
  routes?: unknown;
  /** Whether a verifier accepted the answer (written as `atr_stats.answer_verified`). */
  answerVerified?: boolean;
  /** With the cascade: the tier that answered, "offline" | "findings" | "llm" (written as `atr_stats.tier`). */
  tier?: string;
  /** Failures the graph fell back on (written as `atr_stats.errors` when there are any). */
  errors?: string[];
  /** Every answer the run produced, in the oracle verifier's order (used only with `oracleVerifier`). */
  candidates?: string[];
  /** The evidence of the answer (the graph's `Provenance[]`: tables, rows and cells, SQL, passage sentences), written as `atr_provenance`. */
  provenance?: unknown[];
}

export type AnswerFn = (input: AnswerInput, options: AnswerCallOptions) => Promise<AnswerOutput>;

export interface UsageSummary {
  llmCalls: number;
  tokens: number;
}

function num(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}

/** Reads LLM calls and tokens from a usage object, whatever the casing (`llmCalls`, `llm_calls`, `totalTokens`, …). */
export function usageOf(usage: unknown): UsageSummary {
  if (!usage || typeof usage !== "object") return { llmCalls: 0, tokens: 0 };
  const u = usage as Record<string, unknown>;
  const llmCalls = num(u.llmCalls ?? u.llm_calls ?? u.calls);
  let tokens = num(u.totalTokens ?? u.total_tokens ?? u.tokens);
  if (tokens === 0) {
    tokens =
      num(u.promptTokens ?? u.prompt_tokens ?? u.inputTokens) +
      num(u.completionTokens ?? u.completion_tokens ?? u.outputTokens);
  }
  return { llmCalls, tokens };
}

export interface BatchProgress {
  done: number;
  total: number;
  failed: number;
  llmCalls: number;
  tokens: number;
  /** Questions skipped because the resumed file already had them. */
  skipped: number;
}

export interface RunBatchOptions {
  questions: QuestionRecord[];
  answer: AnswerFn;
  /** The exact file to write (the caller applies the timestamp rule). */
  outputPath: string;
  /** Read `outputPath` first and answer only the questions it lacks. Default false. */
  resume?: boolean;
  /** With resume, also re-answer questions whose record has an `error`. Default false. */
  retryErrors?: boolean;
  /** Questions answered at the same time. Default 2 (reference §2.6). */
  maxWorkers?: number;
  /** Write the answer function's trace as `atr_trace`. Default false. */
  emitTrace?: boolean;
  /** Passed to every call as `configurable`. Default {}. */
  configurable?: Record<string, unknown>;
  /** Per-question run name, tags and metadata (LangSmith). */
  callOptions?: (record: QuestionRecord, index: number) => Omit<AnswerCallOptions, "configurable">;
  /** A question taking longer gets an error record. Default 0 = no limit. */
  questionTimeoutMs?: number;
  /**
   * The answer function queues questions and calls `started` when one's work begins (answer
   * threads): its time limit and latency count from then. Default false.
   */
  answerQueues?: boolean;
  /** Stop taking new questions (in-flight ones finish and are written). */
  signal?: AbortSignal;
  onProgress?: (progress: BatchProgress) => void;
  /**
   * Hash of the configuration (evals/run-metadata.ts `configHash`), written as `atr_stats.config_hash`;
   * with resume, a file whose records carry another hash is refused (ConfigMismatchError).
   */
  configHash?: string;
  /** fsync after every record. Default true. */
  fsync?: boolean;
  /**
   * The §8.6 oracle verifier (a diagnostic that reads the gold): the written answer is the first
   * candidate matching the record's gold; `atr_stats.oracle_verifier` keeps the system's own answer.
   */
  oracleVerifier?: boolean;
}

/** The oracle verifier's pick for one record, and what the record says about it. */
function oracleStats(
  record: QuestionRecord,
  produced: string,
  candidates: readonly string[] | undefined,
): { answer: string; stats: Record<string, unknown> } {
  const gold = goldText(record);
  const pick = gold === undefined ? undefined : oracleChoice([produced, ...(candidates ?? [])], gold);
  return {
    answer: pick ?? produced,
    stats: { system_answer: produced, matched: pick !== undefined, ...(gold === undefined ? { no_gold: true } : {}) },
  };
}

export interface RunBatchSummary {
  outputPath: string;
  total: number;
  skipped: number;
  answered: number;
  failed: number;
  llmCalls: number;
  tokens: number;
  /** Bytes of a truncated last line cut off before resuming. */
  repairedBytes: number;
  /** Unparseable complete lines dropped from the resumed file. */
  droppedBadLines: number;
  /** Extra records of one question dropped at the end (e.g. an error record after a retry). */
  droppedDuplicates: number;
  /** Records of questions that are not in the input, kept at the end of the file. */
  foreignRecords: number;
  /** True when the run stopped early (signal). */
  interrupted: boolean;
}

/** Two or more questions share a `question_id`: records are keyed by it, so their answers would be mixed up. */
export class DuplicateQuestionIdError extends Error {
  constructor(readonly duplicates: Array<{ id: string; items: number[] }>) {
    const shown = duplicates
      .slice(0, 10)
      .map((d) => `"${d.id}" (items ${d.items.join(", ")})`)
      .join("; ");
    super(
      `${duplicates.length} question_id value(s) occur more than once: ${shown}${duplicates.length > 10 ? `; … ${duplicates.length - 10} more` : ""}. ` +
        "Give every question its own question_id (records and --rerun are keyed by it).",
    );
    this.name = "DuplicateQuestionIdError";
  }
}

/** --rerun of a file written with another configuration: its answers and the new ones would not be comparable. */
export class ConfigMismatchError extends Error {
  constructor(path: string, found: string[], wanted: string) {
    super(
      `${path} was written with configuration ${found.join(", ")}, this run has ${wanted} (atr_stats.config_hash): ` +
        "rerun with the same flags as the run that wrote it, or start a new file with --save_file_path",
    );
    this.name = "ConfigMismatchError";
  }
}

/** The question ids that occur more than once, with their 1-based positions. */
export function duplicateQuestionIds(
  questions: ReadonlyArray<Record<string, unknown>>,
): Array<{ id: string; items: number[] }> {
  const positions = new Map<string, number[]>();
  questions.forEach((q, i) => {
    const id = q.question_id;
    if (id === undefined || id === null || String(id) === "") return;
    const list = positions.get(String(id)) ?? [];
    list.push(i + 1);
    positions.set(String(id), list);
  });
  return [...positions].filter(([, items]) => items.length > 1).map(([id, items]) => ({ id, items }));
}

class QuestionTimeoutError extends Error {
  constructor(ms: number) {
    super(`question timed out after ${ms} ms (--question_timeout_ms)`);
    this.name = "QuestionTimeoutError";
  }
}

/**
 * Runs `start(signal, begin)`; `ms` after the work begins (at once, or when `start` calls `begin`
 * with `deferred`) rejects with QuestionTimeoutError and aborts the signal (the graph stops at its
 * next step). An answer that arrives after `ms` is refused too.
 */
function withTimeout<T>(
  start: (signal: AbortSignal | undefined, begin: () => void) => Promise<T>,
  ms: number,
  deferred: boolean,
): Promise<T> {
  if (!ms || ms <= 0) return start(undefined, () => undefined);
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let rejectLate: (error: Error) => void = () => undefined;
  const timeout = new Promise<never>((_, reject) => (rejectLate = reject));
  let begun = performance.now();
  const begin = () => {
    clearTimeout(timer);
    begun = performance.now();
    timer = setTimeout(() => {
      rejectLate(new QuestionTimeoutError(ms));
      controller.abort(new QuestionTimeoutError(ms));
    }, ms);
  };
  if (!deferred) begin();
  return Promise.race([start(controller.signal, begin), timeout])
    .then((value) => {
      // Work that held the event loop past the limit (the timer could not fire) is still late.
      if (performance.now() - begun > ms) {
        controller.abort(new QuestionTimeoutError(ms));
        throw new QuestionTimeoutError(ms);
      }
      return value;
    })
    .finally(() => clearTimeout(timer));
}

function answerInput(record: QuestionRecord): AnswerInput {
  const input: AnswerInput = { question: record.question };
  if (record.question_id !== undefined && record.question_id !== null) input.question_id = String(record.question_id);
  if (record.table_id !== undefined && record.table_id !== null && record.table_id !== "")
    input.table_id = String(record.table_id);
  return input;
}

/** Route facts of a §9.2 trace, kept in every record so the scorer's breakdowns work without --emit_trace. */
function routeStats(trace: unknown): Record<string, unknown> {
  if (!trace || typeof trace !== "object" || !Array.isArray((trace as Record<string, unknown>).verifier_decisions))
    return {};
  const s = routeSummary({ atr_trace: trace });
  return {
    first_requested_route: s.firstRequested,
    first_effective_route: s.firstEffective,
    final_route: s.final,
    attempts: s.attempts,
    escalations: s.escalations,
  };
}

const isError = (r: Record<string, unknown>): boolean => r.error !== undefined && r.error !== null;

/** Counts finished records per key (errors count unless they are to be retried). */
function finishedCounts(records: Array<Record<string, unknown>>, retryErrors: boolean): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of records) {
    if (retryErrors && isError(r)) continue;
    const key = questionKey(r);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/**
 * Orders records as the input: for each input question, the next record with its key (records
 * without an error first). Returns the ordered list plus what was left over.
 */
export function orderLikeInput(
  questions: QuestionRecord[],
  records: Array<Record<string, unknown>>,
): { ordered: Array<Record<string, unknown>>; duplicates: number; foreign: Array<Record<string, unknown>> } {
  const byKey = new Map<string, Array<Record<string, unknown>>>();
  for (const r of records) {
    const key = questionKey(r);
    const list = byKey.get(key) ?? [];
    list.push(r);
    byKey.set(key, list);
  }
  // Prefer a real answer over an error record; keep the latest of each kind last-written-wins.
  for (const list of byKey.values()) {
    list.reverse();
    list.sort((a, b) => Number(isError(a)) - Number(isError(b)));
  }
  const ordered: Array<Record<string, unknown>> = [];
  const inputKeys = new Set<string>();
  for (const q of questions) {
    const key = questionKey(q);
    inputKeys.add(key);
    const next = byKey.get(key)?.shift();
    if (next) ordered.push(next);
  }
  let duplicates = 0;
  const foreign: Array<Record<string, unknown>> = [];
  for (const [key, rest] of byKey) {
    if (inputKeys.has(key)) duplicates += rest.length;
    else foreign.push(...rest);
  }
  return { ordered, duplicates, foreign };
}

/** Runs the batch. Throws only for problems with the output file; question failures become records. */
export async function runBatch(options: RunBatchOptions): Promise<RunBatchSummary> {
  const { questions, answer, outputPath } = options;
  const maxWorkers = options.maxWorkers ?? 2;
  if (!Number.isInteger(maxWorkers) || maxWorkers < 1)
    throw new RangeError(`maxWorkers must be a positive integer, got ${maxWorkers}`);
  const timeoutMs = options.questionTimeoutMs ?? 0;
  if (!Number.isFinite(timeoutMs) || timeoutMs < 0)
    throw new RangeError(`questionTimeoutMs must be ≥ 0 (0 = no limit), got ${timeoutMs}`);
  const duplicateIds = duplicateQuestionIds(questions);
  if (duplicateIds.length > 0) throw new DuplicateQuestionIdError(duplicateIds);
  let repairedBytes = 0;
  let existing: Array<Record<string, unknown>> = [];
  let droppedBadLines = 0;
  if (options.resume) {
    repairedBytes = repairTruncatedTail(outputPath);
    const read = readResults(outputPath);
    existing = read.records;
    droppedBadLines = read.badLines.length;
    if (options.configHash) {
      const hashes = new Set(
        existing
          .map((r) => (r.atr_stats as Record<string, unknown> | undefined)?.config_hash)
          .filter((h): h is string => typeof h === "string"),
      );
      hashes.delete(options.configHash);
      if (hashes.size > 0) throw new ConfigMismatchError(outputPath, [...hashes], options.configHash);
    }
  }
  const hashStat = options.configHash ? { config_hash: options.configHash } : {};

  // Which input positions still need an answer (multiset of keys).
  const remaining = finishedCounts(existing, options.retryErrors ?? false);
  const pending: number[] = [];
  questions.forEach((q, i) => {
    const key = questionKey(q);
    const left = remaining.get(key) ?? 0;
    if (left > 0) remaining.set(key, left - 1);
    else pending.push(i);
  });

  const progress: BatchProgress = {
    done: 0,
    total: pending.length,
    failed: 0,
    llmCalls: 0,
    tokens: 0,
    skipped: questions.length - pending.length,
  };
  options.onProgress?.({ ...progress });

  const writer = new ResultsWriter(outputPath, { fsync: options.fsync });
  let interrupted = false;
  const answerOne = async (index: number): Promise<void> => {
    const record = questions[index]!;
    let started = performance.now();
    let out: Record<string, unknown>;
    try {
      const extra = options.callOptions?.(record, index) ?? {};
      const result = await withTimeout(
        (signal, begin) =>
          answer(answerInput(record), {
            ...extra,
            configurable: { ...(options.configurable ?? {}) },
            trace: options.emitTrace ?? false,
            ...(signal ? { signal } : {}),
            ...(options.answerQueues
              ? {
                  started: () => {
                    started = performance.now();
                    begin();
                  },
                }
              : {}),
          }),
        timeoutMs,
        options.answerQueues ?? false,
      );
      const usage = usageOf(result.usage);
      progress.llmCalls += usage.llmCalls;
      progress.tokens += usage.tokens;
      const produced = typeof result.answer === "string" ? result.answer : String(result.answer ?? "");
      const oracle = options.oracleVerifier ? oracleStats(record, produced, result.candidates) : undefined;
      out = {
        ...record,
        agentic_tablerag_answer: oracle?.answer ?? produced,
        atr_stats: {
          latency_ms: Math.round(performance.now() - started),
          llm_calls: usage.llmCalls,
          tokens: usage.tokens,
          ...routeStats(result.trace),
          ...(typeof result.answerVerified === "boolean" ? { answer_verified: result.answerVerified } : {}),
          ...(result.tier ? { tier: result.tier } : {}),
          ...(result.errors && result.errors.length > 0 ? { errors: result.errors } : {}),
          ...(result.routes !== undefined ? { routes: result.routes } : {}),
          ...(oracle ? { oracle_verifier: oracle.stats } : {}),
          ...hashStat,
        },
      };
      if (result.provenance !== undefined) out.atr_provenance = result.provenance;
      if (options.emitTrace && result.trace !== undefined) out.atr_trace = result.trace;
    } catch (error) {
      progress.failed++;
      out = {
        ...record,
        agentic_tablerag_answer: "error",
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        atr_stats: { latency_ms: Math.round(performance.now() - started), llm_calls: 0, tokens: 0, ...hashStat },
      };
    }
    writer.write(out);
    progress.done++;
    options.onProgress?.({ ...progress });
  };
  try {
    ({ interrupted } = await forEachConcurrently(pending, maxWorkers, answerOne, options.signal));
  } finally {
    writer.close();
  }

  // Final file: input order, complete lines only.
  const { ordered, duplicates, foreign } = orderLikeInput(questions, readResults(outputPath).records);
  rewriteResultsAtomically(outputPath, [...ordered, ...foreign]);

  return {
    outputPath,
    total: questions.length,
    skipped: progress.skipped,
    answered: progress.done,
    failed: progress.failed,
    llmCalls: progress.llmCalls,
    tokens: progress.tokens,
    repairedBytes,
    droppedBadLines,
    droppedDuplicates: duplicates,
    foreignRecords: foreign.length,
    interrupted,
  };
}
