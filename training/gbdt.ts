/**
 * A compact gradient-boosted tree trainer for binary labels (log-loss, Newton leaves, depth ≤ 3),
 * over sparse named features — the learned verifier's scorer (nodes/offline/answer-model.ts
 * `Tree`). Histogram-based: each feature's values are cut into at most `bins` intervals once, and a
 * split search costs one pass over the non-zero entries of the node's rows. A feature absent from a
 * row is 0, as at inference. Deterministic (no sampling), so a retrain on the same data gives the
 * same file. No maintained npm package fits: the JS ones are unmaintained or do not take sample
 * weights, and the native ones (xgboost, lightgbm bindings) need a build.
 */
import type { Scorer, Tree } from "../nodes/offline/answer-model.js";

export interface TrainingRow {
  features: Readonly<Record<string, number>>;
  y: 0 | 1;
  /** Sample weight (> 0). */
  w: number;
}

export interface TreeOptions {
  trees?: number;
  depth?: number;
  learningRate?: number;
  /** L2 penalty on leaf values (in units of hessian). */
  lambda?: number;
  /** Minimum hessian (≈ weighted rows × p(1−p)) on each side of a split. */
  minChildWeight?: number;
  /** At most this many intervals per feature. */
  bins?: number;
  /** Features seen in fewer rows are not used (default 3). */
  minCount?: number;
}

export const TREE_DEFAULTS: Required<TreeOptions> = {
  trees: 150,
  depth: 3,
  learningRate: 0.1,
  lambda: 2,
  minChildWeight: 2,
  bins: 16,
  minCount: 3,
};

/** Split thresholds of one feature: midpoints between its distinct values (0 included), at most `bins` − 1, by quantile. */
function thresholdsOf(values: number[], bins: number): number[] {
  const distinct = [...new Set([0, ...values])].sort((a, b) => a - b);
  let cuts = distinct.slice(1).map((v, i) => (distinct[i]! + v) / 2);
  if (cuts.length > bins - 1) {
    const sorted = [...values].sort((a, b) => a - b);
    const q = Array.from({ length: bins - 1 }, (_, k) => sorted[Math.floor(((k + 1) * sorted.length) / bins)]!);
    cuts = [...new Set(q.map((v) => cuts.find((c) => c >= v) ?? cuts[cuts.length - 1]!))].sort((a, b) => a - b);
  }
  return cuts;
}

/** The bin of a value: how many thresholds lie below it (value ≤ cut → left of that cut). */
function binOf(cuts: readonly number[], v: number): number {
  let b = 0;
  while (b < cuts.length && v > cuts[b]!) b++;
  return b;
}

interface Binned {
  names: string[];
  cuts: number[][];
  /** Offset of each feature's bins in a flat histogram. */
  offset: number[];
  zeroBin: number[];
  totalBins: number;
  /** Per row: flat [featureIndex, histogramSlot] pairs of its non-zero values. */
  entries: Int32Array[];
}

function binRows(rows: readonly TrainingRow[], o: Required<TreeOptions>): Binned {
  const values = new Map<string, number[]>();
  for (const r of rows)
    for (const name in r.features)
      if (r.features[name] !== 0) (values.get(name) ?? values.set(name, []).get(name)!).push(r.features[name]!);
  const names = [...values]
    .filter(([, v]) => v.length >= o.minCount)
    .map(([n]) => n)
    .sort();
  const cuts = names.map((n) => thresholdsOf(values.get(n)!, o.bins));
  const offset: number[] = [];
  let totalBins = 0;
  for (const c of cuts) (offset.push(totalBins), (totalBins += c.length + 1));
  const index = new Map(names.map((n, i) => [n, i]));
  const entries = rows.map((r) => {
    const e: number[] = [];
    for (const name in r.features) {
      const f = index.get(name);
      const v = r.features[name]!;
      if (f !== undefined && v !== 0) e.push(f, offset[f]! + binOf(cuts[f]!, v));
    }
    return Int32Array.from(e);
  });
  return { names, cuts, offset, zeroBin: cuts.map((c) => binOf(c, 0)), totalBins, entries };
}

interface Split {
  feature: number;
  /** Rows with bin ≤ this go left. */
  bin: number;
  gain: number;
}

function bestSplit(
  d: Binned,
  rows: Int32Array,
  g: Float64Array,
  h: Float64Array,
  o: Required<TreeOptions>,
): Split | undefined {
  const G = new Float64Array(d.totalBins);
  const H = new Float64Array(d.totalBins);
  let gTotal = 0;
  let hTotal = 0;
  for (const r of rows) {
    gTotal += g[r]!;
    hTotal += h[r]!;
    const e = d.entries[r]!;
    for (let k = 1; k < e.length; k += 2) ((G[e[k]!]! += g[r]!), (H[e[k]!]! += h[r]!));
  }
  const parent = (gTotal * gTotal) / (hTotal + o.lambda);
  let best: Split | undefined;
  for (let f = 0; f < d.names.length; f++) {
    const from = d.offset[f]!;
    const n = d.cuts[f]!.length + 1;
    // rows without the feature sit in its zero bin
    let gNz = 0;
    let hNz = 0;
    for (let b = 0; b < n; b++) ((gNz += G[from + b]!), (hNz += H[from + b]!));
    G[from + d.zeroBin[f]!]! += gTotal - gNz;
    H[from + d.zeroBin[f]!]! += hTotal - hNz;
    let gl = 0;
    let hl = 0;
    for (let b = 0; b < n - 1; b++) {
      gl += G[from + b]!;
      hl += H[from + b]!;
      const gr = gTotal - gl;
      const hr = hTotal - hl;
      if (hl < o.minChildWeight || hr < o.minChildWeight) continue;
      const gain = (gl * gl) / (hl + o.lambda) + (gr * gr) / (hr + o.lambda) - parent;
      if (gain > 1e-9 && (!best || gain > best.gain)) best = { feature: f, bin: b, gain };
    }
  }
  return best;
}

function growTree(
  d: Binned,
  g: Float64Array,
  h: Float64Array,
  o: Required<TreeOptions>,
): { tree: Tree; leafOfRow: Int32Array } {
  const tree: Tree = { f: [], t: [], l: [], r: [], v: [] };
  const leafOfRow = new Int32Array(g.length);
  const all = Int32Array.from({ length: g.length }, (_, i) => i);
  const grow = (rows: Int32Array, depth: number): number => {
    const id = tree.f.length;
    let gs = 0;
    let hs = 0;
    for (const r of rows) ((gs += g[r]!), (hs += h[r]!));
    (tree.f.push(-1),
      tree.t.push(0),
      tree.l.push(0),
      tree.r.push(0),
      tree.v.push((-gs / (hs + o.lambda)) * o.learningRate));
    const split = depth < o.depth ? bestSplit(d, rows, g, h, o) : undefined;
    if (!split) {
      for (const r of rows) leafOfRow[r] = id;
      return id;
    }
    const slot = d.offset[split.feature]!;
    const left: number[] = [];
    const right: number[] = [];
    for (const r of rows) {
      let bin = d.zeroBin[split.feature]!;
      const e = d.entries[r]!;
      for (let k = 0; k < e.length; k += 2) if (e[k] === split.feature) bin = e[k + 1]! - slot;
      (bin <= split.bin ? left : right).push(r);
    }
    tree.f[id] = split.feature;
    tree.t[id] = d.cuts[split.feature]![split.bin]!;
    tree.l[id] = grow(Int32Array.from(left), depth + 1);
    tree.r[id] = grow(Int32Array.from(right), depth + 1);
    return id;
  };
  grow(all, 0);
  return { tree, leafOfRow };
}

/** Drops the features no split uses and renumbers the trees' feature indices. */
function compact(names: readonly string[], trees: Tree[]): { features: string[]; trees: Tree[] } {
  const used = [...new Set(trees.flatMap((t) => t.f.filter((f) => f >= 0)))].sort((a, b) => a - b);
  const renumber = new Map(used.map((f, i) => [f, i]));
  const round = (x: number) => Math.round(x * 1e6) / 1e6;
  return {
    features: used.map((f) => names[f]!),
    trees: trees.map((t) => ({
      f: t.f.map((f) => (f < 0 ? -1 : renumber.get(f)!)),
      t: t.t.map(round),
      l: t.l,
      r: t.r,
      v: t.v.map(round),
    })),
  };
}

/** Fits the ensemble: raw log-odds = base + Σ tree leaf values. */
export function fitTrees(rows: readonly TrainingRow[], options: TreeOptions = {}): Extract<Scorer, { kind: "trees" }> {
  const o = { ...TREE_DEFAULTS, ...options };
  if (o.depth < 1 || o.depth > 3) throw new Error(`fitTrees: depth must be 1..3, got ${o.depth}`);
  if (o.trees < 1 || o.trees > 200) throw new Error(`fitTrees: trees must be 1..200, got ${o.trees}`);
  const d = binRows(rows, o);
  const n = rows.length;
  let wy = 0;
  let wAll = 0;
  for (const r of rows) ((wy += r.w * r.y), (wAll += r.w));
  const prior = Math.min(1 - 1e-6, Math.max(1e-6, wy / Math.max(wAll, 1e-12)));
  const base = Math.log(prior / (1 - prior));
  const z = new Float64Array(n).fill(base);
  const g = new Float64Array(n);
  const h = new Float64Array(n);
  const trees: Tree[] = [];
  for (let t = 0; t < o.trees; t++) {
    for (let i = 0; i < n; i++) {
      const p = 1 / (1 + Math.exp(-z[i]!));
      g[i] = (p - rows[i]!.y) * rows[i]!.w;
      h[i] = Math.max(p * (1 - p), 1e-6) * rows[i]!.w;
    }
    const { tree, leafOfRow } = growTree(d, g, h, o);
    if (tree.f.length === 1 && Math.abs(tree.v[0]!) < 1e-9) break; // nothing left to learn
    trees.push(tree);
    for (let i = 0; i < n; i++) z[i]! += tree.v[leafOfRow[i]!]!;
  }
  return { kind: "trees", base: Math.round(base * 1e6) / 1e6, ...compact(d.names, trees) };
}
