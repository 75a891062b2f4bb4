/**
 * The batch progress line on a terminal: done/total, a bar, ETA, failures, LLM calls and tokens.
 * Redrawn in place at most ten times a second; on a non-TTY stream nothing is drawn until `finish`,
 * which prints one summary line (so logs and CI output stay clean).
 */
import type { BatchProgress } from "./runner.js";

export interface ProgressBarOptions {
  /** Default process.stderr. */
  stream?: NodeJS.WriteStream;
  /** Bar width in characters. Default 24. */
  width?: number;
  /** Label before the bar. Default "atr run". */
  label?: string;
}

function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "--:--";
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${String(sec).padStart(2, "0")}` : `${m}:${String(sec).padStart(2, "0")}`;
}

function compact(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e4 ? `${(n / 1e3).toFixed(0)}k` : String(n);
}

/** One progress line (exported for tests). */
export function renderProgress(p: BatchProgress, elapsedMs: number, width = 24, label = "atr run"): string {
  const fraction = p.total === 0 ? 1 : p.done / p.total;
  const filled = Math.round(fraction * width);
  const bar = "█".repeat(filled) + "░".repeat(width - filled);
  const eta = p.done === 0 ? Number.NaN : ((elapsedMs / p.done) * (p.total - p.done)) / 1000;
  const skipped = p.skipped > 0 ? ` (+${p.skipped} resumed)` : "";
  return (
    `${label} ${bar} ${p.done}/${p.total}${skipped} ${(fraction * 100).toFixed(0)}% ` +
    `ETA ${formatDuration(eta)} · failed ${p.failed} · LLM calls ${compact(p.llmCalls)} · tokens ${compact(p.tokens)}`
  );
}

export class ProgressBar {
  private readonly stream: NodeJS.WriteStream;
  private readonly started = Date.now();
  private lastDraw = 0;
  private last: BatchProgress | undefined;

  constructor(private readonly options: ProgressBarOptions = {}) {
    this.stream = options.stream ?? process.stderr;
  }

  update(p: BatchProgress): void {
    this.last = p;
    if (!this.stream.isTTY) return;
    const now = Date.now();
    if (now - this.lastDraw < 100 && p.done < p.total) return;
    this.lastDraw = now;
    const line = renderProgress(p, now - this.started, this.options.width, this.options.label);
    this.stream.write(`\r${line.slice(0, Math.max(40, (this.stream.columns || 120) - 1))}\x1b[K`);
  }

  finish(): void {
    if (!this.last) return;
    const line = renderProgress(this.last, Date.now() - this.started, this.options.width, this.options.label);
    this.stream.write(this.stream.isTTY ? `\r${line}\x1b[K\n` : `${line}\n`);
  }
}
