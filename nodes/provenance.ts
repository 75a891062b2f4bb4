/**
 * The evidence of an answer, as a user checks it: which table, rows and cells, which SQL ran and
 * what it returned, which passage sentence. Each route records it on its attempt (nodes/attempt.ts),
 * verify copies it into the trace, and the node that fixes the final answer copies the winning
 * attempts' provenance into `answerProvenance` (provenanceOfAnswer). Everything is capped: a
 * provenance never grows with the table.
 */
import type { TraceDecision } from "../graph/state.js";
import type { DocChunk, RowEntry, TableSchema } from "../indexing/types.js";
import { ROW_ID_COLUMN } from "../indexing/types.js";
import type { SqlExecutor } from "../retrievers/sql-executor.js";
import { checkSql, columnsRead, type GuardScope } from "../retrievers/sql-guard.js";
import { rowsQuery } from "../retrievers/sql-rows.js";
import { normaliseAnswerText } from "../text/normalise.js";
import { boundedMemo } from "../indexing/bounded-memo.js";
import { isValidAnswer } from "./answer-validity.js";
import type { LinkedValue, Provenance, ProvenanceCell, ProvenancePassage, SqlProvenance } from "./types.js";

export const PROVENANCE_RESULT_ROWS = 10;
export const PROVENANCE_ROWS = 50;
export const PROVENANCE_CELLS = 30;
export const PROVENANCE_PASSAGES = 3;
/** Rows of the SQL result whose cells become provenance cells. */
const CELL_ROWS = 10;

/** The test "does `needle` occur in a text as whole words (normalised)?", compiled once per needle. */
const wholeWords = boundedMemo<RegExp | undefined>(256, (needle) => {
  if (needle === "") return undefined;
  const escaped = needle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, "u");
});

/** True when `needle` occurs in `hay` as whole words (normalised). */
function containsWords(hay: string, needle: string): boolean {
  // A whole-word match is a substring first: the plain search rules out most texts before the regex.
  return hay.includes(needle) && (wholeWords(needle)?.test(hay) ?? false);
}

/** normaliseAnswerText of the texts provenance compares lately (the same chunks and cells for every attempt). */
const normalizedText = boundedMemo(4096, normaliseAnswerText);

/** The passage text of a chunk, without the `File name: …` line the embedder sees. */
function chunkBody(chunk: DocChunk): string {
  return chunk.text.replace(/^File name: [^\n]*\n/, "");
}

/** Sentences of the selected text chunks that hold the answer (at most PROVENANCE_PASSAGES). */
export function passageSentences(answer: string, chunks: readonly DocChunk[]): ProvenancePassage[] {
  const target = normaliseAnswerText(answer);
  if (!isValidAnswer(answer) || target === "") return [];
  const out: ProvenancePassage[] = [];
  for (const chunk of chunks) {
    if (chunk.type !== "text") continue;
    for (const sentence of chunkBody(chunk).split(/(?<=[.!?])\s+(?=[A-Z0-9"“(])/)) {
      if (!containsWords(normalizedText(sentence), target)) continue;
      out.push({ id: chunk.passageId ?? chunk.source, file: chunk.source, sentence: sentence.trim() });
      break; // one sentence per passage
    }
    if (out.length >= PROVENANCE_PASSAGES) break;
  }
  return out;
}

/** Tables of the selected table chunks whose text holds the answer. */
export function tablesMentioning(answer: string, chunks: readonly DocChunk[]): string[] {
  const target = normaliseAnswerText(answer);
  if (!isValidAnswer(answer) || target === "") return [];
  const ids = chunks
    .filter((c) => c.type === "table" && containsWords(normalizedText(chunkBody(c)), target))
    .map((c) => c.tableId ?? c.source);
  return [...new Set(ids)];
}

/**
 * The cells of the rows read (in retrieval order, best first) that hold the answer — in the first
 * row holding it equal, else containing it as whole words, so a small number that recurs in other
 * rows is not listed from all of them — plus the cells of that row the linked values matched; when
 * no cell holds the answer (a computed answer), the linked values' cells alone.
 */
export function rowCells(answer: string, rows: readonly RowEntry[], linked: readonly LinkedValue[]): ProvenanceCell[] {
  const target = normaliseAnswerText(answer);
  const cell = (r: RowEntry, column: string): ProvenanceCell => ({
    tableId: r.tableId,
    row: r.rowIdx,
    column,
    value: r.values[column] ?? "",
  });
  const matching = (test: (value: string) => boolean) => {
    for (const r of rows) {
      const hits = Object.entries(r.values).filter(([, v]) => v !== "" && test(normalizedText(String(v))));
      if (hits.length > 0) return hits.map(([column]) => cell(r, column));
    }
    return [];
  };
  let answerCells: ProvenanceCell[] = [];
  if (isValidAnswer(answer) && target !== "") {
    answerCells = matching((v) => v === target);
    if (answerCells.length === 0) answerCells = matching((v) => containsWords(v, target));
  }
  const answerRows = new Set(answerCells.map((c) => `${c.tableId}#${c.row}`));
  const keyCells = rows.flatMap((r) =>
    linked
      .filter(
        (v) => v.matchedValue !== null && v.fallbackLevel !== 3 && (v.tableId === null || v.tableId === r.tableId),
      )
      .filter(
        (v) =>
          r.values[v.column] !== undefined &&
          normaliseAnswerText(String(r.values[v.column])) === normaliseAnswerText(v.matchedValue!),
      )
      .filter(() => answerRows.size === 0 || answerRows.has(`${r.tableId}#${r.rowIdx}`))
      .map((v) => cell(r, v.column)),
  );
  const seen = new Set<string>();
  return [...keyCells, ...answerCells]
    .filter((c) => {
      const key = `${c.tableId}#${c.row}#${c.column}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, PROVENANCE_CELLS);
}

function parsedRows(result: string): Array<Record<string, unknown>> {
  try {
    const data = JSON.parse(result) as unknown;
    return Array.isArray(data)
      ? (data.filter((r) => r !== null && typeof r === "object") as Array<Record<string, unknown>>)
      : [];
  } catch {
    return [];
  }
}

/** True when a value of the SQL result rows equals the answer (normalised). */
export function resultHolds(answer: string, resultRows: ReadonlyArray<Record<string, unknown>>): boolean {
  const target = normaliseAnswerText(answer);
  return (
    target !== "" &&
    resultRows.some((r) => Object.values(r).some((v) => v !== null && normaliseAnswerText(String(v)) === target))
  );
}

export interface SqlProvenanceInput {
  sql: string;
  sqlResult: string;
  /** The guard scope the statement was accepted under (nodes/constrained-sql.ts result). */
  scope: GuardScope;
  tables: ReadonlyMap<string, TableSchema>;
  /** Runs the row-number query; absent when the statement ran elsewhere (the external SQL service). */
  executor?: SqlExecutor;
}

/**
 * The SQL part of a provenance: the statement, its first result rows, the logical columns it reads
 * (as the guard resolves them), and the rows it read with their cells (a guarded row-number query
 * over the same WHERE, retrievers/sql-rows.ts).
 */
export async function sqlProvenance(
  input: SqlProvenanceInput,
): Promise<{ sql: SqlProvenance; tables: string[]; cells: ProvenanceCell[] }> {
  const resultRows = parsedRows(input.sqlResult);
  const byPhysical = new Map([...input.tables.values()].map((t) => [t.physical.toLowerCase(), t]));
  const read = columnsRead(input.sql, input.scope) ?? new Map<string, Set<string>>();
  const logical: Array<{ table: TableSchema; name: string; raw: string }> = [];
  for (const [physical, columns] of read) {
    const table = byPhysical.get(physical.toLowerCase());
    if (!table) continue;
    for (const col of table.columns) {
      const names = [col.physical.toLowerCase(), col.rawPhysical.toLowerCase()];
      if (names.some((n) => columns.has(n)) && !logical.some((l) => l.table === table && l.name === col.name))
        logical.push({ table, name: col.name, raw: col.rawPhysical });
    }
  }
  const derived = rowsQuery(
    input.sql,
    logical.map((l) => l.raw),
  );
  // The tables whose columns it reads, and its one FROM table (COUNT(*) reads no column).
  const physicalTables = [...read.keys(), ...("table" in derived ? [derived.table] : [])];
  const tables = [
    ...new Set(
      physicalTables.map((p) => byPhysical.get(p.toLowerCase())?.tableId).filter((t): t is string => t !== undefined),
    ),
  ];
  const sql: SqlProvenance = {
    query: input.sql,
    resultRows: resultRows.slice(0, PROVENANCE_RESULT_ROWS),
    resultRowCount: resultRows.length,
    columns: logical.map((l) => `${l.table.tableId}.${l.name}`),
    rows: [],
    rowCount: 0,
  };
  const cells: ProvenanceCell[] = [];
  if ("unavailable" in derived) sql.rowsUnavailable = derived.unavailable;
  else if (!input.executor) sql.rowsUnavailable = "the SQL ran on the external SQL service";
  else {
    const table = byPhysical.get(derived.table.toLowerCase());
    const refused = checkSql(derived.sql, input.scope);
    if (!table) sql.rowsUnavailable = `table ${derived.table} is not in the index`;
    else if (refused.length > 0) sql.rowsUnavailable = `the row query was refused: ${refused.join("; ")}`;
    else {
      const run = await input.executor.execute(derived.sql);
      if (!run.ok) sql.rowsUnavailable = `the row query failed: ${run.error ?? run.result}`;
      else {
        const rows = parsedRows(run.result);
        const key = (row: Record<string, unknown>, name: string) =>
          Object.keys(row).find((k) => k.toLowerCase() === name.toLowerCase());
        sql.rows = rows.slice(0, PROVENANCE_ROWS).map((r) => Number(r[key(r, ROW_ID_COLUMN) ?? ROW_ID_COLUMN]));
        sql.rowCount = run.truncated ? Math.max(rows.length, run.rowCount) : rows.length;
        if (run.truncated)
          sql.rowsUnavailable = `more than ${rows.length} rows: the first ${sql.rows.length} are listed`;
        for (const r of rows.slice(0, CELL_ROWS)) {
          for (const l of logical.filter((c) => c.table === table)) {
            const k = key(r, l.raw);
            cells.push({
              tableId: table.tableId,
              row: Number(r[key(r, ROW_ID_COLUMN) ?? ROW_ID_COLUMN]),
              column: l.name,
              value: k === undefined || r[k] === null ? "" : String(r[k]),
            });
          }
        }
      }
    }
  }
  return { sql, tables, cells: cells.slice(0, PROVENANCE_CELLS) };
}

/**
 * The provenance of the final answer: the attempts that produced it. An accepted answer: the latest
 * accepted attempt with that answer; otherwise the earliest verdict-0.5 attempt with it (re-routes
 * are fallbacks), else the one with the highest P(correct), else the first that gave it; a synthesis
 * over several accepted steps: each step's accepted attempt.
 */
export function provenanceOfAnswer(
  answer: string,
  verified: boolean,
  trace: readonly TraceDecision[],
  synthesizedFrom?: readonly string[],
): Provenance[] {
  const withProvenance = trace.filter(
    (d): d is TraceDecision & { provenance: Provenance } => d.provenance !== undefined,
  );
  if (synthesizedFrom) {
    const steps = new Set(synthesizedFrom);
    return withProvenance.filter((d) => d.accepted && steps.has(d.sub_query)).map((d) => d.provenance);
  }
  if (!isValidAnswer(answer)) return [];
  const target = normaliseAnswerText(answer);
  const same = (d: TraceDecision) => normaliseAnswerText(d.produced_answer ?? "") === target;
  if (verified) {
    const accepted = withProvenance.filter((d) => d.accepted && same(d)).at(-1);
    if (accepted) return [accepted.provenance];
  }
  // Unverified (or verified by P without an accepted verdict): the earliest plausible attempt with the
  // answer, else the one with the highest P(correct), else the first attempt that gave it.
  const sameAnswer = withProvenance.filter(same);
  const byP = [...sameAnswer]
    .filter((d) => typeof d.p_correct === "number")
    .sort((a, b) => b.p_correct! - a.p_correct!)[0];
  const pick = sameAnswer.find((d) => d.verdict === 0.5) ?? byP ?? sameAnswer[0];
  return pick ? [pick.provenance] : [];
}
