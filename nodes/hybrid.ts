/**
 * HYBRID (reference §6, §6.4, §6.5, §8.2): C and cell candidates for the entity mentions, value
 * linking, then the constrained-SQL loop with the linked values as mandatory WHERE bindings, then
 * fusion. A reroute signal from the linker runs TEXT instead (effective route TEXT, no SQL, no route
 * evidence). Provenance as SQL's (nodes/sql.ts).
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import type { State, Update } from "../graph/state.js";
import { makeAttempt } from "./attempt.js";
import { metered, type NodeResources } from "./node-resources.js";
import { cellInfo, schemaInfo } from "./evidence-text.js";
import { startLinkedRoute } from "./linked-route.js";
import { fuseAnswer, runSqlFor, sqlRefusals, sqlRouteProvenance } from "./sql-route.js";

export async function hybrid(state: State, config: RunnableConfig, resources: NodeResources): Promise<Update> {
  return metered("HYBRID", async (meter) => {
    const { c, index, strategies, scope, common, rerouted } = await startLinkedRoute(
      state,
      config,
      resources,
      meter,
      "HYBRID",
    );
    if (rerouted) return { attempt: rerouted };
    const evidence = [schemaInfo(scope.columns), cellInfo(scope.linked)].filter((p) => p !== "").join("\n\n");
    const result = await runSqlFor(
      state,
      c,
      index,
      resources,
      strategies,
      scope.columns,
      scope.linked,
      evidence,
      meter,
    );
    const answer = await fuseAnswer(strategies, {
      state,
      route: "HYBRID",
      sqlResult: result.sqlResult,
      schemaEvidence: evidence,
      useMarkdownFusion: c.useMarkdownFusion,
      meter,
    });
    const provenance = await sqlRouteProvenance(state, c, index, resources, result, answer);
    return {
      attempt: makeAttempt(state, "HYBRID", {
        ...common,
        answer,
        evidence,
        sqlResult: result.sqlResult,
        sql: result.sql,
        sqlRefusals: sqlRefusals(result),
        provenance,
      }),
    };
  });
}
