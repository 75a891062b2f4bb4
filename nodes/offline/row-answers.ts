/**
 * The learned choice of the described row's answer (HybridQA-style questions: a table row, and the
 * passages its cells link to). The hand reader answers with the asked cell when its header names the
 * question's wh-phrase (`askedCell`), else with the best span of the row's passages
 * (`describedRowSpans`). Both go wrong in ways a look at the other candidates shows: "which NOUN"
 * asked of a column whose header says it in other words (a "team" in "Constructor", a "venue" in
 * "Stadium"), a cell answered where a passage tells the asked fact, a span a hair behind another.
 *
 * Every distinct non-empty cell of the row the question does not name, and the best ROW_ANSWER_SPANS
 * spans of its passages, become candidates with the named features below; a linear score over them
 * (weights in models/row-answers.json, fit listwise on hybridqa/train with folds grouped by table:
 * `npx tsx scripts/train-row-answers.ts --write`) picks the answer. The hand reader's answer is
 * the feature `rule`: without the model file (or with the prior) the choice is the hand reader's.
 */
import { answerKindOf, fitsKind, headerSuitsKind, isNumericKind, type AnswerKind } from "./answer-kind.js";
import { cleanAnswer } from "./answer-format.js";
import { keyStems, questionPart, sentences } from "./evidence.js";
import { normaliseForContainment } from "../../text/normalise.js";
import { stem } from "../../text/stem.js";
import { ModelFile, ModelFileError } from "./model-file.js";
import {
  askedCell,
  askedPhraseOf,
  DEMONYM,
  NATIONALITY_QUESTION,
  cellFitsShape,
  describedRowSpans,
  headerFit,
  matchWords,
  namedByQuestion,
  rowRerankContext,
  withoutTrailingNote,
  type ScoredSpan,
} from "./reader.js";
import { pageSaysItIs } from "./asked-entity-page.js";
import { SPAN_RERANK_FEATURES, spanRerankFeatures, type Reranked } from "./span-rerank.js";
import type { DescribedRow } from "./bridge.js";
import type { ReadTextInput } from "../strategies.js";

/** Spans of the row's passages (hand order) that take part in the choice. */
export const ROW_ANSWER_SPANS = 8;

/** Feature names, in the order of candidate vectors and of the model's weights. */
export const ROW_ANSWER_FEATURES = [
  // the hand reader's answer (asked cell, else the best span)
  "rule",
  // a cell of the row
  "cell",
  // the asked cell of the hand reader (its header names the wh-phrase, or a time/person/own-entity rule)
  "cell-asked",
  // how much of the asked phrase the header carries (headerFit / phrase length)
  "header-asked",
  // share of the header's words the question holds anywhere
  "header-question",
  // the question asks a number, date or year and the cell has that shape
  "cell-fits-kind",
  // the question asks a number, date or year and the cell has not that shape
  "cell-kind-clash",
  // the row's name cell ("Name", "Title", else the first text column)
  "name-column",
  // a person column ("Name", "Player", "Winner" …) and the question asks a person
  "person-column",
  // the cell links to a passage
  "cell-linked",
  // the cell's page says in its first sentence that it is the asked noun ("… is a football club")
  "page-is-noun",
  // idf share of the question's words beyond the row's cells that the cell's own page holds
  "page-match",
  // cell × the question opens "which/what NOUN …"
  "cell-which-noun",
  // cell × the question opens with no wh-word ("This team was …", "The player … is from what city ?")
  "cell-no-wh",
  // cell × the question opens "who"
  "cell-who",
  // cell × the question asks a number
  "cell-numeric-question",
  // cell × some header of the row carries the asked phrase
  "cell-header-exists",
  // share of the asked phrase's words the header does not hold ("year of birth" asked of "Year")
  "header-rest",
  // cell × idf share of the question's words beyond the row's cells that the best sentence of the row's pages holds
  "cell-beyond-sentence",
  // a span of the row's passages
  "span",
  // the hand score's best span
  "span-first",
  // 1 − (best hand score − the span's) / 2, at least 0 (1 for the best span)
  "span-near-top",
  // the span re-ranking's share P (span-rerank.ts)
  "span-rerank-p",
  // the row's passages gave this one span (its share P is then 1)
  "span-only",
  // from a linked passage the question does not name
  "span-linked-unnamed",
  // share of the question's words in the span's sentence
  "span-coverage",
  // the span is also a cell of the row
  "span-is-cell",
  // the asked noun is in the span or one of the two words after it ("Sunda Kingdom", "Auckland isthmus")
  "span-noun-near",
  // a person is asked and the candidate is written like a name of two or more capitalised words
  "person-shape",
  // a single demonym ("Italian") where the question asks no nationality, language or people
  "demonym",
  // the question counts ("how many") and the span is an ordinal ("16th")
  "span-ordinal-count",
  // idf share of the question's words beyond the row's cells that the span's page holds
  "span-page-beyond",
  // the span's page holds the most of them among the row's pages
  "span-best-page",
  // … that the span's sentence holds
  "span-sentence-beyond",
  // the span's sentence holds the most of them among the pages' sentences
  "span-best-sentence",
  // the span re-ranking's features (span-rerank.ts), prefixed "sr:"
  ...SPAN_RERANK_FEATURES.filter((f) => f !== "score-gap" && f !== "first").map((f) => `sr:${f}` as const),
] as const;

export type RowAnswerFeature = (typeof ROW_ANSWER_FEATURES)[number];

/** Weights that reproduce the hand reader: the rule's answer first (the prior of the fit). */
export const ROW_ANSWER_PRIOR: readonly number[] = ROW_ANSWER_FEATURES.map((f) => (f === "rule" ? 1 : 0));

/** A candidate answer of the described row with its feature vector. */
export interface RowAnswer {
  answer: string;
  /** Values in ROW_ANSWER_FEATURES order. */
  x: number[];
  /** The passage span it also is, when it is one (the reader-candidates features read it). */
  span?: Reranked<ScoredSpan>;
  /** The row's column it is a cell of, when it is one. */
  column?: string;
}

export interface RowAnswerModel {
  trainedOn: string;
  features: string[];
  weights: number[];
}

export function checkRowAnswerModel(value: unknown, path: string): RowAnswerModel {
  const m = value as Partial<RowAnswerModel> | null;
  if (
    !m ||
    typeof m.trainedOn !== "string" ||
    !Array.isArray(m.features) ||
    !Array.isArray(m.weights) ||
    m.weights.length !== m.features.length ||
    !m.weights.every((w) => typeof w === "number" && Number.isFinite(w))
  )
    throw new ModelFileError(path, "expected { trainedOn, features: string[], weights: number[] of the same length }");
  const known = new Set<string>(ROW_ANSWER_FEATURES);
  const unknown = m.features.filter((f) => !known.has(f));
  if (unknown.length > 0) throw new ModelFileError(path, `unknown features ${unknown.join(", ")}`);
  return m as RowAnswerModel;
}

const file = new ModelFile<RowAnswerModel>("row-answers.json", checkRowAnswerModel);

/** The shipped model (models/row-answers.json), or null without the file; `set` replaces it (tests, training). */
export const rowAnswerModel = {
  get: (): RowAnswerModel | null => file.get(),
  set: (m: RowAnswerModel | null | undefined) => file.set(m),
};

/** The model's weights in ROW_ANSWER_FEATURES order (features it does not name weigh 0); the prior without a model. */
export function rowAnswerWeights(model: RowAnswerModel | null = rowAnswerModel.get()): number[] {
  if (!model) return [...ROW_ANSWER_PRIOR];
  const byName = new Map(model.features.map((f, i) => [f, model.weights[i]!]));
  return ROW_ANSWER_FEATURES.map((f) => byName.get(f) ?? 0);
}

const WHICH_NOUN = /^\s*(?:\w+\s+)?(which|what)\s+(?!is\b|was\b|are\b|were\b|do\b|does\b|did\b|has\b|have\b|had\b)\w/i;
const OPENS_WH =
  /^\s*(?:(?:in|on|at|for|from|to|of|by|during|with|into|under)\s+)?(what|which|who|whom|whose|where|when|how)\b/i;

function idfOf(docs: ReadonlyArray<ReadonlySet<string>>): (s: string) => number {
  const df = new Map<string, number>();
  for (const d of docs) for (const s of d) df.set(s, (df.get(s) ?? 0) + 1);
  return (s) => Math.log(1 + (docs.length + 1) / ((df.get(s) ?? 0) + 0.5));
}

/** The hand reader's view of a described row: its asked cell, its passages' best spans, and the candidates built on them. */
export interface RowReading {
  asked: string | undefined;
  /** The best ROW_ANSWER_SPANS spans, in the hand order (reader.ts describedRowSpans). */
  spans: Array<Reranked<ScoredSpan>>;
  candidates: RowAnswer[];
}

/** Reads the described row once: the asked cell, the spans, and the candidates (rowAnswerCandidates). */
export function readRow(input: Pick<ReadTextInput, "question" | "subQuery" | "plan">, row: DescribedRow): RowReading {
  const asked = askedCell(input, row);
  const spans = describedRowSpans(input, row, ROW_ANSWER_SPANS);
  return { asked, spans, candidates: rowAnswerCandidates(input, row, asked, spans) };
}

/**
 * The candidates of the row a question describes: its cells, then its passages' best spans (merged
 * where a span is a cell), each with its feature vector; the hand reader's answer (`asked`, else the
 * first span) is among them.
 */
export function rowAnswerCandidates(
  input: Pick<ReadTextInput, "question" | "subQuery" | "plan">,
  row: DescribedRow,
  asked: string | undefined = askedCell(input, row),
  spans: ReadonlyArray<Reranked<ScoredSpan>> = describedRowSpans(input, row, ROW_ANSWER_SPANS),
): RowAnswer[] {
  const question = input.question;
  const kind: AnswerKind = answerKindOf(input.plan, input.subQuery || question);
  const rule = asked ?? spans[0]?.answer;
  const questionNorm = normaliseForContainment(`${question} ${questionPart(input.subQuery)}`);
  const asking = askedPhraseOf(question);
  const phrase = asking ? matchWords(asking.words.join(" ")) : [];
  const noun = asking && asking.words.length > 0 ? stem(asking.headLast ? asking.words.at(-1)! : asking.words[0]!) : "";
  const questionStems = keyStems(question);
  const rowStems = keyStems(row.values.join(" "));
  // Question words beyond the row's cells: what the row's pages must tell.
  const beyond = [...questionStems].filter((s) => !rowStems.has(s));
  const pageStems = row.passages.map((p) => keyStems(p.text));
  const idf = idfOf(pageStems);
  const beyondTotal = beyond.reduce((a, s) => a + idf(s), 0);
  const timeOrNumber = isNumericKind(kind) || kind === "date" || kind === "year" || kind === "month";
  const headerFits = row.columns.map((c) => (phrase.length > 0 ? headerFit(phrase, asking!.headLast, c) : 0));
  const opensWh = OPENS_WH.test(question);
  const nationality = NATIONALITY_QUESTION.test(question);
  const whichNoun = WHICH_NOUN.test(question) ? 1 : 0;
  const who = /^\s*who\b/i.test(question) ? 1 : 0;
  const numericQuestion = isNumericKind(kind) ? 1 : 0;
  const headerExists = headerFits.some((f) => f > 0) ? 1 : 0;
  const nameColumn = (() => {
    const text = (v: string) => v.trim() !== "" && /\p{L}/u.test(v);
    const named = row.columns.findIndex((c, i) => /^(name|title)\b/i.test(c.trim()) && text(row.values[i] ?? ""));
    return named >= 0 ? named : row.values.findIndex(text);
  })();
  // The best single sentence of the row's pages for the question's words beyond the row's cells.
  const beyondShare = (words: ReadonlySet<string>) =>
    beyondTotal > 0 ? beyond.filter((x) => words.has(x)).reduce((a, x) => a + idf(x), 0) / beyondTotal : 0;
  const beyondSentence = Math.max(
    0,
    ...row.passages.flatMap((p) => sentences(p.text).map((t) => beyondShare(keyStems(t)))),
  );
  // Spans' blocks count the row's non-empty passages (reader.ts handRowSpans).
  const pageBeyond = row.passages.filter((p) => p.text.trim() !== "").map((p) => beyondShare(keyStems(p.text)));
  const bestPage = Math.max(0, ...pageBeyond);
  const phraseStems = asking ? keyStems(asking.words.join(" ")) : new Set<string>();
  const index = (f: RowAnswerFeature) => ROW_ANSWER_FEATURES.indexOf(f);
  const byKey = new Map<string, RowAnswer>();
  const out: RowAnswer[] = [];
  const add = (answer: string, set: Partial<Record<RowAnswerFeature, number>>, extra: Partial<RowAnswer>) => {
    const key = normaliseForContainment(answer);
    if (key === "") return;
    let c = byKey.get(key);
    if (!c) {
      c = { answer, x: new Array<number>(ROW_ANSWER_FEATURES.length).fill(0) };
      byKey.set(key, c);
      out.push(c);
    }
    for (const [f, v] of Object.entries(set))
      c.x[index(f as RowAnswerFeature)] = Math.max(c.x[index(f as RowAnswerFeature)]!, v);
    if (extra.span && !c.span) c.span = extra.span;
    if (extra.column && !c.column) c.column = extra.column;
  };
  row.columns.forEach((column, i) => {
    const raw = row.values[i] ?? "";
    if (raw.trim() === "" || namedByQuestion(raw, questionNorm, [])) return;
    const value = withoutTrailingNote(cleanAnswer(raw));
    const headerWords = keyStems(column);
    const page = row.passages.find((p) => p.cells?.some(([r, c]) => r === row.rowId && c === i));
    const pageWords = page ? keyStems(page.text) : new Set<string>();
    const pageMatch =
      beyondTotal > 0 ? beyond.filter((s) => pageWords.has(s)).reduce((a, s) => a + idf(s), 0) / beyondTotal : 0;
    add(
      value,
      {
        cell: 1,
        "person-shape": kind === "person" && personShape(value) ? 1 : 0,
        demonym: !nationality && DEMONYM.test(value.trim()) ? 1 : 0,
        "cell-asked": asked !== undefined && normaliseForContainment(asked) === normaliseForContainment(value) ? 1 : 0,
        "header-asked": phrase.length > 0 ? headerFits[i]! / phrase.length : 0,
        "header-question":
          headerWords.size > 0 ? [...headerWords].filter((w) => questionStems.has(w)).length / headerWords.size : 0,
        "cell-fits-kind": timeOrNumber && cellFitsShape(value, kind) && fitsKind(value, kind) ? 1 : 0,
        "cell-kind-clash": timeOrNumber && !cellFitsShape(value, kind) ? 1 : 0,
        "name-column": i === nameColumn ? 1 : 0,
        "person-column": kind === "person" && headerSuitsKind(column.toLowerCase().split(/[\s_]+/), "person") ? 1 : 0,
        "cell-linked": page ? 1 : 0,
        "page-is-noun": page && noun !== "" && pageSaysItIs(page.text).has(noun) ? 1 : 0,
        "page-match": pageMatch,
        "cell-which-noun": whichNoun,
        "cell-no-wh": opensWh ? 0 : 1,
        "cell-who": who,
        "cell-numeric-question": numericQuestion,
        "cell-header-exists": headerExists,
        "header-rest":
          phraseStems.size > 0 && headerFits[i]! > 0
            ? [...phraseStems].filter((w) => !headerWords.has(w)).length / phraseStems.size
            : 0,
        "cell-beyond-sentence": beyondSentence,
      },
      { column },
    );
  });
  const cellKeys = new Set(out.map((c) => normaliseForContainment(c.answer)));
  const top = spans[0]?.score ?? 0;
  const rerankXs = spanRerankFeatures(spans, rowRerankContext(input, row));
  spans.forEach((s, i) => {
    const key = normaliseForContainment(s.answer);
    add(
      s.answer,
      {
        span: 1,
        "person-shape": kind === "person" && personShape(s.answer) ? 1 : 0,
        demonym: !nationality && DEMONYM.test(s.answer.trim()) ? 1 : 0,
        "span-first": i === 0 ? 1 : 0,
        "span-near-top": Math.max(0, 1 - (top - s.score) / 2),
        "span-rerank-p": s.rerankP,
        "span-only": spans.length === 1 ? 1 : 0,
        "span-linked-unnamed": s.linked >= 0.45 ? 1 : 0,
        "span-coverage": s.coverage,
        "span-is-cell": cellKeys.has(key) ? 1 : 0,
        "span-noun-near": noun !== "" && nounNear(s, noun) ? 1 : 0,
        "span-page-beyond": pageBeyond[s.block] ?? 0,
        "span-best-page": (pageBeyond[s.block] ?? -1) >= bestPage && bestPage > 0 ? 1 : 0,
        "span-sentence-beyond": beyondShare(keyStems(s.context)),
        "span-best-sentence": beyondSentence > 0 && beyondShare(keyStems(s.context)) >= beyondSentence ? 1 : 0,
        "span-ordinal-count": kind === "count" && /^\d+(?:st|nd|rd|th)$/i.test(s.answer.trim()) ? 1 : 0,
        ...Object.fromEntries(
          SPAN_RERANK_FEATURES.map((f, d) => [`sr:${f}`, rerankXs[i]![d]!]).filter(
            ([f]) => f !== "sr:score-gap" && f !== "sr:first",
          ),
        ),
      },
      { span: s },
    );
  });
  if (rule !== undefined) {
    // The hand reader's answer may be formatted apart from its cell ("Place , Region" read whole).
    if (!byKey.has(normaliseForContainment(rule)))
      add(rule, asked !== undefined ? { cell: 1, "cell-asked": 1 } : {}, {});
    add(rule, { rule: 1 }, {});
  }
  // The choice is between the row's cells and the hand reader's answer: re-ordering the spans as
  // well gained more out of fold on train (+7 of 759) but lost on dev (docs/OFFLINE-BACKBONE.md).
  const rules = index("rule");
  const cells = index("cell");
  return out.filter((c) => c.x[rules] === 1 || c.x[cells] === 1);
}

/** "Jane Q. Roe", "Li Na": two or more words, each capitalised or an initial, no digits. */
function personShape(text: string): boolean {
  const words = text.trim().split(/\s+/);
  return (
    words.length >= 2 &&
    words.length <= 5 &&
    words.every((w) => /^(?:\p{Lu}[\p{L}\p{M}'’.-]*|de|van|von|da|di|del|la|le|bin|al)$/u.test(w))
  );
}

/** Is the asked noun's stem in the span or in the two words written after it in its sentence? */
function nounNear(span: ScoredSpan, noun: string): boolean {
  if (keyStems(span.answer).has(noun)) return true;
  if (span.at < 0) return false;
  const after = span.context
    .split(/\s+/)
    .slice(span.at + span.answer.split(/\s+/).length)
    .slice(0, 2)
    .join(" ");
  return keyStems(after).has(noun);
}

/** Linear scores of the candidates under `weights` (ROW_ANSWER_FEATURES order). */
export function rowAnswerScores(
  candidates: readonly RowAnswer[],
  weights: readonly number[] = rowAnswerWeights(),
): number[] {
  return candidates.map((c) => c.x.reduce((sum, v, d) => sum + v * weights[d]!, 0));
}

/** The candidates best first under `weights` (ties keep the candidates' order), each with its softmax share P. */
export function rankRowAnswers(
  candidates: readonly RowAnswer[],
  weights: readonly number[] = rowAnswerWeights(),
): Array<RowAnswer & { p: number }> {
  const scores = rowAnswerScores(candidates, weights);
  const max = Math.max(...scores);
  const e = scores.map((s) => Math.exp(s - max));
  const z = e.reduce((a, b) => a + b, 0);
  return candidates
    .map((c, i) => ({ ...c, p: e[i]! / z, i }))
    .sort((a, b) => scores[b.i]! - scores[a.i]! || a.i - b.i)
    .map(({ i: _i, ...c }) => c);
}

/** The described row's answer: the best candidate under the shipped model (the hand reader's without one). */
export function chooseRowAnswer(
  input: Pick<ReadTextInput, "question" | "subQuery" | "plan">,
  row: DescribedRow,
): string | undefined {
  const { candidates } = readRow(input, row);
  if (candidates.length === 0) return undefined;
  return rankRowAnswers(candidates)[0]!.answer || undefined;
}
