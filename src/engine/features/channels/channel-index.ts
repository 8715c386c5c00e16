/**
 * The engine's index of channels: what processing learned from the platform. A processed channel
 * is known to the service from then on; later features (collabs, research) read these tables.
 * The tables are in the engine's store (SQLite migration "job workers, channel index", Postgres migration "the channels processing jobs indexed, shared by the fleet"): on a fleet's
 * PostgreSQL a channel processed by any machine's worker is known to every server. The SQL is the
 * same in both dialects.
 */
import type { EngineContext } from '../../context.js';
import type { PlatformChannel, PlatformVideo } from '../../platform/platform.js';
import type { SqlValue } from '../../store/store.js';
import type { Eligibility } from './eligibility.js';

/** Named columns, not `*`: a prepared statement must keep its shape when a migration adds one. */
const INDEXED_CHANNELS_COLUMNS = 'channel_id, handle, title, language, country, category, content_type, subscribers, total_views, video_count, eligible, ineligible_reasons, first_processed_at, last_processed_at, last_job_id';

export interface IndexedChannel {
  channel_id: string;
  title: string;
  eligible: number;
  ineligible_reasons: string;
  first_processed_at: number;
  last_processed_at: number;
  last_job_id: number | null;
}

const UPSERT_CHANNEL = `INSERT INTO indexed_channels (channel_id, handle, title, language, country, category, content_type, subscribers,
    total_views, video_count, eligible, ineligible_reasons, first_processed_at, last_processed_at, last_job_id)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (channel_id) DO UPDATE SET handle = excluded.handle, title = excluded.title,
    language = excluded.language, country = excluded.country, category = excluded.category,
    content_type = excluded.content_type, subscribers = excluded.subscribers, total_views = excluded.total_views,
    video_count = excluded.video_count, eligible = excluded.eligible, ineligible_reasons = excluded.ineligible_reasons,
    last_processed_at = excluded.last_processed_at, last_job_id = excluded.last_job_id`;

const VIDEO_COLUMNS = 8;

/** One statement for all of a job's videos (Postgres refuses one that touches a row twice, so each id appears once). */
const upsertVideos = (count: number) => `INSERT INTO indexed_videos (video_id, channel_id, kind, title, views, duration_seconds, published_at, indexed_at)
  VALUES ${Array.from({ length: count }, () => `(${Array(VIDEO_COLUMNS).fill('?').join(', ')})`).join(', ')}
  ON CONFLICT (video_id) DO UPDATE SET title = excluded.title, views = COALESCE(excluded.views, indexed_videos.views), indexed_at = excluded.indexed_at`;

/** Stores what one job learned: the channel and its videos, in one transaction (all of it or none). */
export async function indexChannel(
  engine: EngineContext,
  jobId: number,
  channel: PlatformChannel,
  videos: PlatformVideo[],
  eligibility: Eligibility,
): Promise<void> {
  const now = engine.clock.now();
  // A video listed twice is stored once, as listed last (as one upsert after another would leave it).
  const unique = [...new Map(videos.map((video) => [video.video_id, video])).values()];
  await engine.store.transaction(async (tx) => {
    await tx.run(UPSERT_CHANNEL, [
      channel.channel_id,
      channel.handle,
      channel.title,
      channel.language,
      channel.country,
      channel.category,
      channel.content_type,
      channel.subscribers,
      channel.total_views,
      channel.video_count,
      eligibility.eligible ? 1 : 0,
      JSON.stringify(eligibility.reasons),
      now,
      now,
      jobId,
    ]);
    if (unique.length === 0) return;
    const params: SqlValue[] = unique.flatMap((video) => [
      video.video_id,
      video.channel_id,
      video.kind,
      video.title,
      video.views,
      video.duration_seconds,
      video.published_at,
      now,
    ]);
    await tx.run(upsertVideos(unique.length), params);
  });
}

/** The channel as the last job that processed it left it, from the engine's store. */
export async function indexedChannel(engine: EngineContext, channelId: string): Promise<IndexedChannel | undefined> {
  return engine.store.get<IndexedChannel>(`SELECT ${INDEXED_CHANNELS_COLUMNS} FROM indexed_channels WHERE channel_id = ?`, [channelId]);
}
