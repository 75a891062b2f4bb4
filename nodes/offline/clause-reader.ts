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
import { keyStems, sentences } from "./evidence.js";
import { cleanAnswer } from "./answer-format.js";
import { askedClause, clauseAsk, type ClauseAsk } from "./clause-question.js";

/** A clause reading: the answer, the sentence it came from, and how much of the question that sentence holds. */
export interface ClauseReading {
  answer: string;
  context: string;
  coverage: number;
}

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

/** An answer clause: cleaned, without a closing aside in brackets ("… through 2020 (subject to …)"). */
function clause(text: string): string {
  return cleanAnswer(cleanAnswer(text).replace(/(\S)\s*\([^()]*\s[^()]*\)$/, "$1"));
}

/**
 * The answer inside the chosen sentence: after the restatement of the question's words, or from the
 * clause marker the ask calls for; undefined when nothing but question words is left.
 */
export function clauseOf(question: string, ask: ClauseAsk, sentence: string): string | undefined {
  const s = sentence.replace(/^\s*(?:\(\w{1,3}\)|[•●▪*-])\s*/, "");
  // "What impacted X?" — "X was impacted primarily by A": the agent A.
  const agent =
    ask === "cause" && /^what (?:impacted|affected|influenced)\b/i.test(askedClause(question))
      ? /\b(?:impacted|affected|influenced)\b(?:\s+\w+){0,2}?\s+by\s+/i.exec(s)
      : null;
  if (agent) return clause(s.slice(agent.index + agent[0].length));
  const marker = ask === "condition" ? CONDITION : ask === "cause" ? CAUSE : undefined;
  if (marker) {
    const m = marker.exec(s);
    // "If X, then Y": the condition is X.
    if (m) return clause(s.slice(m.index).replace(/,\s*then\b.*$/i, ""));
  }
  const q = askedClause(question);
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
  // "X in these agreements are classified as A" for "What is X classified as?": the closing verb comes a few words on.
  const verbAhead = [...closing].some((x) => seen.has(x))
    ? -1
    : toks.findIndex((t, k) => k >= at && k - at <= 8 && [...t.stems].some((x) => closing.has(x)));
  if (verbAhead >= 0) at = verbAhead + 1;
  if (ask === "purpose" || ask === "cause") {
    const rest = s.slice(toks[at - 1]?.end ?? 0);
    const m = PURPOSE.exec(rest);
    if (m && (ask === "purpose" || m.index < 40))
      return clause(rest.slice(m.index).replace(/^(?:in order to|so as to)\s+/i, "to "));
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
    // "… impacted by higher costs": the agent, without its "by"; "calculated by adding …" keeps the manner.
    const agent =
      w === "by" && at > 0 && !/ing$/.test(bare(toks[at + 1] ?? toks[at]!)) && /(?:ed|en)$/.test(bare(toks[at - 1]!));
    if ((hits[at]!.length === 0 && LINKING.test(w)) || isClosing || (PREPOSITION.test(w) && w === lastWord) || agent)
      at++;
    else break;
  }
  if (at >= toks.length) return undefined;
  const answer = clause(s.slice(toks[at]!.start));
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
  const qStems = [...keyStems(askedClause(question))];
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
