/**
 * Statistics over time: what the index knows of a channel's subscribers and views at past
 * instants, behind every 24h/48h/7d/30d figure. The sample world seeds it with its whole derived
 * history; a live index answers from the snapshots it stored.
 */
import type { ScannedChannel } from './channels.js';

export interface DailyStat {
  /** 'YYYY-MM-DD' (UTC day); figures are as of the end of that day. */
  date: string;
  subscribers: number;
  views: number;
  /** Change since the previous day (may be negative for subscribers). */
  subscribers_gained: number;
  views_gained: number;
}

/** Absolute gains over a window ending at the platform's "now". */
export interface Growth {
  subscribers: number;
  views: number;
}

export interface Deltas {
  views_24h: number;
  views_48h: number;
  subs_24h: number;
  subs_48h: number;
}

export interface Totals {
  subscribers: number;
  views: number;
}

/** A channel by id, or a row a scan of the index's channels returned (cheaper: no lookup). */
export type StatsChannel = ScannedChannel | string;

export interface StatisticsHistory {
  /** Totals at instants (ms) up to the platform's now; null for a channel the index does not know. */
  totalsAt(channel: StatsChannel, times: readonly number[]): Totals[] | null;
  /** Daily history, oldest first, between two 'YYYY-MM-DD' dates (default: the last 60 days). Unknown channel: []. */
  dailyStats(channelId: string, fromDate?: string, toDate?: string): DailyStat[];
  /** Gains over the last `days` days. Unknown channel: null. */
  growth(channelId: string, days: number): Growth | null;
  deltas(channelId: string): Deltas | null;
}
