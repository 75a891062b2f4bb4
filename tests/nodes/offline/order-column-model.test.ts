import { afterAll, describe, expect, it } from "vitest";
import { analyzeQuestion } from "../../../nodes/offline/analysis.js";
import { chooseOrderColumn } from "../../../nodes/offline/columns.js";
import { ModelFileError } from "../../../nodes/offline/model-file.js";
import {
  checkOrderColumnModel,
  forceOrderColumn,
  ORDER_FEATURES,
  orderColumnModel,
  orderHandWeights,
  recordOrderRankings,
  setOrderColumnModel,
  type OrderRanking,
} from "../../../nodes/offline/order-column-model.js";
import { openFixture } from "./fixtures.js";

const fx = openFixture();
afterAll(() => {
  setOrderColumnModel(undefined);
  recordOrderRankings(null);
  forceOrderColumn(null);
  fx.close();
});

const order = (q: string) => chooseOrderColumn(analyzeQuestion(q), fx.catalog("medals"), []);

describe("learned order column of superlatives", () => {
  it("no model ships: the hand score picks the column after the superlative word", () => {
    setOrderColumnModel(undefined);
    expect(orderColumnModel()).toBeNull();
    expect(order("which nation won the most bronze medals?")?.column.schema.name).toBe("Bronze");
  });

  it("with the hand weights as its weights picks as the hand score, and the score stays the hand score's", () => {
    setOrderColumnModel(null);
    const hand = order("which nation won the most silver medals?")!;
    setOrderColumnModel({ trainedOn: "test", features: [...ORDER_FEATURES], weights: orderHandWeights() });
    const model = order("which nation won the most silver medals?")!;
    expect(model.column.schema.name).toBe(hand.column.schema.name);
    expect(model.score).toBeCloseTo(hand.score, 9);
  });

  it("a different weight vector re-picks the column among the same candidates (the model is what picks)", () => {
    const w = ORDER_FEATURES.map((f) => (f === "relativeIndex" ? 10 : 0));
    setOrderColumnModel({ trainedOn: "test", features: [...ORDER_FEATURES], weights: w });
    let seen: OrderRanking | undefined;
    recordOrderRankings((r) => (seen = r));
    const picked = order("which nation won the most bronze medals?")!;
    recordOrderRankings(null);
    const last = seen!.rows.reduce((b, r) => (r.column.index > b.column.index ? r : b)).column;
    expect(picked.column.schema.name).toBe(last.schema.name);
    setOrderColumnModel(null);
  });

  it("the training hook forces a candidate (execution labels) and a bad file is refused by name", () => {
    setOrderColumnModel(null);
    forceOrderColumn(() => 0);
    let seen: OrderRanking | undefined;
    recordOrderRankings((r) => (seen = r));
    expect(order("which nation won the most bronze medals?")?.column.schema.name).toBe(
      seen!.rows[0]!.column.schema.name,
    );
    forceOrderColumn(null);
    recordOrderRankings(null);
    expect(() => checkOrderColumnModel({ features: ["x"], weights: [1] }, "m.json")).toThrow(ModelFileError);
  });
});
