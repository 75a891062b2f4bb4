/**
 * Zod schemas of every structured reply the prompted strategies ask for. The scripted test model
 * (tests/fixtures/scripted-model.ts) validates its queued outputs against these same schemas.
 * Field names follow the reference's JSON (snake_case); coercion to our types happens in
 * nodes/prompted/coerce.ts.
 */
import { z } from "zod";

// Lenient inputs, plain JSON schemas: what the model sees is a simple type (no anyOf, which some
// function-calling APIs reject); common near-misses (a boolean for "yes", "0.5" for 0.5, one string
// for a list) are accepted before validation. Out-of-range values are handled by coerce.ts.
const yesNo = (describe: string) =>
  z.preprocess((v) => (typeof v === "boolean" ? (v ? "yes" : "no") : v), z.string().describe(describe));
const numeric = (describe: string) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : v),
    z.number().describe(describe),
  );
const stringList = (describe: string) =>
  z.preprocess((v) => (typeof v === "string" ? [v] : v), z.array(z.string()).describe(describe));

export const DecomposeReply = z.object({
  sub_query: z.string().min(1).describe('next self-contained sub-question, or exactly "TERMINATE"'),
  required_modalities: z.string().describe("text | table | both"),
  expected_operator: z.string().describe("lookup | filter | count | compare | aggregate | sort | arithmetic"),
  need_global_table_view: yesNo('"yes" or "no"'),
  entity_mentions: stringList("entity names copied verbatim from the sub-query"),
  uncertainty: numeric("0..1: share of the original question still unanswered"),
});

export const RouteReply = z.object({ route: z.string().describe("TEXT | SQL | RETRIEVE | HYBRID") });

export const LinkValueReply = z.object({
  matched_value: z.string().describe('a candidate value copied verbatim, or "no_match"'),
  matched_column: z.string().describe('that candidate\'s column, or ""'),
  confidence: numeric("0..1"),
});

export const SqlReply = z.object({ sql: z.string().min(1).describe("one read-only SELECT statement") });

export const AnswerReply = z.object({ answer: z.string().describe('the minimal answer, or "not found"') });

export const VerifyReply = z.object({
  verdict: numeric("exactly 0, 0.5 or 1"),
  reason: z.string().describe("one sentence"),
});

/** Tool/schema names, as passed to `withStructuredOutput(schema, { name })`. */
export const REPLY_SCHEMAS = {
  decompose: DecomposeReply,
  choose_route: RouteReply,
  link_value: LinkValueReply,
  write_sql: SqlReply,
  read_text: AnswerReply,
  read_rows: AnswerReply,
  fuse: AnswerReply,
  verify: VerifyReply,
  synthesize: AnswerReply,
} as const;

export type ReplyName = keyof typeof REPLY_SCHEMAS;
export type ReplyOf<N extends ReplyName> = z.infer<(typeof REPLY_SCHEMAS)[N]>;
