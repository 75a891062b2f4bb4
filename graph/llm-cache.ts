/**
 * Optional on-disk cache of LLM replies (SQLite through better-sqlite3), keyed by a hash of the
 * model id, a kind, the prompt and the decoding parameters. With `llmCachePath` set, a rerun of the
 * same questions costs no LLM call and reproduces the first run exactly. `LlmReplyCache` below is
 * the LangChain face of it (every model of graph/model-factory.ts uses it).
 */
import { BaseCache, deserializeStoredGeneration, serializeGeneration } from "@langchain/core/caches";
import type { BaseMessage, StoredGeneration } from "@langchain/core/messages";
import type { Generation } from "@langchain/core/outputs";
import Database from "better-sqlite3";
import { CACHED_REPLY_FLAG } from "../nodes/prompted/call.js";
import { createHash } from "node:crypto";
import { canonicalJson } from "../indexing/canonical-json.js";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";

export interface CacheKeyParts {
  model: string;
  schema: string;
  prompt: string;
  params: Record<string, unknown>;
}

/** A stable key: sha256 of the parts as canonical JSON (object keys sorted). */
export function llmCacheKey(parts: CacheKeyParts): string {
  return createHash("sha256").update(canonicalJson(parts)).digest("hex");
}

export class LlmCache {
  private readonly db: Database.Database;
  private readonly getStmt: Database.Statement;
  private readonly putStmt: Database.Statement;
  hits = 0;
  misses = 0;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("busy_timeout = 5000");
    this.db.exec(
      "CREATE TABLE IF NOT EXISTS llm_replies (key TEXT PRIMARY KEY, model TEXT NOT NULL, schema TEXT NOT NULL, value TEXT NOT NULL, created_at TEXT NOT NULL)",
    );
    this.getStmt = this.db.prepare("SELECT value FROM llm_replies WHERE key = ?");
    this.putStmt = this.db.prepare(
      "INSERT OR REPLACE INTO llm_replies (key, model, schema, value, created_at) VALUES (?, ?, ?, ?, ?)",
    );
  }

  get(parts: CacheKeyParts): unknown | undefined {
    const row = this.getStmt.get(llmCacheKey(parts)) as { value: string } | undefined;
    if (!row) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    return JSON.parse(row.value) as unknown;
  }

  set(parts: CacheKeyParts, value: unknown): void {
    this.putStmt.run(llmCacheKey(parts), parts.model, parts.schema, JSON.stringify(value), new Date().toISOString());
  }

  size(): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM llm_replies").get() as { n: number }).n;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/**
 * Entries of LangChain's llm string that say nothing about the reply: the call options LangGraph's
 * run time and LangChain's config add inside a graph node (the task's execution info with its
 * checkpoint id, the stream writer, the abort signal, …) and the API key. With them a cached reply
 * would never match again (a new checkpoint id per run), or would break when a key is rotated.
 */
const VOLATILE_LLM_KEY_ENTRIES = new Set([
  "signal",
  "executionInfo",
  "control",
  "writer",
  "interrupt",
  "store",
  "context",
  "runtime",
  "apiKey",
]);

/**
 * LangChain's llm string (`name:<JSON>` entries, sorted, joined by ",") without the volatile
 * entries. Split with a JSON-aware scan, so commas inside values never split an entry.
 */
export function stableLlmKey(llmKey: string): string {
  const entries: string[] = [];
  let start = 0;
  let depth = 0;
  let inString = false;
  for (let i = 0; i <= llmKey.length; i++) {
    const ch = llmKey[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "{" || ch === "[") depth++;
    else if (ch === "}" || ch === "]") depth--;
    else if ((ch === "," && depth === 0) || ch === undefined) {
      entries.push(llmKey.slice(start, i));
      start = i + 1;
    }
  }
  return entries.filter((e) => !VOLATILE_LLM_KEY_ENTRIES.has(e.slice(0, e.indexOf(":")))).join(",");
}

/**
 * The same SQLite file as a LangChain `BaseCache`, so that every chat model built by
 * graph/model-factory.ts reads and writes it inside `generate` (structured and plain calls alike).
 * Keys: the backbone id, LangChain's llm string (model parameters and call options — temperature,
 * tools / response format, hence the reply schema — less `VOLATILE_LLM_KEY_ENTRIES`) and the prompt. Errors are never cached (LangChain
 * stores successful generations only). A replayed generation's message carries
 * `response_metadata[CACHED_REPLY_FLAG] = true`, so that callers count it as a cache hit, not a call.
 */
export class LlmReplyCache extends BaseCache<Generation[]> {
  constructor(
    private readonly store: LlmCache,
    /** Backbone id ("openai/gpt-4o-mini"): two servers serving the same model name do not share replies. */
    private readonly modelId: string,
  ) {
    super();
  }

  private parts(prompt: string, llmKey: string): CacheKeyParts {
    return { model: this.modelId, schema: "langchain-generations", prompt, params: { llm: stableLlmKey(llmKey) } };
  }

  async lookup(prompt: string, llmKey: string): Promise<Generation[] | null> {
    const stored = this.store.get(this.parts(prompt, llmKey)) as StoredGeneration[] | undefined;
    if (!Array.isArray(stored)) return null;
    return stored.map((s) => {
      const generation = deserializeStoredGeneration(s) as Generation & { message?: BaseMessage };
      if (generation.message) {
        generation.message.response_metadata = { ...generation.message.response_metadata, [CACHED_REPLY_FLAG]: true };
      }
      return generation;
    });
  }

  async update(prompt: string, llmKey: string, value: Generation[]): Promise<void> {
    this.store.set(
      this.parts(prompt, llmKey),
      value.map((g) => serializeGeneration(g as Generation & { message?: BaseMessage })),
    );
  }
}
