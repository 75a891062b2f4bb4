/**
 * Optional on-disk cache of LLM replies (SQLite through better-sqlite3), keyed by a hash of the
 * model id, the reply schema, the prompt and the decoding parameters. With `llmCachePath` set, a
 * rerun of the same questions costs nothing and reproduces the first run exactly (the cached value
 * is the validated structured reply).
 */
import Database from "better-sqlite3";
import { createHash } from "node:crypto";
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
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.keys(value as object).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
    }
    return value;
  };
  return createHash("sha256").update(JSON.stringify(canonical(parts))).digest("hex");
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
