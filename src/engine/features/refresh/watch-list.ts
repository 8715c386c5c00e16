/**
 * The channels the refresh sweep keeps fresh on a live data dir:
 *  - saved channels (any user's folders) and channels that triggered an enabled alert: the roots;
 *  - channels an enabled alert watches: known channels of its content type passing its filters;
 *  - channels seen in collabs: the roots' collab partners, and every channel listed on a known
 *    collab video.
 * The roots and their partners are also *scanned*: the watch pages of their new uploads are read
 * to find the channels each lists (collabs). The others are only re-read (figures and uploads).
 */
import type { AlertFilters } from '../../../core/schemas/alerts.js';
import { indexedChannel } from '../../index/live/channel-rows.js';
import { matchesFilters } from '../alerts/filters.js';
import type { RefreshStore } from './refresh-store.js';

const FITS: Record<string, readonly string[]> = { longform: ['longform', 'mixed'], shorts: ['shorts', 'mixed'] };

export interface WatchList {
  /** Every watched channel's idx, scanned ones first (the order channels are read in when more are due than a sweep reads). */
  watched: number[];
  /** The ones whose uploads are scanned for collabs. */
  scanned: Set<number>;
  /** Whether an enabled alert watches shorts (then shorts tabs are read too). */
  shortsAlerts: boolean;
}

/** `savedChannels`: every user's saved channels, read from the engine's store (a fleet's PostgreSQL). */
export function watchList(store: RefreshStore, nowMs: number, savedChannels: readonly string[]): WatchList {
  const roots = new Set([...savedChannels, ...store.triggeredChannels()]);
  const scanned = new Set<number>();
  for (const channelId of roots) {
    scanned.add(store.idxOf(channelId));
    for (const partner of store.partnersOf(channelId)) scanned.add(partner);
  }
  const others = new Set<number>(store.checkedChannels());
  const alerts = store.enabledAlerts().map((alert) => ({ fits: FITS[alert.content_type] ?? [], filters: JSON.parse(alert.filters) as AlertFilters, contentType: alert.content_type }));
  if (alerts.length > 0) {
    for (const row of store.readChannels()) {
      if (scanned.has(row.idx) || others.has(row.idx)) continue;
      const channel = indexedChannel(row);
      if (alerts.some((alert) => channel.content_type !== null && alert.fits.includes(channel.content_type) && matchesFilters(channel, alert.filters, nowMs))) others.add(row.idx);
    }
  }
  for (const idx of scanned) others.delete(idx);
  return { watched: [...scanned, ...others], scanned, shortsAlerts: alerts.some((alert) => alert.contentType === 'shorts') };
}
