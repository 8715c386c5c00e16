/**
 * Statistics over time: what the index knows of a channel's subscribers and views at past
 * instants, behind every 24h/48h/7d/30d figure. The sample world seeds it with its whole derived
 * history; a live index answers from the snapshots it stored, and a figure whose window its
 * snapshots do not cover is null — never invented.
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

/** Absolute gains over a window ending at the index's latest figures; null where the window is not covered. */
export interface Growth {
  subscribers: number | null;
  views: number | null;
}

/** Gains over the last 24 and 48 hours; null where the window is not covered. */
export interface Deltas {
  views_24h: number | null;
  views_48h: number | null;
  subs_24h: number | null;
  subs_48h: number | null;
}

/** Figures at an instant; null where the index cannot tell them. */
export interface Totals {
  subscribers: number | null;
  views: number | null;
}

/** Since when the index has figures of a channel, and how recent they are (ms since the epoch). */
export interface Coverage {
  /** The first read of the channel: there is no history before it. */
  watched_since_ms: number;
  /** The latest read: windows (24h, 7d, …) end here. */
  latest_ms: number;
}

/** A channel by id, or a row a scan of the index's channels returned (cheaper: no lookup). */
export type StatsChannel = ScannedChannel | string;

export interface StatisticsHistory {
  /** Totals at instants (ms) up to the platform's now; null for a channel the index does not know. */
  totalsAt(channel: StatsChannel, times: readonly number[]): Promise<Totals[] | null>;
  /** Daily history, oldest first, between two 'YYYY-MM-DD' dates (default: the last 60 days). Unknown channel: []. */
  dailyStats(channelId: string, fromDate?: string, toDate?: string): Promise<DailyStat[]>;
  /** Gains over the last `days` days. Unknown channel: null. */
  growth(channelId: string, days: number): Promise<Growth | null>;
  deltas(channelId: string): Promise<Deltas | null>;
  /**
   * Since when the channel has been watched and its latest read, on an index that builds its
   * history from reads (live); absent where the history is whole (the sample world's).
   */
  coverage?(channel: StatsChannel): Promise<Coverage | null>;
}

/** The same reads answered at once from memory: the sample world's seed (seed.ts). */
export interface SeedStatistics {
  totalsAt(channel: StatsChannel, times: readonly number[]): Totals[] | null;
  dailyStats(channelId: string, fromDate?: string, toDate?: string): DailyStat[];
  growth(channelId: string, days: number): Growth | null;
  deltas(channelId: string): Deltas | null;
}
