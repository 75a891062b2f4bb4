/**
 * Reader candidates: instead of one span, a TEXT/RETRIEVE reading proposes its best few answers
 * (k ≤ 4, distinct, from different sentences or passages), each with the features a ranker needs
 * to tell the right one from the others — span score and rank, margin to the next span, passage
 * rank, whether the passage is linked from the table row the bridge chose, answer-kind agreement,
 * how well the sentence matches the question's entity mentions, scale agreement. The features are
 * named `rc:…` and reach the learned verifier through `VerifyInput.readerFeatures`
 * (answer-features.ts), so each candidate is judged and traced like any attempt's answer.
 */
import { answerKindOf, fitsKind, numericValue, type AnswerKind } from "./answer-kind.js";
import { scaleFromEvidence } from "./answer-format.js";
import {
  type Bridge,
  CELL_CONFIDENCE,
  askedCell,
  bridgedInput,
  describedRowOf,
  readPassageSpans,
  readRowsWith,
  readTableCells,
  readTextWith,
  type ScoredCell,
  type ScoredSpan,
} from "./reader.js";
import { NOT_FOUND, formatForQuestion } from "./answer-format.js";
import { type EvidenceRow, keyStems, parseBlocks, parseMarkdownRows, parseRows } from "./evidence.js";
import { normaliseForContainment } from "../../text/normalise.js";
import { answerFromCells } from "./table-cells.js";
import type { DescribedRow } from "./bridge.js";
import { rankRowAnswers, readRow, type RowAnswer } from "./row-answers.js";
import type { ScaleContext, TablePassages } from "./table-context.js";
import type { ReadRowsInput, ReadTextInput, Strategies } from "../strategies.js";

/** At most this many candidates per reading. */
export const MAX_READER_CANDIDATES = 4;

/** One candidate answer of a reading, with its named features. */
export interface ReaderCandidate {
  answer: string;
  features: Record<string, number>;
}

function bucket(n: number, edges: readonly number[], labels: readonly string[]): string {
  for (let i = 0; i < edges.length; i++) if (n <= edges[i]!) return labels[i]!;
  return labels[labels.length - 1]!;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** Share of the question's entity mentions whose words the span's sentence holds (1 with no mention). */
function mentionMatch(mentions: readonly string[], context: string): number {
  if (mentions.length === 0) return 1;
  const stems = keyStems(context);
  let sum = 0;
  for (const m of mentions) {
    const words = [...keyStems(m)];
    sum += words.length === 0 ? 1 : words.filter((w) => stems.has(w)).length / words.length;
  }
  return sum / mentions.length;
}

/** The answer's scale word against the scale the evidence declares: agrees, missing, or other. */
function scaleAgreement(answer: string, evidence: string): string | undefined {
  if (numericValue(answer.replace(/%$/, "").replace(/\s+(thousand|million|billion)$/i, "")) === null) return undefined;
  const said = /\b(thousand|million|billion)s?\s*$/i.exec(answer)?.[1]?.toLowerCase() ?? "";
  const declared = scaleFromEvidence(evidence);
  return said === declared ? "same" : said === "" ? "missing" : "other";
}

/**
 * Features of ranked spans: rank, raw score, margin to the next and gap to the best, the rank of
 * the span's passage (by its best span), kind agreement, mention match, scale agreement.
 */
export function spanFeatures(
  spans: readonly ScoredSpan[],
  context: {
    kind: AnswerKind;
    mentions: readonly string[];
    evidence: string;
    linkedFromRow: boolean;
    rowMargin?: number;
  },
): ReaderCandidate[] {
  const passageBest = new Map<number, number>();
  for (const s of spans) passageBest.set(s.block, Math.max(passageBest.get(s.block) ?? -Infinity, s.score));
  const passageOrder = [...passageBest.entries()].sort((a, b) => b[1] - a[1]).map(([block]) => block);
  const top = spans[0]?.score ?? 0;
  return spans.map((s, i) => {
    const next = spans[i + 1]?.score;
    const f: Record<string, number> = {
      "rc:span": 1,
      [`rc:rank=${i + 1}`]: 1,
      "rc:score": round(Math.max(0, Math.min(1, s.score / 4))),
      "rc:margin": round(next === undefined ? 1 : Math.min(1, s.score - next)),
      "rc:gap-to-top": round(Math.min(1, top - s.score)),
      "rc:coverage": round(s.coverage),
      "rc:fit": round(Math.max(0, Math.min(1, s.fit / 2))),
      [`rc:passage-rank=${bucket(passageOrder.indexOf(s.block) + 1, [1, 2], ["1", "2", "3+"])}`]: 1,
      [`rc:sentence=${bucket(s.sentence + 1, [1, 3], ["1", "2-3", "4+"])}`]: 1,
      "rc:mention-match": round(mentionMatch(context.mentions, s.context)),
    };
    if (i === 0) f["rc:only"] = spans.length === 1 ? 1 : 0;
    if (context.linkedFromRow) f["rc:linked-from-row"] = 1;
    if (s.linked >= 0.45) f["rc:linked-unnamed"] = 1;
    if (context.rowMargin !== undefined) f["rc:row-margin"] = round(context.rowMargin);
    f[fitsKind(s.answer, context.kind) ? "rc:kind-agree" : "rc:kind-disagree"] = 1;
    const scale = scaleAgreement(s.answer, context.evidence);
    if (scale) f[`rc:scale=${scale}`] = 1;
    return { answer: s.answer, features: f };
  });
}

/** How clearly the bridge's row beat the runner-up (0 = a tie, 1 = no other row matched). */
export function rowMargin(row: DescribedRow): number {
  return row.score > 0 ? Math.max(0, Math.min(1, (row.score - row.runnerUp) / row.score)) : 0;
}

/**
 * Candidates of the row a question describes: the row's asked cell when the question names its
 * column, then the best spans of the row's linked passages; distinct answers, at most `k`.
 */
export function describedRowCandidates(
  input: Pick<ReadTextInput, "question" | "subQuery" | "plan">,
  row: DescribedRow,
  k = MAX_READER_CANDIDATES,
): ReaderCandidate[] {
  const kind = answerKindOf(input.plan, input.subQuery || input.question);
  const margin = rowMargin(row);
  const out: ReaderCandidate[] = [];
  const reading = readRow(input, row);
  const cell = reading.asked;
  const rowChoice = rowChoiceFeatures(row);
  const cellFeatures = (answer: string) => ({
    "rc:row-cell": 1,
    "rc:rank=1": 1,
    "rc:row-margin": round(margin),
    ...rowChoice,
    [fitsKind(answer, kind) ? "rc:kind-agree" : "rc:kind-disagree"]: 1,
  });
  if (cell) out.push({ answer: cell, features: cellFeatures(cell) });
  const evidence = row.passages.map((p) => p.text).join("\n");
  const read = reading.spans.slice(0, k);
  const spans = spanFeatures(read, {
    kind,
    mentions: input.plan?.entityMentions ?? [],
    evidence,
    linkedFromRow: true,
    rowMargin: margin,
  }).map((c, i) => ({
    ...c,
    features: { ...c.features, ...rowChoice, ...recurrence(c.answer, row), ...rerankFeatures(read, i) },
  }));
  const hand = [...out, ...spans.map((c) => (out.length > 0 ? { ...c, features: shiftRank(c.features) } : c))];
  return distinct(withRowAnswerChoice(hand, reading.candidates, cellFeatures), k);
}

/**
 * The hand candidates with the learned row-answer choice (row-answers.ts) applied: its pick first
 * (a cell the hand candidates lack gets the asked cell's features), and each candidate's share P
 * under the choice as `rc:row-answer-p`; `rc:row-answer-moved` marks a first answer the choice
 * took over the hand reader's.
 */
function withRowAnswerChoice(
  hand: readonly ReaderCandidate[],
  candidates: readonly RowAnswer[],
  cellFeatures: (answer: string) => Record<string, number>,
): ReaderCandidate[] {
  if (candidates.length === 0) return [...hand];
  const ranked = rankRowAnswers(candidates);
  const share = new Map(ranked.map((c) => [normaliseForContainment(c.answer), c.p]));
  const pick = ranked[0]!;
  const key = normaliseForContainment(pick.answer);
  const withP = (c: ReaderCandidate): ReaderCandidate => ({
    ...c,
    features: { ...c.features, "rc:row-answer-p": round(share.get(normaliseForContainment(c.answer)) ?? 0) },
  });
  if (hand.length > 0 && normaliseForContainment(hand[0]!.answer) === key) return hand.map(withP);
  const same = hand.find((c) => normaliseForContainment(c.answer) === key);
  const first = same ?? { answer: pick.answer, features: cellFeatures(pick.answer) };
  return [first, ...hand.filter((c) => c !== same)]
    .map(withP)
    .map((c, i) => (i === 0 ? { ...c, features: { ...c.features, "rc:row-answer-moved": 1 } } : c));
}

/**
 * How surely the bridge chose the row: `rc:row-close=1|2|3+` (rows within the row-choice band of
 * the best word score, bridge.ts) and `rc:row-chosen` (the row choice overrode the word score).
 */
export function rowChoiceFeatures(row: DescribedRow): Record<string, number> {
  const f: Record<string, number> = {
    [`rc:row-close=${bucket(row.closeRows ?? 1, [1, 2], ["1", "2", "3+"])}`]: 1,
  };
  if (row.chosenByMatch) f["rc:row-chosen"] = 1;
  return f;
}

/**
 * The span re-ranking's view of span `i` (span-rerank.ts): `rc:rerank-p`, its softmax share among
 * the re-ranked spans, and `rc:rerank-margin`, that share minus the next span's.
 */
function rerankFeatures(spans: ReadonlyArray<{ rerankP: number }>, i: number): Record<string, number> {
  const p = spans[i]?.rerankP ?? 0;
  return { "rc:rerank-p": round(p), "rc:rerank-margin": round(Math.max(0, p - (spans[i + 1]?.rerankP ?? 0))) };
}

/** `rc:recurs`: the answer is written in more than one of the row's linked passages. */
function recurrence(answer: string, row: DescribedRow): Record<string, number> {
  const key = normaliseForContainment(answer);
  if (key === "") return {};
  const n = row.passages.filter((p) => ` ${normaliseForContainment(p.text)} `.includes(` ${key} `)).length;
  return n >= 2 ? { "rc:recurs": 1 } : {};
}

/** The features with `rc:rank=N` moved one place down (a cell candidate came first). */
function shiftRank(features: Record<string, number>): Record<string, number> {
  const f: Record<string, number> = {};
  for (const [name, value] of Object.entries(features)) {
    const m = /^rc:rank=(\d+)$/.exec(name);
    f[m ? `rc:rank=${Math.min(Number(m[1]) + 1, MAX_READER_CANDIDATES)}` : name] = value;
  }
  return f;
}

/** Candidates with distinct normalised answers (the first of each kept), at most `k`. */
export function distinct(candidates: readonly ReaderCandidate[], k: number): ReaderCandidate[] {
  const seen = new Set<string>();
  const out: ReaderCandidate[] = [];
  for (const c of candidates) {
    const key = normaliseForContainment(c.answer);
    if (key === "" || seen.has(key)) continue;
    seen.add(key);
    out.push(c);
    if (out.length >= k) break;
  }
  return out;
}

/** Features of ranked row cells (RETRIEVE): rank, score, margin, coverage, kind agreement. */
export function cellFeatures(cells: readonly ScoredCell[], kind: AnswerKind): ReaderCandidate[] {
  const top = cells[0]?.score ?? 0;
  const rowOrder = [...new Set(cells.map((c) => c.row))];
  return cells.map((c, i) => {
    const next = cells[i + 1]?.score;
    const f: Record<string, number> = {
      "rc:cell": 1,
      [`rc:rank=${i + 1}`]: 1,
      "rc:score": round(Math.max(0, Math.min(1, c.score / 5))),
      "rc:margin": round(next === undefined ? 1 : Math.min(1, c.score - next)),
      "rc:gap-to-top": round(Math.min(1, top - c.score)),
      "rc:coverage": round(c.coverage),
      [`rc:row-rank=${bucket(rowOrder.indexOf(c.row) + 1, [1, 2], ["1", "2", "3+"])}`]: 1,
      [fitsKind(c.answer, kind) ? "rc:kind-agree" : "rc:kind-disagree"]: 1,
    };
    return { answer: c.answer, features: f };
  });
}

/**
 * The reading's answer (what `primary` gives) first, then the other candidates; the answer takes
 * the features of the candidate it equals, else `rc:other-reading` (a report cell, a table row).
 */
function withPrimary(primary: string, candidates: readonly ReaderCandidate[], k: number): ReaderCandidate[] {
  if (primary.trim() === "" || primary.trim().toLowerCase() === NOT_FOUND) return [];
  const key = normaliseForContainment(primary);
  const same = candidates.find((c) => normaliseForContainment(c.answer) === key);
  const first: ReaderCandidate = {
    answer: primary,
    features: same ? same.features : { "rc:other-reading": 1, "rc:rank=1": 1 },
  };
  const rest = candidates.filter((c) => c !== same);
  return distinct([first, ...(same ? rest : rest.map((c) => ({ ...c, features: shiftRank(c.features) })))], k);
}

/**
 * On a report table (row label × period), the reading of the cells at the next-best located rows
 * (table-cells.ts `rowRank`), when the answer is the located cells' reading.
 */
export function reportCellCandidates(
  question: string,
  rows: EvidenceRow[],
  evidence: string,
  primary: string,
  passagesOf?: TablePassages,
): ReaderCandidate[] {
  const first = answerFromCells(question, rows, evidence, { passagesOf });
  if (
    !first ||
    !first.periodTable ||
    first.confidence < CELL_CONFIDENCE ||
    normaliseForContainment(first.answer) !== normaliseForContainment(primary)
  )
    return [];
  const feature = (alt: typeof first, rank: number) => ({
    "rc:report-cell": 1,
    [`rc:row-rank=${bucket(rank + 1, [1, 2], ["1", "2", "3+"])}`]: 1,
    "rc:cells-confidence": round(alt.confidence),
    "rc:confidence-drop": round(Math.max(0, first.confidence - alt.confidence)),
  });
  const out: ReaderCandidate[] = [{ answer: first.answer, features: feature(first, 0) }];
  for (let rank = 1; rank < MAX_READER_CANDIDATES; rank++) {
    const alt = answerFromCells(question, rows, evidence, { rowRank: rank, passagesOf });
    if (!alt) break;
    out.push({ answer: alt.answer, features: feature(alt, rank) });
  }
  return out.length > 1 ? out : [];
}

/**
 * Strategies.readTextCandidates / readRowsCandidates of the offline reader: the same first answer
 * as readText / readRows (readers.ts createReaders), then up to three other candidates.
 */
export function createCandidateReaders(
  context: ScaleContext,
  bridge?: Bridge,
): Required<Pick<Strategies, "readTextCandidates" | "readRowsCandidates">> {
  return {
    readTextCandidates: async (input) => {
      const row = describedRowOf(bridge, input, input.evidence);
      if (row) {
        const fromRow = describedRowCandidates(input, row);
        if (fromRow.length > 0) return fromRow;
      }
      const bridged = bridgedInput(bridge, input);
      const primary = readTextWith(bridged, context(input.evidence), context.ofTable);
      const kind = answerKindOf(input.plan, bridged.subQuery || input.question);
      const spans = readPassageSpans(
        input.question,
        bridged.subQuery,
        input.plan,
        input.evidence,
        undefined,
        MAX_READER_CANDIDATES,
      );
      const linkedFromRow = bridged.subQuery !== input.subQuery || /\(about:/.test(input.subQuery);
      const rows = parseBlocks(input.evidence).flatMap((b) => parseMarkdownRows(b.text, b.source));
      const cells = reportCellCandidates(
        input.subQuery || input.question,
        rows,
        `${input.evidence}\n${context(input.evidence)}`,
        primary,
        context.ofTable,
      );
      if (cells.length > 0) return withPrimary(primary, cells, MAX_READER_CANDIDATES);
      return withPrimary(
        primary,
        spanFeatures(spans, {
          kind,
          mentions: input.plan?.entityMentions ?? [],
          evidence: input.evidence,
          linkedFromRow: false,
        }).map((c, i) =>
          linkedFromRow && spans[i]!.linked > 0 ? { ...c, features: { ...c.features, "rc:linked-from-row": 1 } } : c,
        ),
        MAX_READER_CANDIDATES,
      );
    },
    readRowsCandidates: async (input: ReadRowsInput) => {
      const evidence = `${input.schemaInfo}\n${input.tableContext}`;
      const row = describedRowOf(bridge, input, evidence);
      const cell = row ? askedCell(input, row) : undefined;
      const primary = cell ?? readRowsWith(input, context(evidence), context.ofTable);
      const kind = answerKindOf(input.plan, input.subQuery || input.question);
      const report = reportCellCandidates(
        input.subQuery || input.question,
        parseRows(input.tableContext),
        `${evidence}\n${context(evidence)}`,
        primary,
        context.ofTable,
      );
      if (report.length > 0) return withPrimary(primary, report, MAX_READER_CANDIDATES);
      const cells = readTableCells(
        input.question,
        input.subQuery,
        input.plan,
        parseRows(input.tableContext),
        input.bindings,
        MAX_READER_CANDIDATES,
      );
      // Cells are formatted as readRows formats its cell (the scale the table's passages declare).
      const scaled = `${evidence}\n${context(evidence)}`;
      return withPrimary(
        primary,
        cellFeatures(cells, kind).map((c) => ({ ...c, answer: formatForQuestion(c.answer, input, scaled, true) })),
        MAX_READER_CANDIDATES,
      );
    },
  };
}
