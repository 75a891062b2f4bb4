/**
 * Every step that the paper performs with an LLM prompt is one method of `Strategies`. There are two
 * implementations: prompted (any LangChain chat model; nodes/prompted/…) and offline (deterministic;
 * nodes/offline/). Nodes call these methods and never know which one they hold. The configuration
 * chooses per component (backbone, decomposerBackbone, verifierBackbone).
 *
 * Every method returns plain data. A strategy that fails throws; the calling node applies the
 * reference's fail-closed rule (decomposer → TERMINATE, verifier → 0.5, reader → "not found").
 */
import type { AnswerCandidate, LinkedValue, Operator, Route, Step, SubQueryPlan, Verdict } from "./types.js";
import type { CellEntry, SchemaEntry, TableSchema } from "../indexing/types.js";
import type { SqlDialect } from "../retrievers/sql-dialect.js";

export interface DecomposeInput {
  question: string;
  tableId?: string;
  history: Step[];
  consecutiveFailures: number;
  schemaPreview: string;
  /** Cascade: what the offline tier found (graph/cascade.ts); prompted decomposers show it as history. */
  priorFindings?: string;
}

/** What the LLM router sees (reference §5.2). */
export interface RouteProfile {
  subQuery: string;
  plan: SubQueryPlan;
  hasSchema: boolean;
  schemaFeature: string;
  failedRoutes: Route[];
  historyFeature: string;
}

export interface LinkValueInput {
  entity: string;
  subQuery: string;
  /** Validated candidates (already restricted to C). */
  candidates: CellEntry[];
  /** Schema entry of the most frequent column among the candidates. */
  primaryColumn?: SchemaEntry;
}

export interface LinkValueOutput {
  matchedValue: string; // verbatim candidate value or "no_match"
  matchedColumn: string; // "" when not given
  confidence: number;
}

export interface WriteSqlInput {
  /** The augmented sub-query (arithmetic hint, CONTEXT, TYPE NOTE blocks). */
  query: string;
  /** The bare sub-query and its plan, for strategies that analyse the question themselves. */
  subQuery: string;
  plan: SubQueryPlan;
  originalQuestion: string;
  /** Allowed columns C with their full table schemas (physical names included). */
  allowedColumns: SchemaEntry[];
  tables: TableSchema[];
  /** Matched linked values V* (fallback level 0 or 2). */
  bindings: LinkedValue[];
  expectedAnswerType: string;
  /** Retrieval evidence text (≤ 800 chars in the prompt). */
  evidence: string;
  /** The full constraint prompt as the reference builds it (for prompted strategies). */
  prompt: string;
  /** Present on a repair attempt: the rejected SQL and why. */
  repair?: { sql: string; violations: string[] };
  /** The View 5 store's SQL dialect (SQLite when absent). */
  dialect?: SqlDialect;
  /** "all": name candidates with every feature family, not only the shipped verifier's (nodes/offline/feature-families.ts). */
  verifierFeatures?: "all";
}

export interface ReadTextInput {
  question: string;
  subQuery: string;
  plan: SubQueryPlan;
  /** The selected chunks rendered as `[Source: file]\ntext` blocks. */
  evidence: string;
}

export interface ReadRowsInput {
  question: string;
  subQuery: string;
  plan: SubQueryPlan;
  schemaInfo: string;
  cellInfo: string;
  /** `[Table <id>, row <idx>]` blocks, or table-chunk markdown. */
  tableContext: string;
  bindings: LinkedValue[];
}

export interface FuseInput {
  question: string;
  subQuery: string;
  plan: SubQueryPlan;
  route: Route;
  textEvidence: string;
  schemaEvidence: string;
  sqlResult: string;
  markdown: string;
}

export interface VerifyInput {
  /** The original question (our improvement: the reference shows the sub-query only). */
  question: string;
  subQuery: string;
  plan: SubQueryPlan;
  route: Route;
  answer: string;
  /** Non-empty parts of [text evidence, route evidence, SQL result] joined by blank lines. */
  evidence: string;
  sqlResult: string;
  /** The SQL that produced sqlResult, when there was one. */
  sql?: string;
  /** The route the router asked for (differs from `route` when the value linker fell back to TEXT). */
  requestedRoute?: Route;
  /** 1-based attempt number within the sub-query. */
  attempt?: number;
  /** The question's earlier attempts, oldest first: whether other routes found the same answer. */
  earlier?: ReadonlyArray<{ route: Route; answer: string; subQuery: string }>;
  /** Accept (verdict 1) at P(correct) ≥ this; absent: the learned verifier's own threshold. */
  acceptThreshold?: number;
  /** "all": compute every optional feature family, not only the shipped model's (nodes/offline/feature-families.ts). */
  verifierFeatures?: "all";
  /** The SQL plan that produced `sql`, when the writer named it (writeSqlCandidates). */
  sqlPlan?: Omit<SqlCandidate, "sql">;
  /** The reader's features of this answer among its candidates (nodes/offline/reader-candidates.ts). */
  readerFeatures?: Record<string, number>;
  /** The answers of the same SQL attempt's other candidates (other generators, other target columns): do they agree? */
  sqlSiblingAnswers?: string[];
}

/** One SQL statement a writer proposes, named by the plan that built it, with the features the verifier reads. */
export interface SqlCandidate {
  sql: string;
  /** The plan generator's name ("superlative.order"). */
  name: string;
  /** Its SQL template ("argmax"). */
  template: string;
  /** Named features of the candidate (0..1), merged into the verifier's. */
  features: Record<string, number>;
}

export interface VerifyOutput {
  verdict: Verdict;
  reason: string;
  /** Estimated probability that the answer is right (learned verifiers only). */
  pCorrect?: number;
  /** The named features behind pCorrect (learned verifiers only). */
  features?: Record<string, number>;
}

export interface SynthesizeInput {
  question: string;
  /** Accepted steps only. */
  steps: Step[];
}

/** Usage of one strategy call, added to the state's summed usage by the calling node. */
export interface CallUsage {
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
}

export interface Strategies {
  /** "offline" or the model id, for traces and run metadata. */
  readonly name: string;
  /**
   * When true, SQL scalars also go through `fuse` instead of the §8.2 fast path (the offline fusion
   * formats them: "%" for percentages, the declared scale word). Default false (reference behaviour).
   */
  readonly fuseScalars?: boolean;
  decompose(input: DecomposeInput): Promise<SubQueryPlan>;
  chooseRoute(input: RouteProfile): Promise<string>;
  linkValue(input: LinkValueInput): Promise<LinkValueOutput>;
  writeSql(input: WriteSqlInput): Promise<string>;
  /**
   * Optional: several candidate statements for the same input, the first being writeSql's; each is
   * guarded and run, and each answer becomes a candidate for the verifier (the offline plan registry).
   */
  writeSqlCandidates?(input: WriteSqlInput): Promise<SqlCandidate[]>;
  readText(input: ReadTextInput): Promise<string>;
  readRows(input: ReadRowsInput): Promise<string>;
  /**
   * Optional: the reading's best few answers (best first, distinct, at most 4) with their features;
   * the first is what readText would answer. The verify node judges and traces each one.
   */
  readTextCandidates?(input: ReadTextInput): Promise<AnswerCandidate[]>;
  readRowsCandidates?(input: ReadRowsInput): Promise<AnswerCandidate[]>;
  fuse(input: FuseInput): Promise<string>;
  verify(input: VerifyInput): Promise<VerifyOutput>;
  synthesize(input: SynthesizeInput): Promise<string>;
}

/** Operators the reference calls aggregate-like (§5). */
export const AGGREGATE_LIKE: ReadonlySet<Operator> = new Set(["count", "aggregate", "sort", "arithmetic", "compare"]);
