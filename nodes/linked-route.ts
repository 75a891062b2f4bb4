/**
 * The shared start of RETRIEVE and HYBRID (reference §6.3–§6.4): the allowed columns C and cell
 * candidates for the entity mentions, scoped to the hinted/retrieved tables, then value linking
 * (V*); a reroute signal from the linker answers by TEXT instead (effective route TEXT).
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { ensureConfiguration, type Configuration } from "../graph/configuration.js";
import type { Attempt, State } from "../graph/state.js";
import type { CellEntry, SchemaEntry } from "../indexing/types.js";
import { makeAttempt } from "./attempt.js";
import type { AgentIndex, NodeResources } from "./node-resources.js";
import { noteFailure, type UsageMeter } from "./usage-meter.js";
import { subQueryScope, withGroundedColumns } from "./schema-scope.js";
import type { Strategies } from "./strategies.js";
import { readTextAnswer, textProvenance } from "./text-answer.js";
import type { LinkedValue } from "./types.js";
import { linkValues, needsReroute } from "./value-linker.js";

export interface LinkedScope {
  columns: SchemaEntry[];
  candidates: Record<string, CellEntry[]>;
  linked: LinkedValue[];
  linkerAttempted: boolean;
  reroute: boolean;
  tableIds: string[] | undefined;
}

/** C, V_raw and V* for the current sub-query (shared by RETRIEVE and HYBRID). */
export async function linkScope(
  state: State,
  c: Configuration,
  index: AgentIndex,
  strategies: Strategies,
  meter?: UsageMeter,
): Promise<LinkedScope> {
  const plan = state.plan!;
  const tableIds = subQueryScope(state, index.tables);
  let columns: SchemaEntry[] = [];
  let candidates: Record<string, CellEntry[]> = {};
  try {
    const found = await index.search.schemaCells(plan.subQuery, plan.entityMentions, {
      schemaTopK: c.schemaTopK,
      cellTopK: c.cellTopK,
      ...(tableIds ? { tableIds } : {}),
    });
    columns = withGroundedColumns(found.columns, state, index.tables, tableIds);
    candidates = found.candidates;
  } catch (error) {
    // no C and no candidates: the linker falls to its ladder, SQL refuses (fail closed)
    noteFailure(meter, "schema/cell retrieval failed (no allowed columns)", error);
  }
  const linkerAttempted = !c.noValueLinker && plan.entityMentions.length > 0;
  const linked = linkerAttempted
    ? await linkValues({
        entities: plan.entityMentions,
        subQuery: plan.subQuery,
        columns,
        candidates,
        history: state.failedRoutes,
        failureScope: c.failureScope,
        strategies,
        ...(meter ? { meter } : {}),
      })
    : [];
  return { columns, candidates, linked, linkerAttempted, reroute: needsReroute(linked), tableIds };
}

export interface LinkedRoute {
  c: Configuration;
  index: AgentIndex;
  strategies: Strategies;
  scope: LinkedScope;
  common: Pick<Attempt, "valueLinkerAttempted" | "linkedValues">;
  /** Set when the linker signalled a reroute: the attempt already answered by TEXT. */
  rerouted?: Attempt;
}

/**
 * The shared start of RETRIEVE and HYBRID: resources, C and V*, and — on a reroute signal — the
 * TEXT answer as the attempt (effective route TEXT, no SQL, no route evidence).
 */
export async function startLinkedRoute(
  state: State,
  config: RunnableConfig,
  resources: NodeResources,
  meter: UsageMeter,
  route: "RETRIEVE" | "HYBRID",
): Promise<LinkedRoute> {
  const c = ensureConfiguration(config);
  const index = await resources.index(c);
  const strategies = await resources.strategies(c, "main", meter);
  const scope = await linkScope(state, c, index, strategies, meter);
  const common = { valueLinkerAttempted: scope.linkerAttempted, linkedValues: scope.linked };
  if (!scope.reroute) return { c, index, strategies, scope, common };
  const reading = await readTextAnswer(strategies, state, meter, c);
  return {
    c,
    index,
    strategies,
    scope,
    common,
    rerouted: makeAttempt(state, route, {
      ...common,
      ...reading,
      effectiveRoute: "TEXT",
      provenance: textProvenance(reading.answer, state),
    }),
  };
}
