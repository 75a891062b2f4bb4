/**
 * What the SQL-only harness scripts share (scripts/offline-dev.ts's pipeline without the graph): the
 * questions file, one question's analysis, catalogue and mentions, and the offline answer of a
 * statement's rows judged with the official WTQ match.
 */
import { readFileSync } from "node:fs";
import type Database from "better-sqlite3";
import type { TableSchema } from "../indexing/types.js";
import { wtqCorrect } from "../evals/scoring/wtq.js";
import { analyzeQuestion, type QuestionAnalysis } from "../nodes/offline/analysis.js";
import { askedWords, findMentions, type EntityMention } from "../nodes/offline/mentions.js";
import { sqlRowsAnswer } from "../nodes/offline/fuse.js";
import { loadCatalog, type TableCatalog } from "../nodes/offline/table-catalog.js";

export interface HarnessQuestion {
  question_id: string;
  question: string;
  table_id: string;
  answer: string[];
}

export function readQuestions(path: string): HarnessQuestion[] {
  return readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as HarnessQuestion);
}

/** The planner's input for one question, or undefined when its table is not in the store. */
export function prepareQuestion(
  db: Database.Database,
  schemas: Map<string, TableSchema>,
  q: HarnessQuestion,
): { analysis: QuestionAnalysis; catalog: TableCatalog; mentions: EntityMention[] } | undefined {
  const schema = schemas.get(q.table_id);
  if (!schema) return undefined;
  const catalog = loadCatalog(db, schema);
  const analysis = analyzeQuestion(q.question);
  const mentions = findMentions(q.question, catalog, { avoidWords: askedWords(analysis) });
  return { analysis, catalog, mentions };
}

/** The offline answer of a statement's rows (as the graph's SQL route and synthesis form it). */
export function answerOf(
  question: string,
  analysis: QuestionAnalysis,
  mentions: EntityMention[],
  rows: unknown[],
): string {
  return sqlRowsAnswer(question, analysis, mentions, rows);
}

/** Runs a statement and judges its answer with the official WTQ match (false when it fails). */
export function judgeStatement(
  db: Database.Database,
  q: HarnessQuestion,
  analysis: QuestionAnalysis,
  mentions: EntityMention[],
  sql: string,
): { answer: string; ok: boolean } {
  try {
    const answer = answerOf(q.question, analysis, mentions, db.prepare(sql).all());
    return { answer, ok: wtqCorrect({ answer: q.answer, answer_canon: null }, answer) };
  } catch {
    return { answer: "", ok: false };
  }
}
