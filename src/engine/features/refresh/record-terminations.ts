/**
 * Channels the refresh sweep found terminated or deleted, as records for the terminated store: the
 * last figures the live index stored for each (its latest snapshot) and the 24h/48h gains its
 * snapshots give before the termination (null where they do not cover the window), with what else
 * the index knows (language, content type, its most viewed videos). The sweep hands them to a sink:
 * the live terminated store (index/terminated/live-records.ts) unless a test gives its own.
 */
import { isoTime } from '../../clock.js';
import type { EngineContext } from '../../context.js';
import type { EngineIndex } from '../../index/engine-index.js';
import { CHANNEL_SQL, type LiveChannelRow } from '../../index/live/channel-rows.js';
import { recordTerminatedChannelsIn, type LiveTerminatedRecord } from '../../index/terminated/live-records.js';

export type TerminationSink = (records: LiveTerminatedRecord[]) => { recorded: number } | Promise<{ recorded: number }>;

/** Videos a record keeps: the most viewed the index knows of the channel. */
const TOP_VIDEOS = 3;

/** The records of channels the live index holds as terminated or gone; channels it holds as active are left out. */
export async function terminatedRecords(engine: Pick<EngineContext, 'store'>, index: EngineIndex, channelIds: readonly string[]): Promise<LiveTerminatedRecord[]> {
  const records: LiveTerminatedRecord[] = [];
  for (const channelId of channelIds) {
    const row = await engine.store.get<LiveChannelRow>(CHANNEL_SQL.byId, [channelId]);
    if (!row || row.state === 'active' || row.state_at_ms === null) continue;
    const deltas = await index.statistics.deltas(channelId);
    const record: LiveTerminatedRecord = {
      channel_id: channelId,
      channel_title: row.title ?? channelId,
      terminated_at: isoTime(row.state_at_ms),
      subscribers: row.subscribers,
      total_views: row.total_views,
      video_count: row.video_count,
      views_24h: deltas?.views_24h ?? null,
      views_48h: deltas?.views_48h ?? null,
      subs_24h: deltas?.subs_24h ?? null,
      subs_48h: deltas?.subs_48h ?? null,
    };
    if (row.language_code) record.language_code = row.language_code;
    if (row.content_type) record.content_type = row.content_type as LiveTerminatedRecord['content_type'];
    const top = await engine.store.all<{ video_id: string; title: string; views: number; kind: 'long' | 'short' }>(CHANNEL_SQL.topVideos, [row.idx, TOP_VIDEOS]);
    if (top.length > 0) record.top_videos = top;
    records.push(record);
  }
  return records;
}

/** Where the sweep records terminations on a live data dir: the engine's live terminated store, stamped with the engine's clock. */
export function terminationSink(engine: EngineContext): TerminationSink {
  return async (records) => recordTerminatedChannelsIn(await engine.liveTerminatedStore(), records);
}
