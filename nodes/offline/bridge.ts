/**
 * Table → passage bridge for the offline backbone (HybridQA-style questions: "What is the estimated
 * population of the hometown of the first African American winner?"). The question's words select
 * the table row it describes — through the row's cells and, more weakly, the passages its cells
 * link to — and the titles of those linked passages name what the next sub-query is about:
 * "… ? (about: Ashley Coleman; Manchester, New Hampshire)". Retrieval then finds those passages and
 * the extractive reader reads the answer from them.
 */
import type Database from "better-sqlite3";
import { quoteIdent } from "../../indexing/sql-store.js";
import type { Passage, TableSchema } from "../../indexing/types.js";
import { ROW_ID_COLUMN } from "../../indexing/types.js";
import { tablesForHint } from "../schema-scope.js";
import { keyStems } from "./evidence.js";
import { boundedMemo } from "../../text/bounded-memo.js";
import { contentWords } from "../../text/tokenise.js";
import { stem } from "../../text/stem.js";
import { holdsRank, namedRank, rowAtOrder, rowOrderOf } from "./row-order.js";

const columnNames = (table: TableSchema): string[] => table.columns.map((c) => c.name);

export interface BridgeIndex {
  db: Database.Database;
  tables: Map<string, TableSchema>;
  passages: readonly Passage[];
}

export interface BridgeOptions {
  /** Weight of a word found only in a row's linked passages (cells weigh 1). Default 0.5. */
  passageWeight?: number;
  /** Titles named in the sub-query at most. Default 4. */
  maxTitles?: number;
  /** Weight of a pair of adjacent question words written side by side in a row's linked passages (× their mean passage idf). Default 0.5 (hybridqa/train row accuracy: 0 → 78.6 %, 0.25 → 80.3 %, 0.5 → 81.4 %, 1 → 80.6 %). */
  bigramWeight?: number;
}

interface LinkedRow {
  /** Row id (ROW_ID_COLUMN), as passages' `cells` count rows. */
  rowId: number;
  values: string[];
  cells: Set<string>;
  passages: Passage[];
  passageStems: Set<string>;
  /** Adjacent content-word stem pairs of the linked passages ("a b"). */
  passageBigrams: Set<string>;
}

/** Adjacent pairs of stemmed content words: "born in Leawood , Kansas" → "born leawood", "leawood kansas". */
function bigramsOf(text: string): string[] {
  const stems = contentWords(text).map(stem);
  return stems.slice(1).map((s, i) => `${stems[i]} ${s}`);
}

/** "1500m" and "1500 m", "55th" and "55" meet: a number is split from the letters it is written with. */
function splitUnits(text: string): string {
  return text.replace(/(\d)(\p{L})/gu, "$1 $2");
}

/** The row a question describes, with the passages its cells link to. */
export interface DescribedRow {
  tableId: string;
  rowId: number;
  /** Column names (logical) in schema order. */
  columns: string[];
  /** Cell values in schema column order. */
  values: string[];
  passages: Passage[];
  /** idf-weighted question words the row matched. */
  score: number;
  /** Score of the runner-up row (a close second means an uncertain pick). */
  runnerUp: number;
}

/** Finds the table row a question describes (only tables whose cells link to passages). */
export function createRowFinder(
  index: BridgeIndex,
  options: BridgeOptions = {},
): (question: string, tableHint?: string) => DescribedRow | undefined {
  const passageWeight = options.passageWeight ?? 0.5;
  const bigramWeight = options.bigramWeight ?? 0.5;
  const byTable = new Map<string, Passage[]>();
  for (const p of index.passages)
    if (p.tableId && p.cells?.length) byTable.set(p.tableId, [...(byTable.get(p.tableId) ?? []), p]);
  const cache = new Map<string, LinkedRow[]>();

  const rowsOf = (table: TableSchema): LinkedRow[] => {
    let rows = cache.get(table.tableId);
    if (rows) return rows;
    const cols = table.columns.map((c) => quoteIdent(c.rawPhysical)).join(", ");
    const raw = index.db
      .prepare(
        `SELECT ${quoteIdent(ROW_ID_COLUMN)} AS r, ${cols} FROM ${quoteIdent(table.physical)} ORDER BY ${quoteIdent(ROW_ID_COLUMN)}`,
      )
      .raw()
      .all() as unknown[][];
    const passages = byTable.get(table.tableId) ?? [];
    rows = raw.map((row) => {
      const r = Number(row[0]);
      const values = row.slice(1).map((v) => String(v ?? ""));
      const linked = passages.filter((p) => p.cells!.some(([pr]) => pr === r));
      return {
        rowId: r,
        values,
        cells: keyStems(splitUnits(values.join(" "))),
        passages: linked,
        passageStems: keyStems(linked.map((p) => p.text).join(" ")),
        passageBigrams: new Set(linked.flatMap((p) => bigramsOf(splitUnits(p.text)))),
      };
    });
    cache.set(table.tableId, rows);
    return rows;
  };

  // The steps of a question ask for its row again and again (decompose, each reading, the verifier, its
  // features): the answer depends on the question and the table alone. Results are read, never changed.
  const found = boundedMemo<DescribedRow | undefined>(256, (key) => {
    const cut = key.indexOf(":");
    const hintLength = Number(key.slice(0, cut));
    return findRow(key.slice(cut + 1 + hintLength), key.slice(cut + 1, cut + 1 + hintLength));
  });
  return (question, tableHint) => (tableHint ? found(`${tableHint.length}:${tableHint}${question}`) : undefined);

  function findRow(question: string, tableHint: string): DescribedRow | undefined {
    const id = tablesForHint(tableHint, index.tables)[0];
    const table = id ? index.tables.get(id) : undefined;
    if (!table || !byTable.has(table.tableId)) return undefined;
    const rows = rowsOf(table);
    if (rows.length === 0) return undefined;
    const q = keyStems(splitUnits(question));
    const qBigrams = [...new Set(bigramsOf(splitUnits(question)))];
    const df = new Map<string, number>();
    for (const row of rows) for (const s of row.cells) df.set(s, (df.get(s) ?? 0) + 1);
    const idf = (s: string) => Math.log(1 + (rows.length + 1) / ((df.get(s) ?? 0) + 0.5));
    // A passage word is rare or common among the rows' passages ("born" is in every player's), not their cells.
    const pdf = new Map<string, number>();
    for (const row of rows) for (const s of row.passageStems) pdf.set(s, (pdf.get(s) ?? 0) + 1);
    const passageIdf = (s: string) => Math.log(1 + (rows.length + 1) / ((pdf.get(s) ?? 0) + 0.5));
    // A superlative ("the second largest …") picks among the rows the question's other cell words
    // leave tied, by the column it orders (row-order.ts); the words alone would take the first of them.
    const order = rowOrderOf(question, columnNames(table), (ci) => rows.map((r) => r.values[ci] ?? ""));
    // (A word naming a column — "the arena with the largest …" — says what is ordered, not which rows.)
    const headers = keyStems(columnNames(table).join(" "));
    // "The team in 7th place": the row whose rank column holds 7 is named as surely as by a rare word.
    const rank = namedRank(question);
    const rankBonus = Math.log(1 + (rows.length + 1) / 0.5);
    let best = -1;
    let bestScore = 0;
    let runnerUp = 0;
    const conditionScores = rows.map((row, i) => {
      let score = 0;
      let condition = 0;
      for (const s of q) {
        if (row.cells.has(s)) {
          score += idf(s);
          if (order && !order.phrase.has(s) && !headers.has(s)) condition += idf(s);
        } else if (row.passageStems.has(s)) score += passageWeight * passageIdf(s);
      }
      // A phrase of the question written in the row's passages names the row more surely than its words apart.
      if (bigramWeight > 0)
        for (const b of qBigrams)
          if (row.passageBigrams.has(b)) {
            const [x, y] = b.split(" ");
            score += (bigramWeight * (passageIdf(x!) + passageIdf(y!))) / 2;
          }
      if (rank !== undefined && table.columns.some((c, ci) => holdsRank(c.name, row.values[ci] ?? "", rank))) {
        score += rankBonus;
        condition += rankBonus;
      }
      if (score > bestScore) {
        runnerUp = bestScore;
        bestScore = score;
        best = i;
      } else if (score > runnerUp) runnerUp = score;
      return condition;
    });
    if (order) {
      const top = Math.max(...conditionScores);
      const tied = conditionScores.flatMap((s, i) => (s >= top - 1e-9 ? [i] : []));
      const ordered = tied.length >= 2 ? rowAtOrder(order, rows, tied) : undefined;
      if (ordered !== undefined && ordered !== best) {
        runnerUp = Math.max(runnerUp, bestScore);
        best = ordered;
      }
    }
    if (best < 0) return undefined;
    const row = rows[best]!;
    return {
      tableId: table.tableId,
      rowId: row.rowId,
      columns: columnNames(table),
      values: row.values,
      passages: row.passages,
      score: bestScore,
      runnerUp,
    };
  }
}

/** The bridge: the bridged sub-query for a question, and (`findRow`) the row it describes. */
export type BridgeFn = ((question: string, tableHint?: string) => string | undefined) & {
  findRow: (question: string, tableHint?: string) => DescribedRow | undefined;
};

/** Builds the bridge over an index; tables are read once, on first use. */
export function createBridge(index: BridgeIndex, options: BridgeOptions = {}): BridgeFn {
  const maxTitles = options.maxTitles ?? 4;
  const findRow = createRowFinder(index, options);
  const bridge = (question: string, tableHint?: string): string | undefined => {
    const row = findRow(question, tableHint);
    if (!row || row.passages.length === 0) return undefined;
    const titles = [...new Set(row.passages.map((p) => (p.title ?? "").trim()).filter((t) => t !== ""))].slice(
      0,
      maxTitles,
    );
    return titles.length ? `${question} (about: ${titles.join("; ")})` : undefined;
  };
  return Object.assign(bridge, { findRow });
}
