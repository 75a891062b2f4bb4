/**
 * The paper's comparison baselines (reference §13) as answer functions for the batch runner, so
 * they are run, resumed and scored exactly like ATR:
 * - `naive_llm`: one call; `closed_book` (question only) or `full_context` (the hinted table as
 *   markdown, ≤ maxRows rows, plus its passages, ≤ maxContextChars, table first);
 * - `naive_rag`: top-k chunks for the question from the same index (hinted table's chunk ensured),
 *   one call;
 * - `naive_rag_sc`: the same context, N samples from a sampling model (temperature 0.7), majority
 *   vote on SQuAD-normalised answers, ties to the first;
 * - `react`: Thought / Action / Final Answer loop (≤ maxSteps) over retrieve_docs, retrieve_schema,
 *   retrieve_cells and execute_sql (every statement passes the View 5 AST guard first; results
 *   clipped to 1,200 characters). No decomposition, router or verifier.
 *
 * Offline backbone (no chat model), stated plainly: `naive_rag` and `naive_llm full_context` read
 * their context with the offline extractive reader (nodes/offline/reader.ts); `naive_rag_sc` is then
 * the same as `naive_rag` (a deterministic reader gives N identical samples, so one is drawn);
 * `naive_llm closed_book` and `react` need a model's own knowledge / reasoning and answer "not found".
 */
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { parseCsv } from "../../indexing/csv.js";
import { renderTableMarkdown } from "../../indexing/chunking.js";
import type { Passage, TableSchema } from "../../indexing/types.js";
import type { ChatRunnable } from "../../graph/model-factory.js";
import { readText } from "../../nodes/offline/reader.js";
import type { SubQueryPlan } from "../../nodes/types.js";
import type { IndexSearch } from "../../retrievers/types.js";
import type { SqlExecutor } from "../../retrievers/sql-executor.js";
import { buildGuardScope, checkSql } from "../../retrievers/sql-guard.js";
import { isFileNameId } from "../convert/output.js";
import { normalizeSquad } from "../scoring/hybridqa.js";
import type { AnswerCallOptions, AnswerFn, AnswerInput } from "../runner.js";
import {
  chat,
  extractAnswer,
  majorityVote,
  naiveRagChunks,
  newUsage,
  NOT_FOUND,
  renderEvidence,
  type BaselineUsage,
} from "./common.js";
import { fillPrompt } from "../../nodes/prompts.js";
import { CLOSED_BOOK_PROMPT, CONTEXT_PROMPT, REACT_PROMPT } from "./prompts.js";

export const BASELINES = ["naive_llm", "naive_rag", "naive_rag_sc", "react"] as const;
export type BaselineName = (typeof BASELINES)[number];

export class BaselineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BaselineError";
  }
}

export interface BaselineDeps {
  search: IndexSearch;
  /**
   * The chat model (graph/model-factory.ts `Llm.chat`: retries, time limit, reply cache; any chat
   * model works); undefined = offline backbone.
   */
  model?: ChatRunnable;
  /** naive_rag_sc: a sampling model (temperature 0.7, built without the cache). Default: `model`. */
  sampler?: ChatRunnable;
  /** Table schemas of the index (ReAct's SQL scope and schema rendering). */
  tables?: Map<string, TableSchema>;
  /** Passages of the index (naive_llm full_context). */
  passages?: Passage[];
  /** Folder of `<table_id>.csv` files (naive_llm full_context). */
  tableDir?: string;
  /** View 5 executor (ReAct's execute_sql). */
  sql?: SqlExecutor;
}

export interface BaselineOptions {
  /** naive_llm mode. Default "closed_book". */
  mode?: "closed_book" | "full_context";
  /** Chunks retrieved by naive_rag(_sc) and retrieve_docs. Default 5. */
  topK?: number;
  /** naive_rag_sc samples. Default 5. */
  samples?: number;
  /** ReAct steps. Default 10. */
  maxSteps?: number;
  /** full_context table rows. Default 500. */
  maxRows?: number;
  /** full_context characters. Default 600,000. */
  maxContextChars?: number;
}

/** The no-decomposition plan of reference §2.3 (both / lookup / no global / no entities / 0). */
function rawPlan(question: string): SubQueryPlan {
  return {
    subQuery: question,
    requiredModalities: "both",
    expectedOperator: "lookup",
    needGlobalTableView: false,
    entityMentions: [],
    uncertainty: 0,
  };
}

function usageOut(u: BaselineUsage) {
  return {
    llmCalls: u.llmCalls,
    inputTokens: u.inputTokens,
    outputTokens: u.outputTokens,
    totalTokens: u.inputTokens + u.outputTokens,
  };
}

function callOf(options: AnswerCallOptions): Partial<AnswerCallOptions> {
  return { runName: options.runName, tags: options.tags, metadata: options.metadata };
}

/**
 * naive_llm full_context: the hinted table (markdown, first maxRows rows) then its passages, capped.
 * A hinted table whose file is missing (or whose id cannot name a file) is an error for the question,
 * not an empty context.
 */
export function fullContext(input: AnswerInput, deps: BaselineDeps, options: BaselineOptions): string {
  const parts: string[] = [];
  const tableId = input.table_id;
  if (tableId && deps.tableDir) {
    // The id names a file: refuse anything that could leave the folder.
    if (!isFileNameId(tableId))
      throw new BaselineError(`naive_llm full_context: table_id "${tableId}" cannot name a file in ${deps.tableDir}`);
    const file = join(deps.tableDir, `${tableId}.csv`);
    if (!existsSync(file))
      throw new BaselineError(
        `naive_llm full_context: no table file ${file} — pass --table_dir DIR (the folder of <table_id>.csv files)`,
      );
    const rows = parseCsv(readFileSync(file, "utf8"));
    const [header = [], ...data] = rows;
    parts.push(
      `[Source: ${tableId}.csv]\n${renderTableMarkdown({ id: tableId, file: `${tableId}.csv`, header, rows: data.slice(0, options.maxRows ?? 500) })}`,
    );
  }
  if (tableId && deps.passages) {
    for (const p of deps.passages.filter((x) => x.tableId === tableId))
      parts.push(`[Source: ${p.file}]\n${p.title ? `${p.title}: ` : ""}${p.text}`);
  }
  return parts.join("\n\n").slice(0, options.maxContextChars ?? 600_000);
}

function renderSchemaEntry(
  tables: Map<string, TableSchema> | undefined,
  tableId: string,
  column: string,
  type: string,
  examples: string,
): string {
  const schema = tables?.get(tableId);
  const col = schema?.columns.find((c) => c.name === column);
  const physical = schema && col ? ` (SQL: ${schema.physical}.${col.physical})` : "";
  return `table ${tableId}, column "${column}"${physical}, ${type}, e.g. ${examples}`;
}

async function reactTool(
  action: string,
  arg: string,
  input: AnswerInput,
  deps: BaselineDeps,
  options: BaselineOptions,
): Promise<string> {
  const scope = input.table_id ? [input.table_id] : undefined;
  switch (action) {
    case "retrieve_docs": {
      const chunks = await naiveRagChunks(deps.search, arg, options.topK ?? 5, input.table_id);
      return renderEvidence(chunks) || "(nothing found)";
    }
    case "retrieve_schema": {
      let hits = await deps.search.schema(arg, 20);
      if (scope)
        hits = [
          ...hits.filter((h) => scope.includes(h.entry.tableId)),
          ...hits.filter((h) => !scope.includes(h.entry.tableId)),
        ];
      return (
        hits
          .slice(0, 5)
          .map((h) => renderSchemaEntry(deps.tables, h.entry.tableId, h.entry.column, h.entry.type, h.entry.examples))
          .join("\n") || "(nothing found)"
      );
    }
    case "retrieve_cells": {
      const result = await deps.search.schemaCells(arg, [arg], { schemaTopK: 5, cellTopK: 8, tableIds: scope });
      const cells = result.candidates[arg] ?? [];
      return cells.map((c) => `table ${c.tableId}, column "${c.column}": ${c.value}`).join("\n") || "(nothing found)";
    }
    case "execute_sql": {
      if (!deps.sql || !deps.tables) return "execute_sql is not available";
      const tables = scope
        ? scope.map((id) => deps.tables!.get(id)).filter((t): t is TableSchema => !!t)
        : [...deps.tables.values()];
      const guard = buildGuardScope({
        tables,
        allowedColumns: tables.flatMap((t) => t.columns.map((c) => ({ tableId: t.tableId, column: c.name }))),
        linkedValues: [],
      });
      const violations = guard.errors.length ? guard.errors : checkSql(arg, guard.scope);
      if (violations.length > 0) return `refused by the SQL guard: ${violations.join("; ")}`;
      const run = await deps.sql.execute(arg);
      return run.result.slice(0, 1200);
    }
    default:
      return `unknown tool "${action}"; use retrieve_docs, retrieve_schema, retrieve_cells or execute_sql`;
  }
}

/** Parses one ReAct reply: a final answer, an action, or (unparseable) a thought. */
export function parseReactReply(reply: string): { final?: string; action?: string; arg?: string } {
  const final = /Final Answer\s*:\s*(.+)/i.exec(reply);
  if (final) return { final: final[1]!.trim() };
  const action = /Action\s*:\s*(\w+)\s*\[([\s\S]*)\]/i.exec(reply);
  if (action) return { action: action[1]!.toLowerCase(), arg: action[2]!.trim() };
  return {};
}

export function createBaseline(name: BaselineName, deps: BaselineDeps, options: BaselineOptions = {}): AnswerFn {
  const topK = options.topK ?? 5;
  const model = deps.model;
  switch (name) {
    case "naive_llm":
      return async (input, call) => {
        const usage = newUsage();
        const full = options.mode === "full_context";
        const context = full ? fullContext(input, deps, options) : "";
        if (!model) {
          // Offline: a closed book has no knowledge; full context is read by the extractive reader.
          const answer =
            full && context
              ? await readText({
                  question: input.question,
                  subQuery: input.question,
                  plan: rawPlan(input.question),
                  evidence: context,
                })
              : NOT_FOUND;
          return {
            answer,
            usage: usageOut(usage),
            trace: {
              baseline: name,
              mode: options.mode ?? "closed_book",
              offline: true,
              context_chars: context.length,
            },
          };
        }
        const prompt = full
          ? fillPrompt(CONTEXT_PROMPT, { context, question: input.question })
          : fillPrompt(CLOSED_BOOK_PROMPT, { question: input.question });
        const reply = await chat(model, prompt, usage, callOf(call), name);
        return {
          answer: extractAnswer(reply),
          usage: usageOut(usage),
          trace: { baseline: name, mode: options.mode ?? "closed_book", context_chars: context.length, reply },
        };
      };
    case "naive_rag":
    case "naive_rag_sc":
      return async (input, call) => {
        const usage = newUsage();
        const chunks = await naiveRagChunks(deps.search, input.question, topK, input.table_id);
        const context = renderEvidence(chunks);
        const sources = chunks.map((c) => c.source);
        if (!model) {
          const answer = await readText({
            question: input.question,
            subQuery: input.question,
            plan: rawPlan(input.question),
            evidence: context,
          });
          return { answer, usage: usageOut(usage), trace: { baseline: name, offline: true, sources, samples: 1 } };
        }
        const prompt = fillPrompt(CONTEXT_PROMPT, { context, question: input.question });
        if (name === "naive_rag") {
          const reply = await chat(model, prompt, usage, callOf(call), name);
          return { answer: extractAnswer(reply), usage: usageOut(usage), trace: { baseline: name, sources, reply } };
        }
        const sampler = deps.sampler ?? model;
        const candidates: string[] = [];
        for (let i = 0; i < (options.samples ?? 5); i++)
          candidates.push(extractAnswer(await chat(sampler, prompt, usage, callOf(call), `${name}:${i + 1}`)));
        const vote = majorityVote(candidates, normalizeSquad);
        return {
          answer: vote.answer,
          usage: usageOut(usage),
          trace: { baseline: name, sources, candidates, votes: vote.votes },
        };
      };
    case "react":
      return async (input, call) => {
        const usage = newUsage();
        if (!model)
          return {
            answer: NOT_FOUND,
            usage: usageOut(usage),
            trace: { baseline: name, offline: true, note: "ReAct needs a chat model" },
          };
        const steps: Array<{ reply: string; action?: string; arg?: string; observation?: string }> = [];
        const hint = input.table_id ? `\n<table_hint>${input.table_id}</table_hint>` : "";
        for (let step = 1; step <= (options.maxSteps ?? 10); step++) {
          const scratchpad = steps
            .map((s) => `${s.reply.trim()}${s.observation !== undefined ? `\nObservation: ${s.observation}` : ""}`)
            .join("\n");
          const reply = await chat(
            model,
            fillPrompt(REACT_PROMPT, { question: input.question, hint, scratchpad }),
            usage,
            callOf(call),
            `${name}:${step}`,
          );
          const parsed = parseReactReply(reply);
          if (parsed.final !== undefined) {
            steps.push({ reply });
            return {
              answer: extractAnswer(`<Answer>: ${parsed.final}`),
              usage: usageOut(usage),
              trace: { baseline: name, steps },
            };
          }
          const observation = parsed.action
            ? await reactTool(parsed.action, parsed.arg ?? "", input, deps, options)
            : undefined;
          steps.push({ reply, action: parsed.action, arg: parsed.arg, observation });
        }
        return { answer: NOT_FOUND, usage: usageOut(usage), trace: { baseline: name, steps, stopped: "max steps" } };
      };
  }
}
