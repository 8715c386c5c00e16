/**
 * How often the refresh sweep re-reads each watched channel of a live data dir: every 6 hours
 * unless `tubekit engine refresh --every <span>` stored another interval in the data dir.
 */
import type { Settings } from '../../store/settings.js';

export const DEFAULT_REFRESH_INTERVAL_MS = 6 * 3_600_000;
/** Shorter would read the site harder than the figures move; longer than a day leaves 24h deltas unknown. */
export const MIN_REFRESH_INTERVAL_MS = 15 * 60_000;
export const MAX_REFRESH_INTERVAL_MS = 7 * 86_400_000;

const SETTING = 'refresh-interval-ms';

export function refreshInterval(settings: Settings): number {
  return settings.get<number>(SETTING) ?? DEFAULT_REFRESH_INTERVAL_MS;
}

export function setRefreshInterval(settings: Settings, ms: number): void {
  if (!Number.isSafeInteger(ms) || ms < MIN_REFRESH_INTERVAL_MS || ms > MAX_REFRESH_INTERVAL_MS) {
    throw new RangeError(`the refresh interval must be between 15 minutes and 7 days, not ${ms} ms`);
  }
  settings.set(SETTING, ms);
}
