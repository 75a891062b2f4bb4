/**
 * Router input serialisation (reference §5.3): the v1/v2 classifier text, the failure-history
 * feature and the restored-schema feature. The LLM router's prompt (§5.2) and the learned router
 * (training/ and its ONNX inference) use the same functions.
 */
import type { TableSchema } from "../../indexing/types.js";
import type { FailedRouteRecord, SubQueryPlan } from "../types.js";
import { scopedHistory } from "./failed-set.js";
import type { RouterInput } from "./index.js";

/** Python-style float text: 0 → "0.0", 0.5 → "0.5". */
export function floatText(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(value);
}

/**
 * `none`, or comma-joined items in attempt order: `<route>` or `<requested>-><effective>`, then
 * `:<verdict>`, prefixed with `<sub_query> => ` when the record has a sub-query.
 */
export function historyFeature(history: readonly FailedRouteRecord[]): string {
  if (history.length === 0) return "none";
  const items = history.map((r) => {
    const route = r.requestedRoute !== r.effectiveRoute ? `${r.requestedRoute}->${r.effectiveRoute}` : r.effectiveRoute;
    const verdict = Number.isFinite(r.verdict) ? `:${floatText(r.verdict)}` : "";
    return `${r.subQuery ? `${r.subQuery} => ` : ""}${route}${verdict}`;
  });
  return items.join(", ");
}

/** `none`, or `table=<name>; columns=<name:type[ examples=…]>, …` (`unknown` when no columns). */
export function schemaFeature(schema: TableSchema | null | undefined): string {
  if (!schema) return "none";
  const columns = schema.columns.map((c) => {
    const examples = c.examples.filter((e) => e !== "").join(", ");
    return `${c.name}${c.type ? `:${c.type}` : ""}${examples ? ` examples=${examples}` : ""}`;
  });
  return `table=${schema.tableId}; columns=${columns.length ? columns.join(", ") : "unknown"}`;
}

/** v1 classifier text: `[QUERY] … [OP] … [MOD] … [ENT] … [SCHEMA] yes|no` (H not included). */
export function routerInputV1(plan: SubQueryPlan, schema: TableSchema | null | undefined): string {
  const entities = plan.entityMentions.length ? plan.entityMentions.join(", ") : "none";
  return [
    `[QUERY] ${plan.subQuery}`,
    `[OP] ${plan.expectedOperator}`,
    `[MOD] ${plan.requiredModalities}`,
    `[ENT] ${entities}`,
    `[SCHEMA] ${schema ? "yes" : "no"}`,
  ].join(" ");
}

/** v2 classifier text: v1 (SCHEMA = schema non-empty) + GLOBAL, UNCERTAINTY, FAILED, SCHEMA_DETAIL. */
export function routerInputV2(
  plan: SubQueryPlan,
  schema: TableSchema | null | undefined,
  history: readonly FailedRouteRecord[],
): string {
  const nonEmpty = !!schema && schema.columns.length > 0;
  const v1 = routerInputV1(plan, nonEmpty ? schema : null);
  const u = Number.isFinite(plan.uncertainty) ? plan.uncertainty.toFixed(3) : "0.000";
  return [
    v1,
    `[GLOBAL] ${plan.needGlobalTableView ? "yes" : "no"}`,
    `[UNCERTAINTY] ${u}`,
    `[FAILED] ${historyFeature(history)}`,
    `[SCHEMA_DETAIL] ${schemaFeature(schema)}`,
  ].join(" ");
}

/** The classifier text of a router input for a learned model's input version (H scoped as online). */
export function learnedInputText(input: RouterInput, version: 1 | 2): string {
  if (version === 1) return routerInputV1(input.plan, input.schema);
  return routerInputV2(input.plan, input.schema, scopedHistory(input.history, input.plan.subQuery, input.failureScope));
}
