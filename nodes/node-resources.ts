/**
 * What nodes need from the process — the opened index, strategies for a component, the SQL
 * executor — as an interface. graph/resources.ts implements it (opened once per process, cached by
 * key) and graph/graph.ts hands it to every node; node tests pass hand-written fakes. Nodes never
 * keep these in state.
 */
import type { Configuration } from "../graph/configuration.js";
import { nodeUsage, type Usage } from "../graph/state.js";
import type { TableSchema } from "../indexing/types.js";
import type { SqlExecutor } from "../retrievers/sql-executor.js";
import type { IndexSearch } from "../retrievers/types.js";
import { newUsageMeter, type UsageMeter } from "./usage-meter.js";
import type { Strategies } from "./strategies.js";

/** The part of an opened index (indexing/open-index.ts `OpenedIndex`) the nodes use. */
export interface AgentIndex {
  dir: string;
  tables: Map<string, TableSchema>;
  search: IndexSearch;
}

/** Which backbone a strategy call runs on: backbone, decomposerBackbone or verifierBackbone. */
export type StrategyComponent = "main" | "decomposer" | "verifier";

export interface NodeResources {
  index(config: Configuration): Promise<AgentIndex>;
  /** Strategies whose LLM usage is counted into `meter` (one meter per node call). */
  strategies(config: Configuration, component: StrategyComponent, meter: UsageMeter): Promise<Strategies>;
  sqlExecutor(config: Configuration): Promise<SqlExecutor>;
}

/** Times a node body and turns its usage meter into `usage` (and `errors`) updates. */
export async function metered<T extends object>(
  node: string,
  body: (meter: UsageMeter) => Promise<T>,
): Promise<T & { usage: Usage; errors?: string[] }> {
  const meter = newUsageMeter();
  const started = performance.now();
  const update = await body(meter);
  const ms = Math.round((performance.now() - started) * 1000) / 1000;
  return {
    ...update,
    usage: nodeUsage(node, {
      llmCalls: meter.llmCalls,
      inputTokens: meter.inputTokens,
      outputTokens: meter.outputTokens,
      ms,
    }),
    ...(meter.errors.length > 0 ? { errors: meter.errors.map((e) => `${node}: ${e}`) } : {}),
  };
}
