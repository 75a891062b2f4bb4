/**
 * A learned look at the described-row reader's best few spans (reader.ts `describedRowSpans`). The
 * hand score (coverage, proximity, kind fit, linked-passage bonus) puts the right span first for
 * about a quarter of the passage answers on hybridqa/train and 2nd–6th for another sixth, often a
 * hair behind a span that a look at the span itself makes doubtful: an abbreviation ("UK" beside the
 * full name), a capitalised sentence opener ("Initially"), a name every linked page writes (the
 * country, the league), a note in brackets, a year where a full date is written. Each of the top
 * SPAN_RERANK_K spans gets the named features below, and a linear score over them, fit listwise on
 * hybridqa/train (`npx tsx scripts/reader-spans.ts --fit`, folds grouped by table, L2 pull to the
 * hand prior), gives each span a softmax share P among them.
 *
 * P is a feature for the verifier (`rc:rerank-p`, `rc:rerank-margin`, reader-candidates.ts); it does
 * not re-order the answers: re-ordering by the fit weights gained 2.7 first spans out of fold on train
 * (of 493) and lost 2 questions net on hybridqa/dev through the graph, so the order stays the hand
 * score's (SPAN_ORDER_WEIGHTS = the prior). docs/OFFLINE-BACKBONE.md has the figures.
 */
import { fitsKind, type AnswerKind } from "./answer-kind.js";
import { normaliseForContainment } from "../../text/normalise.js";

/** The top spans of the hand score that the re-ranking re-orders. */
export const SPAN_RERANK_K = 6;

/** Feature names, in the order of feature vectors and of SPAN_RERANK_WEIGHTS. */
export const SPAN_RERANK_FEATURES = [
  // hand score − the best hand score (0 for the first span, negative below)
  "score-gap",
  // the hand score's first span
  "first",
  // a number or time is asked and the span fits it (answer-kind.ts fitsKind)
  "kind-agree",
  // all capitals, at most five letters ("UK", "MLB", "U.S")
  "abbreviation",
  // one capitalised word opening its sentence
  "opener",
  // share of the span's content words the question holds
  "question-overlap",
  // written in two or more of the row's linked passages
  "recurs",
  // number of words (capped at 4) / 4
  "length",
  // "Place , Region"
  "comma",
  // from a linked passage the question names (the row's own page rather than the one it leads to)
  "named-passage",
  // holds another of the top spans ("Atlanta , Georgia" beside "Atlanta")
  "contains-other",
  // inside another of the top spans
  "inside-other",
  // the passage's subject rather than a span of the sentence
  "subject",
  // from the first sentence of its passage
  "first-sentence",
  // question words near the span (reader proximity)
  "proximity",
  // holds a bracket or slash (a pronunciation, a note: "Otago ( /əˈtɑːɡoʊ/")
  "bracket",
  // written inside parentheses in its sentence (a lifespan, a translation)
  "in-parentheses",
  // a list of two or more ("A and B")
  "list",
  // an ordinal ("28th") where the question asks a rank, place or position
  "ordinal-asked",
  // "Place , Region" where the question asks a city or town
  "comma-city",
] as const;

/** Hand weights that reproduce the hand order (the prior of the fit). */
export const SPAN_RERANK_PRIOR: readonly number[] = [10, 0.0001, ...new Array<number>(18).fill(0)];

/** The order the reader answers in: the hand score's (see the module comment for why). */
export const SPAN_ORDER_WEIGHTS: readonly number[] = SPAN_RERANK_PRIOR;

/** Weights fit on hybridqa/train, for the shares P (see the module comment). */
export const SPAN_RERANK_WEIGHTS: readonly number[] = [
  4.531, 0.447, -0.468, -1.22, -0.547, 1.071, -1.703, 0.381, 0.194, 0.562, 0.218, 0.879, -0.979, -0.485, 0.122, -0.979,
  -1.178, -0.611, -0.07, 0.187,
];

/** What the re-ranking reads of a span (reader.ts ScoredSpan). */
export interface RerankableSpan {
  answer: string;
  /** The sentence the span was read from. */
  context: string;
  score: number;
  block: number;
  sentence: number;
  linked: number;
  at: number;
  overlap: number;
  proximity: number;
}

/** What the re-ranking reads of the question and the row. */
export interface RerankContext {
  kind: AnswerKind;
  /** The question (its wording decides the crossed features). */
  question: string;
  /** Normalised texts of the row's linked passages. */
  passages: readonly string[];
}

const ABBREVIATION = /^(?=.*\p{Lu})[\p{Lu}.&]{1,6}$/u;
const NUMERIC_KINDS = new Set<AnswerKind>(["count", "number", "money", "percent", "year", "date", "month"]);
const ASKS_RANK =
  /\b(rank|ranked|ranking|place|placed|placing|placement|position|finish|finished|seed|seeded|standing)\b/i;
const ASKS_CITY = /\b(city|town|village|hometown|municipality)\b/i;

/** Is the word at `at` of the sentence inside parentheses? */
function inParentheses(sentence: string, at: number): boolean {
  if (at <= 0) return false;
  let depth = 0;
  for (const w of sentence.split(/\s+/).slice(0, at)) {
    if (w.startsWith("(")) depth++;
    if (w.endsWith(")")) depth = Math.max(0, depth - 1);
  }
  return depth > 0;
}

/** The feature vectors of the spans (best hand score first), in SPAN_RERANK_FEATURES order. */
export function spanRerankFeatures(spans: readonly RerankableSpan[], context: RerankContext): number[][] {
  const top = spans[0]?.score ?? 0;
  const keys = spans.map((s) => normaliseForContainment(s.answer));
  const numeric = NUMERIC_KINDS.has(context.kind);
  const asksRank = ASKS_RANK.test(context.question);
  const asksCity = ASKS_CITY.test(context.question);
  return spans.map((s, i) => {
    const key = keys[i]!;
    const words = s.answer.split(/\s+/).filter((w) => w !== "");
    const recurs = key !== "" && context.passages.filter((p) => ` ${p} `.includes(` ${key} `)).length >= 2 ? 1 : 0;
    const holds = keys.some((k, j) => j !== i && k !== "" && k !== key && ` ${key} `.includes(` ${k} `));
    const inside = keys.some((k, j) => j !== i && k !== key && ` ${k} `.includes(` ${key} `));
    return [
      s.score - top,
      i === 0 ? 1 : 0,
      numeric && fitsKind(s.answer, context.kind) ? 1 : 0,
      ABBREVIATION.test(s.answer.replace(/\s+/g, "")) && s.answer.replace(/[^\p{L}]/gu, "").length <= 5 ? 1 : 0,
      s.at === 0 && words.length === 1 ? 1 : 0,
      s.overlap,
      recurs,
      Math.min(4, words.length) / 4,
      s.answer.includes(",") ? 1 : 0,
      s.linked > 0 && s.linked < 0.45 ? 1 : 0,
      holds ? 1 : 0,
      inside ? 1 : 0,
      s.at < 0 ? 1 : 0,
      s.sentence === 0 ? 1 : 0,
      Math.min(1, s.proximity),
      /[()[\]/]/.test(s.answer) ? 1 : 0,
      inParentheses(s.context, s.at) ? 1 : 0,
      /\s(and|&)\s/.test(s.answer) ? 1 : 0,
      asksRank && /^\d+(st|nd|rd|th)$/i.test(s.answer) ? 1 : 0,
      asksCity && s.answer.includes(",") ? 1 : 0,
    ];
  });
}

/** Linear scores of feature vectors. */
export function rerankScores(xs: ReadonlyArray<readonly number[]>, weights = SPAN_RERANK_WEIGHTS): number[] {
  return xs.map((x) => x.reduce((sum, v, d) => sum + v * weights[d]!, 0));
}

/** A span with its share P of the softmax of the fit weights' scores over the top spans. */
export type Reranked<S> = S & { rerankP: number };

/**
 * The top SPAN_RERANK_K spans ordered by `orderWeights` (ties keep the hand order), each with its
 * softmax share under `shareWeights` among them, then the others in hand order (share 0).
 */
export function rerankSpans<S extends RerankableSpan>(
  spans: readonly S[],
  context: RerankContext,
  orderWeights = SPAN_ORDER_WEIGHTS,
  shareWeights = SPAN_RERANK_WEIGHTS,
): Array<Reranked<S>> {
  const head = spans.slice(0, SPAN_RERANK_K);
  const xs = spanRerankFeatures(head, context);
  const order = rerankScores(xs, orderWeights);
  const shares = softmax(rerankScores(xs, shareWeights));
  const ranked = head.map((_, i) => i).sort((a, b) => order[b]! - order[a]! || a - b);
  return [
    ...ranked.map((i) => ({ ...head[i]!, rerankP: shares[i]! })),
    ...spans.slice(SPAN_RERANK_K).map((s) => ({ ...s, rerankP: 0 })),
  ];
}

/** Softmax shares of scores. */
export function softmax(scores: readonly number[]): number[] {
  const max = Math.max(...scores);
  const e = scores.map((v) => Math.exp(v - max));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / z);
}
