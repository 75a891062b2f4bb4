/**
 * Pieces the baselines share: calling a chat model with usage accounting, extracting the minimal
 * answer from a reply, and building a retrieval context from the index (reference §13).
 */
import type { ChatRunnable } from "../../graph/model-factory.js";
import { isCachedReply } from "../../nodes/prompted/call.js";
import type { IndexSearch } from "../../retrievers/types.js";
import type { DocChunk, Hit } from "../../indexing/types.js";
import type { AnswerCallOptions } from "../runner.js";

export const NOT_FOUND = "not found";

/** LLM calls and tokens of one question, summed over its chat calls. */
export interface BaselineUsage {
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
}

export function newUsage(): BaselineUsage {
  return { llmCalls: 0, inputTokens: 0, outputTokens: 0 };
}

function replyText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content.map((c) => (typeof c === "string" ? c : ((c as { text?: string }).text ?? ""))).join("");
  return String(content ?? "");
}

/**
 * One chat call with the run's name/tags/metadata; adds its usage (a reply replayed from the reply
 * cache is no LLM call). Retries, time limit and cache are the model's (graph/model-factory.ts).
 */
export async function chat(
  model: ChatRunnable,
  prompt: string,
  usage: BaselineUsage,
  call: Partial<AnswerCallOptions>,
  step: string,
): Promise<string> {
  const reply = await model.invoke([["human", prompt]], {
    runName: `${call.runName ?? "baseline"}:${step}`,
    tags: call.tags,
    metadata: call.metadata,
  });
  if (isCachedReply(reply)) return replyText(reply.content);
  usage.llmCalls++;
  const meta = (reply as { usage_metadata?: { input_tokens?: number; output_tokens?: number } }).usage_metadata;
  usage.inputTokens += meta?.input_tokens ?? 0;
  usage.outputTokens += meta?.output_tokens ?? 0;
  return replyText(reply.content);
}

/**
 * The answer in a reply: the first non-empty line after an `<Answer>:` tag, else the last
 * non-empty line; trailing periods and wrapping quotes removed.
 */
export function extractAnswer(reply: string): string {
  const tag = /<\s*answer\s*>\s*:?/i.exec(reply);
  let text: string;
  if (tag) {
    const after = reply
      .slice(tag.index + tag[0].length)
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "");
    text = after[0] ?? "";
  } else {
    const lines = reply
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "");
    text = lines[lines.length - 1] ?? "";
  }
  text = text
    .replace(/^["'“]+|["'”]+$/g, "")
    .replace(/\.+$/, "")
    .trim();
  return text === "" ? NOT_FOUND : text;
}

/** `[Source: file]` blocks, the evidence format of the graph's TEXT route. */
export function renderEvidence(chunks: DocChunk[]): string {
  return chunks.map((c) => `[Source: ${c.source}]\n${c.text}`).join("\n\n");
}

/**
 * NaiveRAG's context (reference §13): the top-k chunks for the question; when none comes from the
 * hinted table, its best-ranked chunk is put first (the published code prepends "the first chunk of
 * that table"; the search API ranks chunks, so we take the hinted table's best chunk for the question).
 */
export async function naiveRagChunks(
  search: IndexSearch,
  question: string,
  topK: number,
  tableId?: string,
): Promise<DocChunk[]> {
  const hits: Array<Hit<DocChunk>> = await search.documents(question, topK);
  const chunks = hits.map((h) => h.entry);
  if (!tableId || chunks.some((c) => c.tableId === tableId)) return chunks;
  const wider = await search.documents(`${tableId} ${question}`, Math.max(50, topK * 10));
  const hinted = wider.map((h) => h.entry).find((c) => c.tableId === tableId);
  return hinted ? [hinted, ...chunks.slice(0, Math.max(0, topK - 1))] : chunks;
}

/** Majority vote on SQuAD-normalised answers; ties go to the first occurrence. */
export function majorityVote(
  answers: string[],
  normalise: (s: string) => string,
): { answer: string; votes: Record<string, number> } {
  const counts = new Map<string, { count: number; first: number; text: string }>();
  answers.forEach((a, i) => {
    const key = normalise(a);
    const entry = counts.get(key);
    if (entry) entry.count++;
    else counts.set(key, { count: 1, first: i, text: a });
  });
  let best: { count: number; first: number; text: string } | undefined;
  for (const e of counts.values())
    if (!best || e.count > best.count || (e.count === best.count && e.first < best.first)) best = e;
  return {
    answer: best?.text ?? NOT_FOUND,
    votes: Object.fromEntries([...counts.values()].map((e) => [e.text, e.count])),
  };
}
