/**
 * The channels a live index knows: every channel the engine read (with its latest read's figures),
 * in the order they became known. A channel only listed on a collab video has an idx (and an id)
 * but is not known until it is read; a terminated or deleted one stays known with its last figures
 * but scans pass it by.
 */
import type { Executor } from '../../store/store.js';
import type { IndexedChannel, KnownChannels, PublishedKind, ScanFilter, ScannedChannel, VideoStat } from '../channels.js';
import { ATTACHED_RECENT_VIDEOS, CHANNEL_SQL, indexedChannel, isLiveScanRow, SCAN_PAGE, scanSql, scannedChannel, type LiveChannelRow } from './channel-rows.js';

type RecentRow = { video_id: string; kind: 'long' | 'short'; published_ms: number; views: number };

export class LiveKnownChannels implements KnownChannels {
  constructor(private readonly store: Executor) {}

  private known(row: LiveChannelRow | undefined): IndexedChannel | null {
    return row && row.first_read_ms !== null ? indexedChannel(row) : null;
  }

  async byId(channelId: string): Promise<IndexedChannel | null> {
    return this.known(await this.store.get<LiveChannelRow>(CHANNEL_SQL.byId, [channelId]));
  }

  async byIdx(idx: number): Promise<IndexedChannel | null> {
    return this.known(await this.store.get<LiveChannelRow>(CHANNEL_SQL.byIdx, [idx]));
  }

  async idOf(idx: number): Promise<string> {
    const row = await this.store.get<{ channel_id: string }>(CHANNEL_SQL.idOf, [idx]);
    if (row === undefined) throw new RangeError(`no channel has index key ${idx} in the live index`);
    return row.channel_id;
  }

  /** Pages in key order, each read after the last key of the one before (no cursor held between pages). */
  async *scan(filter: ScanFilter = {}): AsyncIterable<ScannedChannel[]> {
    const sql = scanSql(this.store.dialect, {
      contentTypes: filter.contentTypes !== undefined,
      publishedKind: filter.publishedAfter?.kind,
      createdBy: filter.createdBy !== undefined,
      figuresBefore: filter.figuresBefore,
    });
    const params: Array<string | number | readonly string[]> = [];
    if (filter.contentTypes) params.push(this.store.dialect === 'postgres' ? filter.contentTypes : JSON.stringify(filter.contentTypes));
    if (filter.publishedAfter) params.push(filter.publishedAfter.ms);
    if (filter.createdBy) params.push(filter.createdBy);
    for (let after = -1; ; ) {
      const rows = await this.store.all<LiveChannelRow>(sql, [...params, after, SCAN_PAGE]);
      if (rows.length === 0) return;
      yield rows.map(scannedChannel);
      if (rows.length < SCAN_PAGE) return;
      after = rows.at(-1)!.idx;
    }
  }

  async createdSince(date: string): Promise<IndexedChannel[]> {
    return (await this.store.all<LiveChannelRow>(CHANNEL_SQL.createdSince, [date])).map(indexedChannel);
  }

  async recentVideoStats(channel: ScannedChannel, kind?: PublishedKind, limit = 20): Promise<VideoStat[]> {
    if (isLiveScanRow(channel) && channel.recent !== undefined && channel.recent_kind === kind && limit <= ATTACHED_RECENT_VIDEOS) {
      const videos = JSON.parse(channel.recent) as Array<[string, number, number | null]>;
      return videos
        .sort((a, b) => b[1] - a[1])
        .slice(0, limit)
        .map(([video_id, published_ms, views], ordinal) => ({ video_id, ordinal, kind: channel.recent_kind!, published_ms, views }));
    }
    const rows = kind
      ? await this.store.all<RecentRow>(CHANNEL_SQL.recentOfKind, [channel.idx, kind, limit])
      : await this.store.all<RecentRow>(CHANNEL_SQL.recentOfAnyKind, [channel.idx, limit]);
    return rows.map((row, ordinal) => ({ video_id: row.video_id, ordinal, kind: row.kind, published_ms: row.published_ms, views: row.views }));
  }

  /** A scan row knows its newest uploads: one comparison, as on the sample world. */
  async publishedSince(channel: ScannedChannel, sinceMs: number, kind?: PublishedKind): Promise<boolean> {
    if (isLiveScanRow(channel)) {
      const last = kind === 'long' ? channel.last_long_ms : kind === 'short' ? channel.last_short_ms : Math.max(channel.last_long_ms, channel.last_short_ms);
      return last > sinceMs;
    }
    const found = kind
      ? await this.store.get(CHANNEL_SQL.publishedSinceOfKind, [channel.idx, kind, sinceMs])
      : await this.store.get(CHANNEL_SQL.publishedSince, [channel.idx, sinceMs]);
    return found !== undefined;
  }

  async videoTitle(videoId: string): Promise<string | null> {
    return (await this.store.get<{ title: string }>(CHANNEL_SQL.videoTitle, [videoId]))?.title ?? null;
  }
}
