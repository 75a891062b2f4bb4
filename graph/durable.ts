/**
 * Durable threads: the ATR graph compiled with a PostgreSQL checkpointer
 * (@langchain/langgraph-checkpoint-postgres), so a thread's checkpoints — every run's state, its
 * answers and traces — live in the server and survive the process (`atr ask --checkpointer URL
 * --thread_id T`, or an application that serves `openDurableGraph(url).graph`). The checkpoint
 * tables are created on first use in their own schema (default `atr_threads`), never in an index's.
 */
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { buildGraph } from "./graph.js";
import { processResources } from "./resources.js";

export const DEFAULT_THREAD_SCHEMA = "atr_threads";

export interface DurableGraph {
  graph: ReturnType<typeof buildGraph>;
  checkpointer: PostgresSaver;
  /** Closes the checkpointer's connection pool. */
  close(): Promise<void>;
}

export class DurableGraphError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DurableGraphError";
  }
}

/** Opens the checkpointer at `url` (creating its tables when missing) and compiles the graph with it. */
export async function openDurableGraph(url: string, options: { schema?: string } = {}): Promise<DurableGraph> {
  if (!/^postgres(ql)?:\/\//i.test(url))
    throw new DurableGraphError(
      `--checkpointer must be a postgres:// URL, got ${JSON.stringify(url.replace(/:[^:@/]*@/, ":***@"))}`,
    );
  const checkpointer = PostgresSaver.fromConnString(url, { schema: options.schema ?? DEFAULT_THREAD_SCHEMA });
  try {
    await checkpointer.setup();
  } catch (error) {
    await checkpointer.end().catch(() => undefined);
    throw new DurableGraphError(
      `cannot open the thread store at ${url.replace(/:[^:@/]*@/, "@")}: ${(error as Error).message}`,
    );
  }
  return { graph: buildGraph(processResources, { checkpointer }), checkpointer, close: () => checkpointer.end() };
}
