/**
 * Keys of a live store's terminated channels. The search reads "newest first" as ascending key
 * (the full-text index yields rowids in that order, so the default sort costs nothing), and a
 * live store learns of terminations in any order: the sweep records today's, an import brings
 * years of them. So a key is made from the termination time itself, and a new record never moves
 * another:
 *
 *   key = (LAST_DAY − day) · 2³² + (86 399 − second of the day) · 2¹⁵ + n
 *
 * Later days and later seconds get smaller keys. `n` tells apart up to 32,768 channels
 * terminated in the same second (a date without a time is midnight, the day's last slot); past
 * that, a day has 1.46 billion more keys after its last second, which sort as the day's oldest.
 * Keys stay below 2⁵³ (exact in a JavaScript number) for days from 1970 to the year 7711.
 */
import { DAY_MS } from '../../dates.js';

const DAY_SPAN = 2 ** 32;
const SECOND_SPAN = 2 ** 15;
const SECONDS_A_DAY = 86_400;
/** The last day a key can name (days since 1970-01-01). */
export const LAST_KEY_DAY = 2 ** 21 - 1;

export interface KeyRange {
  /** First key of the range. */
  from: number;
  /** First key after it. */
  to: number;
}

/** Day number (UTC) of a time. */
export const dayOfMs = (ms: number): number => Math.floor(ms / DAY_MS);

/** The keys of the second a channel was terminated in, and the day's overflow keys after them. */
export function keySlots(terminatedMs: number): { second: KeyRange; overflow: KeyRange } {
  const day = dayOfMs(terminatedMs);
  if (day < 0 || day > LAST_KEY_DAY) throw new RangeError(`A termination time of day ${day} cannot be keyed (1970 to 7711).`);
  const second = Math.floor((terminatedMs - day * DAY_MS) / 1000);
  const dayStart = (LAST_KEY_DAY - day) * DAY_SPAN;
  const from = dayStart + (SECONDS_A_DAY - 1 - second) * SECOND_SPAN;
  return {
    second: { from, to: from + SECOND_SPAN },
    overflow: { from: dayStart + SECONDS_A_DAY * SECOND_SPAN, to: dayStart + DAY_SPAN },
  };
}

/** The day a key was made for. */
export function dayOfKey(key: number): number {
  return LAST_KEY_DAY - Math.floor(key / DAY_SPAN);
}
