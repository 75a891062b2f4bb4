/**
 * Table → passage bridge for the offline backbone (HybridQA-style questions: "What is the population of
 * the youngest champion's home town?"). The question's words select
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
import { keyStems, sentences } from "./evidence.js";
import { boundedMemo } from "../../text/bounded-memo.js";
import { contentWords } from "../../text/tokenise.js";
import { stem } from "../../text/stem.js";
import { holdsRank, namedRank, rowAtOrder, rowOrderOf } from "./row-order.js";
import { rowAgeOrder } from "./age-order.js";
import { rowSizeOrder } from "./size-order.js";
import { rowByLinkColumn } from "./link-column.js";
import { neighbourRow, rowNeighbourOf } from "./row-neighbour.js";
import { boundNumbers, cellIsNumber, namedNumbers } from "./named-numbers.js";
import { ROW_CHOICE_BAND, ROW_CHOICE_MAX, chooseRow, rowChoiceMargin } from "./row-choice.js";

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
  /** Rows within this share of the best word score are chosen by how they matched (row-choice.ts). Default ROW_CHOICE_BAND. */
  choiceBand?: number;
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
  /** Key stems of each sentence of the linked passages (made on first use). */
  sentenceStems?: Array<Set<string>>;
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
  /** Rows within the row-choice band of the best word score, this one included (1: no close rival). */
  closeRows?: number;
  /** The row choice (row-choice.ts) took another row than the best word score. */
  chosenByMatch?: boolean;
  /** The row choice's margin over the next close row (row-choice.ts `rowChoiceMargin`), when it chose among close rows. */
  choiceMargin?: number;
}

/** Finds the table row a question describes (only tables whose cells link to passages). */
export type RowFinder = ((question: string, tableHint?: string) => DescribedRow | undefined) & {
  /** Every linked row's score for the question, in table order (for analysis scripts). */
  rowScores: (question: string, tableHint: string) => Array<{ rowId: number; score: number }> | undefined;
  /** The rows close to the best word score with their row-choice features (scripts/reader-rows.ts fits on them). */
  choiceCandidates: (question: string, tableHint: string) => Array<{ rowId: number; features: number[] }> | undefined;
};

export function createRowFinder(index: BridgeIndex, options: BridgeOptions = {}): RowFinder {
  const passageWeight = options.passageWeight ?? 0.5;
  const bigramWeight = options.bigramWeight ?? 0.5;
  const choiceBand = options.choiceBand ?? ROW_CHOICE_BAND;
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
  const finder = (question: string, tableHint?: string) =>
    tableHint ? found(`${tableHint.length}:${tableHint}${question}`) : undefined;
  return Object.assign(finder, {
    rowScores: (question: string, tableHint: string) => {
      const scored = scoreRows(question, tableHint);
      return scored?.rows.map((r, i) => ({ rowId: r.rowId, score: scored.scores[i]! }));
    },
    choiceCandidates: (question: string, tableHint: string) => {
      const scored = scoreRows(question, tableHint);
      return scored
        ? choiceCandidates(scored.scores).map((i) => ({ rowId: scored.rows[i]!.rowId, features: scored.features(i) }))
        : undefined;
    },
  });

  /** Rows (indices) close enough to the best word score to be chosen by how they matched (row-choice.ts). */
  function choiceCandidates(scores: readonly number[]): number[] {
    const top = Math.max(0, ...scores);
    if (top <= 0) return [];
    return scores
      .map((score, i) => ({ score, i }))
      .filter((c) => c.score >= choiceBand * top - 1e-9)
      .sort((a, b) => b.score - a.score || a.i - b.i)
      .slice(0, ROW_CHOICE_MAX)
      .map((c) => c.i)
      .sort((a, b) => a - b);
  }

  function sentenceStemsOf(row: LinkedRow): Array<Set<string>> {
    row.sentenceStems ??= row.passages.flatMap((p) => sentences(p.text).map((t) => keyStems(splitUnits(t))));
    return row.sentenceStems;
  }

  function scoreRows(question: string, tableHint: string) {
    const id = tablesForHint(tableHint, index.tables)[0];
    const table = id ? index.tables.get(id) : undefined;
    if (!table || !byTable.has(table.tableId)) return undefined;
    const rows = rowsOf(table);
    if (rows.length === 0) return undefined;
    const q = keyStems(splitUnits(question));
    // "The film released after 1999": a bound holds no row ("1999" of the row released in 1999 names it not).
    for (const n of boundNumbers(question)) q.delete(n);
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
    // "The oldest player" with no age column: the players' pages say when each was born (age-order.ts).
    const order =
      rowOrderOf(question, columnNames(table), (ci) => rows.map((r) => r.values[ci] ?? "")) ??
      rowAgeOrder(question, columnNames(table), rows) ??
      rowSizeOrder(question, columnNames(table), (ci) => rows.map((r) => r.values[ci] ?? ""));
    // (A word naming a column — "the arena with the largest …" — says what is ordered, not which rows.)
    const headers = keyStems(columnNames(table).join(" "));
    // "The team in 7th place": the row whose rank column holds 7 is named as surely as by a rare word.
    const rank = namedRank(question);
    const rankBonus = Math.log(1 + (rows.length + 1) / 0.5);
    // "The runner who finished in 27:31.4": a number the question states that one or two rows hold as a
    // whole cell names them as surely (the word match only sees its digit groups, which many rows hold).
    const valued = namedNumbers(question)
      .map((n) => rows.map((row) => row.values.some((v) => cellIsNumber(v, n))))
      .filter((held) => {
        const count = held.filter(Boolean).length;
        return count >= 1 && count <= 2 && count < rows.length;
      });
    const scores: number[] = [];
    const conditionScores = rows.map((row, ri) => {
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
      for (const held of valued) if (held[ri]) score += rankBonus;
      scores.push(score);
      return condition;
    });
    const top = Math.max(0, ...scores);
    const qPassageTotal = [...q].reduce((sum, s) => sum + passageIdf(s), 0);
    // A number of the question that few rows hold ("a population of 360,918"), not the table's own year.
    const holds = (row: LinkedRow, n: string) => row.cells.has(n) || row.passageStems.has(n);
    const numbers = [...q].filter(
      (s) => /^\d{3,}$/.test(s) && rows.filter((r) => holds(r, s)).length <= Math.max(2, 0.1 * rows.length),
    );
    const firstClose = choiceCandidates(scores)[0];
    // How a row matched, beyond how much (row-choice.ts ROW_CHOICE_FEATURES, in that order).
    const features = (i: number): number[] => {
      const row = rows[i]!;
      const named = new Set<string>();
      for (const v of row.values) {
        const cell = keyStems(splitUnits(v));
        if (cell.size > 0 && [...cell].every((c) => q.has(c))) for (const c of cell) named.add(c);
      }
      let sentence = 0;
      for (const st of sentenceStemsOf(row)) {
        let m = 0;
        for (const s of q) if (st.has(s) && !row.cells.has(s)) m += passageIdf(s);
        sentence = Math.max(sentence, m);
      }
      const phrases = qBigrams.filter((b) => row.passageBigrams.has(b)).length;
      return [
        top > 0 ? scores[i]! / top : 0,
        i === firstClose ? 1 : 0,
        q.size > 0 ? named.size / q.size : 0,
        qPassageTotal > 0 ? sentence / qPassageTotal : 0,
        numbers.length > 0 ? numbers.filter((n) => holds(row, n)).length / numbers.length : 0,
        qBigrams.length > 0 ? phrases / qBigrams.length : 0,
      ];
    };
    return { table, rows, scores, conditionScores, order, features };
  }

  function findRow(question: string, tableHint: string): DescribedRow | undefined {
    const scored = scoreRows(question, tableHint);
    if (!scored) return undefined;
    const { table, rows, scores, conditionScores, order, features } = scored;
    let best = -1;
    let bestScore = 0;
    let runnerUp = 0;
    scores.forEach((score, i) => {
      if (score > bestScore) {
        runnerUp = bestScore;
        bestScore = score;
        best = i;
      } else if (score > runnerUp) runnerUp = score;
    });
    // "The shop with the fewest more staff than Harbor Bikes": the row next to the one named (row-neighbour.ts).
    const next = rowNeighbourOf(question, columnNames(table), rows);
    const beside = next ? neighbourRow(next, rows) : undefined;
    if (beside !== undefined)
      return described(table, rows[beside]!, bestScore, bestScore, choiceCandidates(scores).length, false);
    if (order) {
      const top = Math.max(...conditionScores);
      const tied = conditionScores.flatMap((s, i) => (s >= top - 1e-9 ? [i] : []));
      const ordered = tied.length >= 2 ? rowAtOrder(order, rows, tied) : undefined;
      if (ordered !== undefined && ordered !== best) {
        runnerUp = Math.max(runnerUp, bestScore);
        best = ordered;
      }
      if (ordered !== undefined)
        return described(table, rows[best]!, bestScore, runnerUp, choiceCandidates(scores).length, false);
    }
    if (best < 0) return undefined;
    // Rows tied because they link the same page: the one linking it from a column the question names.
    const tied = scores.flatMap((s, i) => (s >= bestScore - 1e-9 ? [i] : []));
    const linking = tied.length >= 2 ? rowByLinkColumn(question, columnNames(table), rows, tied) : undefined;
    if (linking !== undefined)
      return described(table, rows[linking]!, bestScore, bestScore, choiceCandidates(scores).length, linking !== best);
    // Rows the words leave close are chosen by how they matched (row-choice.ts).
    const close = choiceCandidates(scores);
    let chosenByMatch = false;
    let choiceMargin: number | undefined;
    if (close.length >= 2) {
      const vectors = close.map(features);
      choiceMargin = rowChoiceMargin(vectors);
      const chosen = close[chooseRow(vectors)]!;
      if (chosen !== best) {
        runnerUp = bestScore;
        best = chosen;
        chosenByMatch = true;
      }
    }
    const row = described(table, rows[best]!, bestScore, runnerUp, Math.max(1, close.length), chosenByMatch);
    return choiceMargin === undefined ? row : { ...row, choiceMargin };
  }

  function described(
    table: TableSchema,
    row: LinkedRow,
    score: number,
    runnerUp: number,
    closeRows: number,
    chosenByMatch: boolean,
  ): DescribedRow {
    return {
      tableId: table.tableId,
      rowId: row.rowId,
      columns: columnNames(table),
      values: row.values,
      passages: row.passages,
      score,
      runnerUp,
      closeRows,
      chosenByMatch,
    };
  }
}

/** The bridge: the bridged sub-query for a question, and (`findRow`) the row it describes. */
export type BridgeFn = ((question: string, tableHint?: string) => string | undefined) & {
  findRow: RowFinder;
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
