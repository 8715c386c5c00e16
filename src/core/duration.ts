/**
 * Spans of world time written the way people write them: `1d`, `6h`, `90m`, `1d12h`, `2w`.
 * Used by `tubekit engine world advance` and the engine's own advance API.
 */
const UNIT_MS: Record<string, number> = {
  w: 7 * 86_400_000,
  d: 86_400_000,
  h: 3_600_000,
  m: 60_000,
};
const SPAN_RE = /^(?:\d+[wdhm])+$/;

export const DURATION_FORMS = 'a span like 1d, 6h, 90m, 1d12h or 2w (weeks, days, hours, minutes)';

/** Milliseconds of a span, or null when the text is not one (or is zero). */
export function parseDuration(text: string): number | null {
  const compact = text.trim().toLowerCase();
  if (!SPAN_RE.test(compact)) return null;
  let total = 0;
  for (const [, amount, unit] of compact.matchAll(/(\d+)([wdhm])/g)) total += Number(amount) * UNIT_MS[unit!]!;
  return total > 0 && Number.isSafeInteger(total) ? total : null;
}

/** `1d 6h 30m` for a span in milliseconds (whole minutes; `0m` for nothing). */
export function formatDuration(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  const parts: string[] = [];
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  if (days) parts.push(`${days}d`);
  if (hours) parts.push(`${hours}h`);
  if (rest || parts.length === 0) parts.push(`${rest}m`);
  return parts.join(' ');
}
