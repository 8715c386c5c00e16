/**
 * The engine's index of channels: what processing learned from the platform. A processed channel
 * is known to the service from then on; later features (collabs, research) read these tables.
 */
import type { EngineContext } from '../../context.js';
import type { PlatformChannel, PlatformVideo } from '../../platform/platform.js';
import type { Eligibility } from './eligibility.js';

export interface IndexedChannel {
  channel_id: string;
  title: string;
  eligible: number;
  ineligible_reasons: string;
  first_processed_at: number;
  last_processed_at: number;
  last_job_id: number | null;
}

export function indexChannel(
  engine: EngineContext,
  jobId: number,
  channel: PlatformChannel,
  videos: PlatformVideo[],
  eligibility: Eligibility,
): void {
  const now = engine.clock.now();
  const store = engine.db.transaction(() => {
    engine.db
      .prepare(
        `INSERT INTO indexed_channels (channel_id, handle, title, language, country, category, content_type, subscribers,
           total_views, video_count, eligible, ineligible_reasons, first_processed_at, last_processed_at, last_job_id)
         VALUES (@channel_id, @handle, @title, @language, @country, @category, @content_type, @subscribers,
           @total_views, @video_count, @eligible, @reasons, @now, @now, @job_id)
         ON CONFLICT (channel_id) DO UPDATE SET handle = excluded.handle, title = excluded.title,
           language = excluded.language, country = excluded.country, category = excluded.category,
           content_type = excluded.content_type, subscribers = excluded.subscribers, total_views = excluded.total_views,
           video_count = excluded.video_count, eligible = excluded.eligible, ineligible_reasons = excluded.ineligible_reasons,
           last_processed_at = excluded.last_processed_at, last_job_id = excluded.last_job_id`,
      )
      .run({
        channel_id: channel.channel_id,
        handle: channel.handle,
        title: channel.title,
        language: channel.language,
        country: channel.country,
        category: channel.category,
        content_type: channel.content_type,
        subscribers: channel.subscribers,
        total_views: channel.total_views,
        video_count: channel.video_count,
        eligible: eligibility.eligible ? 1 : 0,
        reasons: JSON.stringify(eligibility.reasons),
        now,
        job_id: jobId,
      });
    const upsertVideo = engine.db.prepare(
      `INSERT INTO indexed_videos (video_id, channel_id, kind, title, views, duration_seconds, published_at, indexed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (video_id) DO UPDATE SET title = excluded.title, views = excluded.views, indexed_at = excluded.indexed_at`,
    );
    for (const video of videos) {
      upsertVideo.run(video.video_id, video.channel_id, video.kind, video.title, video.views, video.duration_seconds, video.published_at, now);
    }
  });
  store.immediate();
}

export function indexedChannel(engine: EngineContext, channelId: string): IndexedChannel | undefined {
  return engine.db
    .prepare<[string], IndexedChannel>('SELECT * FROM indexed_channels WHERE channel_id = ?')
    .get(channelId);
}
