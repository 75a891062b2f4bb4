/**
 * Isotonic calibration (pool-adjacent-violators) of raw scores to probabilities, fitted on
 * cross-validated scores so it corrects what the scorer gets wrong on unseen questions; the result
 * is the piecewise-linear, non-decreasing map nodes/offline/answer-model.ts `calibrated` applies.
 */
import type { Calibration } from "../nodes/offline/answer-model.js";

/** Fits y ≈ f(score), f non-decreasing, by weighted PAV; probabilities kept within [0.001, 0.999]. */
export function fitIsotonic(points: ReadonlyArray<{ score: number; y: number; w: number }>): Calibration {
  if (points.length === 0) throw new Error("fitIsotonic: no points to calibrate on");
  const sorted = [...points].sort((a, b) => a.score - b.score);
  // blocks of equal scores first, then merge adjacent blocks while they violate the order
  const blocks: Array<{ sx: number; sy: number; w: number }> = [];
  for (const p of sorted) {
    const last = blocks[blocks.length - 1];
    const b = { sx: p.score * p.w, sy: p.y * p.w, w: p.w };
    if (last && last.sx / last.w === p.score) ((last.sx += b.sx), (last.sy += b.sy), (last.w += b.w));
    else blocks.push(b);
    while (blocks.length > 1) {
      const [a, c] = [blocks[blocks.length - 2]!, blocks[blocks.length - 1]!];
      if (a.sy / a.w < c.sy / c.w) break;
      blocks.splice(blocks.length - 2, 2, { sx: a.sx + c.sx, sy: a.sy + c.sy, w: a.w + c.w });
    }
  }
  const clamp = (p: number) => Math.min(0.999, Math.max(0.001, p));
  const round = (v: number) => Math.round(v * 1e5) / 1e5;
  const x: number[] = [];
  const y: number[] = [];
  for (const b of blocks) {
    const bx = round(b.sx / b.w);
    const by = round(clamp(b.sy / b.w));
    if (x.length && bx <= x[x.length - 1]!) continue; // rounding merged two centres
    x.push(bx);
    y.push(Math.max(by, y[y.length - 1] ?? 0));
  }
  return { x, y };
}
