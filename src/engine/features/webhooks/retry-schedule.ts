/**
 * When a failed delivery is tried again: the waits after each failed attempt, about 3 days in all
 * by default; an operator sets another with TUBEKIT_WEBHOOK_RETRY_SCHEDULE (spans such as
 * `5s,5m,30m`). Each wait is shortened by up to a fifth at random (jitter), so a receiver that
 * comes back is not met by every endpoint's retries at once. After the last wait's attempt fails
 * the delivery has failed and its endpoint is disabled.
 */
import { badRequest } from '../../../core/errors.js';

export const RETRY_SCHEDULE_VARIABLE = 'TUBEKIT_WEBHOOK_RETRY_SCHEDULE';
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h,10h,14h,20h';
const JITTER = 0.2;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `500ms`, `5s`, `30m`, `2h`, `1d` in milliseconds, or null. */
function parseSpan(text: string): number | null {
  const match = /^(\d{1,9})(ms|s|m|h|d)$/.exec(text.toLowerCase());
  return match ? Number(match[1]) * UNIT_MS[match[2]!]! : null;
}

export function parseRetrySchedule(text: string = DEFAULT_RETRY_SCHEDULE): number[] {
  const waits = text.split(',').map((part) => part.trim()).filter(Boolean).map((part) => {
    const ms = parseSpan(part);
    if (ms === null || ms <= 0) throw badRequest(`${RETRY_SCHEDULE_VARIABLE}: "${part}" is not a span of time.`, 'Give comma-separated spans such as 5s,5m,30m,2h.');
    return ms;
  });
  if (waits.length === 0 || waits.length > 50) throw badRequest(`${RETRY_SCHEDULE_VARIABLE} must list 1 to 50 waits.`, 'Give comma-separated spans such as 5s,5m,30m,2h.');
  return waits;
}

/** The wait before attempt `failed + 1` after `failed` failed attempts, or null when none is left. */
export function nextWait(schedule: readonly number[], failed: number, random: () => number = Math.random): number | null {
  const wait = schedule[failed - 1];
  return wait === undefined ? null : Math.round(wait * (1 - JITTER * random()));
}
