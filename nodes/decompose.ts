/**
 * decompose (reference §3, §2.2, §2.3 step 1): plans the next sub-query with its metadata, or
 * TERMINATE. Fail-closed: a strategy error ends the loop (TERMINATE). With `noDecomposition` the raw
 * question is the only sub-query (K = 1). Also starts the run's loop bounds and resets the
 * per-sub-query channels (nodes/begin.ts has already started the per-question ones).
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { effectiveMaxIter, ensureConfiguration, maxAttempts } from "../graph/configuration.js";
import type { State, Update } from "../graph/state.js";
import { selectChunks } from "./chunk-selection.js";
import { metered, type AgentIndex, type NodeResources } from "./node-resources.js";
import { noteFailure, type UsageMeter } from "./usage-meter.js";
import type { SubQueryPlan } from "./types.js";

export const TERMINATE = "TERMINATE";

export function terminatePlan(): SubQueryPlan {
  return {
    subQuery: TERMINATE,
    requiredModalities: "both",
    expectedOperator: "lookup",
    needGlobalTableView: false,
    entityMentions: [],
    uncertainty: 1,
  };
}

/** The sub-query of `noDecomposition`: the raw question, both / lookup / no global / no entities / 0. */
export function rawQuestionPlan(question: string): SubQueryPlan {
  return {
    subQuery: question,
    requiredModalities: "both",
    expectedOperator: "lookup",
    needGlobalTableView: false,
    entityMentions: [],
    uncertainty: 0,
  };
}

export function isTerminate(plan: SubQueryPlan | null): boolean {
  return !plan || plan.subQuery.trim().toUpperCase() === TERMINATE;
}

/**
 * §2.2 schema preview: the first table chunk among 5 selected for the original question — banner,
 * header, separator and first 3 data rows — plus a one-line instruction. "" on a retrieval failure
 * (noted in `meter`).
 */
export async function buildSchemaPreview(
  index: AgentIndex,
  question: string,
  tableHint?: string,
  meter?: UsageMeter,
): Promise<string> {
  try {
    const hits = await index.search.documents(question, 10);
    const chunks = selectChunks(
      hits.map((h) => h.entry),
      { tableHint },
    );
    const table = chunks.find((c) => c.type === "table");
    if (!table) return "";
    const lines = table.text.split("\n");
    const start = lines.findIndex((l) => l.trimStart().startsWith("|"));
    if (start < 0) return "";
    const block = lines.slice(start, start + 5).join("\n");
    return [
      `Source table: ${table.tableId ?? table.source}`,
      block,
      "Use this preview to decide between a single-cell lookup and a COUNT/aggregate over rows.",
    ].join("\n");
  } catch (error) {
    noteFailure(meter, "schema preview retrieval failed (no preview)", error);
    return "";
  }
}

export async function decompose(state: State, config: RunnableConfig, resources: NodeResources): Promise<Update> {
  return metered("decompose", async (meter) => {
    const c = ensureConfiguration(config);
    const limits = state.limits ?? {
      maxIter: effectiveMaxIter(c),
      maxAttempts: maxAttempts(c),
      verifierThreshold: c.verifierThreshold,
    };
    const reset: Update = {
      limits,
      iteration: state.iteration + 1,
      chunks: [],
      schema: null,
      textEvidence: "",
      nextRoute: null,
      attempt: null,
      subQueryDone: false,
      stop: false,
      cExec: 0,
    };
    if (c.noDecomposition) return { ...reset, plan: rawQuestionPlan(state.question) };
    let schemaPreview = state.schemaPreview;
    if (c.useSchemaPreview && state.iteration === 0) {
      schemaPreview = await buildSchemaPreview(await resources.index(c), state.question, state.table_id, meter);
    }
    // Building the strategies (credentials, backbone string) fails loudly; only the call fails closed.
    const strategies = await resources.strategies(c, "decomposer", meter);
    let plan: SubQueryPlan;
    try {
      plan = await strategies.decompose({
        question: state.question,
        tableId: state.table_id,
        history: state.steps,
        consecutiveFailures: state.consecutiveFailures,
        schemaPreview,
        ...(state.priorFindings ? { priorFindings: state.priorFindings } : {}),
      });
      if (!plan || typeof plan.subQuery !== "string" || plan.subQuery.trim() === "") {
        noteFailure(meter, "decompose failed (TERMINATE)", "the plan has no sub-query");
        plan = terminatePlan();
      }
    } catch (error) {
      noteFailure(meter, "decompose failed (TERMINATE)", error);
      plan = terminatePlan();
    }
    if (isTerminate(plan)) plan = { ...plan, subQuery: TERMINATE };
    return { ...reset, plan, schemaPreview };
  });
}
