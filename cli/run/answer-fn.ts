/** `atr run`'s per-question function: the ATR graph (graph/answer.ts) or a baseline of evals/baselines/. */
import { resolve } from "node:path";
import { UsageError } from "../args.js";
import type { ConfigurableInput, Configuration } from "../../graph/configuration.js";
import { readBackboneEnv } from "../../graph/backbone-env.js";
import type { BaselineName } from "../../evals/baselines/baselines.js";
import type { AnswerFn } from "../../evals/runner.js";

/** The ATR graph's per-question function (graph/answer.ts), loaded only for graph runs. */
export async function graphAnswer(): Promise<AnswerFn> {
  const { answerQuestion } = await import("../../graph/answer.js");
  return (input, options) =>
    answerQuestion(input, {
      configurable: options.configurable as ConfigurableInput,
      runName: options.runName,
      tags: options.tags,
      metadata: options.metadata,
      signal: options.signal,
      recordRetrievals: options.trace !== false,
    });
}

/** A baseline's per-question function over the index, with the graph's model policy; `cleanup` gets what it opened. */
export async function baselineAnswer(
  name: BaselineName,
  flags: Record<string, unknown>,
  config: Configuration,
  dataPath: string,
  cleanup: Array<() => Promise<void> | void>,
): Promise<AnswerFn> {
  if (!config.indexPath) throw new UsageError("--index_path DIR is required (the index the baselines retrieve from)");
  const [
    { openIndexCached, closeResources, getLlmCache },
    { createBaseline },
    { OFFLINE_BACKBONE },
    { buildLlm },
    { openSqlExecutor },
  ] = await Promise.all([
    import("../../graph/resources.js"),
    import("../../evals/baselines/baselines.js"),
    import("../../graph/backbones.js"),
    import("../../graph/model-factory.js"),
    import("../../retrievers/sql-executor.js"),
  ]);
  const index = await openIndexCached(config.indexPath);
  const offline = config.backbone === OFFLINE_BACKBONE;
  // The same model policy as the graph's strategies: retries, per-attempt time limit, reply cache.
  const settings = {
    env: readBackboneEnv(),
    timeoutMs: config.llmTimeoutMs,
    maxRetries: config.llmMaxRetries,
    ...(config.llmCachePath ? { cache: getLlmCache(config.llmCachePath) } : {}),
  };
  if (config.llmCachePath) cleanup.push(() => closeResources());
  const model = offline ? undefined : (await buildLlm(config.backbone, settings)).chat;
  let sampler = model;
  if (!offline && name === "naive_rag_sc") {
    // Sampling at the configured temperature; the factory gives a sampling model no cache.
    sampler = (await buildLlm(config.backbone, { ...settings, temperature: Number(flags.sc_temperature) })).chat;
  }
  let sql;
  if (name === "react") {
    const { SQLITE_FILE } = await import("../../indexing/sql-store.js");
    sql = openSqlExecutor(resolve(config.indexPath, SQLITE_FILE), { timeoutMs: config.sqlTimeoutMs });
    const executor = sql;
    cleanup.push(() => executor.close());
  }
  return createBaseline(
    name,
    {
      search: index.search,
      model,
      sampler,
      tables: index.tables,
      passages: index.passages,
      tableDir: (flags.table_dir as string | undefined) ?? resolve(dataPath, "..", "tables"),
      sql,
    },
    {
      mode: flags.baseline_mode === "full_context" ? "full_context" : "closed_book",
      topK: Number(flags.baseline_top_k),
      samples: Number(flags.sc_samples),
      maxSteps: Number(flags.react_max_steps),
    },
  );
}
