/**
 * RETRIEVE (reference §6.3): allowed columns C and cell candidates for the entity mentions (scoped
 * to the hinted/retrieved tables), value linking (§6.4), and one row-reading call over the matching
 * table rows. A reroute signal from the linker runs TEXT instead (effective route TEXT).
 * The C/linking part is shared with HYBRID (nodes/linked-route.ts). Provenance: the rows read, the cells of them that hold
 * the answer and the cells the linked values matched.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import type { Configuration } from "../graph/configuration.js";
import type { State, Update } from "../graph/state.js";
import type { DocChunk, RowEntry } from "../indexing/types.js";
import { cellInfo, renderRows, schemaInfo, tableMarkdown } from "./evidence-text.js";
import { NOT_FOUND } from "./answer-validity.js";
import { makeAttempt } from "./attempt.js";
import { startLinkedRoute } from "./linked-route.js";
import { rowCells, tablesMentioning } from "./provenance.js";
import { metered, type AgentIndex, type NodeResources } from "./node-resources.js";
import { noteFailure, type UsageMeter } from "./usage-meter.js";
import { readingOf, type Reading } from "./text-answer.js";
import { readerFamilyOn } from "./offline/feature-families.js";
import { isMatched } from "./value-linker.js";

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
      // (Without reader candidates the reading keeps its first candidate's features, not the others.)
      reading =
        strategies.readRowsCandidates && (c.readerCandidates || readerFamilyOn(c.verifierFeatures))
          ? readingOf(await strategies.readRowsCandidates(input), c.readerCandidates)
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
