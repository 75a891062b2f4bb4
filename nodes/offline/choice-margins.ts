/**
 * How sure the offline backbone's learned choices were, as the learned verifier's `mg:` features:
 * the margin of the condition-link model's chosen links over the next alternative
 * (condition-links.ts `linkChoice`), of the target column over the next column (columns.ts
 * `rankTargetColumns`, the learned target-column scorer where it ranks), and of the row-choice
 * model's row over the next close row (row-choice.ts). A choice that barely won is where a wrong
 * column or row comes from; the per-attempt features saw only what was chosen. Margins are mapped to
 * 0..1 by 1 − e^(−margin). Computed only where the shipped model weighs the family, or in
 * exploration runs (feature-families.ts).
 */
import { rankTargetColumns } from "./columns.js";
import type { NamedPlan, SqlPlanInput } from "./plans/types.js";

export type Features = Record<string, number>;

/** 1 − e^(−margin), rounded, for a margin ≥ 0 (negative counts 0). */
export function marginShare(margin: number): number {
  return Math.round((1 - Math.exp(-Math.max(0, margin))) * 1000) / 1000;
}

const targets = new WeakMap<SqlPlanInput, { top?: string; margin?: number }>();

/** The best target column of a planning input and its margin over the next (computed once per input). */
function targetRanking(input: SqlPlanInput): { top?: string; margin?: number } {
  let r = targets.get(input);
  if (!r) {
    const ranked = rankTargetColumns(input.analysis, input.catalog, input.mentions, {
      ...(input.usable ? { usable: input.usable } : {}),
    });
    r = {
      ...(ranked[0] ? { top: ranked[0].column.schema.name } : {}),
      ...(ranked.length >= 2 ? { margin: ranked[0]!.score - ranked[1]!.score } : {}),
    };
    targets.set(input, r);
  }
  return r;
}

/** The `mg:` features of one SQL candidate: its links' margin and its target column's. */
export function sqlChoiceMargins(plan: NamedPlan, input: SqlPlanInput): Features {
  const f: Features = {};
  const g = input.analysis.grounding;
  // The decomposer's link choice holds when the planning input kept its table's links.
  const link =
    g && g.tableId === input.catalog.schema.tableId && g.mentions === input.mentions ? g.linkMargin : undefined;
  if (link) {
    f["mg:link-margin"] = marginShare(link.margin);
    if (link.samePlan) f["mg:link-same-plan"] = 1;
    if (link.changed) f["mg:link-changed"] = 1;
  } else f["mg:link-none"] = 1;
  const t = targetRanking(input);
  if (plan.targetColumn && t.top !== undefined) {
    f[plan.targetColumn === t.top ? "mg:target=top" : "mg:target=other"] = 1;
    if (t.margin !== undefined) f["mg:target-margin"] = marginShare(t.margin);
  }
  return f;
}

/** The `mg:` feature of a row the row-choice model chose among close rows (bridge.ts `DescribedRow.choiceMargin`). */
export function rowChoiceMargins(row: { choiceMargin?: number } | undefined): Features {
  return row?.choiceMargin === undefined ? {} : { "mg:row-choice-margin": marginShare(row.choiceMargin) };
}
