/**
 * Every option of the ATR graph in one zod schema (reference §10.2, camelCase) and the one place that
 * knows default values (`ensureConfiguration`). The CLI's snake_case flags (`--max_iter` → `maxIter`)
 * are derived from this schema in cli/config-flags.ts.
 *
 * Flags reach the graph through `config.configurable` (the LangGraph templates' mechanism). The
 * graph also declares `ConfigurableSchema` as its context schema so that Studio shows and edits it;
 * because Studio may write the same fields into LangGraph 1.x's `config.context`, those are merged
 * over `configurable` here — one schema, read in one place.
 *
 * This file (`ATR_INDEX_PATH`), graph/backbone-env.ts (credentials and endpoints) and the CLI are
 * the only readers of `process.env` for behaviour.
 */
import { DEFAULT_RECALL_MULTIPLIER } from "../retrievers/recall.js";
import { DEFAULT_SQL_TIMEOUT_MS } from "../retrievers/sql-executor.js";
import { z } from "zod";
import { ROUTES } from "../nodes/types.js";

export const ROUTER_TYPES = ["heuristic", "llm", "learned", "fixed"] as const;
export type RouterType = (typeof ROUTER_TYPES)[number];

export const FAILURE_SCOPES = ["question", "subquery"] as const;
export type FailureScope = (typeof FAILURE_SCOPES)[number];

/** The full configuration with defaults. `.describe()` texts are the CLI help and the README table. */
export const ConfigurationSchema = z.object({
  indexPath: z.string().default("").describe("index directory built by `atr build-index` (env ATR_INDEX_PATH)"),
  backbone: z
    .string()
    .default("offline")
    .describe('chat model for every LLM step: "offline", "vertexai/<model>", "openai/<model>", "ollama/<model>"'),
  decomposerBackbone: z.string().optional().describe("decomposer only"),
  verifierBackbone: z.string().optional().describe("verifier verdict only"),
  routerType: z.enum(ROUTER_TYPES).default("heuristic").describe("heuristic | llm | learned | fixed"),
  forceRoute: z.enum(ROUTES).optional().describe("TEXT | SQL | RETRIEVE | HYBRID (fixed router)"),
  fixedEscalateChain: z.enum(["standard"]).optional().describe('fixed router re-selection chain: "standard"'),
  routerModelPath: z.string().optional().describe("learned router model folder (router_type learned)"),
  maxIter: z.number().int().min(1).default(5).describe("K_max: decomposition iterations"),
  verifierThreshold: z.number().min(0).max(1).default(0.1).describe("stop when accepted and uncertainty < this"),
  acceptThreshold: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe(
      "offline verifier: accept at P(correct) ≥ this (default: the learned verifier's own, chosen on the training splits; 1 = never accept, every route is tried)",
    ),
  verifierFeatures: z
    .enum(["model", "all"])
    .default("model")
    .describe(
      'offline verifier: compute its optional feature families (pm:, sqlalt:, lr:, rc:) only where the shipped model uses them ("model"), or all of them, traced ("all": exploration runs for training, docs/VERIFIER.md)',
    ),
  stopPolicy: z
    .enum(["learned", "never"])
    .default("learned")
    .describe(
      'after an attempt the verifier did not accept: "learned" stops re-routing where the learned stop policy expects no later route to change the answer (nodes/routers/stop-policy.ts, docs/ROUTER.md "Stop re-routing"); "never" tries every route',
    ),
  routeOrder: z
    .enum(["heuristic", "learned"])
    .default("learned")
    .describe(
      'which route after an attempt the verifier did not accept and the stop policy let go on (heuristic router): "heuristic" its rules; "learned" another untried route where the learned route order expects it to settle the same answer sooner (nodes/routers/next-route.ts, docs/ROUTER.md "Learned route order")',
    ),
  noEscalation: z.boolean().default(false).describe("one attempt per sub-query (no re-routing)"),
  noDecomposition: z.boolean().default(false).describe("use the raw question as the only sub-query (K = 1)"),
  noValueLinker: z.boolean().default(false).describe("empty V*; C still applied"),
  noReranker: z.boolean().default(false).describe("dense-only retrieval (no reranker)"),
  rerankerPath: z
    .string()
    .optional()
    .describe("local cross-encoder model folder (transformers.js) for Views 1–4; default: the lexical reranker"),
  rerankCandidateMultiplier: z
    .number()
    .int()
    .min(1)
    .default(DEFAULT_RECALL_MULTIPLIER)
    .describe("recall = top_k × this before reranking"),
  readerCandidates: z
    .boolean()
    .default(false)
    .describe(
      'offline readers beside passages propose up to 4 candidates per reading, each judged and traced (docs/OFFLINE-BACKBONE.md "Reader candidates"); needs a verifier trained on such runs',
    ),
  finalSynthesis: z.boolean().default(false).describe("synthesise the final answer from ≥ 2 accepted steps"),
  plausibleFallback: z
    .boolean()
    .default(true)
    .describe(
      'with no accepted step, answer the latest step\'s plausible (verdict 0.5) answer, marked unverified; false = "not found" (released code)',
    ),
  useSchemaPreview: z.boolean().default(false).describe("show the decomposer a preview of the first table"),
  useMarkdownFusion: z.boolean().default(false).describe("conditional SQL fast path + markdown cross-check"),
  schemaTopK: z.number().int().min(0).default(5).describe("View 3 columns per query (C)"),
  cellTopK: z.number().int().min(0).default(15).describe("View 4 cell candidates per entity"),
  rowTopK: z.number().int().min(0).default(10).describe("View 4 rows for the RETRIEVE table context"),
  failureScope: z
    .enum(FAILURE_SCOPES)
    .default("question")
    .describe("route masking and linker ladder over the whole question (released code) or per sub-query"),
  sqlServiceUrl: z.string().optional().describe("guarded external SQL service (§7) instead of the embedded View 5"),
  sqlStore: z
    .string()
    .optional()
    .describe(
      "PostgreSQL URL for an index built with --sql_store (overrides the manifest's, may carry the password; else PGPASSWORD/.pgpass)",
    ),
  sqlTimeoutMs: z.number().int().min(1).default(DEFAULT_SQL_TIMEOUT_MS).describe("time limit of one SQL statement"),
  llmCachePath: z.string().optional().describe("SQLite file caching LLM responses (rerun = no cost, same output)"),
  llmTimeoutMs: z.number().int().min(1).default(120_000).describe("time limit of one LLM call"),
  llmMaxRetries: z.number().int().min(0).default(3).describe("retries on 429/5xx/timeouts (backoff + jitter)"),
  maxQuestionChars: z
    .number()
    .int()
    .min(1)
    .default(4000)
    .describe(
      "longest question accepted, in characters; a longer one is refused before any work (QuestionTooLongError)",
    ),
  cascade: z
    .boolean()
    .default(false)
    .describe(
      "offline tier first: its accepted answer is final (no LLM call); else the LLM verifier checks its answer (1 call), then the LLM backbones run with its findings (docs/CASCADE.md)",
    ),
});

/** A complete configuration: what `ensureConfiguration` returns. */
export type Configuration = z.infer<typeof ConfigurationSchema> & {
  decomposerBackbone: string;
  verifierBackbone: string;
};

/** What callers may pass: every field optional, types checked. Also the graph's context schema. */
export const ConfigurableSchema = ConfigurationSchema.partial();
export type ConfigurableInput = z.input<typeof ConfigurableSchema>;

export class ConfigurationError extends Error {
  constructor(message: string) {
    super(`graph/configuration.ts: ${message}`);
    this.name = "ConfigurationError";
  }
}

interface ConfigLike {
  configurable?: Record<string, unknown>;
  context?: unknown;
}

export const FIELDS = Object.keys(ConfigurationSchema.shape) as Array<keyof z.infer<typeof ConfigurationSchema>>;

/**
 * Keys that LangGraph (the runtime, `langgraph dev` / the API server) and LangSmith put into
 * `configurable` beside ours: thread and checkpoint ids, run/assistant/graph/user ids, request
 * headers (`x-*`, `user-agent`), auth (`langgraph_auth_*`), tracing (`langsmith_*`) and the
 * runtime's internals (`__pregel_*`, …).
 */
const PLATFORM_KEYS = new Set([
  "thread_id",
  "checkpoint_id",
  "checkpoint_ns",
  "checkpoint_map",
  "run_id",
  "run_attempt",
  "assistant_id",
  "graph_id",
  "user_id",
  "cron_id",
  "user-agent",
]);
const PLATFORM_PREFIXES = ["__", "langgraph_", "langsmith_", "ls_", "checkpoint_", "x-"];

function isPlatformKey(key: string): boolean {
  return PLATFORM_KEYS.has(key) || PLATFORM_PREFIXES.some((p) => key.startsWith(p));
}

/** The configuration field a mistyped key most likely meant (snake_case or case slips), if any. */
function meantField(key: string): string | undefined {
  const norm = (k: string) => k.replace(/[_-]/g, "").toLowerCase();
  return FIELDS.find((f) => norm(f) === norm(key));
}

/**
 * Keys of `configurable`/`context` that are neither configuration fields nor LangGraph's/LangSmith's:
 * a typo (`maxIters`, `max_iter`) would otherwise be ignored silently.
 */
export function unknownConfigurationKeys(source: Record<string, unknown>): string[] {
  const known = new Set<string>(FIELDS);
  return Object.keys(source).filter((key) => !known.has(key) && !isPlatformKey(key));
}

/**
 * Fills every default. Reads `config.configurable` (and LangGraph 1.x `config.context`, which wins),
 * skips LangGraph's/LangSmith's own keys (thread_id, checkpoint_ns, langgraph_*, …) and
 * `undefined`/`null` values, and throws a ConfigurationError naming the key for an unknown key or
 * the field for a wrong type or value.
 */
export function ensureConfiguration(config?: ConfigLike | Record<string, unknown>): Configuration {
  const cfg = (config ?? {}) as ConfigLike;
  const raw: Record<string, unknown> = {};
  const context = cfg.context && typeof cfg.context === "object" ? (cfg.context as Record<string, unknown>) : {};
  for (const source of [cfg.configurable ?? {}, context]) {
    const unknown = unknownConfigurationKeys(source);
    if (unknown.length > 0) {
      const hints = unknown.map((key) => (meantField(key) ? `${key} (did you mean ${meantField(key)}?)` : key));
      throw new ConfigurationError(
        `unknown configuration key${unknown.length > 1 ? "s" : ""} ${hints.join(", ")}; the fields are ${FIELDS.join(", ")}`,
      );
    }
    for (const field of FIELDS) {
      const value = source[field];
      if (value !== undefined && value !== null && value !== "") raw[field] = value;
    }
  }
  if (raw.indexPath === undefined && process.env.ATR_INDEX_PATH) raw.indexPath = process.env.ATR_INDEX_PATH;
  // Every node and strategy asks again with the same values: the schema's parse was ~3 % of a question's CPU.
  const key = Object.values(raw).every(isPlainScalar) ? JSON.stringify(raw) : undefined;
  const known = key === undefined ? undefined : parsedConfigurations.get(key);
  if (known) return { ...known };
  const configuration = parseConfiguration(raw);
  if (key !== undefined) {
    if (parsedConfigurations.size >= PARSED_CONFIGURATIONS) parsedConfigurations.clear();
    parsedConfigurations.set(key, configuration);
  }
  return { ...configuration };
}

/** Values whose JSON text tells them apart (no NaN/Infinity, which all print as null). */
function isPlainScalar(value: unknown): boolean {
  return (
    typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))
  );
}

/** Configurations by the JSON of their given fields (each key a distinct run's settings: a handful per process). */
const PARSED_CONFIGURATIONS = 64;
const parsedConfigurations = new Map<string, Configuration>();

function parseConfiguration(raw: Record<string, unknown>): Configuration {
  const parsed = ConfigurationSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
    throw new ConfigurationError(`invalid configuration — ${problems}`);
  }
  const c = parsed.data;
  if (c.routerType === "fixed" && !c.forceRoute) {
    throw new ConfigurationError("routerType fixed needs forceRoute (--force_route TEXT|SQL|RETRIEVE|HYBRID)");
  }
  return {
    ...c,
    decomposerBackbone: c.decomposerBackbone ?? c.backbone,
    verifierBackbone: c.verifierBackbone ?? c.backbone,
  };
}

/** Iterations actually run: K = 1 without decomposition (§2.3). */
export function effectiveMaxIter(c: Configuration): number {
  return c.noDecomposition ? 1 : c.maxIter;
}

/** Execution attempts per sub-query (§2.4): 4, or 1 with noEscalation. */
export function maxAttempts(c: Configuration): number {
  return c.noEscalation ? 1 : 4;
}
