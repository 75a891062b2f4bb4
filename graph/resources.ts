/**
 * Heavy resources of the graph, opened once per process and cached by key: the opened index (by
 * directory + retrieval settings), the View 5 SQL executor (by directory + time limit), chat models
 * (by backbone + retry/time/cache policy, built by graph/model-factory.ts) and the LLM reply cache
 * (by path). Strategies are built per node call around these (cheap), so per-question counters are
 * never shared. Nodes reach all of it through
 * the `NodeResources` interface that `processResources` implements; nothing is stored in state.
 *
 * `registerIndex` lets an embedding application (or a test) provide an index object under a key
 * that `indexPath` then names; `pinIndex` makes a batch keep the index it opened even when the
 * directory is rebuilt meanwhile (the SQL executor then refuses, naming the rebuild, instead of
 * reading the new tables.sqlite); `closeResources` releases everything (the CLI calls it before
 * exit, because the SQL executor's worker thread keeps a process alive).
 */
import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import { MANIFEST_FILE } from "../indexing/manifest.js";
import { SQLITE_FILE } from "../indexing/sql-store.js";
import type { OpenViewsOptions } from "../indexing/views.js";
import { openSearchableIndex, type SearchableIndex as OpenedIndex } from "../retrievers/open-search.js";
import type { AgentIndex, NodeResources, StrategyComponent } from "../nodes/node-resources.js";
import { createOfflineStrategies } from "../nodes/offline/index.js";
import type { UsageMeter } from "../nodes/usage-meter.js";
import { PromptedStrategies } from "../nodes/prompted/strategies.js";
import type { Strategies } from "../nodes/strategies.js";
import { DEFAULT_RECALL_MULTIPLIER } from "../retrievers/recall.js";
import { openSqlExecutor, type SqlExecutor } from "../retrievers/sql-executor.js";
import { openIndexStore, storeViolations } from "../retrievers/sql-store.js";
import { OFFLINE_BACKBONE, parseBackbone } from "./backbones.js";
import { readBackboneEnv } from "./backbone-env.js";
import type { Configuration } from "./configuration.js";
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
  /** Registered by pinIndex (forgotten by closeResources). */
  pinned?: boolean;
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

interface CacheEntry {
  manifestMtimeMs: number;
  promise: Promise<OpenedIndex>;
  opened?: OpenedIndex;
}
const cache = new Map<string, CacheEntry>();

/**
 * Opens an index (with its search) once per process and directory. A rebuilt index (manifest.json
 * changed since it was opened) is opened afresh — unless it was pinned; the stale one stays usable
 * by whoever holds it until they close it. Options are honoured on the first open of a directory only.
 */
export function openIndexCached(dir: string, options: OpenViewsOptions = {}): Promise<OpenedIndex> {
  const abs = resolve(dir);
  let mtime = -1;
  try {
    mtime = statSync(join(abs, MANIFEST_FILE)).mtimeMs;
  } catch {
    // openIndex reports the missing manifest with the full message.
  }
  const hit = cache.get(abs);
  if (hit && hit.manifestMtimeMs === mtime) return hit.promise;
  const entry: CacheEntry = { manifestMtimeMs: mtime, promise: openSearchableIndex(abs, options) };
  cache.set(abs, entry);
  entry.promise.then(
    (opened) => {
      entry.opened = opened;
    },
    () => {
      if (cache.get(abs) === entry) cache.delete(abs);
    },
  );
  return entry.promise;
}

/** Closes every cached index (end of a batch run, tests). */
export function closeCachedIndexes(): void {
  for (const entry of [...cache.values()]) entry.opened?.close();
  cache.clear();
}

/**
 * Opens the index `indexPath` names and keeps it for the rest of the process (a batch run): later
 * questions use this very index even if the directory is rebuilt meanwhile.
 */
export async function pinIndex(c: Configuration): Promise<OpenedIndex | AgentIndex> {
  const index = await getIndex(c);
  if (!registered.has(c.indexPath)) registered.set(c.indexPath, { index, pinned: true });
  return index;
}

export class IndexChangedError extends Error {
  constructor(dir: string) {
    super(
      `the index at ${dir} was rebuilt while this process was using it; its answers would mix two indexes — ` +
        "start again (atr run --rerun <results file> resumes with the new index)",
    );
    this.name = "IndexChangedError";
  }
}

/**
 * An executor that refuses to run once tables.sqlite at the path is no longer the file the index
 * opened (the executor's process reads the file by path, and restarts after a time-out).
 */
function boundToIndex(executor: SqlExecutor, index: OpenedIndex): SqlExecutor {
  const path = join(index.dir, SQLITE_FILE);
  return {
    async execute(sql) {
      let ino = -1;
      try {
        ino = statSync(path).ino;
      } catch {
        // a missing file is a changed index too
      }
      if (ino !== index.sqliteIno) throw new IndexChangedError(index.dir);
      return executor.execute(sql);
    },
    close: () => executor.close(),
  };
}

export function isOpenedIndex(index: AgentIndex | OpenedIndex): index is OpenedIndex {
  return "db" in index && "manifest" in index;
}

/** The index named by `indexPath` (registered key, else an index directory). */
export async function getIndex(c: Configuration): Promise<AgentIndex | OpenedIndex> {
  if (!c.indexPath) {
    throw new ResourceError(
      "no index: set indexPath (--index_path DIR, or ATR_INDEX_PATH) to a directory built by `atr build-index`",
    );
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
    p = openSearchableIndex(dir, { recallMultiplier: c.rerankCandidateMultiplier, ...(reranker ? { reranker } : {}) });
    indexes.set(key, p);
    p.catch(() => indexes.delete(key));
  }
  return p;
}

const pgExecutors = new Map<string, Promise<SqlExecutor>>();

/**
 * The index's View 5 in PostgreSQL (manifest `sqlStore`), checked once against the index's tables;
 * a store that does not match (rebuilt, dropped, another index) is refused naming the differences.
 */
function postgresExecutor(index: OpenedIndex, c: Configuration): Promise<SqlExecutor> {
  const key = `${index.dir}|${index.manifest.buildId}|${c.sqlTimeoutMs}|${c.sqlStore ?? ""}`;
  let p = pgExecutors.get(key);
  if (!p) {
    p = (async () => {
      const store = openIndexStore(index, { timeoutMs: c.sqlTimeoutMs, ...(c.sqlStore ? { url: c.sqlStore } : {}) });
      const violations = await storeViolations(store, index.tables);
      if (violations.length > 0) {
        await store.close();
        throw new ResourceError(
          `the index's PostgreSQL store does not match the index (rebuild it with atr build-index --sql_store …): ${violations.join("; ")}`,
        );
      }
      return store;
    })();
    pgExecutors.set(key, p);
    p.catch(() => pgExecutors.delete(key));
  }
  return p;
}

/** The read-only, time-limited executor over the index's View 5 (tables.sqlite, or its PostgreSQL schema). */
export async function getSqlExecutor(c: Configuration): Promise<SqlExecutor> {
  const reg = registered.get(c.indexPath);
  if (reg?.executor) return reg.executor;
  const index = await getIndex(c);
  const path = join(index.dir, SQLITE_FILE);
  const opened = isOpenedIndex(index) ? index : undefined;
  if (opened?.manifest.sqlStore) return postgresExecutor(opened, c);
  const key = `${path}|${c.sqlTimeoutMs}|${opened?.manifest.buildId ?? ""}`;
  let executor = executors.get(key);
  if (!executor) {
    const plain = openSqlExecutor(path, { timeoutMs: c.sqlTimeoutMs });
    executor = opened ? boundToIndex(plain, opened) : plain;
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
export async function getStrategies(
  c: Configuration,
  component: StrategyComponent,
  meter: UsageMeter,
): Promise<Strategies> {
  const spec = backboneFor(c, component);
  const { provider } = parseBackbone(spec);
  if (provider === OFFLINE_BACKBONE) {
    const index = await getIndex(c);
    if (!isOpenedIndex(index)) {
      throw new ResourceError(
        `the offline backbone needs an index opened from a directory; "${c.indexPath}" is a registered object without one`,
      );
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
  for (const p of pgExecutors.values()) pending.push(p.then((e) => e.close()).catch(() => undefined));
  pgExecutors.clear();
  for (const reg of registered.values()) if (reg.executor) pending.push(reg.executor.close().catch(() => undefined));
  await Promise.all(pending);
  for (const cache of llmCaches.values()) cache.close();
  llmCaches.clear();
  chatModels.clear();
  // Indexes opened here with non-default retrieval settings (openIndexCached ones are closed by
  // `closeCachedIndexes`).
  for (const [key, reg] of [...registered]) if (reg.pinned) registered.delete(key);
  const opened = await Promise.allSettled([...indexes.values()]);
  indexes.clear();
  for (const o of opened) if (o.status === "fulfilled" && "close" in o.value) (o.value as OpenedIndex).close();
}
