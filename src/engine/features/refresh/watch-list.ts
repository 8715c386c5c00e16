/**
 * The channels the refresh sweep keeps fresh on a live data dir:
 *  - saved channels (any user's folders) and channels that triggered an enabled alert: the roots;
 *  - channels an enabled alert watches: known channels of its content type passing its filters;
 *  - channels seen in collabs: the roots' collab partners, and every channel listed on a known
 *    collab video.
 * All of it is in the engine's store (a fleet's database is shared by every server).
 * The roots and their partners are also *scanned*: the watch pages of their new uploads are read
 * to find the channels each lists (collabs). The others are only re-read (figures and uploads).
 */
import type { AlertFilters } from '../../../core/schemas/alerts.js';
import { indexedChannel } from '../../index/live/channel-rows.js';
import { matchesFilters } from '../alerts/filters.js';
import type { Executor } from '../../store/store.js';
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

/** What the users asked to watch: saved channels, triggered channels and alerts — in the engine's store, shared by a fleet. */
export interface WatchedByUsers {
  saved: string[];
  triggered: string[];
  alerts: Array<{ content_type: string; filters: string }>;
}

export async function watchedByUsers(on: Executor): Promise<WatchedByUsers> {
  const column = async (sql: string) => (await on.all<{ channel_id: string }>(sql)).map((row) => row.channel_id);
  return {
    saved: await column('SELECT DISTINCT channel_id FROM saved_channels'),
    triggered: await column(
      `SELECT DISTINCT h.channel_id FROM alert_hits h JOIN alert_hit_alerts l ON l.hit_id = h.id JOIN alerts a ON a.id = l.alert_id
       WHERE a.enabled = 1`,
    ),
    alerts: await on.all<{ content_type: string; filters: string }>('SELECT content_type, filters FROM alerts WHERE enabled = 1'),
  };
}

export async function watchList(store: RefreshStore, users: WatchedByUsers, nowMs: number): Promise<WatchList> {
  const roots = new Set([...users.saved, ...users.triggered]);
  const scanned = new Set<number>();
  for (const channelId of roots) {
    scanned.add(await store.idxOf(channelId));
    for (const partner of await store.partnersOf(channelId)) scanned.add(partner);
  }
  const others = new Set<number>(await store.checkedChannels());
  const alerts = users.alerts.map((alert) => ({ fits: FITS[alert.content_type] ?? [], filters: JSON.parse(alert.filters) as AlertFilters, contentType: alert.content_type }));
  if (alerts.length > 0) {
    for await (const page of store.readChannels()) {
      for (const row of page) {
        if (scanned.has(row.idx) || others.has(row.idx)) continue;
        const channel = indexedChannel(row);
        if (alerts.some((alert) => channel.content_type !== null && alert.fits.includes(channel.content_type) && matchesFilters(channel, alert.filters, nowMs))) others.add(row.idx);
      }
    }
  }
  for (const idx of scanned) others.delete(idx);
  return { watched: [...scanned, ...others], scanned, shortsAlerts: alerts.some((alert) => alert.contentType === 'shorts') };
}
