/**
 * Agreement of a learned router with a label set (reference §11 eval, with §15.5 fixed): both the
 * reference's unmasked argmax and the online decision rule (the best route not in the label's failed
 * set, question-wide). Confusion matrices: rows = label, columns = prediction, in class-id order.
 */
import type { FailureScope } from "../graph/configuration.js";
import type { LearnedRouterPolicy } from "../nodes/routers/index.js";
import { failedSet } from "../nodes/routers/failed-set.js";
import { labelPlan, type RouterLabel } from "./labels.js";
import { LABELS, maskedChoice } from "../nodes/routers/router-config.js";

export interface Agreement {
  labels: number;
  masked: { agreement: number; confusion: number[][] };
  unmasked: { agreement: number; confusion: number[][] };
}

export async function evaluateRouter(policy: LearnedRouterPolicy, labels: readonly RouterLabel[], failureScope: FailureScope = "question"): Promise<Agreement> {
  const empty = () => LABELS.map(() => LABELS.map(() => 0));
  const masked = empty();
  const unmasked = empty();
  let okMasked = 0;
  let okUnmasked = 0;
  for (const label of labels) {
    const ranked = await policy.rank({ plan: labelPlan(label), schema: label.schema, history: label.history_H, failureScope, reselectIndex: 0 });
    const truth = LABELS.indexOf(label.route);
    const top = ranked[0]!;
    const choice = maskedChoice(ranked, failedSet(label.history_H, label.sub_query, failureScope));
    unmasked[truth]![LABELS.indexOf(top)]! += 1;
    masked[truth]![LABELS.indexOf(choice)]! += 1;
    if (top === label.route) okUnmasked++;
    if (choice === label.route) okMasked++;
  }
  const n = labels.length || 1;
  return {
    labels: labels.length,
    masked: { agreement: okMasked / n, confusion: masked },
    unmasked: { agreement: okUnmasked / n, confusion: unmasked },
  };
}

/** A confusion matrix as aligned text (rows = label, columns = prediction). */
export function renderConfusion(matrix: number[][]): string {
  const w = 9;
  const head = "label\\pred".padEnd(w + 2) + LABELS.map((l) => l.padStart(w)).join("");
  const rows = matrix.map((row, i) => LABELS[i]!.padEnd(w + 2) + row.map((v) => String(v).padStart(w)).join(""));
  return [head, ...rows].join("\n");
}
