/**
 * Statistics over time from the live index's snapshots: one per read of a channel (time,
 * subscribers, views, videos). History starts at a channel's first read; nothing before it is
 * known, so a window reaching back before it is null — never invented.
 *
 * A figure at an instant is a snapshot taken then, or a straight line between the snapshots just
 * before and just after it when they are at most MAX_INTERPOLATION_GAP_MS apart (the refresh sweep
 * reads watched channels every 6 hours by default). Windows (24h, 48h, 7d, 30d) end at the latest
 * read, the instant the index's figures are for; `coverage` says since when and as of when.
 */
import { DAY_MS } from '../../dates.js';
import type { Executor } from '../../store/store.js';
import type { Coverage, DailyStat, Deltas, Growth, StatisticsHistory, StatsChannel, Totals } from '../statistics.js';
import { CHANNEL_SQL, isLiveScanRow, MAX_INTERPOLATION_GAP_MS, type LiveScannedChannel, type SnapshotRow } from './channel-rows.js';

export { MAX_INTERPOLATION_GAP_MS };
const DEFAULT_HISTORY_DAYS = 60;
/** Instants at most this far apart share one read of the snapshots between them. */
const CLUSTER_MS = 3 * 24 * 3_600_000;

const difference = (to: number | null, from: number | null): number | null => (to === null || from === null ? null : to - from);
const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

export class SnapshotStatistics implements StatisticsHistory {
  constructor(private readonly store: Executor) {}

  /** The channel's key and coverage: one lookup by id (a scan row carries both). */
  private async located(channel: StatsChannel): Promise<{ idx: number; coverage: Coverage } | null> {
    if (isLiveScanRow(channel)) return { idx: channel.idx, coverage: { watched_since_ms: channel.first_read_ms, latest_ms: channel.last_read_ms } };
    const channelId = typeof channel === 'string' ? channel : channel.channel_id;
    const row = await this.store.get<{ idx: number; first_read_ms: number | null; last_read_ms: number | null }>(CHANNEL_SQL.coverageById, [channelId]);
    if (!row || row.first_read_ms === null || row.last_read_ms === null) return null;
    return { idx: row.idx, coverage: { watched_since_ms: row.first_read_ms, latest_ms: row.last_read_ms } };
  }

  async coverage(channel: StatsChannel): Promise<Coverage | null> {
    return (await this.located(channel))?.coverage ?? null;
  }

  async totalsAt(channel: StatsChannel, times: readonly number[]): Promise<Totals[] | null> {
    const located = await this.located(channel);
    return located ? this.totalsOf(channel, located.idx, times) : null;
  }

  private async totalsOf(channel: StatsChannel, idx: number, times: readonly number[]): Promise<Totals[]> {
    const brought = isLiveScanRow(channel) ? broughtSnapshots(channel, times) : null;
    if (brought) return times.map((time) => figuresAt(brought, time));
    // Instants close together (a 24h and a 48h delta) are read with one query of the snapshots around them.
    const totals = new Map<number, Totals>();
    const sorted = [...new Set(times)].sort((a, b) => a - b);
    for (let first = 0; first < sorted.length; ) {
      let last = first;
      while (last + 1 < sorted.length && sorted[last + 1]! - sorted[first]! <= CLUSTER_MS) last += 1;
      const instants = sorted.slice(first, last + 1);
      // Only snapshots within the gap of an instant can give its figure (see figuresAt).
      const snapshots = await this.store.all<SnapshotRow>(CHANNEL_SQL.snapshotsBetween, [idx, instants[0]! - MAX_INTERPOLATION_GAP_MS, instants.at(-1)! + MAX_INTERPOLATION_GAP_MS]);
      for (const instant of instants) totals.set(instant, figuresAt(snapshots, instant));
      first = last + 1;
    }
    return times.map((time) => totals.get(time)!);
  }

  async deltas(channelId: string): Promise<Deltas | null> {
    const located = await this.located(channelId);
    if (!located) return null;
    const end = located.coverage.latest_ms;
    const [now, day, twoDays] = await this.totalsOf(channelId, located.idx, [end, end - DAY_MS, end - 2 * DAY_MS]);
    return {
      views_24h: difference(now!.views, day!.views),
      views_48h: difference(now!.views, twoDays!.views),
      subs_24h: difference(now!.subscribers, day!.subscribers),
      subs_48h: difference(now!.subscribers, twoDays!.subscribers),
    };
  }

  async growth(channelId: string, days: number): Promise<Growth | null> {
    if (!Number.isInteger(days) || days < 0) throw new Error(`growth: days must be a non-negative integer, got ${days}`);
    const located = await this.located(channelId);
    if (!located) return null;
    const end = located.coverage.latest_ms;
    const [start, now] = await this.totalsOf(channelId, located.idx, [end - days * DAY_MS, end]);
    return { subscribers: difference(now!.subscribers, start!.subscribers), views: difference(now!.views, start!.views) };
  }

  /** Days whose end (and the end of the day before) the snapshots cover; the latest read's day ends at that read. */
  async dailyStats(channelId: string, fromDate?: string, toDate?: string): Promise<DailyStat[]> {
    const located = await this.located(channelId);
    if (!located) return [];
    const { coverage } = located;
    const lastDay = Math.floor(coverage.latest_ms / DAY_MS);
    const to = Math.min(toDate ? Date.parse(`${toDate}T00:00:00Z`) / DAY_MS : lastDay, lastDay);
    const from = Math.max(fromDate ? Date.parse(`${fromDate}T00:00:00Z`) / DAY_MS : to - DEFAULT_HISTORY_DAYS + 1, Math.floor(coverage.watched_since_ms / DAY_MS));
    const endOf = (day: number) => Math.min((day + 1) * DAY_MS, coverage.latest_ms);
    const out: DailyStat[] = [];
    for (let day = from; day <= to; day++) {
      const [previous, current] = await this.totalsOf(channelId, located.idx, [endOf(day - 1), endOf(day)]);
      if (current!.subscribers === null || current!.views === null || previous!.subscribers === null || previous!.views === null) continue;
      out.push({
        date: isoDay(day),
        subscribers: current!.subscribers,
        views: current!.views,
        subscribers_gained: current!.subscribers - previous!.subscribers,
        views_gained: current!.views - previous!.views,
      });
    }
    return out;
  }
}

/** Parsed snapshots a scan row brought along, by row (a rule reads several instants of one row). */
const parsedSnapshots = new WeakMap<LiveScannedChannel, { before: number[]; snapshots: SnapshotRow[] }>();

/** The snapshots a scan row brought, when they cover every one of `times`; else null (then they are read). */
function broughtSnapshots(channel: LiveScannedChannel, times: readonly number[]): SnapshotRow[] | null {
  if (channel.snapshots === undefined || channel.snapshots_before === undefined) return null;
  let parsed = parsedSnapshots.get(channel);
  if (!parsed) {
    const rows = JSON.parse(channel.snapshots) as Array<[number, number | null, number | null]>;
    parsed = { before: JSON.parse(channel.snapshots_before) as number[], snapshots: rows.map(([at_ms, subscribers, views]) => ({ at_ms, subscribers, views, videos: null })).sort((a, b) => a.at_ms - b.at_ms) };
    parsedSnapshots.set(channel, parsed);
  }
  const covered = times.every((time) => parsed.before.includes(channel.last_read_ms - time));
  return covered ? parsed.snapshots : null;
}

/**
 * Figures at an instant from the snapshots around it (oldest first): the snapshot taken then, or
 * the straight line between the ones just before and after, when they are close enough.
 */
function figuresAt(snapshots: readonly SnapshotRow[], time: number): Totals {
  const after = snapshots.findIndex((snapshot) => snapshot.at_ms >= time);
  if (after === -1) return { subscribers: null, views: null };
  const exact = snapshots[after]!;
  if (exact.at_ms === time) return { subscribers: exact.subscribers, views: exact.views };
  const before = snapshots[after - 1];
  if (!before || exact.at_ms - before.at_ms > MAX_INTERPOLATION_GAP_MS) return { subscribers: null, views: null };
  return { subscribers: between(before, exact, time, 'subscribers'), views: between(before, exact, time, 'views') };
}

/** A figure on the straight line between two snapshots, or null when either lacks it. */
function between(before: SnapshotRow, after: SnapshotRow, time: number, figure: 'subscribers' | 'views'): number | null {
  const from = before[figure];
  const to = after[figure];
  if (from === null || to === null) return null;
  return Math.round(from + ((to - from) * (time - before.at_ms)) / (after.at_ms - before.at_ms));
}
