/** A small hand-made router label set for the trainer and learned-router tests. */
import type { TableSchema } from "../../indexing/types.js";
import type { FailedRouteRecord, Route } from "../../nodes/types.js";
import type { RouterLabel } from "../../training/labels.js";

export const SCHEMA: TableSchema = {
  tableId: "clubs",
  physical: "clubs",
  file: "clubs.csv",
  rowCount: 3,
  columns: [
    { name: "Club", physical: "club", rawPhysical: "club__raw", type: "text", examples: ["Dunmere FC"] },
    { name: "Founded", physical: "founded", rawPhysical: "founded__raw", type: "integer", examples: ["1971"] },
  ],
};

let n = 0;
export function label(route: Route, subQuery: string, fields: Partial<RouterLabel> = {}): RouterLabel {
  n++;
  return {
    question_id: `q${n}`,
    sub_query: subQuery,
    expected_operator: "lookup",
    required_modalities: "both",
    entity_mentions: [],
    need_global_table_view: false,
    uncertainty: 0,
    schema: SCHEMA,
    has_schema: true,
    history_H: [],
    route,
    label_source: "verified_inference",
    ...fields,
  };
}

export const failedAt = (subQuery: string, route: Route, step = 1): FailedRouteRecord => ({
  subQuery,
  requestedRoute: route,
  effectiveRoute: route,
  valueLinkerAttempted: false,
  verdict: 0,
  step,
});

/** Four separable kinds: counts → SQL, entity lookups → RETRIEVE, text questions → TEXT, entity sums → HYBRID. */
export function tinyLabels(): RouterLabel[] {
  const out: RouterLabel[] = [];
  const things = ["clubs", "players", "stadiums", "cities", "teams", "coaches"];
  const names = ["Dunmere FC", "Ashford Rovers", "Fenwick City", "Brookhaven", "Oskar Lind", "Tomas Reyes"];
  for (let i = 0; i < things.length; i++) {
    out.push(
      label("SQL", `How many ${things[i]} were founded before 1900?`, {
        expected_operator: "count",
        required_modalities: "table",
      }),
    );
    out.push(
      label("RETRIEVE", `Who manages ${names[i]}?`, { entity_mentions: [names[i]!], required_modalities: "table" }),
    );
    out.push(
      label("TEXT", `Why did ${names[i]} change its crest in the history article?`, {
        required_modalities: "text",
        schema: null,
        has_schema: false,
      }),
    );
    out.push(
      label("HYBRID", `What is the total attendance of ${names[i]} home games?`, {
        expected_operator: "aggregate",
        entity_mentions: [names[i]!],
      }),
    );
  }
  return out;
}
