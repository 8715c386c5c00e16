/**
 * New channels: after the reference date, channels keep appearing, about 1.5 a day per thousand
 * generated channels (so ~4–5 a day on the default world). Day d's arrival count and times are a
 * pure function of (seed, d); arrival number j (counted from the reference date, in time order)
 * becomes channel index `channel_count + j`, a row appended to world_channels by `advance`.
 */
import { DAY_MS } from '../../dates.js';
import { gaussHash, mix32, rngFor, unitHash } from './prng.js';

const ARRIVALS_PER_CHANNEL_DAY = 0.0015;

/** Times (ms, ascending) at which channels appear on `day`. */
export function arrivalsOnDay(stream: number, seedChannels: number, day: number): number[] {
  const mean = seedChannels * ARRIVALS_PER_CHANNEL_DAY;
  const u = unitHash(stream, day);
  let n: number;
  if (mean > 50) {
    // Normal approximation: exp(-mean) would underflow for big worlds.
    n = Math.max(0, Math.round(mean + Math.sqrt(mean) * gaussHash(stream ^ 0x27d4eb2f, day)));
  } else {
    let p = Math.exp(-mean);
    let cdf = p;
    n = 0;
    while (u > cdf && n < 1000) {
      n += 1;
      p *= mean / n;
      cdf += p;
    }
  }
  const rng = rngFor(mix32(stream, 0x5f3759df), day);
  const times: number[] = [];
  for (let i = 0; i < n; i++) times.push(day * DAY_MS + Math.floor(rng.next() * 86_400) * 1000);
  return times.sort((a, b) => a - b);
}

/** Arrival times in (fromMs, toMs], ascending. */
export function arrivalsBetween(stream: number, seedChannels: number, fromMs: number, toMs: number): number[] {
  const out: number[] = [];
  for (let day = Math.floor(fromMs / DAY_MS); day <= Math.floor(toMs / DAY_MS); day++) {
    for (const t of arrivalsOnDay(stream, seedChannels, day)) if (t > fromMs && t <= toMs) out.push(t);
  }
  return out;
}
