/**
 * Offline decomposer (reference §3 without an LLM). Deterministic plans:
 * - first step: the question itself, with its QuestionAnalysis and the entity mentions grounded in
 *   the hinted (or best retrieved) table — comparisons, differences and superlatives are computed by
 *   one SQL statement over both named rows, so they need no separate steps over a table;
 * - after an accepted step that answers the question: TERMINATE;
 * - after a failed step: one retry that asks the passages (modality text, no entities), when the
 *   corpus has passages, naming the passages linked from the row the question describes (bridge.ts);
 *   otherwise, or after two failures: TERMINATE.
 */
import type { SearchableIndex as OpenedIndex } from "../../retrievers/open-search.js";
import type { TableSchema } from "../../indexing/types.js";
import { tablesForHint } from "../schema-scope.js";
import type { DecomposeInput } from "../strategies.js";
import type { SubQueryPlan } from "../types.js";
import { analyzeQuestion, type QuestionAnalysis } from "./analysis.js";
import { createBridge, type BridgeFn } from "./bridge.js";
import { askedWords, findMentions, type EntityMention } from "./mentions.js";
import { linkChoice } from "./condition-links.js";
import { planConfidence, planFeatures } from "./confidence.js";
import { choosePlan } from "./plan-choice.js";
import { headerMatch, isNumericColumn, isPersonColumn, wordsAfterSuperlative } from "./columns.js";
import { loadCatalog, type TableCatalog } from "./table-catalog.js";
import { expandHeaderShorthand } from "./header-shorthand.js";
import { normaliseText } from "../../text/normalise.js";
import { stem } from "../../text/stem.js";
import { monthNumber, MONTH_PATTERN } from "../../text/lexicons.js";
import { parseDate } from "../../indexing/column-types.js";

export const TERMINATE = "TERMINATE";

const terminate = (): SubQueryPlan => ({
  subQuery: TERMINATE,
  requiredModalities: "both",
  expectedOperator: "lookup",
  needGlobalTableView: false,
  entityMentions: [],
  uncertainty: 0,
});

/** Entity strings handed to the value linker: the matched cell text (first line, trimmed). */
function entityText(m: EntityMention): string {
  return (m.value.split("\n")[0] ?? "").trim().slice(0, 120);
}

/** Up to this many tables, a question is grounded against each of them (groundingTable). */
const FEW_TABLES = 30;

/**
 * The table a question is about: the hint's table; else, among the tables of the chunks retrieved for
 * it, the one the question grounds in best — values it names (cells), columns it names (headers) and
 * the table's own name ("how many employees …"), with the retrieval rank as the tie-break.
 */
export async function groundingTable(
  index: OpenedIndex,
  question: string,
  tableId: string | undefined,
): Promise<TableSchema | undefined> {
  if (tableId) {
    const ids = tablesForHint(tableId, index.tables);
    if (ids.length > 0) return index.tables.get(ids[0]!);
  }
  if (index.tables.size === 1) return [...index.tables.values()][0];
  const hits = await index.search.documents(question, 10);
  const ids = [
    ...new Set(
      hits.filter((h) => h.entry.type === "table" && h.entry.tableId !== undefined).map((h) => h.entry.tableId!),
    ),
  ];
  const retrieved = ids.map((id) => index.tables.get(id)).filter((t): t is TableSchema => t !== undefined);
  // A folder of a few tables (a user's own spreadsheets) is grounded against every table, not only those
  // whose chunks retrieval returned: their chunks share too many words for the top ten to be sure.
  const candidates =
    index.tables.size <= FEW_TABLES
      ? [...retrieved, ...[...index.tables.values()].filter((t) => !retrieved.includes(t))]
      : retrieved;
  if (candidates.length <= 1) return candidates[0];
  const analysis = analyzeQuestion(question);
  let best: { table: TableSchema; score: number } | undefined;
  candidates.forEach((table, rank) => {
    // (A tie-break: below what one word naming a column adds.)
    const bonus = rank < retrieved.length ? 0.2 / (1 + rank) : 0;
    const catalog = loadCatalog(index.db, table);
    // ("points per game" grounds in a table with a "PPG" column: the question in each table's own shorthand.)
    const asked = expandHeaderShorthand(question, catalog);
    const score = groundingScore(asked, asked === question ? analysis : analyzeQuestion(asked), catalog) + bonus;
    if (!best || score > best.score) best = { table, score };
  });
  return best?.table;
}

/** Words of a superlative of no particular measure ("biggest", not "youngest") or of an aggregate. */
const OPERATOR_WORD =
  /^(?:most|least|highest|lowest|largest|smallest|biggest|greatest|maximum|minimum|max|min|top|best|worst|average|mean|total|sum|combined)$/;

/** How well a question grounds in a table: words of exact (1) and partial (½) cell mentions, columns named, the table's name. */
function groundingScore(question: string, analysis: QuestionAnalysis, catalog: TableCatalog): number {
  let score = 0;
  const mentioned = new Set<string>();
  for (const m of findMentions(question, catalog, { avoidWords: askedWords(analysis) })) {
    // (A name written as the table writes it, capitalised, "the Leaf", names the table more surely than a header word.)
    const named =
      m.kind === "exact" && /^[A-Z0-9]/.test(m.value) && /[A-Z]/.test(m.value) && question.includes(m.value);
    score += (m.end - m.start) * (m.kind === "exact" ? (named ? 1.5 : 1) : 0.5);
    // (Only a sure match: a fuzzy one, "stayed" of "Al-Sayed", is no evidence that the word names no column.)
    if (m.kind === "exact") for (const w of m.text.split(" ")) mentioned.add(w);
  }
  for (const w of analysis.contentWords) {
    // (A word counts once: "paid" of a Paid column whose "Yes" cells it selects is one piece of evidence.)
    // (An operator's word says what is done, not where: "biggest" relates to any table's sizes.)
    if (mentioned.has(w) || OPERATOR_WORD.test(w)) continue;
    // (In proportion: "marketing" names "Mktg Spend" by its letters more surely than a related word names "Amount".)
    const named = Math.max(0, ...catalog.columns.map((c) => headerMatch([w], c, false)));
    score += Math.min(1, named / 1.5);
  }
  const tableWords = new Set(
    normaliseText(`${catalog.schema.tableId} ${catalog.schema.title ?? ""}`)
      .split(" ")
      .map(stem),
  );
  // ("the cheapest car to rent" of a rentals table, "deliver" of deliveries: a verb whose noun is the table's name.)
  const namesTable = (w: string) => {
    const s = stem(w);
    return tableWords.has(s) || (s.length >= 4 && [...tableWords].some((t) => t === `${s}al` || t === `${s}y`));
  };
  for (const w of analysis.contentWords) if (namesTable(w)) score += 1;
  // "how many sales happened in March?": the counted noun naming the table names its rows, more surely than
  // a cell ("Sales", a department of another table) does.
  if (analysis.countNoun.some(namesTable)) score += 1;
  // (So does the noun a which-question asks for: "which exams fall after June 10?" names the exams table more surely
  // than "June" a month of another — when it is what a row is, the name's last word: "which jobs …" are no rows of
  // job_applications.)
  const asked = /^(?:which|what) ([a-z]{3,}s)\b/.exec(analysis.normalized)?.[1];
  const rowNoun = normaliseText(catalog.schema.tableId)
    .split(/[\s_]+/)
    .at(-1);
  if (asked !== undefined && rowNoun !== undefined && stem(asked) === stem(rowNoun)) score += 1;
  // ("what is the largest salary paid?": a superlative needs the numeric column its words spell, which a table
  // where "paid" is only a Status cell lacks; "on which day did I burn the most calories?" the words after the
  // superlative spell it, not the day asked for.)
  const after = analysis.operator === "sort" ? wordsAfterSuperlative(analysis.normalized) : [];
  const measureWords = (after.length > 0 ? after : analysis.targetHints).filter((w) => !OPERATOR_WORD.test(w));
  if (
    analysis.operator === "sort" &&
    catalog.columns.some((c) => isNumericColumn(c) && headerMatch(measureWords, c, false) >= 1.5)
  )
    score += 1;
  // ("what was spent on March 14?": a day some date cell of the table falls on, where another table's dates fall
  // in other months.)
  const day = askedDay(analysis.normalized);
  if (
    day !== undefined &&
    catalog.columns.some(
      (c) => c.schema.type === "date" && c.raw.length <= 5000 && c.raw.some((v) => parseDate(v)?.slice(5, 10) === day),
    )
  )
    score += 1;
  // ("who is the youngest?", "who won?": a person is asked for, whom only a table with a column of people holds.)
  if (analysis.answerType === "person" && catalog.columns.some(isPersonColumn)) score += 0.3;
  return score;
}

/** The month and day ("03-14") a question names as "march 14" or "14 march", if any. */
function askedDay(normalized: string): string | undefined {
  const m = new RegExp(
    `\\b(${MONTH_PATTERN}) (\\d{1,2})(?:st|nd|rd|th)?\\b|\\b(\\d{1,2})(?:st|nd|rd|th)? (?:of )?(${MONTH_PATTERN})\\b`,
  ).exec(normalized);
  const month = m ? monthNumber(m[1] ?? m[4]!) : undefined;
  const date = Number(m?.[2] ?? m?.[3]);
  if (month === undefined || !(date >= 1 && date <= 31)) return undefined;
  return `${String(month).padStart(2, "0")}-${String(date).padStart(2, "0")}`;
}

/** Analysis + grounding of one question against the index (also used by writeSql when a plan lacks it). */
export async function analyseAndGround(
  index: OpenedIndex,
  question: string,
  tableId: string | undefined,
): Promise<QuestionAnalysis> {
  const hasPassages = index.passages.length > 0;
  let analysis = analyzeQuestion(question, { hasPassages });
  const table = await groundingTable(index, question, tableId);
  if (table) {
    const catalog = loadCatalog(index.db, table);
    // "points per game" of a "PPG" column, "round 2" of "R2": the question in the table's own shorthand.
    const asked = expandHeaderShorthand(question, catalog);
    if (asked !== question) analysis = analyzeQuestion(asked, { hasPassages });
    const { mentions, margin } = linkChoice(asked, analysis, catalog);
    analysis.grounding = {
      tableId: table.tableId,
      mentions,
      hinted: tableId !== undefined && tablesForHint(tableId, index.tables).includes(table.tableId),
      ...(margin ? { linkMargin: margin } : {}),
    };
    // The learned choice among the registry's candidate plans, each run on the table (plan-choice.ts).
    const choice = choosePlan(question, { analysis, catalog, mentions }, (sql) => index.db.prepare(sql).all());
    const planned = choice?.plan;
    if (planned) {
      analysis.grounding.template = planned.template;
      analysis.grounding.generator = planned.generator;
      if (choice.rank > 0)
        analysis.grounding.planChoice = { generator: planned.generator, targetRank: planned.targetRank };
      analysis.grounding.columns = columnsOf(planned.sql, table);
      // ("how many riders finished?": rows a mention of the column's codes selects by number, `"_row" IN (…)`, read
      // that column too, which the statement does not spell; schema retrieval must keep it for the SQL route.)
      if (planned.sql.includes(`"_row" IN (`))
        analysis.grounding.columns = table.columns
          .filter(
            (c) =>
              analysis.grounding!.columns!.includes(c.name) ||
              mentions.some((m) => m.columnNamed === true && m.column === c.name),
          )
          .map((c) => c.name);
      // "is marlow from denton or lyle?": the options were found in the table, not in the wording.
      if (planned.template === "choice" && planned.options && !analysis.comparison) {
        analysis.comparison = { kind: "choice", options: planned.options, direction: analysis.sortDirection };
        analysis.answerType = "choice";
        analysis.operator = "compare";
      }
      // Ties of a superlative ("who had the most caps?" → three players) and the rows of a period ("who started
      // in 2019?") are a list answer.
      if ((planned.template === "argmax" || planned.template === "argmin" || planned.allRows) && !analysis.listAnswer) {
        analysis.listAnswer = index.db.prepare(planned.sql).raw().all().length > 1;
      }
      const features = planFeatures(analysis, mentions, planned, catalog);
      analysis.grounding.features = features;
      analysis.grounding.confidence = planConfidence(features);
    }
  }
  return analysis;
}

/** Logical names of the table columns a statement reads (typed or raw physical names), in schema order. */
export function columnsOf(sql: string, table: TableSchema): string[] {
  return table.columns
    .filter((c) => sql.includes(`"${c.physical}"`) || sql.includes(`"${c.rawPhysical}"`))
    .map((c) => c.name);
}

/**
 * The sub-query names the columns the plan reads, the way a model-written sub-query would
 * ("… (columns: Nation, Gold)"), so schema retrieval (C) and chunk selection find them.
 */
export function subQueryFor(question: string, analysis: QuestionAnalysis): string {
  const g = analysis.grounding;
  const cols = g?.columns ?? [];
  // Without a table hint the note also names the table the question was grounded in, so that retrieval
  // restores that table's schema rather than another table sharing the question's value words.
  const table = g && !g.hinted ? `; table: ${g.tableId}` : "";
  return cols.length > 0 ? `${question} (columns: ${cols.join(", ")}${table})` : question;
}

/**
 * Entity mentions are "named entities needing value grounding" (reference §3.2). With passages in the
 * corpus every grounded mention is one (HYBRID/RETRIEVE read the passages its row links to). In a
 * tables-only corpus the decomposer has already grounded exact and partial mentions against View 5
 * (they travel in analysis.grounding and the SQL uses them), so only its uncertain (typo-corrected)
 * groundings go to the value linker; the others take the SQL route.
 * Measured on dev: WTQ 40.75 → 42.0 and p50 55 → 41 ms with this rule; TAT-QA EM 19.67 would drop
 * to 14.33 without entities, hence the passages condition.
 */
function entitiesOf(mentions: readonly EntityMention[], hasPassages: boolean): string[] {
  const needing = mentions.filter((m) => (hasPassages ? m.kind !== "fuzzy" : m.kind === "fuzzy"));
  return [...new Set(needing.map(entityText).filter((e) => e !== ""))];
}

/** The offline decomposer's plan of a question from its analysis (also what the readers' training scripts read with). */
export function planOf(question: string, analysis: QuestionAnalysis, hasPassages = true): SubQueryPlan {
  const entities = entitiesOf(analysis.grounding?.mentions ?? [], hasPassages);
  return {
    subQuery: subQueryFor(question, analysis),
    requiredModalities: analysis.modality,
    expectedOperator: analysis.operator,
    needGlobalTableView: analysis.needGlobalView,
    entityMentions: entities,
    uncertainty: analysis.uncertainty,
    analysis: analysis as unknown as Record<string, unknown>,
  };
}

/** The offline decompose strategy over an opened index. */
export function createDecompose(
  index: OpenedIndex,
  bridge: BridgeFn = createBridge(index),
): (input: DecomposeInput) => Promise<SubQueryPlan> {
  return async (input) => {
    const question = input.question.trim();
    if (question === "") return terminate();
    const accepted = input.history.filter((s) => !s.failed && s.answer.trim() !== "" && s.answer !== "not found");
    if (accepted.length > 0) return terminate();
    const failures = input.history.filter((s) => s.failed).length;
    if (failures === 0) {
      const plan = planOf(question, await analyseAndGround(index, question, input.tableId), index.passages.length > 0);
      // A question describing a row of a table whose cells link passages: name them from the first step.
      const bridged = bridge(question, input.tableId);
      return bridged
        ? {
            ...plan,
            subQuery: subQueryFor(bridged, plan.analysis as unknown as QuestionAnalysis),
            requiredModalities: "text",
          }
        : plan;
    }
    if (failures === 1 && index.passages.length > 0) {
      const analysis = analyzeQuestion(question, { hasPassages: true });
      analysis.modality = "text";
      // Table → passage bridge: name the passages linked from the row the question describes.
      const bridged = bridge(question, input.tableId);
      return {
        ...planOf(question, analysis),
        ...(bridged ? { subQuery: bridged } : {}),
        requiredModalities: "text",
        entityMentions: [],
      };
    }
    return terminate();
  };
}
