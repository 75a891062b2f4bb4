import { afterAll, describe, expect, it } from "vitest";
import type { SearchableIndex as OpenedIndex } from "../../../retrievers/open-search.js";
import type { Passage } from "../../../indexing/types.js";
import { analysisOf } from "../../../nodes/offline/analysis.js";
import { createDecompose, TERMINATE } from "../../../nodes/offline/decompose.js";
import type { DecomposeInput } from "../../../nodes/strategies.js";
import { openFixture } from "./fixtures.js";

const fx = openFixture();
afterAll(() => fx.close());

function index(passages: Passage[] = []): OpenedIndex {
  const search = {
    documents: async () => [
      { entry: { id: 0, type: "table" as const, source: "races.csv", text: "", tableId: "races" }, score: 1 },
    ],
  };
  return { db: fx.db, tables: fx.tables, passages, search } as unknown as OpenedIndex;
}
const PASSAGES: Passage[] = [{ id: "p", text: "Kim Lee won in Tokyo.", file: "races.json", tableId: "races" }];
const input = (question: string, extra: Partial<DecomposeInput> = {}): DecomposeInput => ({
  question,
  history: [],
  consecutiveFailures: 0,
  schemaPreview: "",
  ...extra,
});

describe("offline decompose", () => {
  it("plans the question as one grounded step with its analysis and entity mentions", async () => {
    const plan = await createDecompose(index(PASSAGES))(
      input("How many gold medals did the United States win?", { tableId: "medals" }),
    );
    expect(plan).toMatchObject({
      subQuery: "How many gold medals did the United States win? (columns: Nation, Gold)",
      expectedOperator: "count",
      requiredModalities: "both",
      entityMentions: ["United States"],
      uncertainty: 0,
    });
    // Tables only: the grounded mention needs no value linking (SQL route); with passages it is an entity.
    const tablesOnly = await createDecompose(index())(
      input("How many gold medals did the United States win?", { tableId: "medals" }),
    );
    expect(tablesOnly.entityMentions).toEqual([]);
    expect(analysisOf(plan)?.grounding).toMatchObject({
      tableId: "medals",
      hinted: true,
      template: "count-column",
      columns: ["Nation", "Gold"],
      mentions: [expect.objectContaining({ value: "United States", column: "Nation" })],
    });
  });

  it("grounds in the best retrieved table when there is no hint", async () => {
    const plan = await createDecompose(index(PASSAGES))(input("who won in tokyo?"));
    expect(analysisOf(plan)?.grounding?.tableId).toBe("races");
    expect(plan.entityMentions).toEqual(["Tokyo"]);
  });

  it("terminates once a step answered", async () => {
    const plan = await createDecompose(index())(
      input("who won in tokyo?", { history: [{ subQuery: "who won in tokyo?", answer: "Kim Lee", failed: false }] }),
    );
    expect(plan.subQuery).toBe(TERMINATE);
  });

  it("retries a failed step on the passages, then terminates", async () => {
    const passages: Passage[] = [{ id: "p", text: "Kim Lee won in Tokyo.", file: "races.json", tableId: "races" }];
    const failed = { subQuery: "who won in tokyo?", answer: "not found", failed: true };
    const retry = await createDecompose(index(passages))(
      input("who won in tokyo?", { history: [failed], consecutiveFailures: 1 }),
    );
    expect(retry).toMatchObject({ requiredModalities: "text", entityMentions: [] });
    const stop = await createDecompose(index(passages))(
      input("who won in tokyo?", { history: [failed, failed], consecutiveFailures: 2 }),
    );
    expect(stop.subQuery).toBe(TERMINATE);
    const noPassages = await createDecompose(index())(
      input("who won in tokyo?", { history: [failed], consecutiveFailures: 1 }),
    );
    expect(noPassages.subQuery).toBe(TERMINATE);
  });
});

describe("plan confidence", () => {
  it("is attached to the grounding and follows the model's precisions with back-off", async () => {
    const { setConfidenceModel, planConfidence } = await import("../../../nodes/offline/confidence.js");
    setConfidenceModel({
      prior: 0.4,
      k: 5,
      table: { choice: [90, 100], "lookup|unnamed": [10, 100], lookup: [40, 100] },
    });
    try {
      expect(
        planConfidence({ template: "choice", grounding: "exact", mentions: "2+", target: "computed" }),
      ).toBeGreaterThan(0.8);
      expect(planConfidence({ template: "lookup", grounding: "exact", mentions: "1", target: "unnamed" })).toBeLessThan(
        0.2,
      );
      expect(planConfidence({ template: "sum", grounding: "none", mentions: "0", target: "computed" })).toBe(0.4);
      const plan = await createDecompose(index())(
        input("who won more gold medals, china or russia?", { tableId: "medals" }),
      );
      expect(analysisOf(plan)?.grounding?.confidence).toBeGreaterThan(0.8);
    } finally {
      setConfidenceModel(undefined);
    }
  });
});

describe("answerConfidence", () => {
  it("adds the executed row count to the plan shape", async () => {
    const { setConfidenceModel, answerConfidence } = await import("../../../nodes/offline/confidence.js");
    setConfidenceModel({
      prior: 0.5,
      k: 1,
      table: { "count|computed|rows=zero": [0, 50], "count|computed|rows=1": [45, 50], count: [45, 100] },
    });
    try {
      const plan = await createDecompose(index())(input("how many races were held in tokyo?", { tableId: "races" }));
      const a = analysisOf(plan);
      expect(a?.grounding?.features?.template).toBe("count");
      expect(answerConfidence(a, "[[0]]")!).toBeLessThan(0.1);
      expect(answerConfidence(a, '[{"COUNT(*)": 1}]')!).toBeGreaterThan(0.8);
      expect(answerConfidence(undefined, "[[1]]")).toBeUndefined();
    } finally {
      setConfidenceModel(undefined);
    }
  });
});

describe("superlative ties", () => {
  it("mark the plan as a list answer when the planned SQL returns several rows", async () => {
    const tie = await createDecompose(index())(input("which year had the highest prize?", { tableId: "races" }));
    expect(analysisOf(tie)?.listAnswer).toBe(true);
    const single = await createDecompose(index())(
      input("which nation won the least bronze medals?", { tableId: "medals" }),
    );
    expect(analysisOf(single)?.listAnswer).toBe(false);
  });
});
