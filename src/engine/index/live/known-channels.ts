/**
 * The channels a live index knows: every channel the engine read (with its latest read's figures),
 * in the order they became known. A channel only listed on a collab video has an idx (and an id)
 * but is not known until it is read; a terminated or deleted one stays known with its last figures
 * but scans pass it by.
 */
import type { Db } from '../../store/database.js';
import type { IndexedChannel, KnownChannels, PublishedKind, ScanFilter, ScannedChannel, VideoStat } from '../channels.js';
import { ATTACHED_RECENT_VIDEOS, channelRows, indexedChannel, isLiveScanRow, scanSql, scanStatements, scannedChannel, type LiveChannelRow } from './channel-rows.js';

export class LiveKnownChannels implements KnownChannels {
  constructor(private readonly db: Db) {}

  private known(row: LiveChannelRow | undefined): IndexedChannel | null {
    return row && row.first_read_ms !== null ? indexedChannel(row) : null;
  }

  byId(channelId: string): IndexedChannel | null {
    return this.known(channelRows(this.db).byId.get(channelId));
  }

  byIdx(idx: number): IndexedChannel | null {
    return this.known(channelRows(this.db).byIdx.get(idx));
  }

  idOf(idx: number): string {
    const id = channelRows(this.db).idOf.get(idx);
    if (id === undefined) throw new RangeError(`no channel has index key ${idx} in the live index`);
    return id;
  }

  *scan(filter: ScanFilter = {}): IterableIterator<ScannedChannel> {
    const shape = { contentTypes: filter.contentTypes !== undefined, publishedKind: filter.publishedAfter?.kind, createdBy: filter.createdBy !== undefined, figuresBefore: filter.figuresBefore };
    const sql = scanSql(shape);
    const statements = scanStatements(this.db);
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = this.db.prepare(sql)));
    const params: Record<string, unknown> = {};
    if (filter.contentTypes) params.contentTypes = JSON.stringify(filter.contentTypes);
    if (filter.publishedAfter) params.publishedAfter = filter.publishedAfter.ms;
    if (filter.createdBy) params.createdBy = filter.createdBy;
    for (const row of statement.iterate(params) as IterableIterator<LiveChannelRow>) yield scannedChannel(row);
  }

  createdSince(date: string): IndexedChannel[] {
    return channelRows(this.db).createdSince.all(date).map(indexedChannel);
  }

  recentVideoStats(channel: ScannedChannel, kind?: PublishedKind, limit = 20): VideoStat[] {
    if (isLiveScanRow(channel) && channel.recent !== undefined && channel.recent_kind === kind && limit <= ATTACHED_RECENT_VIDEOS) {
      const videos = JSON.parse(channel.recent) as Array<[string, number, number]>;
      return videos
        .sort((a, b) => b[1] - a[1])
        .slice(0, limit)
        .map(([video_id, published_ms, views], ordinal) => ({ video_id, ordinal, kind: channel.recent_kind!, published_ms, views }));
    }
    const rows = channelRows(this.db);
    return (kind ? rows.recentOfKind.all(channel.idx, kind, limit) : rows.recentOfAnyKind.all(channel.idx, limit)).map((row, ordinal) => ({
      video_id: row.video_id,
      ordinal,
      kind: row.kind,
      published_ms: row.published_ms,
      views: row.views,
    }));
  }

  /** A scan row knows its newest uploads: one comparison, as on the sample world. */
  publishedSince(channel: ScannedChannel, sinceMs: number, kind?: PublishedKind): boolean {
    if (isLiveScanRow(channel)) {
      const last = kind === 'long' ? channel.last_long_ms : kind === 'short' ? channel.last_short_ms : Math.max(channel.last_long_ms, channel.last_short_ms);
      return last > sinceMs;
    }
    return channelRows(this.db).publishedSince.get({ idx: channel.idx, kind: kind ?? null, since: sinceMs }) !== undefined;
  }

  videoTitle(videoId: string): string | null {
    return channelRows(this.db).videoTitle.get(videoId) ?? null;
  }
}
