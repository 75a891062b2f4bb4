/**
 * RETRIEVE (reference §6.3): allowed columns C and cell candidates for the entity mentions (scoped
 * to the hinted/retrieved tables), value linking (§6.4), and one row-reading call over the matching
 * table rows. A reroute signal from the linker runs TEXT instead (effective route TEXT).
 * The C/linking part is shared with HYBRID. Provenance: the rows read, the cells of them that hold
 * the answer and the cells the linked values matched.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { ensureConfiguration, type Configuration } from "../graph/configuration.js";
import type { Attempt, State, Update } from "../graph/state.js";
import type { CellEntry, DocChunk, RowEntry, SchemaEntry } from "../indexing/types.js";
import { cellInfo, renderRows, schemaInfo, tableMarkdown } from "./evidence-text.js";
import { NOT_FOUND } from "./answer-validity.js";
import { makeAttempt } from "./attempt.js";
import { rowCells, tablesMentioning } from "./provenance.js";
import { metered, type AgentIndex, type NodeResources } from "./node-resources.js";
import { noteFailure, type UsageMeter } from "./usage-meter.js";
import { schemaScope } from "./schema-scope.js";
import type { Strategies } from "./strategies.js";
import { readTextAnswer, readingOf, textProvenance, type Reading } from "./text.js";
import type { LinkedValue } from "./types.js";
import { isMatched, linkValues, needsReroute } from "./value-linker.js";

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
  const tableIds = schemaScope({
    tableHint: state.table_id,
    schema: state.schema,
    chunks: state.chunks,
    tables: index.tables,
  });
  let columns: SchemaEntry[] = [];
  let candidates: Record<string, CellEntry[]> = {};
  try {
    const found = await index.search.schemaCells(plan.subQuery, plan.entityMentions, {
      schemaTopK: c.schemaTopK,
      cellTopK: c.cellTopK,
      ...(tableIds ? { tableIds } : {}),
    });
    columns = found.columns;
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

/** The table whose rows RETRIEVE reads: the first selected table chunk's, else the first scoped table. */
export function rowTable(chunks: readonly DocChunk[], scope: readonly string[] | undefined): string | undefined {
  const first = chunks.find((c) => c.type === "table");
  if (first) return first.tableId ?? first.source;
  return scope?.[0];
}

/** Top rows of the row table for the sub-query, rendered, with the rows themselves; the table chunks' markdown (no rows) when none. */
export async function tableContext(
  state: State,
  c: Configuration,
  index: AgentIndex,
  scope: string[] | undefined,
  meter?: UsageMeter,
): Promise<{ text: string; rows: RowEntry[] }> {
  const tableId = rowTable(state.chunks, scope);
  if (tableId !== undefined && c.rowTopK > 0) {
    try {
      const rows = (await index.search.rows(state.plan!.subQuery, c.rowTopK, { tableId })).map((h) => h.entry);
      const rendered = renderRows(rows);
      if (rendered) return { text: rendered, rows };
    } catch (error) {
      noteFailure(meter, "row retrieval failed (table chunks used instead)", error);
    }
  }
  return { text: tableMarkdown(state.chunks), rows: [] };
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
  const reading = await readTextAnswer(strategies, state, meter, c.readerCandidates);
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

export async function retrieve(state: State, config: RunnableConfig, resources: NodeResources): Promise<Update> {
  return metered("RETRIEVE", async (meter) => {
    const { c, index, strategies, scope, common, rerouted } = await startLinkedRoute(
      state,
      config,
      resources,
      meter,
      "RETRIEVE",
    );
    if (rerouted) return { attempt: rerouted };
    const schemaText = schemaInfo(scope.columns);
    const cells = cellInfo(scope.linked);
    const { text: context, rows } = await tableContext(state, c, index, scope.tableIds, meter);
    let reading: Reading;
    const input = {
      question: state.question,
      subQuery: state.plan!.subQuery,
      plan: state.plan!,
      schemaInfo: schemaText,
      cellInfo: cells,
      tableContext: context,
      bindings: scope.linked.filter(isMatched),
    };
    try {
      reading =
        c.readerCandidates && strategies.readRowsCandidates
          ? readingOf(await strategies.readRowsCandidates(input))
          : { answer: (await strategies.readRows(input)).trim() };
    } catch (error) {
      noteFailure(meter, "readRows failed (not found)", error);
      reading = { answer: NOT_FOUND };
    }
    const answer = reading.answer;
    const evidence = [schemaText, cells, context].filter((p) => p !== "").join("\n\n");
    // Rows read: their table and the cells used; table markdown instead of rows: the tables whose chunk holds the answer.
    const usedCells = rowCells(answer, rows, scope.linked);
    const tables = rows.length > 0 ? [...new Set(rows.map((r) => r.tableId))] : tablesMentioning(answer, state.chunks);
    return {
      attempt: makeAttempt(state, "RETRIEVE", {
        ...common,
        ...reading,
        evidence,
        provenance: { tables, cells: usedCells },
      }),
    };
  });
}
