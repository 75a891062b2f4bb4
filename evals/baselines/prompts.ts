/**
 * Prompts of the baselines (reference §13), versioned like nodes/prompts.ts; the version goes into
 * run metadata. Placeholders are `{name}`; evidence sits in XML-tagged blocks.
 */
export const BASELINE_PROMPTS_VERSION = "atr-baselines-2026-11-29.1";

export const MINIMAL_ANSWER_RULES = `Answer with the shortest exact answer only: a number, a date, a name or a short span.
Several items: separate them with " | ". Keep units and scale words (million, %) when the evidence uses them.
If the answer cannot be determined, answer "not found".
End your reply with one line: <Answer>: <the answer>`;

export const CLOSED_BOOK_PROMPT = `Answer the question from your own knowledge.
${MINIMAL_ANSWER_RULES}

<question>{question}</question>`;

export const CONTEXT_PROMPT = `Answer the question using only the context below (tables and passages).
${MINIMAL_ANSWER_RULES}

<context>
{context}
</context>

<question>{question}</question>`;

export const REACT_PROMPT = `You answer a question over a corpus of tables and passages by reasoning and using tools.
Tools:
- retrieve_docs[query]: passages and table chunks relevant to the query
- retrieve_schema[query]: columns (table, column, type, examples) relevant to the query
- retrieve_cells[entity]: table cells matching an entity mention, with their columns
- execute_sql[SELECT ...]: run one read-only SQLite SELECT over the tables (use the physical names shown by retrieve_schema)
Reply in exactly this format, one step at a time:
Thought: <your reasoning>
Action: <tool>[<input>]
When you know the answer, reply instead:
Thought: <your reasoning>
Final Answer: <the shortest exact answer; several items separated by " | "; "not found" if it cannot be determined>

<question>{question}</question>{hint}

{scratchpad}`;
