/**
 * Which questions ask for a clause — a part of a sentence rather than a name or a number (the clause
 * reader, clause-reader.ts, answers them; answer-kind.ts gives them the kind "text"). Only the
 * question's wording decides; it imports nothing but the question's own parts (evidence.ts).
 */
import { questionPart } from "./evidence.js";

/** Questions that ask for an amount, a count, a date or a rate: their answers are numbers, not clauses. */
const ASKS_NUMBER =
  /^(?:how (?:much|many|long|old)\b|what (?:is|was|are|were) the (?:amount|number|value|total|sum|percentage|proportion|portion|share|rate|ratio|price|cost|balance|level|change|increase|decrease|difference|average|date|year|period)\b|in which (?:year|period)\b|which (?:year|period)\b|what (?:year|date)\b|when (?:did|was|were)\b)/;

/**
 * The question's own words: without the decomposer's notes and without a leading frame that
 * scopes it ("In 2019, why …", "According to the report, …").
 */
export function askedClause(question: string): string {
  return questionPart(question)
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^(?:in (?:fiscal |fy ?)?(?:19|20)\d\d|according to [^,]{1,60}),\s*/i, "");
}

/** What shape of clause a question asks for, or undefined when it does not ask for a clause. */
export type ClauseAsk = "condition" | "cause" | "purpose" | "object";

/**
 * The clause a question asks for: "when does/is …" a condition, "why"/"what drove …" a cause, "what
 * is X used for" a purpose, "what does X verb", "what is X verb-ed as/by/…" and "what is TERM" the
 * rest of the restating sentence; undefined for questions that ask for an amount, count, date, rate
 * or an extreme, and for "where"/"who" (places and names: the span reader's).
 */
export function clauseAsk(question: string): ClauseAsk | undefined {
  const asked = askedClause(question);
  const q = asked.toLowerCase().replace(/\s*\?+\s*$/, "");
  if (ASKS_NUMBER.test(q) || /\b(?:most|least|highest|lowest|largest|smallest)\b/.test(q)) return undefined;
  // A relative clause ("… of the city where X is located") or a name's alias ("known as") asks for an entity.
  if (
    /\b(?:where|which|whose|that|who|whom)\b/.test(q.replace(/^\S+\s/, "")) ||
    /\b(?:known|located|named|called|born|death)\b/.test(q)
  )
    return undefined;
  // A closing participle is written in lower case ("… of Central United?" closes with a name).
  const closing = /([\p{L}]+)(?:\s+(?:of|for|in|on|to|from|with|by|as|at|under))?\s*\?*\s*$/u.exec(asked)?.[1] ?? "";
  const closesLower = closing === closing.toLowerCase();
  if (/^when (?:does|do|is|are|will|would|should|can|must|may)\b/.test(q)) return "condition";
  if (
    /^(?:why\b|what (?:factors |reasons? )?(?:caused|drove|driven|led to|contributed to|impacted|affected|influenced)\b|what (?:is|are|was|were) the (?:main |primary |principal )?(?:reasons?|causes?|drivers?)\b)/.test(
      q,
    )
  )
    return "cause";
  if (
    /^what (?:is|are|was|were) .+ used (?:for|by .+ for)$/.test(q) ||
    /^what (?:is|are|was|were) the (?:objective|purpose|aim|goal)s? of\b/.test(q)
  )
    return "purpose";
  // "What was the last ferry route opened?": a position in a table's rows, not a clause.
  if (/\b(?:first|last|second|third|next|previous|earliest|latest|listed|combined)\b/.test(q)) return undefined;
  // "What do capital leases reflect?", "What does X consist of?": the question ends with its verb (and a particle).
  if (
    /^what (?:do|does|did) \S.* [a-z]+(?: (?:of|for|in|on|to|from|with|by|as))?$/.test(q) &&
    !/\b(?:19|20)\d\d$/.test(q)
  )
    return "object";
  // "What is X based on?", "What are X classified as?": a participle closes the question.
  if (
    closesLower &&
    /^(?:what|how) (?:is|are|was|were) \S.* (?:[a-z]+ed|paid|made|held|built|known|shown|given|done|seen|based)(?: (?:on|as|to|in|by|for|from|with|under|of))?$/.test(
      q,
    )
  )
    return "object";
  // "What is deferred revenue?": a bare term (no "the", no "of …") asks for its definition.
  if (
    /^what (?:is|are) (?:an? )?[\w'’&.-]+(?: [\w'’&.-]+){0,4}$/.test(q) &&
    !/\b(?:the|of|in|on|for|at|by|from|\d+)\b/.test(q.slice(8))
  )
    return "object";
  return undefined;
}
