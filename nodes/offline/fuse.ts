/**
 * Offline evidence fusion for the SQL and HYBRID routes (reference §8.2 without an LLM):
 * 0. Beside passages, on report tables (row label × period, table-cells.ts), the located cells and
 *    their arithmetic first: SQL often cannot address a period column of such tables.
 * 1. The SQL result: a scalar for count/aggregate/arithmetic questions; a zero or empty
 *    result of a lookup is trusted only when the table markdown does not say otherwise; several
 *    rows become a list of the asked column (the one whose name carries the question's target words
 *    and whose values the question does not already name).
 * 2. Otherwise the table chunks and passages, read by the extractive reader.
 * 3. "not found" when everything is empty.
 * Numbers get "%" for percentage questions and the evidence's declared scale ("in thousands") for
 * amounts, as TAT-QA's scorer expects.
 */
import { analysisOf, analyzeQuestion, type QuestionAnalysis } from "./analysis.js";
import { answerKindOf, asksForDescription, isNumericKind, numericValue } from "./answer-kind.js";
import {
  NOT_FOUND,
  cleanAnswer,
  formatForQuestion,
  formatScalar,
  isSentinel,
  joinList,
  splitList,
} from "./answer-format.js";
import { keyStems, parseBlocks, parseMarkdownRows } from "./evidence.js";
import { normaliseForContainment } from "../../text/normalise.js";
import { CELL_CONFIDENCE, readPassageSpans, readPassages, readTableRows, type Reading } from "./reader.js";
import { passageWins, readingChoiceModel } from "./reading-choice.js";
import { parseSqlRows, sqlColumns, yearOfCell } from "./sql-result.js";
import { answerFromCells } from "./table-cells.js";
import { boundedMemo } from "../../text/bounded-memo.js";
import { readClause } from "./clause-reader.js";
import { isEmptySqlResult } from "../sql-evidence.js";
import type { FuseInput } from "../strategies.js";
import type { ScaleContext, TablePassages } from "./table-context.js";

/** Index of the result column that holds the answer. */
function answerColumn(
  columns: string[],
  rows: Array<Array<unknown>>,
  question: string,
  hints: string[],
  numericAnswer: boolean,
): number {
  const width = rows[0]?.length ?? 0;
  if (width <= 1) return 0;
  const q = keyStems(`${question} ${hints.join(" ")}`);
  const qNorm = ` ${normaliseForContainment(question)} `;
  let best = 0;
  let bestScore = -Infinity;
  for (let c = 0; c < width; c++) {
    const name = columns[c] ?? "";
    let score = 0;
    for (const s of keyStems(name.replace(/_/g, " "))) if (q.has(s)) score += 1;
    for (const h of hints) if (normaliseForContainment(name).includes(normaliseForContainment(h))) score += 2;
    // "Which school had the highest average score?" asks for the club, not the average.
    const numeric = rows.every((r) => typeof r[c] === "number" || numericValue(String(r[c] ?? "")) !== null);
    if (numeric !== numericAnswer) score -= 1.5;
    const named = rows.filter((r) => {
      const v = normaliseForContainment(String(r[c] ?? ""));
      return v !== "" && qNorm.includes(` ${v} `);
    }).length;
    if (named > 0 && named === rows.length) score -= 3;
    if (score > bestScore) {
      bestScore = score;
      best = c;
    }
  }
  return best;
}

/**
 * The table rows of a route's markdown and passages ("<markdown length>:<markdown><passages>"), remembered by their text:
 * the attempts of a sub-query and an attempt's SQL candidates fuse over the same chunks, and the
 * same list lets the cell readers reuse their described grids (table-cells.ts). Read, never changed.
 */
const evidenceTableRows = boundedMemo(64, (key: string) => {
  const colon = key.indexOf(":");
  const split = colon + 1 + Number(key.slice(0, colon));
  return [key.slice(colon + 1, split), key.slice(split)].flatMap((t) =>
    parseBlocks(t).flatMap((b) => parseMarkdownRows(b.text, b.source)),
  );
});

/**
 * Pure fusion. `scaleContext` is extra text that may declare the amounts' scale (the passages of the
 * tables in the evidence, see table-context.ts); it is read for the scale only. `passagesOf` gives one
 * table's own passages: a report-table reading takes its scale from them.
 */
export function fuseEvidence(input: FuseInput, scaleContext = "", passagesOf?: TablePassages): string {
  const a = analysisOf(input.plan) ?? analyzeQuestion(input.subQuery || input.question);
  const kind = answerKindOf(input.plan, input.subQuery || input.question);
  const allEvidence = [input.textEvidence, input.markdown, input.schemaEvidence, scaleContext]
    .filter(Boolean)
    .join("\n\n");
  const operator = input.plan.expectedOperator;
  const computing =
    operator === "count" || operator === "aggregate" || operator === "arithmetic" || isNumericKind(kind);

  const rows = !isEmptySqlResult(input.sqlResult) ? parseSqlRows(input.sqlResult) : undefined;
  let sqlAnswer = "";
  if (rows && rows.length > 0) {
    const col = answerColumn(
      sqlColumns(input.sqlResult),
      rows,
      input.subQuery || input.question,
      a.targetHints,
      computing || kind === "year" || kind === "date",
    );
    const values = rows
      .map((r) => formatScalar(r[col]))
      .filter((v) => v !== "")
      // (A year question answered by a date cell or a named event's cell: its year, sql-result.ts.)
      .map((v) => (kind === "year" ? yearOfCell(v) : v));
    if (values.length === 1 || (values.length > 1 && values.every((v) => v === values[0]))) sqlAnswer = values[0]!;
    else if (values.length > 1) sqlAnswer = joinList(values.slice(0, 50));
  } else if (!isEmptySqlResult(input.sqlResult) && !/^[[{]/.test(input.sqlResult.trim())) {
    const t = input.sqlResult.trim();
    if (!t.includes("\n") && t.length < 200) sqlAnswer = t;
  }

  // A description or clause question is answered by a passage sentence, never a SQL value or table cell.
  const clause = readClause(input.subQuery || input.question, input.textEvidence ?? "");
  if (clause) return clause.answer;
  if (asksForDescription(input.question)) {
    const reading = readPassages(input.question, input.subQuery, input.plan, input.textEvidence ?? "");
    if (reading?.answer) return reading.answer;
  }
  const markdown = input.markdown ?? "";
  const tableRows = evidenceTableRows(`${markdown.length}:${markdown}${input.textEvidence ?? ""}`);
  // Report tables (values at row label × period): the cell arithmetic of the fusion rules beats a
  // SQL statement, which often cannot address a period column of such tables. Read only when an
  // answer can come from it: a usable SQL answer of a tables-only plan returns before.
  let located: { cells: ReturnType<typeof answerFromCells> } | undefined;
  const cellsOf = () =>
    (located ??= {
      cells: answerFromCells(input.subQuery || input.question, tableRows, allEvidence, { passagesOf }),
    }).cells;
  // (A superlative's several rows are a tie, every one of which answers: "which employee has the most leave
  // requests?" of two with three each is both, not a cell read again from the retrieved chunks; so are the rows
  // of the first or last date: "who was admitted first?" of two admitted that day.)
  const sqlIsList = splitList(sqlAnswer).length > 1 && !a.listAnswer && a.sortDirection === null && a.position === null;
  const besidePassages = input.plan.requiredModalities !== "table";
  const cells = besidePassages ? cellsOf() : undefined;
  if (cells && cells.periodTable && cells.confidence >= CELL_CONFIDENCE) {
    // unless a passage states what the located row does not (reading-choice.ts)
    const [span] = readingChoiceModel()
      ? readPassageSpans(input.question, input.subQuery, input.plan, input.textEvidence ?? "", undefined, 1)
      : [];
    return span && passageWins(cells, span) ? span.answer : cells.answer;
  }

  if (sqlAnswer && !isSentinel(sqlAnswer) && !sqlIsList) {
    const zero = numericValue(sqlAnswer) === 0;
    if (!(zero && !computing)) return formatForQuestion(sqlAnswer, input, allEvidence, true);
  }

  // No usable SQL answer: read the table markdown and the passages.
  const tableCells = cellsOf();
  if (tableCells && tableCells.confidence >= CELL_CONFIDENCE) return tableCells.answer;
  const fromTable = readTableRows(input.question, input.subQuery, input.plan, tableRows);
  const readings = [
    fromTable,
    readPassages(input.question, input.subQuery, input.plan, input.textEvidence ?? ""),
  ].filter((r): r is Reading => !!r && !isSentinel(r.answer));
  readings.sort((x, y) => y.coverage - x.coverage);
  if (readings[0]) return formatForQuestion(readings[0].answer, input, allEvidence, readings[0] === fromTable);
  if (sqlAnswer && !isSentinel(sqlAnswer)) return formatForQuestion(sqlAnswer, input, allEvidence, true);
  return NOT_FOUND;
}

/** Strategies.fuse for the offline backbone (no scale context). */
export async function fuse(input: FuseInput): Promise<string> {
  return fuseEvidence(input);
}

/** Strategies.fuse that also reads the scale declared by the passages of the evidence's tables. */
export function createFuse(context: ScaleContext): (input: FuseInput) => Promise<string> {
  return async (input) =>
    fuseEvidence(input, context(`${input.textEvidence}\n${input.markdown}\n${input.schemaEvidence}`), context.ofTable);
}

/**
 * The answer the SQL route would give from a statement's rows for a table-only question (no passages,
 * no table markdown), cleaned as synthesis cleans a single step's answer; "" when there is none. The
 * plan chooser (plan-choice.ts) reads its candidates' answers this way, and the SQL harnesses score it.
 */
export function sqlRowsAnswer(
  question: string,
  analysis: QuestionAnalysis,
  mentions: readonly { text: string }[],
  rows: readonly unknown[],
): string {
  const answer = fuseEvidence({
    question,
    subQuery: question,
    plan: {
      subQuery: question,
      requiredModalities: "table",
      expectedOperator: analysis.operator,
      needGlobalTableView: analysis.needGlobalView,
      entityMentions: mentions.map((m) => m.text),
      uncertainty: 0,
      analysis: analysis as unknown as Record<string, unknown>,
    },
    route: "SQL",
    textEvidence: "",
    schemaEvidence: "",
    sqlResult: JSON.stringify(rows),
    markdown: "",
  });
  return answer === NOT_FOUND ? "" : cleanAnswer(answer);
}
