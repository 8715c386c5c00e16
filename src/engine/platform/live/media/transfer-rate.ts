/**
 * A minimum rate for media transfers: a stream that trickles would otherwise hold a download (and
 * its parallel slot) for as long as it keeps sending a byte now and then. The bytes under the
 * transfer's folder are measured (yt-dlp's partial files, and the ffmpeg it runs for sections and
 * merges), so every way yt-dlp fetches is seen, whatever progress it reports.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ServiceError } from '../../../../core/errors.js';

export interface MinimumRate {
  /** Bytes a second a transfer must average over every window; 0 turns the rule off. */
  bytesPerSecond: number;
  windowMs: number;
}

export const DEFAULT_MINIMUM_RATE: MinimumRate = { bytesPerSecond: 8 * 1024, windowMs: 30_000 };

/** Bytes of every file under `dir` (files that vanish while counted are skipped). */
async function bytesUnder(dir: string): Promise<number> {
  let total = 0;
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await bytesUnder(full);
    else if (entry.isFile()) total += (await fs.promises.stat(full).catch(() => ({ size: 0 }))).size;
  }
  return total;
}

const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB/s`;

/**
 * Watches the bytes under `dir` and calls `tooSlow` once, with the 502 to answer, when a whole
 * window passes with less than the minimum arriving. Returns the function that stops watching.
 */
export function watchTransferRate(dir: string, rate: MinimumRate, what: string, tooSlow: (error: ServiceError) => void): () => void {
  if (rate.bytesPerSecond <= 0) return () => undefined;
  const samples: Array<{ at: number; bytes: number }> = [{ at: Date.now(), bytes: 0 }];
  let measuring = false;
  let stopped = false;
  const tick = async () => {
    if (measuring || stopped) return;
    measuring = true;
    try {
      const now = Date.now();
      const bytes = await bytesUnder(dir);
      if (stopped) return;
      samples.push({ at: now, bytes });
      // The newest sample a whole window old is the window's start; older ones are no longer needed.
      let start = -1;
      for (let index = samples.length - 1; index >= 0; index -= 1) {
        if (now - samples[index]!.at >= rate.windowMs) {
          start = index;
          break;
        }
      }
      if (start < 0) return;
      samples.splice(0, start);
      const from = samples[0]!;
      const seconds = (now - from.at) / 1000;
      const arrived = Math.max(0, bytes - from.bytes);
      if (arrived < rate.bytesPerSecond * seconds) {
        stop();
        tooSlow(
          new ServiceError({
            status: 502,
            code: 'upstream_error',
            message:
              `The media of ${what} arrived at ${kilobytes(arrived / seconds)} over the last ${Math.round(seconds)} s, below the ` +
              `minimum of ${kilobytes(rate.bytesPerSecond)} for media transfers; the download was stopped.`,
            hint: 'Try again later or through another network (TUBEKIT_PROXY); TUBEKIT_MEDIA_MIN_RATE sets the minimum (bytes a second, 0: none).',
          }),
        );
      }
    } finally {
      measuring = false;
    }
  };
  const timer = setInterval(() => void tick(), Math.min(1_000, Math.max(50, rate.windowMs / 4)));
  timer.unref();
  function stop() {
    stopped = true;
    clearInterval(timer);
  }
  return stop;
}
