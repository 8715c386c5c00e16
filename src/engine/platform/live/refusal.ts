/**
 * Recognises the site refusing a request: HTTP 429, the "confirm you're not a bot" check (as an
 * error page, a redirect to /sorry, or a player answer whose playability says so) and "sign in".
 */
import type { RefusalKind } from './errors.js';

const BOT_CHECK = /confirm (?:that )?you(?:'|’)?re not a bot|unusual traffic from your computer network/i;
const SIGN_IN = /sign in to confirm your age|this video may be inappropriate for some users|sign in to continue/i;

export function refusalOf(status: number, finalUrl: string, body: string): RefusalKind | null {
  if (status === 429) return 'rate_limited';
  if (/\/sorry\//.test(finalUrl)) return 'bot_check';
  const sample = body.length > 200_000 ? body.slice(0, 200_000) : body;
  if (BOT_CHECK.test(sample)) return 'bot_check';
  // A sign-in wall on an error status only: a 200 page may mention signing in anywhere.
  if (status >= 400 && SIGN_IN.test(sample)) return 'sign_in';
  if (status === 401) return 'sign_in';
  return null;
}

/** Seconds from a Retry-After header (delta-seconds or an HTTP date), when present. */
export function retryAfterSeconds(header: string | null, nowMs: number): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - nowMs) / 1000);
}

/** Exponential back-off, jittered between half and all of the step and capped; never shorter than the site's own hint. */
export function backoffMs(attempt: number, baseMs: number, capMs: number, hintSeconds: number | undefined, random: () => number): number {
  const exponential = Math.min(capMs, baseMs * 2 ** attempt);
  const jittered = exponential / 2 + random() * (exponential / 2);
  return Math.max(Math.min(capMs, jittered), (hintSeconds ?? 0) * 1000);
}
