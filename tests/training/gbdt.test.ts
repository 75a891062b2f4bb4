import { describe, expect, it } from "vitest";
import { fitIsotonic } from "../../training/calibration.js";
import { fitTrees, type TrainingRow } from "../../training/gbdt.js";
import { fitWeights, type QuestionCandidates } from "../../training/answer-verifier.js";
import { calibrated, rawScore, sigmoid } from "../../nodes/offline/answer-model.js";

function seeded(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** Right exactly when two binary features differ (XOR), with a distractor and 5 % label noise. */
function xorRows(n: number, seed: number): TrainingRow[] {
  const rand = seeded(seed);
  return Array.from({ length: n }, () => {
    const a = rand() < 0.5 ? 1 : 0;
    const b = rand() < 0.5 ? 1 : 0;
    const y = (a !== b) !== rand() < 0.05 ? 1 : 0;
    const features: Record<string, number> = { bias: 1 };
    if (a) features["route=SQL"] = 1;
    if (b) features["agree=1"] = 1;
    if (rand() < 0.5) features.noise = 1;
    return { features, y: y as 0 | 1, w: 1 };
  });
}

const accuracy = (rows: readonly TrainingRow[], p: (f: Record<string, number>) => number) =>
  rows.filter((r) => (p(r.features as Record<string, number>) >= 0.5 ? 1 : 0) === r.y).length / rows.length;

describe("gradient-boosted trees", () => {
  it("learn an interaction a logistic regression cannot (held-out accuracy)", () => {
    const train = xorRows(1200, 3);
    const test = xorRows(600, 11);
    const trees = fitTrees(train, { trees: 40, depth: 2 });
    expect(accuracy(test, (f) => sigmoid(rawScore(trees, f)))).toBeGreaterThan(0.9);
    const asQuestions: QuestionCandidates[] = train.map((r, i) => ({
      id: `q${i}`,
      bench: "wtq",
      candidates: [
        {
          route: "SQL",
          subQuery: "q",
          answer: "a",
          ruleVerdict: 0.5,
          features: r.features as Record<string, number>,
          right: r.y === 1,
        },
      ],
    }));
    const weights = fitWeights(asQuestions);
    expect(accuracy(test, (f) => sigmoid(rawScore({ kind: "logistic", weights }, f)))).toBeLessThan(0.65);
    // only the features a split uses are kept, depth and size bounded
    expect(trees.features).not.toContain("bias");
    expect(trees.trees.length).toBeLessThanOrEqual(40);
    expect(Math.max(...trees.trees.map((t) => t.f.length))).toBeLessThanOrEqual(7);
  });

  it("split on continuous values and score features they never saw as absent", () => {
    const rand = seeded(5);
    const rows: TrainingRow[] = Array.from({ length: 800 }, () => {
      const support = Math.round(rand() * 100) / 100;
      return { features: { support }, y: support > 0.6 ? 1 : 0, w: 1 };
    });
    const trees = fitTrees(rows, { trees: 30, depth: 1, bins: 8 });
    expect(sigmoid(rawScore(trees, { support: 0.9 }))).toBeGreaterThan(0.8);
    expect(sigmoid(rawScore(trees, { support: 0.2 }))).toBeLessThan(0.2);
    // a feature added after training changes nothing; a missing one counts as 0
    expect(rawScore(trees, { support: 0.9, "sqlcand:new-feature": 1 })).toBe(rawScore(trees, { support: 0.9 }));
    expect(rawScore(trees, {})).toBe(rawScore(trees, { support: 0 }));
  });

  it("refuse settings beyond the documented bounds", () => {
    expect(() => fitTrees(xorRows(10, 1), { depth: 4 })).toThrow(/depth must be 1\.\.3/);
    expect(() => fitTrees(xorRows(10, 1), { trees: 201 })).toThrow(/trees must be 1\.\.200/);
  });
});

describe("isotonic calibration", () => {
  it("is monotone and matches the observed rates", () => {
    const rand = seeded(9);
    const points = Array.from({ length: 2000 }, () => {
      const score = rand() * 6 - 3;
      return { score, y: rand() < sigmoid(2 * score) ? 1 : 0, w: 1 };
    });
    const c = fitIsotonic(points);
    for (let i = 1; i < c.x.length; i++) {
      expect(c.x[i]!).toBeGreaterThan(c.x[i - 1]!);
      expect(c.y[i]!).toBeGreaterThanOrEqual(c.y[i - 1]!);
    }
    let last = -1;
    for (let s = -4; s <= 4; s += 0.05) {
      const p = calibrated(c, s);
      expect(p).toBeGreaterThanOrEqual(last);
      last = p;
    }
    expect(calibrated(c, 2)).toBeGreaterThan(0.9); // sigmoid(4) ≈ 0.98: sharper than sigmoid(2)
    expect(calibrated(c, -2)).toBeLessThan(0.1);
    expect(Math.abs(calibrated(c, 0) - 0.5)).toBeLessThan(0.15);
  });

  it("pools a decreasing run into one level", () => {
    const c = fitIsotonic([
      { score: 0, y: 1, w: 1 },
      { score: 1, y: 0, w: 1 },
      { score: 2, y: 1, w: 1 },
    ]);
    expect(c.y[0]).toBeCloseTo(0.5, 5);
    expect(c.y.at(-1)).toBeCloseTo(0.999, 5);
    expect(() => fitIsotonic([])).toThrow(/no points/);
  });
});
