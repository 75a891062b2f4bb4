/**
 * `atr ask "QUESTION" --index_path DIR [--table_id ID] [--emit_trace] [every graph flag]`: one
 * question through the ATR graph. Prints the answer and whether a verifier accepted it, its
 * evidence (table rows and cells, the SQL and its result, passage sentences), how it was found (the
 * sub-queries with the routes requested and taken and each one's own answer), the LLM usage, and
 * with --emit_trace the full trace JSON (reference §9.2). --json prints the same as one object.
 */
import { formatFlagHelp, parseArgs, UsageError, type FlagSpecs } from "../args.js";
import type { Command } from "../command.js";
import { ConfigurationError, ensureConfiguration } from "../../graph/configuration.js";
import { configFlagSpecs, configurableFromFlags } from "../config-flags.js";
import { provenanceLines } from "../provenance-text.js";

const ASK_FLAGS: FlagSpecs = {
  table_id: { kind: "string", help: "known source table of the answer (file stem), a real input of the method" },
  question_id: { kind: "string", help: "id shown in the trace (default: the question text)" },
  emit_trace: { kind: "boolean", help: "print the full trace JSON (verifier decisions, history H, usage)" },
  json: {
    kind: "boolean",
    help: "print one JSON object {answer, answerVerified, provenance, routes, steps, usage, errors[, trace]} instead of text",
  },
  stream: { kind: "boolean", help: "print each node's result to stderr as the graph runs" },
  checkpointer: {
    kind: "string",
    help: "durable thread: postgres:// URL of the thread store (graph/durable.ts; tables in schema atr_threads, env ATR_THREAD_SCHEMA; password from PGPASSWORD/.pgpass or the URL)",
  },
  thread_id: { kind: "string", help: "with --checkpointer: the thread to answer on (default: a new one, printed)" },
};

function specs(): FlagSpecs {
  return { ...ASK_FLAGS, ...configFlagSpecs() };
}

/** One line per node for --stream (none for begin, which only clears the previous run's channels). */
export function describeUpdate(node: string, u: Record<string, unknown>): string | undefined {
  const attempt = u.attempt as
    { requestedRoute?: string; effectiveRoute?: string; answer?: string; verdict?: number | null } | null | undefined;
  switch (node) {
    case "begin":
      return undefined;
    case "decompose":
      return `[decompose] ${(u.plan as { subQuery?: string } | undefined)?.subQuery ?? "?"}`;
    case "gather": {
      const chunks = (u.chunks as unknown[] | undefined)?.length ?? 0;
      return `[gather] ${chunks} chunks, schema ${(u.schema as { tableId?: string } | null | undefined)?.tableId ?? "none"}`;
    }
    case "route":
      return u.subQueryDone
        ? "[route] re-selection repeats the rejected route: sub-query ends"
        : `[route] ${String(u.nextRoute)}`;
    case "verify":
      return `[verify] verdict ${String(attempt?.verdict)}${u.subQueryDone ? " — sub-query done" : " — re-route"}`;
    case "synthesize":
      return `[synthesize] ${String(u.answer)}`;
    default: {
      const routed =
        attempt?.effectiveRoute !== attempt?.requestedRoute ? ` (linker → ${attempt?.effectiveRoute})` : "";
      return `[${node}] ${attempt?.answer ?? ""}${routed}`;
    }
  }
}

export const command: Command = {
  summary: "answer one question through the ATR graph",
  help() {
    return [
      'Usage: atr ask "QUESTION" --index_path DIR [--table_id ID] [--emit_trace] [graph flags]',
      "",
      "Flags:",
      formatFlagHelp(ASK_FLAGS),
      "",
      "Graph configuration (every field of graph/configuration.ts):",
      formatFlagHelp(configFlagSpecs()),
      "",
      "Examples:",
      '  atr ask "Who manages Dunmere FC?" --index_path out/example-index --table_id clubs',
      '  atr ask "How many clubs were founded before 1900?" --index_path out/example-index --router_type fixed --force_route SQL --emit_trace',
      '  OPENAI_BASE_URL=http://127.0.0.1:8000/v1 atr ask "…" --index_path DIR --backbone openai/Qwen2.5-7B-Instruct',
    ].join("\n");
  },
  async run(argv: string[]): Promise<number> {
    const { flags, positionals } = parseArgs(argv, specs());
    const question = positionals.join(" ").trim();
    if (question === "")
      throw new UsageError('give the question as the first argument: atr ask "QUESTION" --index_path DIR');
    const configurable = configurableFromFlags(flags);
    let config;
    try {
      config = ensureConfiguration({ configurable: configurable as Record<string, unknown> });
    } catch (error) {
      if (error instanceof ConfigurationError) throw new UsageError(error.message);
      throw error;
    }
    if (!configurable.indexPath && !process.env.ATR_INDEX_PATH) {
      throw new UsageError("--index_path DIR is required (an index built by `atr build-index`), or set ATR_INDEX_PATH");
    }
    const { answerQuestion } = await import("../../graph/answer.js");
    const { closeResources, getIndex } = await import("../../graph/resources.js");
    if (flags.thread_id !== undefined && flags.checkpointer === undefined)
      throw new UsageError("--thread_id needs --checkpointer postgres://… (threads are kept there)");
    const durable =
      typeof flags.checkpointer === "string"
        ? await (
            await import("../../graph/durable.js")
          ).openDurableGraph(
            flags.checkpointer,
            process.env.ATR_THREAD_SCHEMA ? { schema: process.env.ATR_THREAD_SCHEMA } : {},
          )
        : undefined;
    const threadId = durable
      ? typeof flags.thread_id === "string" && flags.thread_id !== ""
        ? flags.thread_id
        : (await import("node:crypto")).randomUUID()
      : undefined;
    try {
      // A hint naming no table would be ignored silently: name it instead (as `atr search` does).
      if (typeof flags.table_id === "string" && flags.table_id !== "") {
        const tables = (await getIndex(config)).tables;
        if (!tables.has(flags.table_id)) {
          const known = [...tables.keys()];
          throw new UsageError(
            `--table_id ${flags.table_id}: not a table of ${config.indexPath} (tables: ${known.slice(0, 20).join(", ")}${known.length > 20 ? `, … ${known.length - 20} more` : ""})`,
          );
        }
      }
      const input = {
        question,
        ...(typeof flags.question_id === "string" ? { question_id: flags.question_id } : {}),
        ...(typeof flags.table_id === "string" ? { table_id: flags.table_id } : {}),
      };
      const result = await answerQuestion(input, {
        configurable: threadId ? ({ ...configurable, thread_id: threadId } as typeof configurable) : configurable,
        ...(durable
          ? { graph: durable.graph as unknown as NonNullable<Parameters<typeof answerQuestion>[1]>["graph"] }
          : {}),
        runName: "atr:ask",
        ...(flags.stream
          ? {
              onNodeUpdate: (node: string, update: Record<string, unknown>) => {
                const line = describeUpdate(node, update);
                if (line !== undefined) console.error(line);
              },
            }
          : {}),
      });
      for (const error of result.errors) console.error(`warning: a step failed closed — ${error}`);
      if (durable && threadId) {
        let checkpoints = 0;
        for await (const _ of durable.checkpointer.list({ configurable: { thread_id: threadId } })) checkpoints++;
        console.error(
          `thread ${threadId}: ${checkpoints} checkpoints kept (atr ask --checkpointer … --thread_id ${threadId} continues it)`,
        );
      }
      if (flags.json) {
        const out = {
          answer: result.answer,
          answerVerified: result.answerVerified,
          provenance: result.provenance,
          routes: result.routes,
          steps: result.steps,
          usage: result.usage,
          errors: result.errors,
          ...(flags.emit_trace ? { trace: result.trace } : {}),
        };
        console.log(JSON.stringify(out, null, 2));
        return 0;
      }
      const status =
        result.answer === "not found"
          ? ""
          : result.answerVerified
            ? " (verified)"
            : " (not verified: the verifier found it plausible, not proven)";
      console.log(`Answer: ${result.answer}${status}`);
      console.log("Evidence (rows are 0-based data rows, as SQL _row):");
      for (const line of provenanceLines(result.provenance)) console.log(line);
      console.log("How it was found:");
      if (result.routes.length === 0) console.log("  (no sub-query was executed)");
      result.routes.forEach((r, i) => {
        const step = result.steps[i];
        console.log(`  ${i + 1}. ${r.subQuery}`);
        const requested = r.requested.join(" → ");
        const taken = r.effective.join(" → ");
        console.log(
          requested === taken ? `     routes: ${requested}` : `     routes requested: ${requested}; taken: ${taken}`,
        );
        if (!step) return;
        if (!step.failed) console.log(`     answer: ${step.answer} (accepted)`);
        else {
          const plausible = step.plausibleAnswer ? `; plausible answer: ${step.plausibleAnswer}` : "";
          console.log(`     last attempt's answer: ${step.answer} (rejected)${plausible}`);
        }
      });
      const u = result.usage;
      console.log(
        `LLM calls ${u.llmCalls}, tokens in ${u.inputTokens} / out ${u.outputTokens}, ${Math.round(u.ms)} ms in nodes`,
      );
      if (flags.emit_trace) console.log(JSON.stringify({ atr_trace: result.trace, usage: result.usage }, null, 2));
      return 0;
    } finally {
      await closeResources();
      await durable?.close();
    }
  },
};
