/**
 * The one progress bar of the CLI (index build stages, `atr run` batches). On a terminal (stderr is
 * a TTY) it draws one bar that redraws in place at most every 100 ms, with an ETA and an optional
 * status text; otherwise it prints one plain line when finished (logs and CI stay readable), or
 * nothing when `quiet`.
 */
import type { BatchProgress } from "../evals/runner.js";

export interface Progress {
  /** Advances by `n` (default 1). */
  tick(n?: number): void;
  /** Sets the absolute position (and optionally a new total). */
  update(done: number, total?: number): void;
  /** Sets the text shown after the counts (failures, tokens …). */
  status(text: string): void;
  /** Finishes the bar / prints the summary line. Idempotent. */
  done(): void;
}

export interface ProgressOptions {
  /** Stream to draw on (default process.stderr). */
  stream?: NodeJS.WriteStream;
  /** Print nothing at all. */
  quiet?: boolean;
  /** Bar width in characters. Default 24. */
  width?: number;
}

const REDRAW_MS = 100;

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "--:--";
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h > 0
    ? `${h}:${String(m).padStart(2, "0")}:${String(sec).padStart(2, "0")}`
    : `${m}:${String(sec).padStart(2, "0")}`;
}

/** The bar line (without the carriage return); exported for tests. */
export function renderBar(
  label: string,
  done: number,
  total: number,
  elapsedMs: number,
  status = "",
  width = 24,
): string {
  const frac = total > 0 ? Math.min(1, done / total) : 1;
  const filled = Math.round(frac * width);
  const bar = "█".repeat(filled) + "░".repeat(width - filled);
  const eta = done === 0 ? Number.NaN : ((elapsedMs / done) * Math.max(0, total - done)) / 1000;
  const tail = done < total ? ` ETA ${formatDuration(eta)}` : "";
  return `${label.padEnd(14)} ${bar} ${String(Math.round(frac * 100)).padStart(3)}% ${done}/${total}${tail}${status ? ` · ${status}` : ""}`;
}

export function createProgress(label: string, total: number, options: ProgressOptions = {}): Progress {
  const stream = options.stream ?? process.stderr;
  const tty = Boolean(stream.isTTY) && !options.quiet;
  const started = Date.now();
  let done = 0;
  let text = "";
  let lastDraw = 0;
  let finished = false;

  const draw = (force: boolean): void => {
    if (!tty) return;
    const now = Date.now();
    if (!force && now - lastDraw < REDRAW_MS) return;
    lastDraw = now;
    const line = renderBar(label, done, total, now - started, text, options.width);
    stream.write(`\r${line.slice(0, Math.max(40, (stream.columns || 120) - 1))}\x1b[K`);
  };

  return {
    tick(n = 1) {
      done += n;
      draw(false);
    },
    update(value, newTotal) {
      done = value;
      if (newTotal !== undefined) total = newTotal;
      draw(done >= total);
    },
    status(value) {
      text = value;
    },
    done() {
      if (finished) return;
      finished = true;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      if (tty) {
        done = Math.max(done, total);
        draw(true);
        stream.write(` ${seconds}s\n`);
      } else if (!options.quiet) {
        stream.write(`${label}: ${done}/${total} (${seconds}s)${text ? ` · ${text}` : ""}\n`);
      }
    },
  };
}

/**
 * Adapts a `(stage, done, total)` callback stream (as buildIndex reports) to one Progress per stage:
 * a new stage finishes the previous bar. Call the returned `finish` at the end.
 */
export function stageProgress(options: ProgressOptions = {}): {
  onProgress: (stage: string, done: number, total: number) => void;
  finish: () => void;
} {
  let current: { stage: string; bar: Progress } | undefined;
  return {
    onProgress(stage, done, total) {
      if (current?.stage !== stage) {
        current?.bar.done();
        current = { stage, bar: createProgress(stage, total, options) };
      }
      current.bar.update(done, total);
    },
    finish() {
      current?.bar.done();
      current = undefined;
    },
  };
}

function compact(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e4 ? `${(n / 1e3).toFixed(0)}k` : String(n);
}

/** The status text of a batch: resumed questions, failures, LLM calls and tokens. */
export function batchStatus(p: BatchProgress): string {
  const resumed = p.skipped > 0 ? `+${p.skipped} resumed · ` : "";
  return `${resumed}failed ${p.failed} · LLM calls ${compact(p.llmCalls)} · tokens ${compact(p.tokens)}`;
}

/** One bar for an `atr run` batch, fed the runner's `onProgress` reports. */
export function batchProgress(
  label: string,
  options: ProgressOptions = {},
): { update: (p: BatchProgress) => void; finish: () => void } {
  let bar: Progress | undefined;
  return {
    update(p) {
      bar ??= createProgress(label, p.total, options);
      bar.status(batchStatus(p));
      bar.update(p.done, p.total);
    },
    finish() {
      bar?.done();
    },
  };
}
