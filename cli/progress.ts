/**
 * Progress for long CLI steps. On a terminal (stderr is a TTY) it draws one bar that redraws in
 * place at most every 100 ms; otherwise it prints one plain line per finished step (logs and CI stay
 * readable), or nothing when `quiet`.
 */

export interface Progress {
  /** Advances by `n` (default 1). */
  tick(n?: number): void;
  /** Sets the absolute position (and optionally a new total). */
  update(done: number, total?: number): void;
  /** Finishes the bar / prints the summary line. Idempotent. */
  done(): void;
}

export interface ProgressOptions {
  /** Stream to draw on (default process.stderr). */
  stream?: NodeJS.WriteStream;
  /** Print nothing at all. */
  quiet?: boolean;
}

const WIDTH = 24;

export function createProgress(label: string, total: number, options: ProgressOptions = {}): Progress {
  const stream = options.stream ?? process.stderr;
  const tty = Boolean(stream.isTTY) && !options.quiet;
  const started = Date.now();
  let done = 0;
  let lastDraw = 0;
  let finished = false;

  const draw = (force: boolean): void => {
    if (!tty) return;
    const now = Date.now();
    if (!force && now - lastDraw < 100) return;
    lastDraw = now;
    const frac = total > 0 ? Math.min(1, done / total) : 1;
    const filled = Math.round(frac * WIDTH);
    const bar = "█".repeat(filled) + "░".repeat(WIDTH - filled);
    stream.write(`\r${label.padEnd(14)} ${bar} ${String(Math.round(frac * 100)).padStart(3)}% ${done}/${total}\x1b[K`);
  };

  return {
    tick(n = 1) {
      done += n;
      draw(false);
    },
    update(value, newTotal) {
      done = value;
      if (newTotal !== undefined) total = newTotal;
      draw(false);
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
        stream.write(`${label}: ${done}/${total} (${seconds}s)\n`);
      }
    },
  };
}

/**
 * Adapts a `(stage, done, total)` callback stream (as buildIndex reports) to one Progress per stage:
 * a new stage finishes the previous bar. Call the returned `finish` at the end.
 */
export function stageProgress(options: ProgressOptions = {}): { onProgress: (stage: string, done: number, total: number) => void; finish: () => void } {
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
