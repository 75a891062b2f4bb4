/**
 * Gives a traced run's first sub-query the offline decomposer's analysis (SubQueryPlan.analysis),
 * which the trace does not record: the learned router's plan tokens (nodes/routers/plan-features.ts)
 * read it online, so its labels and the replay must see the same thing. Each question is decomposed
 * again over the index it ran on (nodes/offline/decompose.ts, the function the graph calls); the
 * analysis is kept only when the decomposer writes the same first sub-query the run traced, so a
 * label never pairs one plan's text with another plan's analysis.
 */
import type { SearchableIndex } from "../retrievers/open-search.js";
import { createDecompose } from "../nodes/offline/decompose.js";
import { createBridge } from "../nodes/offline/bridge.js";
import type { ResultRecord } from "./labels.js";

export interface PlanAnalysisTally {
  records: number;
  /** The decomposer wrote the traced first sub-query: the analysis was attached. */
  attached: number;
  /** It wrote another sub-query (the tree changed since the run): left without analysis. */
  differs: number;
  /** No first decision to attach to. */
  untraced: number;
}

/** Attaches `plan_analysis` to each record's first trace decision (in place); returns the counts. */
export async function attachPlanAnalysis(records: ResultRecord[], index: SearchableIndex): Promise<PlanAnalysisTally> {
  const decompose = createDecompose(index, createBridge(index));
  const tally: PlanAnalysisTally = { records: records.length, attached: 0, differs: 0, untraced: 0 };
  for (const record of records) {
    const first = record.atr_trace?.verifier_decisions?.[0];
    if (!first || Number(first.attempt) !== 1 || typeof record.question !== "string") {
      tally.untraced++;
      continue;
    }
    const plan = await decompose({
      question: record.question,
      ...(record.table_id !== undefined ? { tableId: String(record.table_id) } : {}),
      history: [],
      consecutiveFailures: 0,
      schemaPreview: "",
    });
    const same =
      plan.subQuery === first.sub_query &&
      plan.requiredModalities === first.required_modalities &&
      plan.expectedOperator === first.expected_operator;
    if (!same || !plan.analysis) {
      tally.differs++;
      continue;
    }
    first.plan_analysis = plan.analysis;
    tally.attached++;
  }
  return tally;
}
