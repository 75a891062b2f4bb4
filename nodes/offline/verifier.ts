/**
 * The offline verifier (reference §8.4 without an LLM), in two layers.
 *
 * 1. Rule checks (`verifyAnswer`, the checks in answer-checks.ts) give a named verdict: 0.5 for no
 *    answer; 0 for sentinels, raw row dumps, answers of the wrong kind for the question, a
 *    non-number for a count/arithmetic operator, the filter entity itself, or an answer grounded
 *    neither in the evidence nor in the SQL result; 0.5 for weakly supported answers (an SQL plan
 *    shape often wrong on WTQ train, a read answer whose sentence covers little of the question…);
 *    1 for the SQL result of a confident plan or report-table cells located with confidence.
 * 2. The learned verifier (`createVerify` with models/answer-verifier.json): a calibrated
 *    P(correct) from the candidate's features (answer-features.ts: the rule code, route, plan
 *    shape, answer shape, and whether other routes found the same answer), trained on the training
 *    splits (`atr train-verifier`). Verdict 1 at P ≥ the model's threshold (chosen on the training
 *    splits for ≥ 85 % precision), 0 when the rule checks found a contradiction, 0.5 otherwise; the
 *    graph's final answer is the question's candidate with the highest P (nodes/synthesize.ts).
 * Without the model file the rule verdict is the verdict.
 */
import { answerKindOf, fitsKind, isNumericKind, numericValue } from "./answer-kind.js";
import {
  asksForName,
  bridgedQuery,
  describesLinkedRow,
  evidenceRows,
  fromCells,
  fromSql,
  groundedIn,
  isFilterEntity,
  rowColumnProblem,
  rowsNamingMentions,
  sqlShapeProblem,
  supportOf,
} from "./answer-checks.js";
import { cleanAnswer, isSentinel, splitList } from "./answer-format.js";
import { askedCell, describedRowEvidence, describedRowOf, type Bridge } from "./reader.js";
import { hasPeriodTable } from "./table-cells.js";
import { normaliseForContainment } from "../../text/normalise.js";
import { parseSqlRows } from "./sql-result.js";
import { analysisOf } from "./analysis.js";
import { answerConfidence } from "./confidence.js";
import type { VerifyInput, VerifyOutput } from "../strategies.js";
import { answerFeatures } from "./answer-features.js";
import { TARGET_SPELLED_TEXT, TARGET_YEARS } from "./plans/candidate-features.js";
import { answerModel, scoreFeatures, strongestFeatures, thresholdFor } from "./answer-model.js";
import type { Verdict } from "../types.js";

export interface RuleVerifierOptions {
  /** Names the passages linked from the row a question describes; their titles count as support. */
  bridge?: Bridge;
  /** Minimum question coverage of the answer's sentence/row for verdict 1 on TEXT/RETRIEVE (default 0.45). */
  minSupport?: number;
  /**
   * Minimum plan confidence (confidence.ts `answerConfidence`, learned on WTQ train) for verdict 1 on
   * an SQL/HYBRID answer; below it the answer is plausible (0.5). Default DEFAULT_MIN_SQL_CONFIDENCE.
   */
  minSqlConfidence?: number;
  /** Minimum confidence of the located report-table cells (table-cells.ts) for verdict 1 (default DEFAULT_MIN_CELL_CONFIDENCE). */
  minCellConfidence?: number;
  /** Verdict 1 for sufficiently supported read answers (TEXT/RETRIEVE sentences and rows, text-only choices); default false. */
  verifyReadAnswers?: boolean;
}

const DEFAULT_MIN_SUPPORT = 0.45;
/** Chosen on WTQ train (README "Offline backbone", accepted-answer precision). */
export const DEFAULT_MIN_SQL_CONFIDENCE = 0.6;
/** Chosen on TAT-QA dev (no report-table training split): located cells at ≥ 0.8 were right 71 % of the time. */
export const DEFAULT_MIN_CELL_CONFIDENCE = 0.8;
/**
 * Report-table operations whose located-cell answers are verified (TAT-QA dev, the only report-table
 * data: percent change 23/28, lists 35/43, averages 21/27 right). Single-cell lookups (19/40: the gold
 * scale word is inconsistent), differences (26/46: sign and bracket conventions), sums and ratios stay
 * plausible (0.5).
 */
export const VERIFIED_CELL_OPERATIONS: ReadonlySet<string> = new Set(["percent_change", "list", "average"]);

/** The named outcomes of the rule checks, in the order verifyAnswer tries them. */
export const RULE_CODES = [
  "no-answer",
  "sentinel",
  "row-dump",
  "wrong-kind",
  "number-for-which",
  "operator-needs-number",
  "filter-entity",
  "cells-low-confidence",
  "cells-convention",
  "cells",
  "sql-shape",
  "sql-report-table",
  "sql-zero",
  "sql-linked-row",
  "sql-low-confidence",
  "sql",
  "row-column",
  "spread",
  "ungrounded",
  "choice",
  "low-support",
  "read",
] as const;
export type RuleCode = (typeof RULE_CODES)[number];

/** A rule verdict with the name of the check that decided it. */
export interface RuleVerdict extends VerifyOutput {
  code: RuleCode;
}

/** Rule outcomes no model may overturn: there is no value to accept. */
const NO_VALUE: ReadonlySet<RuleCode> = new Set(["no-answer", "sentinel", "row-dump"]);

function out(verdict: Verdict, code: RuleCode, reason: string): RuleVerdict {
  return { verdict, code, reason };
}

/** The rule verifier as a pure function. */
export function verifyAnswer(input: VerifyInput, options: RuleVerifierOptions = {}): RuleVerdict {
  const minSupport = options.minSupport ?? DEFAULT_MIN_SUPPORT;
  const raw = input.answer ?? "";
  const answer = cleanAnswer(raw);
  if (answer === "" || answer.toLowerCase() === "not found") return out(0.5, "no-answer", "no answer was produced");
  if (isSentinel(answer)) return out(0, "sentinel", `the answer "${answer}" is a sentinel, not a value`);
  if (/^\s*[[{]/.test(raw) && parseSqlRows(raw) !== undefined)
    return out(0, "row-dump", "the answer is a raw row dump, not a minimal answer");

  const kind = answerKindOf(input.plan, input.subQuery || input.question);
  const analysis = input.plan.analysis as { comparison?: { options?: string[] } | null } | undefined;
  const items = splitList(answer);
  // The TEXT/RETRIEVE readers follow the described row's links to its passages (reader.ts), which
  // retrieval may not have returned: they are evidence too.
  const row =
    input.route === "TEXT" || input.route === "RETRIEVE"
      ? describedRowOf(options.bridge, input, input.evidence)
      : undefined;
  // The described row's cell under the header the question asks for ("What is the score …" → Score:
  // "4 - 3", "What is the register number …" → "79112-054") answers whatever kind or operator the
  // wording suggested.
  const askedColumn =
    row !== undefined && normaliseForContainment(askedCell(input, row) ?? "") === normaliseForContainment(answer);
  const columnFacts = {
    yearColumn: input.sqlPlan?.features[TARGET_YEARS] === 1,
    spelledTextColumn: input.sqlPlan?.features[TARGET_SPELLED_TEXT] === 1,
  };
  if (!askedColumn && !items.every((item) => fitsKind(item, kind, columnFacts)))
    return out(0, "wrong-kind", `a ${kind} answer was expected, got "${answer}"`);
  if (asksForName(input.subQuery || input.question, kind) && items.every((item) => numericValue(item) !== null)) {
    return out(0, "number-for-which", `"${answer}" is a number, but the question asks which one`);
  }
  const operator = input.plan.expectedOperator;
  if (
    !askedColumn &&
    (operator === "count" || operator === "arithmetic") &&
    numericValue(answer.replace(/%$/, "").replace(/\s+(thousand|million|billion)$/i, "")) === null
  ) {
    return out(0, "operator-needs-number", `operator ${operator} needs a number, got "${answer}"`);
  }
  const isChoice =
    kind === "choice" || kind === "boolean" || kind === "moreless" || (analysis?.comparison?.options?.length ?? 0) > 0;
  if (!isChoice && isFilterEntity(answer, input))
    return out(0, "filter-entity", "the answer is the filter entity named in the question, not the asked attribute");

  const cells = fromCells(answer, input);
  if (cells) {
    const note = `(${cells.operation}, cell confidence ${cells.confidence.toFixed(2)})`;
    if (cells.confidence < (options.minCellConfidence ?? DEFAULT_MIN_CELL_CONFIDENCE)) {
      return out(
        0.5,
        "cells-low-confidence",
        `the table cells the question names give the answer, but were located with low confidence ${note}`,
      );
    }
    if (!VERIFIED_CELL_OPERATIONS.has(cells.operation)) {
      return out(
        0.5,
        "cells-convention",
        `the table cells the question names give the answer, but ${cells.operation} answers are too often off by convention ${note}`,
      );
    }
    return out(1, "cells", `the answer is computed from (or read at) the table cells the question names ${note}`);
  }
  const computed = (input.route === "SQL" || input.route === "HYBRID") && fromSql(answer, input.sqlResult);
  if (computed) {
    const shape = isChoice ? undefined : sqlShapeProblem(input, kind, items.length);
    if (shape) return out(0.5, "sql-shape", shape);
    // Report tables (values at row label × period) beside passages: a SQL value the located cells do
    // not give is most often a wrong row or period; the cell readers of the other routes decide.
    if (input.plan.requiredModalities !== "table" && hasPeriodTable(evidenceRows(input.evidence))) {
      return out(
        0.5,
        "sql-report-table",
        "on a report table the SQL value is not the one at the cells the question names",
      );
    }
    // SQL answers are computed from the table; a zero count/sum is plausible but unconfirmed.
    if (isNumericKind(kind) && numericValue(answer) === 0)
      return out(0.5, "sql-zero", "the SQL result is 0, which may hide a wrong filter");
    // The plan confidence was learned on WTQ (no passages): when the question describes a row whose
    // cells link to passages (HybridQA), the answer is most often in those passages, not the SQL
    // value (HybridQA dev: 0 of 11 such accepted SQL answers right).
    if (describesLinkedRow(input, options.bridge)) {
      return out(
        0.5,
        "sql-linked-row",
        "the question describes a row with linked passages; the SQL value is plausible, not verified",
      );
    }
    // A plan shape that is often wrong on WTQ train: the answer is plausible, not verified.
    const confidence = answerConfidence(analysisOf(input.plan), input.sqlResult);
    const note = confidence === undefined ? "" : ` (plan confidence ${confidence.toFixed(2)})`;
    if (confidence !== undefined && confidence < (options.minSqlConfidence ?? DEFAULT_MIN_SQL_CONFIDENCE)) {
      return out(
        0.5,
        "sql-low-confidence",
        `the SQL plan's shape is too often wrong for its result to be verified${note}`,
      );
    }
    return out(1, "sql", `the answer is the SQL result (computed from the table) and has the expected type${note}`);
  }
  if (input.route === "RETRIEVE" && !isChoice) {
    const column = rowColumnProblem(input, answer, kind);
    if (column) return out(0.5, "row-column", column);
  }
  if (input.route === "RETRIEVE" || input.route === "TEXT") {
    const spread = rowsNamingMentions(input);
    if ((operator === "count" || operator === "aggregate") && spread > 1) {
      return out(0.5, "spread", `a ${operator} over ${spread} matching rows cannot be read from one cell`);
    }
  }
  const evidenceText = [input.evidence, input.sqlResult, row ? describedRowEvidence(row) : ""]
    .filter((s) => s && s.trim())
    .join("\n\n");
  if (!items.every((item) => groundedIn(item, evidenceText)))
    return out(0, "ungrounded", "the answer does not appear in the evidence or the SQL result");
  const read: Verdict = options.verifyReadAnswers ? 1 : 0.5;
  if (isChoice) return out(read, "choice", "the answer is one of the compared options and appears in the evidence");
  const supportQuery = input.route === "TEXT" ? bridgedQuery(input, options.bridge) : input.subQuery;
  const support = Math.min(...items.map((item) => supportOf(input.question, supportQuery, item, input.evidence)));
  if (support < minSupport)
    return out(
      0.5,
      "low-support",
      `the evidence holding the answer covers only ${(support * 100).toFixed(0)}% of the question`,
    );
  return out(
    read,
    "read",
    `the answer has the expected type and its sentence/row in the evidence matches the question (support ${support.toFixed(2)})`,
  );
}

export interface VerifierContext {
  /** Names the passages linked from the row a question describes (bridge.ts). */
  bridge?: Bridge;
  /** Does the index hold passages beside its tables (a feature of the learned verifier)? */
  hasPassages?: boolean;
}

/** How many earlier attempts of other routes found this answer, for the reason text. */
function agreementNote(features: Record<string, number>): string {
  if (features["agree=2+"]) return "; two or more earlier attempts found the same answer";
  if (features["agree=1"]) return "; an earlier attempt found the same answer";
  return "";
}

/**
 * The verdict of the learned verifier: P(correct) from the candidate's features; verdict 1 at
 * P ≥ threshold (a threshold of 1 never accepts), 0 when the rule checks found a contradiction,
 * 0.5 otherwise. Without a model the rule verdict decides; answers that hold no value keep theirs.
 */
export function learnedVerdict(input: VerifyInput, rule: RuleVerdict, context: VerifierContext = {}): VerifyOutput {
  if (NO_VALUE.has(rule.code)) return { verdict: rule.verdict, reason: rule.reason };
  const features = answerFeatures(input, {
    ruleCode: rule.code,
    hasPassages: context.hasPassages ?? false,
    ...(context.bridge ? { bridge: context.bridge } : {}),
  });
  const model = answerModel();
  if (!model) {
    // A threshold of 1 never accepts, with or without a model (exploration runs for training).
    const never = (input.acceptThreshold ?? 0) >= 1 && rule.verdict === 1;
    return {
      verdict: never ? 0.5 : rule.verdict,
      reason: never ? `not verified (accept threshold 1): ${rule.reason}` : rule.reason,
      features,
    };
  }
  const p = Math.min(0.999, scoreFeatures(model, features));
  const threshold = input.acceptThreshold ?? thresholdFor(model, features);
  const verdict: Verdict = p >= threshold && threshold < 1 ? 1 : rule.verdict === 0 ? 0 : 0.5;
  const pText = `P(correct) ${p.toFixed(2)} ${p >= threshold ? "≥" : "<"} ${threshold.toFixed(2)}`;
  const why = strongestFeatures(model.scorer, features).join(", ");
  const lead = verdict === 1 ? "accepted" : verdict === 0 ? "rejected" : "not verified";
  return {
    verdict,
    reason: `${lead}, ${pText}: ${rule.reason}${agreementNote(features)} [${why}]`,
    pCorrect: Math.round(p * 1000) / 1000,
    features,
  };
}

/** Strategies.verify for the offline backbone without an index (no bridge, no passages). */
export async function verify(input: VerifyInput): Promise<VerifyOutput> {
  return learnedVerdict(input, verifyAnswer(input));
}

/** Strategies.verify over an index: credits passages linked from the row the question describes (bridge.ts). */
export function createVerify(
  bridge: Bridge,
  context: Omit<VerifierContext, "bridge"> = {},
): (input: VerifyInput) => Promise<VerifyOutput> {
  return async (input) => learnedVerdict(input, verifyAnswer(input, { bridge }), { ...context, bridge });
}

export { supportOf };
