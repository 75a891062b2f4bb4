/**
 * SQL (reference §6.2, §8.2): allowed columns C from View 3 (scoped to the hinted/retrieved
 * tables), the constrained-SQL loop (nodes/constrained-sql.ts: guard, read-only execution, one
 * repair, fail-closed) with no value bindings, then evidence fusion.
 *
 * Fusion and provenance: nodes/sql-route.ts (shared with HYBRID).
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { ensureConfiguration } from "../graph/configuration.js";
import type { State, Update } from "../graph/state.js";
import type { SchemaEntry } from "../indexing/types.js";
import { makeAttempt } from "./attempt.js";
import { schemaInfo } from "./evidence-text.js";
import { metered, type NodeResources } from "./node-resources.js";
import { subQueryScope, withGroundedColumns } from "./schema-scope.js";
import { fuseAnswer, runSqlFor, sqlAlternatives, sqlRefusals, sqlRouteProvenance } from "./sql-route.js";
import { noteFailure } from "./usage-meter.js";

export async function sql(state: State, config: RunnableConfig, resources: NodeResources): Promise<Update> {
  return metered("SQL", async (meter) => {
    const c = ensureConfiguration(config);
    const index = await resources.index(c);
    const strategies = await resources.strategies(c, "main", meter);
    const plan = state.plan!;
    const tableIds = subQueryScope(state, index.tables);
    let columns: SchemaEntry[] = [];
    try {
      columns = withGroundedColumns(
        (await index.search.schema(plan.subQuery, c.schemaTopK, tableIds ? { tableIds } : undefined)).map(
          (h) => h.entry,
        ),
        state,
        index.tables,
        tableIds,
      );
    } catch (error) {
      noteFailure(meter, "schema retrieval failed (no allowed columns)", error);
      columns = [];
    }
    const evidence = schemaInfo(columns);
    const result = await runSqlFor(state, c, index, resources, strategies, columns, [], evidence, meter, true);
    const fusion = {
      state,
      route: "SQL" as const,
      schemaEvidence: evidence,
      useMarkdownFusion: c.useMarkdownFusion,
      meter,
    };
    const answer = await fuseAnswer(strategies, { ...fusion, sqlResult: result.sqlResult });
    const sqlAlternativeAnswers = await sqlAlternatives(strategies, fusion, result, answer);
    const provenance = await sqlRouteProvenance(state, c, index, resources, result, answer);
    return {
      attempt: makeAttempt(state, "SQL", {
        answer,
        evidence,
        sqlResult: result.sqlResult,
        sql: result.sql,
        sqlRefusals: sqlRefusals(result),
        provenance,
        ...(result.plan ? { sqlPlan: result.plan } : {}),
        sqlAlternatives: sqlAlternativeAnswers,
      }),
    };
  });
}
