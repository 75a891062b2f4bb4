/**
 * Prompts of the prompted strategies, as versioned constants with `{placeholders}` and XML-tagged
 * evidence blocks. They summarise the intent of the published prompts (reference §3, §5.2, §6.4,
 * §6.5, §8) in our own words; the required outputs are structured (zod schemas in
 * nodes/prompted/schemas.ts), so no prompt asks for a free-text tag format.
 *
 * `PROMPTS_VERSION` goes into run metadata; change it whenever a prompt's meaning changes.
 */

export const PROMPTS_VERSION = "atr-prompts-2026-12-01.1";

/** Fills `{name}` placeholders; a placeholder without a value is an error (a silent "{x}" would reach the model). */
export function fillPrompt(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g, (whole, name: string) => {
    if (!(name in values)) throw new Error(`nodes/prompts.ts: no value for placeholder {${name}}`);
    return String(values[name]);
  });
}

const ARITHMETIC_RULES = `Arithmetic rules: keep units and scale words (million, %, $); never dump rows; percentage
change = (new - old) / old × 100 with its sign; an absolute change keeps its unit and sign; an average is
the mean of the listed values; a ratio is a decimal unless a percentage is asked for.`;

/**
 * Appended to the decomposer's history when the offline tier of the cascade (graph/cascade.ts) ran
 * first and its verifier accepted nothing: its attempts, linked values, SQL and candidate answers.
 */
export const PRIOR_FINDINGS_BLOCK = `<offline_findings>
A deterministic first pass tried this question; none of its answers was verified. Use what it found
(linked cell values, SQL that ran, candidate answers) as leads, not as facts:
{findings}
</offline_findings>`;

export const DECOMPOSE_PROMPT = `You plan how to answer a question over a corpus of tables and passages, one retrieval step at a time.

<question>{question}</question>
{tableHint}
{recoveryHint}
<schema_preview>{schemaPreview}</schema_preview>
<history>
{history}
</history>

Plan the NEXT single atomic sub-query that one retrieval step can answer, or reply with sub_query
"TERMINATE" when the history already answers the whole question.
- Bridge and multi-hop questions: first ask for the unlocking intermediate fact.
- Comparisons: retrieve each compared item separately, then compare.
- Aggregations (count, sum, average, max) over one table may be a single step.
- Never repeat or paraphrase a sub-query marked NOT FOUND; do not terminate before the question is answered.
- entity_mentions are names that must be matched to table cells, copied verbatim from your sub-query; [] if none.

Fields: sub_query; required_modalities (text | table | both); expected_operator (lookup | filter | count |
compare | aggregate | sort | arithmetic); need_global_table_view ("yes" when many rows must be scanned,
else "no"); entity_mentions; uncertainty (0–1: how much of the ORIGINAL question is still unanswered
after this sub-query; 0 = this step answers it fully, an intermediate bridge step ≈ 0.9).`;

export const RECOVERY_HINT_ONE = `<recovery_hint>The last step failed. Try a fundamentally different approach: synonyms or
broader terms, an intermediate fact that unlocks the answer, the table instead of the text (or the
reverse). Do not merely rephrase.</recovery_hint>`;

export const RECOVERY_HINT_MANY = `<recovery_hint>Several steps failed in a row. Re-plan from scratch: ask a broader one-step
question, or synthesise from the partial history and TERMINATE, or as a last resort set
required_modalities to "text".</recovery_hint>`;

export const ROUTE_PROMPT = `Choose the retrieval route for a sub-query.

<profile>
Sub-query              : {subQuery}
Operator               : {operator}
Modalities             : {modalities}
Entity mentions        : {entities}
Schema available       : {hasSchema}
Need global table view : {global}
Residual uncertainty   : {uncertainty}
Restored schema        : {schemaFeature}
Already-failed routes  : [{failedRoutes}]
Failure history H      : {historyFeature}
</profile>

Routes: TEXT reads passages and table chunks; SQL runs a constrained query over the relational tables;
RETRIEVE grounds entity mentions to cells and reads the matching rows; HYBRID grounds entity mentions
to cells and runs a constrained query with them.
Rules, in order: TEXT if the modality is text or there is neither a schema nor an entity; SQL for
count/aggregate/sort/arithmetic/compare with a schema and no entities; HYBRID for those with entities;
RETRIEVE for those with entities once HYBRID failed; RETRIEVE for lookup/filter with entities; SQL if a
schema exists; otherwise TEXT. Never choose an already-failed route. Reply with the route name only.`;

export const LINK_VALUE_PROMPT = `Match an entity mention from a question to one stored table value.

<sub_query>{subQuery}</sub_query>
<entity>{entity}</entity>
<primary_column>{primaryColumn}</primary_column>
<candidates>
{candidates}
</candidates>

Pick the candidate that denotes the same thing as the entity: an exact match, an alias or abbreviation,
a partial name or nickname, a typographic variant, or the same number/date written differently. Prefer
exact matches and aliases. Reply matched_value "no_match" when the entity is a concept rather than a
value, when no candidate is plausible, or when a match would need invention. matched_value must be
copied verbatim from the list and matched_column must be that candidate's column. Confidence: 1.0
exact, 0.8 alias, 0.6 partial, 0.3 weak, 0.0 no match.`;

export const SQL_PROMPT = `Write one read-only {dialect} SELECT statement that answers the request below.

{constraintPrompt}

Reply with the SQL only (no explanation). {repairNote}`;

export const TEXT_ANSWER_PROMPT = `Answer a sub-question from the evidence only.

<question>{question}</question>
<sub_question>{subQuery}</sub_question>
<evidence>
{evidence}
</evidence>

Answer from the evidence only, verbatim or as a minimal paraphrase. On conflicting values prefer the
most specific or most frequent one. Answer the supported part only. Reply "not found" when nothing
relevant is present. ${ARITHMETIC_RULES}
Reply with the minimal answer (a name, number, date or short phrase), no explanation.`;

export const ROWS_ANSWER_PROMPT = `Read the answer to a sub-question from table rows.

<question>{question}</question>
<sub_question>{subQuery}</sub_question>
<schema>
{schemaInfo}
</schema>
<cell_bindings>
{cellInfo}
</cell_bindings>
<table_context>
{tableContext}
</table_context>

Protocol: identify the target column from the question word (who, when, how many…); locate the target
row through the cell bindings; return the value at (target column, target row). Never return the filter
entity itself; combine columns only within the target row. Numbers exactly as stored, with units.
Reply "not found" when the value is absent. ${ARITHMETIC_RULES}
Reply with the minimal answer only.`;

export const FUSE_PROMPT = `Combine evidence sources into one minimal answer.

<question>{question}</question>
<sub_question>{subQuery}</sub_question>
<source_a_text>
{textEvidence}
</source_a_text>
<source_b_schema_and_cells>
{schemaEvidence}
</source_b_schema_and_cells>
<source_c_sql_result route="{route}">
{sqlResult}
</source_c_sql_result>
<source_d_table_markdown>
{markdown}
</source_d_table_markdown>

Priorities: the SQL result for counting, aggregation and arithmetic when it is non-empty; when SQL
returned 0 or nothing, cross-check the table markdown (names may be spelled differently) and trust 0
only if the markdown confirms it; schema/cell evidence for direct cell lookups or when SQL failed;
text and markdown for descriptive questions. Conflicts: numbers SQL > cells > text; qualitative text >
SQL. Reply "not found" when every source is empty or the answer type does not fit the ORIGINAL
question. ${ARITHMETIC_RULES}
Reply with the minimal grounded answer only.`;

export const VERIFY_PROMPT = `Judge whether a candidate answer is supported.

<question>{question}</question>
<sub_question>{subQuery}</sub_question>
<route>{route}</route>
<candidate_answer>{answer}</candidate_answer>
<evidence>
{evidence}
</evidence>

Check (1) slot alignment: the answer is the kind of thing the sub-question asks for, and it serves the
original question; (2) evidence consistency: the evidence supports it; (3) route faithfulness: its
surface form occurs in the evidence or is computed from it.
verdict 1: all checks pass. verdict 0.5: plausible but incomplete or indirect, "not found" with
ambiguous evidence, an empty SQL result, or one minor failure. verdict 0: contradiction or
hallucination, "not found" despite clear evidence, two or more failures, the filter entity returned
instead of the asked attribute, a value from the wrong row or the wrong column.
Reply with verdict (exactly 0, 0.5 or 1) and a one-sentence reason.`;

export const SYNTHESIZE_PROMPT = `Give the final answer to a question from the answered sub-questions.

<question>{question}</question>
<steps>
{steps}
</steps>

Pick the sub-answer (usually the last successful one) or the combination that answers the original
question; on conflict prefer the most specific or most recent; aggregate (count, sum, list) when the
question asks for it. Check the answer type (who, how many, when, what year, which thing) and reply
"not found" when no step fits. ${ARITHMETIC_RULES}
Reply with the minimal answer only, no explanation.`;

/** Appended on the one repair retry after an invalid structured reply. */
export const REPAIR_NOTE = `Your previous reply could not be used: {problem}. Reply again with exactly one valid object with the
required fields and nothing else.`;
