/**
 * The listwise fit of the offline backbone's learned column scorers (target column, order column):
 * each ranking is one question's candidate columns as feature vectors, positive when the plan
 * answering with that column is right (execution labels). The objective is the softmax share of the
 * positives (-log, each ranking weighing its weight) plus an L2 pull back to the hand weights; Adam on
 * the full batch; frozen features keep their hand weights.
 */
import { linearScore } from "../nodes/offline/target-column-model.js";

export interface LabelledRanking {
  xs: number[][];
  positive: boolean[];
  weight?: number;
}

/** Loss, top-1 share (ties to the first candidate, as the scorers pick) and gradient at w. */
export function listwiseObjective(
  rankings: readonly LabelledRanking[],
  w: readonly number[],
  prior: readonly number[],
  l2: number,
): { loss: number; top1: number; grad: number[] } {
  const dims = prior.length;
  const used = Math.max(1, rankings.length);
  const grad = new Array<number>(dims).fill(0);
  let loss = 0;
  let top1 = 0;
  for (const r of rankings) {
    const weight = r.weight ?? 1;
    const s = r.xs.map((x) => linearScore(w, x));
    const max = Math.max(...s);
    const e = s.map((v) => Math.exp(v - max));
    const z = e.reduce((a, b) => a + b, 0);
    const zp = e.reduce((a, b, i) => a + (r.positive[i] ? b : 0), 0);
    loss += weight * -Math.log(zp / z);
    if (r.positive[s.indexOf(max)]) top1 += weight;
    // d(-log zp/z)/ds_i = p_i - [pos_i] p_i / P(pos)
    r.xs.forEach((x, i) => {
      const g = weight * (e[i]! / z - (r.positive[i] ? e[i]! / zp : 0));
      for (let d = 0; d < dims; d++) grad[d]! += g * x[d]!;
    });
  }
  for (let d = 0; d < dims; d++) {
    const diff = w[d]! - prior[d]!;
    loss += l2 * used * diff * diff;
    grad[d]! += 2 * l2 * used * diff;
  }
  return { loss: loss / used, top1: top1 / used, grad: grad.map((g) => g / used) };
}

/** Fits the weights from the hand weights (`prior`); `frozen[d]` keeps feature d at its hand weight. */
export function fitListwise(
  rankings: readonly LabelledRanking[],
  prior: readonly number[],
  options: { l2: number; epochs: number; frozen?: readonly boolean[] },
): number[] {
  const dims = prior.length;
  const w = [...prior];
  const m = new Array<number>(dims).fill(0);
  const v = new Array<number>(dims).fill(0);
  for (let t = 1; t <= options.epochs; t++) {
    const { grad } = listwiseObjective(rankings, w, prior, options.l2);
    for (let d = 0; d < dims; d++) {
      if (options.frozen?.[d]) continue;
      m[d] = 0.9 * m[d]! + 0.1 * grad[d]!;
      v[d] = 0.999 * v[d]! + 0.001 * grad[d]! * grad[d]!;
      w[d]! -= (0.05 * (m[d]! / (1 - 0.9 ** t))) / (Math.sqrt(v[d]! / (1 - 0.999 ** t)) + 1e-8);
    }
  }
  return w;
}
