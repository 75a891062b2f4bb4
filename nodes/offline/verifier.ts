/**
 * The offline rule verifier (reference §8.4 without an LLM). Verdicts:
 * - 0.5 for no answer ("not found", empty) — as the reference does without a call;
 * - 0 for sentinels ("none", "error", "[]", the executor's failure text), raw row dumps, answers of
 *   the wrong kind for the question (a name for "how many", a number for "who"), a non-number for a
 *   count/aggregate/arithmetic operator, the filter entity itself, or an answer that is not grounded
 *   in the evidence or the SQL result (numbers computed by SQL from the table are grounded);
 * - 0.5 (plausible, not verified) when the answer passes those hard rules but is weakly supported:
 *   an SQL/HYBRID result whose plan shape has confidence below `minSqlConfidence` (learned on WTQ
 *   train), and — unless `verifyReadAnswers` — every answer read from a passage sentence or table row
 *   and every compared option found only in the text (on WTQ train these were right 8–15 % of the
 *   time whatever their question coverage), or whose sentence/row covers too little of the question;
 * - 1 otherwise: the SQL result of a confident plan, or the report-table cells the question names
 *   when located with confidence ≥ `minCellConfidence`.
 * An accepted offline answer must be trustworthy enough that a cascade could skip the LLM for it;
 * with the graph's `plausibleFallback` a 0.5 answer is still the final answer (marked unverified).
 */
import { type AnswerKind, answerKindOf, fitsKind, headerSuitsKind, isNumericKind, numericValue } from "./answer-kind.js";
import { cleanAnswer, isSentinel, splitList, withoutScale } from "./answer-format.js";
import { type EvidenceRow, aboutTitles, keyStems, normalized, parseBlocks, parseMarkdownRows, parseRows, questionPart, sentences, withoutColumnNote } from "./evidence.js";
import { CELL_CONFIDENCE, askedCell, describedRowEvidence, describedRowOf, type Bridge } from "./reader.js";
import { tableIdsIn } from "./table-context.js";
import { answerFromCells, hasPeriodTable } from "./table-cells.js";
import { parseSqlRows } from "./sql-result.js";
import { analysisOf } from "./analysis.js";
import { answerConfidence } from "./confidence.js";
import { isGrounded } from "../grounding.js";
import { sqlScalar } from "../sql-evidence.js";
import type { VerifyInput, VerifyOutput } from "../strategies.js";
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

function out(verdict: Verdict, reason: string): VerifyOutput {
  return { verdict, reason };
}

function close(a: number, b: number): boolean {
  if (a === b) return true;
  const scale = Math.max(Math.abs(a), Math.abs(b));
  return scale > 0 && Math.abs(a - b) / scale <= 0.01;
}

/** §8.4 grounding without computed numbers: a TEXT/RETRIEVE answer must be read, not derived. */
function groundedIn(answer: string, evidence: string): boolean {
  return isGrounded(answer, evidence, { allowComputed: false });
}

/** Whether the SQL result contains (or computes) the answer. */
function fromSql(answer: string, sqlResult: string): boolean {
  if (!sqlResult || isSentinel(sqlResult)) return false;
  const scalar = sqlScalar(sqlResult);
  if (scalar !== undefined && normalized(String(scalar)) === normalized(answer)) return true;
  const value = numericValue(answer.replace(/%$/, "").replace(/\s+(thousand|million|billion)$/i, ""));
  const rows = parseSqlRows(sqlResult);
  const cells = rows ? rows.flat() : [];
  if (value !== null) {
    for (const c of cells) {
      const n = typeof c === "number" ? c : numericValue(String(c ?? ""));
      if (n !== null && close(n, value)) return true;
    }
  }
  const items = splitList(answer).map(normalized);
  return items.length > 0 && items.every((item) => cells.some((c) => normalized(String(c ?? "")) === item));
}

/**
 * How much of the question the best evidence unit holding the answer covers (0..1): passage
 * sentences and table rows that contain the answer, scored by idf-weighted question words.
 */
export function supportOf(question: string, subQuery: string, answer: string, evidence: string): number {
  const target = normalized(answer);
  if (target === "") return 0;
  // Passages the sub-query names as linked from the described row ("(about: A; B)", bridge.ts):
  // the row, not the passage, matches the question's description, so their sentences count double.
  const linked = new Set(aboutTitles(subQuery).map((t) => normalized(t)).filter((t) => t !== ""));
  const units: Array<{ stems: Set<string>; holds: boolean; linked: boolean }> = [];
  for (const block of parseBlocks(evidence)) {
    const subject = sentences(block.text)[0] ?? "";
    const isLinked = linked.has(normalized(subject));
    for (const s of sentences(block.text.split("\n").filter((l) => !/^\s*\||^\s*\[Table /.test(l) && !/^\s+\S+.*:\s/.test(l)).join("\n"))) {
      const stems = keyStems(`${s} ${subject}`);
      units.push({ stems, holds: normalized(s).includes(target), linked: isLinked });
    }
  }
  for (const row of parseRows(evidence)) {
    const text = row.cells.map((c) => `${c.column} ${c.value}`).join(" ");
    units.push({ stems: keyStems(text), holds: row.cells.some((c) => normalized(c.value).includes(target)), linked: false });
  }
  const held = units.filter((u) => u.holds);
  if (held.length === 0) return 0;
  const q = keyStems(questionPart(subQuery) || question);
  const df = new Map<string, number>();
  for (const u of units) for (const s of u.stems) df.set(s, (df.get(s) ?? 0) + 1);
  const idf = (s: string) => Math.log(1 + (units.length + 1) / ((df.get(s) ?? 0) + 0.5));
  const answerStems = keyStems(answer);
  let total = 0;
  for (const s of q) if (!answerStems.has(s)) total += idf(s);
  if (total === 0) return 1;
  let best = 0;
  for (const u of held) {
    let m = 0;
    for (const s of q) if (!answerStems.has(s) && u.stems.has(s)) m += idf(s);
    best = Math.max(best, Math.min(1, (u.linked ? 2 : 1) * (m / total)));
  }
  return best;
}

/** True when the answer is just an entity the (sub-)question names, i.e. the filter value. */
function isFilterEntity(answer: string, input: VerifyInput): boolean {
  const a = normalized(answer);
  if (a.length < 2 || numericValue(answer) !== null) return false;
  const mentions = input.plan.entityMentions.map(normalized);
  if (mentions.includes(a)) return true;
  // the question's words only: the bridge note names the described row's linked passages, which may hold the answer
  return ` ${normalized(questionPart(input.subQuery))} `.includes(` ${a} `);
}

/** The SELECT list of a statement and whether it computes (aggregates or arithmetic). */
function selectList(sql: string): { columns: string[][]; computed: boolean; hasWhere: boolean } | undefined {
  const m = /^\s*(?:WITH\b[\s\S]*?\)\s*)?SELECT\s+(?:DISTINCT\s+)?([\s\S]*?)\s+FROM\s/i.exec(sql);
  if (!m) return undefined;
  const list = m[1]!;
  const computed = /\b(COUNT|SUM|AVG|TOTAL|MAX|MIN|ROUND|ABS|CAST)\s*\(|[-+*/]\s*[("\d]/i.test(list);
  const columns = [...list.matchAll(/"([^"]+)"/g)].map((c) => c[1]!.replace(/__raw$/, "").split(/_+/).filter((w) => w !== ""));
  return { columns, computed, hasWhere: /\bWHERE\b/i.test(sql.slice(m.index + m[0].length)) };
}

/**
 * Why an SQL answer, although it is the SQL result, does not answer the question: a several-item
 * answer to a single-answer question; a count over the whole table although the question names
 * entities; a looked-up column that shares no word with the question and does not hold the asked
 * kind (e.g. a name column for "what was the position …"). Undefined when none applies.
 */
function sqlShapeProblem(input: VerifyInput, kind: AnswerKind, itemCount: number): string | undefined {
  const analysis = input.plan.analysis as { listAnswer?: boolean; targetHints?: string[] } | undefined;
  if (itemCount > 1 && analysis?.listAnswer === false) return `the SQL returned ${itemCount} values for a single-answer question`;
  if (!input.sql) return undefined;
  const select = selectList(input.sql);
  if (!select) return undefined;
  if (select.computed) {
    // Beside passages, "how many …" mostly asks for a number some passage or cell states: a count of
    // the whole table, or of the one row an entity names, is rarely it (HybridQA dev: 1 of 18 right).
    const counted = /\bCOUNT\s*\(\s*\*\s*\)/i.test(input.sql) && !/\bGROUP BY\b/i.test(input.sql);
    if (input.plan.requiredModalities !== "table" && counted && (!select.hasWhere || (numericValue(input.answer) ?? 0) <= 1)) {
      return "a count of table rows, but beside passages the number asked for is usually stated, not counted";
    }
    if (!select.hasWhere && input.plan.entityMentions.length > 0 && /\bCOUNT\s*\(/i.test(input.sql) && !/\bGROUP BY\b/i.test(input.sql)) {
      return "the SQL counts the whole table although the question names entities to filter on";
    }
    return undefined;
  }
  // The looked-up column must carry what the question asks for (its target words, e.g. "position"
  // in "what was the position of the top scorer"), not merely the words that select the row.
  // With passages beside the tables (modality not "table"), a question may select a row by its
  // words and ask for something only a passage holds: the column must then carry the question's
  // target words ("position" in "what was the position of the top scorer"). Over tables alone the
  // column names vary too much ("film" for "movie") for this check to pay. "name"/"date"/"location"
  // stand for who/when/where (the kind check).
  if (input.plan.requiredModalities === "table") return undefined;
  // The wh-phrase's noun names the target; later hint words may describe the row ("top scorer").
  const wh = whNoun(input.subQuery);
  const allHints = wh.length ? wh : (analysis?.targetHints ?? []).slice(0, 1);
  const hints = allHints.filter((h) => !/^(name|date|location)$/.test(h));
  if (allHints.length === 0 && kind !== "person" && kind !== "place" && kind !== "year" && kind !== "date") return undefined;
  const question = keyStems(hints.join(" "));
  for (const words of select.columns) {
    const stems = keyStems(words.join(" "));
    if ([...stems].some((s) => question.has(s)) || headerSuitsKind(words, kind)) return undefined;
  }
  return select.columns.length ? `the answer column "${select.columns[0]!.join(" ")}" is not what the question asks for` : undefined;
}

/** Every table row of the evidence: `[Table …, row …]` blocks and markdown table rows. */
function evidenceRows(evidence: string): EvidenceRow[] {
  const blocks = parseRows(evidence).filter((r) => r.tableId !== "" && /\[Table /.test(evidence));
  const markdown = parseBlocks(evidence).flatMap((b) => parseMarkdownRows(b.text, b.source));
  return [...(/\[Table [^\]]+, row \d+\]/.test(evidence) ? blocks : []), ...markdown];
}

/** The evidence's report-table cells, located by the question, when they give this answer. */
function fromCells(answer: string, input: VerifyInput): { operation: string; confidence: number } | undefined {
  const cells = answerFromCells(input.subQuery || input.question, evidenceRows(input.evidence), input.evidence);
  if (!cells || !cells.periodTable || cells.confidence < CELL_CONFIDENCE) return undefined;
  const same = normalized(withoutScale(cells.answer)) === normalized(withoutScale(answer));
  return same ? { operation: cells.operation, confidence: cells.confidence } : undefined;
}

/** The noun of "what/which (is the) <noun> …" ("position" in "what was the position in college of …"). */
function whNoun(question: string): string[] {
  const m = /\b(?:what|which)\s+(?:is\s+|was\s+|are\s+|were\s+)?(?:the\s+)?([a-z][a-z-]+)/i.exec(question);
  const noun = m?.[1]?.toLowerCase();
  return noun && !/^(is|was|are|were|did|does|do|has|have|had|of|one|kind|type|name)$/.test(noun) ? [noun] : [];
}

/** "Which club …", "who …": a named thing, unless the noun asks for a number, year or rank. */
function asksForName(question: string, kind: AnswerKind): boolean {
  if (kind !== "entity" && kind !== "person" && kind !== "place") return false;
  const m = /^\s*(?:which|who|whom)\b\s*([a-z-]+)?/i.exec(question);
  if (!m) return false;
  return !/^(year|years|season|seasons|date|time|day|month|week|edition|round|game|match|episode|number|no|rank|place|position|score|grade|level|term|one|of|is|was|are|were)$/i.test(m[1] ?? "is");
}

/**
 * RETRIEVE: the column of the cell that holds the answer (in the evidence rows) should carry the
 * question's target words or suit the asked kind; otherwise the reader took a value from the
 * wrong column (e.g. the club for "what is the nickname of the club …"). Undefined when fine.
 */
function rowColumnProblem(input: VerifyInput, answer: string, kind: AnswerKind): string | undefined {
  const hints = ((input.plan.analysis as { targetHints?: string[] } | undefined)?.targetHints ?? []).filter((h) => !/^(name|date|location)$/.test(h));
  if (hints.length === 0) return undefined;
  const target = keyStems(hints.join(" "));
  const a = normalized(answer);
  const columns = new Set<string>();
  for (const row of evidenceRows(input.evidence)) for (const c of row.cells) if (normalized(c.value) === a) columns.add(c.column);
  if (columns.size === 0) return undefined;
  for (const column of columns) {
    const words = column.split(/[\s_›]+/).filter((w) => w !== "");
    if ([...keyStems(column)].some((s) => target.has(s)) || headerSuitsKind(words, kind)) return undefined;
  }
  return `the answer comes from column "${[...columns][0]}", not the asked "${hints.join(" ")}"`;
}

/** How many evidence rows hold one of the question's entity mentions as a cell value. */
function rowsNamingMentions(input: VerifyInput): number {
  const mentions = new Set(input.plan.entityMentions.map(normalized).filter((m) => m !== ""));
  if (mentions.size === 0) return 0;
  return parseRows(input.evidence).filter((row) => row.cells.some((c) => mentions.has(normalized(c.value)))).length;
}

/** The rule verifier as a pure function. */
export function verifyAnswer(input: VerifyInput, options: RuleVerifierOptions = {}): VerifyOutput {
  const minSupport = options.minSupport ?? DEFAULT_MIN_SUPPORT;
  const raw = input.answer ?? "";
  const answer = cleanAnswer(raw);
  if (answer === "" || answer.toLowerCase() === "not found") return out(0.5, "no answer was produced");
  if (isSentinel(answer)) return out(0, `the answer "${answer}" is a sentinel, not a value`);
  if (/^\s*[[{]/.test(raw) && parseSqlRows(raw) !== undefined) return out(0, "the answer is a raw row dump, not a minimal answer");

  const kind = answerKindOf(input.plan, input.subQuery || input.question);
  const analysis = input.plan.analysis as { comparison?: { options?: string[] } | null } | undefined;
  const items = splitList(answer);
  // The TEXT/RETRIEVE readers follow the described row's links to its passages (reader.ts), which
  // retrieval may not have returned: they are evidence too.
  const row = input.route === "TEXT" || input.route === "RETRIEVE" ? describedRowOf(options.bridge, input, input.evidence) : undefined;
  // The described row's cell under the header the question asks for ("What is the score …" → Score:
  // "4 - 3", "What is the register number …" → "79112-054") answers whatever kind or operator the
  // wording suggested.
  const askedColumn = row !== undefined && normalized(askedCell(input, row) ?? "") === normalized(answer);
  if (!askedColumn && !items.every((item) => fitsKind(item, kind))) return out(0, `a ${kind} answer was expected, got "${answer}"`);
  if (asksForName(input.subQuery || input.question, kind) && items.every((item) => numericValue(item) !== null)) {
    return out(0, `"${answer}" is a number, but the question asks which one`);
  }
  const operator = input.plan.expectedOperator;
  if (!askedColumn && (operator === "count" || operator === "arithmetic") && numericValue(answer.replace(/%$/, "").replace(/\s+(thousand|million|billion)$/i, "")) === null) {
    return out(0, `operator ${operator} needs a number, got "${answer}"`);
  }
  const isChoice = kind === "choice" || kind === "boolean" || kind === "moreless" || (analysis?.comparison?.options?.length ?? 0) > 0;
  if (!isChoice && isFilterEntity(answer, input)) return out(0, "the answer is the filter entity named in the question, not the asked attribute");

  const cells = fromCells(answer, input);
  if (cells) {
    const note = `(${cells.operation}, cell confidence ${cells.confidence.toFixed(2)})`;
    if (cells.confidence < (options.minCellConfidence ?? DEFAULT_MIN_CELL_CONFIDENCE)) {
      return out(0.5, `the table cells the question names give the answer, but were located with low confidence ${note}`);
    }
    if (!VERIFIED_CELL_OPERATIONS.has(cells.operation)) {
      return out(0.5, `the table cells the question names give the answer, but ${cells.operation} answers are too often off by convention ${note}`);
    }
    return out(1, `the answer is computed from (or read at) the table cells the question names ${note}`);
  }
  const computed = (input.route === "SQL" || input.route === "HYBRID") && fromSql(answer, input.sqlResult);
  if (computed) {
    const shape = isChoice ? undefined : sqlShapeProblem(input, kind, items.length);
    if (shape) return out(0.5, shape);
    // Report tables (values at row label × period) beside passages: a SQL value the located cells do
    // not give is most often a wrong row or period; the cell readers of the other routes decide.
    if (input.plan.requiredModalities !== "table" && hasPeriodTable(evidenceRows(input.evidence))) {
      return out(0.5, "on a report table the SQL value is not the one at the cells the question names");
    }
    // SQL answers are computed from the table; a zero count/sum is plausible but unconfirmed.
    if (isNumericKind(kind) && numericValue(answer) === 0) return out(0.5, "the SQL result is 0, which may hide a wrong filter");
    // The plan confidence was learned on WTQ (no passages): when the question describes a row whose
    // cells link to passages (HybridQA), the answer is most often in those passages, not the SQL
    // value (HybridQA dev: 0 of 11 such accepted SQL answers right).
    if (describesLinkedRow(input, options.bridge)) {
      return out(0.5, "the question describes a row with linked passages; the SQL value is plausible, not verified");
    }
    // A plan shape that is often wrong on WTQ train: the answer is plausible, not verified.
    const confidence = answerConfidence(analysisOf(input.plan), input.sqlResult);
    const note = confidence === undefined ? "" : ` (plan confidence ${confidence.toFixed(2)})`;
    if (confidence !== undefined && confidence < (options.minSqlConfidence ?? DEFAULT_MIN_SQL_CONFIDENCE)) {
      return out(0.5, `the SQL plan's shape is too often wrong for its result to be verified${note}`);
    }
    return out(1, `the answer is the SQL result (computed from the table) and has the expected type${note}`);
  }
  if (input.route === "RETRIEVE" && !isChoice) {
    const column = rowColumnProblem(input, answer, kind);
    if (column) return out(0.5, column);
  }
  if (input.route === "RETRIEVE" || input.route === "TEXT") {
    const spread = rowsNamingMentions(input);
    if ((operator === "count" || operator === "aggregate") && spread > 1) {
      return out(0.5, `a ${operator} over ${spread} matching rows cannot be read from one cell`);
    }
  }
  const evidenceText = [input.evidence, input.sqlResult, row ? describedRowEvidence(row) : ""].filter((s) => s && s.trim()).join("\n\n");
  if (!items.every((item) => groundedIn(item, evidenceText))) return out(0, "the answer does not appear in the evidence or the SQL result");
  const read: Verdict = options.verifyReadAnswers ? 1 : 0.5;
  if (isChoice) return out(read, "the answer is one of the compared options and appears in the evidence");
  const supportQuery = input.route === "TEXT" ? bridgedQuery(input, options.bridge) : input.subQuery;
  const support = Math.min(...items.map((item) => supportOf(input.question, supportQuery, item, input.evidence)));
  if (support < minSupport) return out(0.5, `the evidence holding the answer covers only ${(support * 100).toFixed(0)}% of the question`);
  return out(read, `the answer has the expected type and its sentence/row in the evidence matches the question (support ${support.toFixed(2)})`);
}

/** Strategies.verify for the offline backbone. */
export async function verify(input: VerifyInput): Promise<VerifyOutput> {
  return verifyAnswer(input);
}

/** Strategies.verify that credits passages linked from the row the question describes (bridge.ts). */
export function createVerify(bridge: Bridge): (input: VerifyInput) => Promise<VerifyOutput> {
  return async (input) => verifyAnswer(input, { bridge });
}

/** Does the sub-query describe a table row whose cells link to passages (bridge.ts)? */
function describesLinkedRow(input: VerifyInput, bridge: Bridge | undefined): boolean {
  return /\(about:/.test(input.subQuery) || bridgedQuery(input, bridge) !== input.subQuery;
}

/** The sub-query with the titles of the passages linked from the described row, as the TEXT reader used it. */
function bridgedQuery(input: VerifyInput, bridge: Bridge | undefined): string {
  if (!bridge || /\(about:/.test(input.subQuery)) return input.subQuery;
  for (const id of tableIdsIn(input.evidence)) {
    const q = bridge(withoutColumnNote(input.subQuery) || input.question, id);
    if (q) return q;
  }
  return input.subQuery;
}
