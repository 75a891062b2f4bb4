/**
 * The clause reader: questions whose answer is a part of a sentence rather than a name or a number
 * ("What do operating leases cover?" — "office space and vehicles"; "When does the company bill its
 * customers?" — "when the service is delivered"; "What is deferred revenue?" — "the amount received
 * before …"). Report passages answer such questions in a sentence that restates the question's words
 * and then gives the answer; the reader picks that sentence (idf-weighted overlap with the question's
 * content words) and returns what follows the restatement, to the sentence's end.
 *
 * Boundaries: the answer starts after the shortest opening of the sentence that holds most of the
 * question words the sentence holds (the restated subject and verb), skipping a copula, a linking
 * verb the question does not ask with ("represents", "includes") and a preposition the question ends
 * with ("… operate in?" — the countries, not "in"); "when" questions start at the sentence's
 * condition ("when", "if", "upon", …), cause questions at the cause marker ("due to …").
 */
import { keyStems, questionPart, sentences } from "./evidence.js";
import { cleanAnswer } from "./answer-format.js";

/** A clause reading: the answer, the sentence it came from, and how much of the question that sentence holds. */
export interface ClauseReading {
  answer: string;
  context: string;
  coverage: number;
}

/** Questions that ask for an amount, a count, a date or a rate: their answers are numbers, not clauses. */
const ASKS_NUMBER =
  /^(?:how (?:much|many|long|old)\b|what (?:is|was|are|were) the (?:amount|number|value|total|sum|percentage|proportion|portion|share|rate|ratio|price|cost|balance|level|change|increase|decrease|difference|average|date|year|period)\b|in which (?:year|period)\b|which (?:year|period)\b|what (?:year|date)\b|when (?:did|was|were)\b)/;

/** Words a sentence links its subject to its answer with ("X represents Y"): skipped at the answer's start. */
const LINKING =
  /^(?:is|are|was|were|be|been|being|has|have|had|will|would|shall|should|can|could|may|might|must|do|does|did|also|primarily|mainly|largely|principally|generally|typically|usually|only|represents?|represented|means?|meant|refers?|referred|includes?|included|including|consists?|consisted|comprises?|comprised|reflects?|reflected|relates?|related|defined|calculated|computed|determined|measured|recognised|recognized|stated|classified|considered|used)$/;

/** Prepositions a question may end with ("… consist of?") or an answer may begin after. */
const PREPOSITION = /^(?:of|for|in|on|at|to|from|with|by|as|into|under|within|about|through)$/;

/** Markers that open a condition clause — the answer of "When does X happen?". */
const CONDITION = /\b(?:when|whenever|if|upon|once|unless|until|only (?:if|when|upon))\b/i;

/** Markers that open a cause clause ("primarily due to …"). */
const CAUSE =
  /\b(?:(?:primarily|mainly|largely|principally|partly|partially)\s+)?(?:due to|driven by|as a result of|attributable to|because of|resulting from|caused by)\b/i;

/** Markers that open a purpose clause ("… to reduce …", "in order to …"). */
const PURPOSE = /\b(?:in order to|so as to|to)\s+[a-z]/i;

/** What shape of clause a question asks for, or undefined when it does not ask for a clause. */
export type ClauseAsk = "condition" | "cause" | "purpose" | "object";

/**
 * The clause a question asks for: "when does/is …" a condition, "why"/"what drove …" a cause, "what
 * is X used for" a purpose, "what does X verb", "what is X verb-ed as/by/…" and "what is TERM" the
 * rest of the restating sentence; undefined for questions that ask for an amount, count, date, rate
 * or an extreme, and for "where"/"who" (places and names: the span reader's).
 */
export function clauseAsk(question: string): ClauseAsk | undefined {
  const asked = questionPart(question).replace(/\s+/g, " ").trim();
  const q = asked.toLowerCase().replace(/\s*\?+\s*$/, "");
  if (ASKS_NUMBER.test(q) || /\b(?:most|least|highest|lowest|largest|smallest)\b/.test(q)) return undefined;
  // A relative clause ("… of the city where X is located") or a name's alias ("known as") asks for an entity.
  if (/\b(?:where|which|whose|that|who|whom)\b/.test(q.replace(/^\S+\s/, "")) || /\b(?:known|located|named|called|born|death)\b/.test(q))
    return undefined;
  // A closing participle is written in lower case ("… of Central United?" closes with a name).
  const closing = /([\p{L}]+)(?:\s+(?:of|for|in|on|to|from|with|by|as|at|under))?\s*\?*\s*$/u.exec(asked)?.[1] ?? "";
  const closesLower = closing === closing.toLowerCase();
  if (/^when (?:does|do|is|are|will|would|should|can|must|may)\b/.test(q)) return "condition";
  if (/^(?:why\b|what (?:factors |reasons? )?(?:caused|drove|driven|led to|contributed to)\b|what (?:is|are|was|were) the (?:main |primary |principal )?(?:reasons?|causes?|drivers?)\b)/.test(q))
    return "cause";
  if (/^what (?:is|are|was|were) .+ used (?:for|by .+ for)$/.test(q) || /^what (?:is|are|was|were) the (?:objective|purpose|aim|goal)s? of\b/.test(q))
    return "purpose";
  // "What was the last bridge built?": a position in a table's rows, not a clause.
  if (/\b(?:first|last|second|third|next|previous|earliest|latest|listed|combined)\b/.test(q)) return undefined;
  // "What do capital leases reflect?", "What does X consist of?": the question ends with its verb (and a particle).
  if (/^what (?:do|does|did) \S.* [a-z]+(?: (?:of|for|in|on|to|from|with|by|as))?$/.test(q) && !/\b(?:19|20)\d\d$/.test(q))
    return "object";
  // "What is X based on?", "What are X classified as?": a participle closes the question.
  if (closesLower && /^(?:what|how) (?:is|are|was|were) \S.* (?:[a-z]+ed|paid|made|held|built|known|shown|given|done|seen|based)(?: (?:on|as|to|in|by|for|from|with|under))?$/.test(q))
    return "object";
  // "What is deferred revenue?": a bare term (no "the", no "of …") asks for its definition.
  if (/^what (?:is|are) (?:an? )?[\w'’&.-]+(?: [\w'’&.-]+){0,4}$/.test(q) && !/\b(?:the|of|in|on|for|at|by|from|\d+)\b/.test(q.slice(8)))
    return "object";
  return undefined;
}

interface Token {
  text: string;
  start: number;
  end: number;
  stems: Set<string>;
}

function tokens(sentence: string): Token[] {
  return [...sentence.matchAll(/\S+/g)].map((m) => ({
    text: m[0],
    start: m.index!,
    end: m.index! + m[0].length,
    stems: keyStems(m[0]),
  }));
}

const bare = (t: Token) => t.text.toLowerCase().replace(/^[("“‘'`]+|[)"”’'`,.;:]+$/g, "");

/**
 * The answer inside the chosen sentence: after the restatement of the question's words, or from the
 * clause marker the ask calls for; undefined when nothing but question words is left.
 */
export function clauseOf(question: string, ask: ClauseAsk, sentence: string): string | undefined {
  const s = sentence.replace(/^\s*(?:\(\w{1,3}\)|[•●▪*-])\s*/, "");
  const marker = ask === "condition" ? CONDITION : ask === "cause" ? CAUSE : undefined;
  if (marker) {
    const m = marker.exec(s);
    // "If X, then Y": the condition is X.
    if (m) return cleanAnswer(s.slice(m.index).replace(/,\s*then\b.*$/i, ""));
  }
  const q = questionPart(question);
  const qStems = keyStems(q);
  const toks = tokens(s);
  const hits = toks.map((t) => [...t.stems].filter((x) => qStems.has(x)));
  const held = new Set(hits.flat());
  if (held.size === 0) return undefined;
  // The restatement: the shortest opening holding most of the distinct question words the sentence holds.
  const seen = new Set<string>();
  let at = 0;
  for (let i = 0; i < toks.length; i++) {
    for (const x of hits[i]!) seen.add(x);
    if (seen.size >= Math.ceil(held.size * 0.75)) {
      at = i + 1;
      break;
    }
  }
  // The restatement runs on over question words not yet seen ("… per ordinary share by …").
  while (at < toks.length && hits[at]!.some((x) => !seen.has(x))) {
    for (const x of hits[at]!) seen.add(x);
    at++;
  }
  const questionWords = q.toLowerCase().match(/[a-z]+/g) ?? [];
  const lastWord = questionWords.at(-1) ?? "";
  // The question's closing verb ("… comprise of?", "… entered into with counterparties?") restated in the sentence.
  const closing = keyStems(questionWords.filter((w) => !PREPOSITION.test(w)).at(-1) ?? "");
  if (ask === "purpose" || ask === "cause") {
    const rest = s.slice(toks[at - 1]?.end ?? 0);
    const m = PURPOSE.exec(rest);
    if (m && (ask === "purpose" || m.index < 40))
      return cleanAnswer(rest.slice(m.index).replace(/^(?:in order to|so as to)\s+/i, "to "));
  }
  // "Calculated on … for tax credits": the question's words come after the answer; it follows the closing verb.
  if (toks.length - at < 2) {
    const verbAt = toks.findIndex((t) => [...t.stems].some((x) => closing.has(x)));
    if (verbAt >= 0 && verbAt < toks.length - 2) at = verbAt + 1;
  }
  // Skip linking words, the question's closing verb, and a preposition the question ends with.
  while (at < toks.length) {
    const w = bare(toks[at]!);
    const isClosing = hits[at]!.length > 0 && [...toks[at]!.stems].some((x) => closing.has(x));
    if ((hits[at]!.length === 0 && LINKING.test(w)) || isClosing || (PREPOSITION.test(w) && w === lastWord)) at++;
    else break;
  }
  if (at >= toks.length) return undefined;
  const answer = cleanAnswer(s.slice(toks[at]!.start));
  const words = keyStems(answer);
  if (words.size === 0 || [...words].every((w) => qStems.has(w))) return undefined;
  return answer;
}

/** Sentences of the evidence outside table rows and table headers. */
function evidenceSentences(evidence: string): string[] {
  const text = evidence
    .split("\n")
    .filter((l) => !l.trim().startsWith("|") && !/^(Table name|Title|Passage|Source):/.test(l.trim()))
    .join("\n");
  return sentences(text);
}

/** Least share of the question's (idf-weighted) words a sentence must hold to answer it. */
const MIN_COVERAGE = 0.4;

/** The clause answer of a question over the evidence's passages, or undefined when it asks for none. */
export function readClause(question: string, evidence: string): ClauseReading | undefined {
  const ask = clauseAsk(question);
  if (!ask) return undefined;
  const sents = evidenceSentences(evidence);
  if (sents.length === 0) return undefined;
  const qStems = [...keyStems(questionPart(question))];
  if (qStems.length === 0) return undefined;
  const stemSets = sents.map((s) => keyStems(s));
  const df = new Map<string, number>();
  for (const set of stemSets) for (const w of set) df.set(w, (df.get(w) ?? 0) + 1);
  const idf = (w: string) => Math.log(1 + sents.length / (df.get(w) ?? 0.5));
  const total = qStems.reduce((a, w) => a + idf(w), 0);
  const marker = ask === "condition" ? CONDITION : ask === "cause" ? CAUSE : ask === "purpose" ? PURPOSE : undefined;
  let best: (ClauseReading & { score: number }) | undefined;
  sents.forEach((sentence, i) => {
    const matched = qStems.filter((w) => stemSets[i]!.has(w)).reduce((a, w) => a + idf(w), 0);
    const coverage = matched / total;
    if (coverage < MIN_COVERAGE) return;
    // A sentence that opens with the question's words restates it ("X represents …"); one with the asked marker answers it.
    const opening = keyStems(sentence.split(/\s+/).slice(0, 4).join(" "));
    const opens = qStems.some((w) => opening.has(w)) ? 0.15 : 0;
    const score = coverage + opens + (marker && marker.test(sentence) ? 0.35 : 0);
    if (best && score <= best.score) return;
    const answer = clauseOf(question, ask, sentence);
    if (answer) best = { answer, context: sentence, coverage, score };
  });
  return best && { answer: best.answer, context: best.context, coverage: best.coverage };
}
