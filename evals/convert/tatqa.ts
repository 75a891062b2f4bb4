/**
 * TAT-QA release → shared layout. Reads one `tatqa_dataset_<split>.json` (a list of contexts
 * `{table: {uid, table}, paragraphs: [{uid, order, text}], questions: [...]}`). The gold `answer`
 * list is built as the official `extract_gold_answers` builds it (span/multi-span: the list;
 * arithmetic: str(number); count: str(int)); the released answer is kept as `answer_raw`.
 * A file without answers (the test questions) gives records without answer fields.
 */
import { readFileSync } from "node:fs";
import { checkTableId, ConvertError, SplitWriter } from "./output.js";
import { pyFloatStr } from "../scoring/python-numbers.js";

interface TatQuestion {
  uid: string;
  order?: number;
  question: string;
  answer?: unknown;
  derivation?: string;
  answer_type?: string;
  answer_from?: string;
  rel_paragraphs?: unknown[];
  req_comparison?: boolean;
  scale?: string;
}

interface TatContext {
  table: { uid: string; table: unknown[][] };
  paragraphs: Array<{ uid: string; order: number; text: string }>;
  questions: TatQuestion[];
}

/**
 * Python `str()` of a released answer. JSON loses int vs float, so an integral arithmetic answer
 * prints as `5` where Python may print `5.0`; the TAT-QA metric reads both as the same number.
 */
function pyStr(value: unknown): string {
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : pyFloatStr(value);
  return String(value);
}

/** `extract_gold_answers` of tatqa_metric.py. */
export function tatGoldAnswers(answerType: string, answer: unknown): string[] {
  if (answerType === "span" || answerType === "multi-span") {
    if (!Array.isArray(answer))
      throw new ConvertError(`a ${answerType} answer must be a list, got ${JSON.stringify(answer)}`);
    return answer.map(String);
  }
  if (answerType === "count") return [String(Math.trunc(Number(answer)))];
  return [pyStr(answer)];
}

export interface TatqaConvertOptions {
  src: string;
  outDir: string;
  limit?: number;
}

export function convertTatqa(options: TatqaConvertOptions) {
  let contexts: TatContext[];
  try {
    contexts = JSON.parse(readFileSync(options.src, "utf8")) as TatContext[];
  } catch (error) {
    throw new ConvertError(`cannot read ${options.src} as a TAT-QA dataset file: ${(error as Error).message}`);
  }
  if (!Array.isArray(contexts)) throw new ConvertError(`${options.src}: expected a list of contexts`);
  const out = new SplitWriter(options.outDir);
  let n = 0;
  for (const ctx of contexts) {
    const tableId = checkTableId(String(ctx.table?.uid ?? ""), options.src);
    for (const q of ctx.questions ?? []) {
      if (options.limit !== undefined && n >= options.limit) break;
      n++;
      out.table(
        tableId,
        (ctx.table.table ?? []).map((row) => row.map((c) => String(c ?? ""))),
      );
      out.passage(
        tableId,
        [...(ctx.paragraphs ?? [])]
          .sort((a, b) => a.order - b.order)
          .map((p) => ({ id: p.uid, order: p.order, text: p.text })),
      );
      const record: Record<string, unknown> = { question_id: q.uid, question: q.question, table_id: tableId };
      if (q.answer !== undefined && q.answer_type) {
        record.answer = tatGoldAnswers(q.answer_type, q.answer);
        record.answer_raw = q.answer;
        record.answer_type = q.answer_type;
        record.answer_from = q.answer_from ?? "";
        record.scale = q.scale ?? "";
        record.derivation = q.derivation ?? "";
        record.rel_paragraphs = q.rel_paragraphs ?? [];
        record.req_comparison = q.req_comparison ?? false;
      }
      record.passages_id = tableId;
      record.order_in_context = q.order ?? null;
      out.question(record);
    }
  }
  return out.finish([options.src]);
}
