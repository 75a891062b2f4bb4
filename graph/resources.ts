/**
 * Heavy resources of the graph, opened once per process and cached by key: the opened index (by
 * directory + retrieval settings), the View 5 SQL executor (by directory + time limit), chat models
 * (by backbone + retry/time/cache policy, built by graph/model-factory.ts) and the LLM reply cache
 * (by path). Strategies are built per node call around these (cheap), so per-question counters are
 * never shared. Nodes reach all of it through
 * the `NodeResources` interface that `processResources` implements; nothing is stored in state.
 *
 * `registerIndex` lets an embedding application (or a test) provide an index object under a key
 * that `indexPath` then names; `closeResources` releases everything (the CLI calls it before exit,
 * because the SQL executor's worker thread keeps a process alive).
 */
import { join, resolve } from "node:path";
import { openIndex, openIndexCached, type OpenedIndex } from "../indexing/open-index.js";
import { SQLITE_FILE } from "../indexing/sql-store.js";
import type { AgentIndex, NodeResources, StrategyComponent } from "../nodes/node-resources.js";
import { createOfflineStrategies } from "../nodes/offline/index.js";
import type { UsageMeter } from "../nodes/prompted/call.js";
import { PromptedStrategies } from "../nodes/prompted/strategies.js";
import type { Strategies } from "../nodes/strategies.js";
import { DEFAULT_RECALL_MULTIPLIER } from "../retrievers/recall.js";
import { openSqlExecutor, type SqlExecutor } from "../retrievers/sql-executor.js";
import { OFFLINE_BACKBONE, parseBackbone } from "./backbones.js";
import { readBackboneEnv, type Configuration } from "./configuration.js";
import { LlmCache } from "./llm-cache.js";
import { buildLlm, type Llm } from "./model-factory.js";

export class ResourceError extends Error {
  constructor(message: string) {
    super(`graph/resources.ts: ${message}`);
    this.name = "ResourceError";
  }
}

interface Registered {
  index: AgentIndex | OpenedIndex;
  executor?: SqlExecutor;
}

const registered = new Map<string, Registered>();
const indexes = new Map<string, Promise<AgentIndex | OpenedIndex>>();
const executors = new Map<string, SqlExecutor>();
const chatModels = new Map<string, Promise<Llm>>();
const llmCaches = new Map<string, LlmCache>();
const offline = new WeakMap<object, Strategies>();

/** Makes `indexPath: key` resolve to this index object (and, optionally, this SQL executor). */
export function registerIndex(key: string, index: AgentIndex | OpenedIndex, executor?: SqlExecutor): void {
  registered.set(key, executor ? { index, executor } : { index });
}

export function unregisterIndex(key: string): void {
  registered.delete(key);
}

function isOpenedIndex(index: AgentIndex | OpenedIndex): index is OpenedIndex {
  return "db" in index && "manifest" in index;
}

/** The index named by `indexPath` (registered key, else an index directory). */
export async function getIndex(c: Configuration): Promise<AgentIndex | OpenedIndex> {
  if (!c.indexPath) {
    throw new ResourceError("no index: set indexPath (--index_path DIR, or ATR_INDEX_PATH) to a directory built by `atr build-index`");
  }
  const reg = registered.get(c.indexPath);
  if (reg) return reg.index;
  const dir = resolve(c.indexPath);
  const reranker = c.noReranker ? "none" : c.rerankerPath;
  // The default settings share the per-directory cache with the CLI and langgraph dev.
  if (c.rerankCandidateMultiplier === DEFAULT_RECALL_MULTIPLIER && reranker === undefined) return openIndexCached(dir);
  const key = `${dir}|${c.rerankCandidateMultiplier}|${reranker ?? "lexical"}`;
  let p = indexes.get(key);
  if (!p) {
    p = openIndex(dir, { recallMultiplier: c.rerankCandidateMultiplier, ...(reranker ? { reranker } : {}) });
    indexes.set(key, p);
    p.catch(() => indexes.delete(key));
  }
  return p;
}

/** The read-only, time-limited executor over the index's tables.sqlite. */
export async function getSqlExecutor(c: Configuration): Promise<SqlExecutor> {
  const reg = registered.get(c.indexPath);
  if (reg?.executor) return reg.executor;
  const index = await getIndex(c);
  const path = join(index.dir, SQLITE_FILE);
  const key = `${path}|${c.sqlTimeoutMs}`;
  let executor = executors.get(key);
  if (!executor) {
    executor = openSqlExecutor(path, { timeoutMs: c.sqlTimeoutMs });
    executors.set(key, executor);
  }
  return executor;
}

export function getLlmCache(path: string): LlmCache {
  const abs = resolve(path);
  let cache = llmCaches.get(abs);
  if (!cache) {
    cache = new LlmCache(abs);
    llmCaches.set(abs, cache);
  }
  return cache;
}

/** The backbone's model under the configured policy (graph/model-factory.ts): retries, time limit, reply cache. */
export function getChatModel(spec: string, c: Configuration): Promise<Llm> {
  const cachePath = c.llmCachePath ? resolve(c.llmCachePath) : "";
  const key = `${spec}|${c.llmTimeoutMs}|${c.llmMaxRetries}|${cachePath}`;
  let p = chatModels.get(key);
  if (!p) {
    p = buildLlm(spec, {
      env: readBackboneEnv(),
      timeoutMs: c.llmTimeoutMs,
      maxRetries: c.llmMaxRetries,
      ...(cachePath ? { cache: getLlmCache(cachePath) } : {}),
    });
    chatModels.set(key, p);
    p.catch(() => chatModels.delete(key));
  }
  return p;
}

export function backboneFor(c: Configuration, component: StrategyComponent): string {
  return component === "decomposer" ? c.decomposerBackbone : component === "verifier" ? c.verifierBackbone : c.backbone;
}

/** Strategies of one component for one node call; LLM usage is counted into `meter`. */
export async function getStrategies(c: Configuration, component: StrategyComponent, meter: UsageMeter): Promise<Strategies> {
  const spec = backboneFor(c, component);
  const { provider } = parseBackbone(spec);
  if (provider === OFFLINE_BACKBONE) {
    const index = await getIndex(c);
    if (!isOpenedIndex(index)) {
      throw new ResourceError(`the offline backbone needs an index opened from a directory; "${c.indexPath}" is a registered object without one`);
    }
    let strategies = offline.get(index);
    if (!strategies) {
      strategies = createOfflineStrategies(index);
      offline.set(index, strategies);
    }
    return strategies;
  }
  return new PromptedStrategies({ model: await getChatModel(spec, c), modelId: spec, usage: meter });
}

/** The process-wide `NodeResources` the compiled graph uses. */
export const processResources: NodeResources = {
  index: getIndex,
  strategies: getStrategies,
  sqlExecutor: getSqlExecutor,
};

/** Closes SQL executors, reply caches and the indexes opened here; forgets cached chat models. */
export async function closeResources(): Promise<void> {
  const pending = [...executors.values()].map((e) => e.close().catch(() => undefined));
  executors.clear();
  for (const reg of registered.values()) if (reg.executor) pending.push(reg.executor.close().catch(() => undefined));
  await Promise.all(pending);
  for (const cache of llmCaches.values()) cache.close();
  llmCaches.clear();
  chatModels.clear();
  // Indexes opened here with non-default retrieval settings (openIndexCached ones belong to
  // indexing/open-index.ts `closeCachedIndexes`).
  const opened = await Promise.allSettled([...indexes.values()]);
  indexes.clear();
  for (const o of opened) if (o.status === "fulfilled" && "close" in o.value) (o.value as OpenedIndex).close();
}
