/**
 * A progress bar for work counted in items (rows copied), drawn like a transfer's
 * (transfer-progress.ts): on stderr, only on a terminal, not with --quiet; elsewhere it draws nothing.
 */
import type { IO } from './io.js';
import { progressLine } from './transfer-progress.js';

export interface CountProgress {
  /** `done` of `total` items so far. */
  update(done: number, total: number): void;
  /** Clears the line. */
  finish(): void;
}

const REDRAW_MS = 150;

export function countProgress(io: IO, unit: string): CountProgress {
  const columns = (io.streams.stderr as { columns?: number }).columns ?? 0;
  if (io.quiet || !io.stderrIsTerminal || columns <= 0) return { update() {}, finish() {} };
  const started = Date.now();
  const format = (amount: number) => `${amount.toLocaleString('en-US')} ${unit}`;
  let done = 0;
  let total = 0;
  let drawn = false;
  // Nothing until the first count: before it there is no total to show a bar of.
  const draw = () => {
    if (total === 0) return;
    drawn = true;
    io.streams.stderr.write(`\r\u001b[K${progressLine(done, total, Date.now() - started, columns, format)}`);
  };
  const timer = setInterval(draw, REDRAW_MS);
  timer.unref();
  return {
    update(nowDone, nowTotal) {
      const first = total === 0;
      done = nowDone;
      total = nowTotal;
      if (first) draw();
    },
    finish() {
      clearInterval(timer);
      draw();
      if (drawn) io.streams.stderr.write('\r\u001b[K');
    },
  };
}
