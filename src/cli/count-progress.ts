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
  const draw = () => io.streams.stderr.write(`\r\u001b[K${progressLine(done, total, Date.now() - started, columns, format)}`);
  const timer = setInterval(draw, REDRAW_MS);
  timer.unref();
  draw();
  return {
    update(nowDone, nowTotal) {
      done = nowDone;
      total = nowTotal;
    },
    finish() {
      clearInterval(timer);
      draw();
      io.streams.stderr.write('\r\u001b[K');
    },
  };
}
