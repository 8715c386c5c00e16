/**
 * A progress bar for a file transfer, on stderr and only on a terminal (and not with --quiet):
 * bytes so far, the rate, and the time left when the size is known. Elsewhere the meter just
 * passes the bytes through.
 */
import { PassThrough, Transform } from 'node:stream';
import type { IO } from './io.js';

export interface TransferProgress {
  /** Put it in the pipeline between the source and the destination. */
  meter: Transform;
  /** Draws the final state and clears the line. */
  finish(): void;
}

const REDRAW_MS = 150;

export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${units[unit]}`;
}

function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** One line: `[#####-----]  42%  4.2 MB / 10.0 MB  1.3 MB/s  0:04 left` (amounts in bytes unless `format` says otherwise). */
export function progressLine(done: number, total: number | undefined, elapsedMs: number, columns: number, format: (amount: number) => string = formatBytes): string {
  const rate = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0;
  const parts: string[] = [];
  if (total) {
    const ratio = Math.min(1, done / total);
    parts.push(`${String(Math.floor(ratio * 100)).padStart(3)}%`, `${format(done)} / ${format(total)}`);
  } else {
    parts.push(format(done));
  }
  parts.push(`${format(Math.round(rate))}/s`);
  if (total && rate > 0 && done < total) parts.push(`${formatDuration((total - done) / rate)} left`);
  const text = parts.join('  ');
  const barWidth = total ? Math.min(30, columns - text.length - 4) : 0;
  if (barWidth < 5) return text.slice(0, Math.max(0, columns - 1));
  const filled = Math.round(Math.min(1, done / total!) * barWidth);
  return `[${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}]  ${text}`;
}

export function transferProgress(io: IO, totalBytes?: number): TransferProgress {
  const columns = (io.streams.stderr as { columns?: number }).columns ?? 0;
  if (io.quiet || !io.stderrIsTerminal || columns <= 0) return { meter: new PassThrough(), finish() {} };
  const started = Date.now();
  let done = 0;
  const draw = () => io.streams.stderr.write(`\r\u001b[K${progressLine(done, totalBytes, Date.now() - started, columns)}`);
  const timer = setInterval(draw, REDRAW_MS);
  timer.unref();
  draw();
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      done += chunk.length;
      callback(null, chunk);
    },
  });
  const stop = () => clearInterval(timer);
  meter.once('close', stop);
  return {
    meter,
    finish() {
      stop();
      draw();
      io.streams.stderr.write('\r\u001b[K');
    },
  };
}
