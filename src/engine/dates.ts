/** UTC calendar helpers: dates are 'YYYY-MM-DD' strings or day numbers (days since 1970-01-01). */

export const DAY_MS = 86_400_000;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isIsoDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

/** Day number of a 'YYYY-MM-DD' date (throws on malformed input). */
export function dayNumber(date: string): number {
  if (!isIsoDate(date)) throw new Error(`invalid date "${date}" (expected YYYY-MM-DD)`);
  const m = DATE_RE.exec(date)!;
  return Date.UTC(+m[1], +m[2] - 1, +m[3]) / DAY_MS;
}

const pad2 = (n: number): string => (n < 10 ? '0' : '') + n;

/** 'YYYY-MM-DD' of a day number (Hinnant's civil-from-days; years 0..9999). */
export function dayToIso(day: number): string {
  const z = day + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${String(y).padStart(4, '0')}-${pad2(m)}-${pad2(d)}`;
}

/** Today's UTC date as 'YYYY-MM-DD'. */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** ISO timestamp without milliseconds, the platform's usual format: 2026-11-21T08:15:00Z. */
export function msToTimestamp(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** Day of week for a day number: 0 = Sunday ... 6 = Saturday. */
export function weekday(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}
