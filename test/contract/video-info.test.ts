/**
 * `GET /api/video?url=` (ours) on both engines: one video's metadata in yt-dlp's names, from the
 * platform's own figures; the link errors download gives; a premiere answered as upcoming.
 */
import { beforeAll, expect, it } from 'vitest';
import type { Service } from '../../src/core/service.js';
import type { PlatformVideo } from '../../src/engine/platform/platform.js';
import type { SampleWorld } from '../../src/engine/platform/sample/index.js';
import { describeEachEngine, failure } from '../support/engines.js';

describeEachEngine(
  'video metadata',
  (get) => {
    let user: Service;
    let world: SampleWorld;
    let long: PlatformVideo;
    let short: PlatformVideo;
    let upcoming: PlatformVideo;
    beforeAll(async () => {
      user = get().as('starter', []);
      world = await get().engine.platform();
      for (const channel of world.sampleChannels(200)) {
        for (const video of world.channelVideos(channel)) {
          if (video.kind === 'long' && !long) long = video;
          if (video.kind === 'short' && !short) short = video;
          if (video.kind === 'upcoming' && !upcoming) upcoming = video;
        }
      }
    });

    it("answers a video's metadata as yt-dlp --dump-json names it", async () => {
      const channel = world.channelById(long.channel_id)!;
      const url = `https://youtu.be/${long.video_id}?si=share`;
      const body = await user.call('video.info', { url });
      expect(body).toMatchObject({
        success: true,
        id: long.video_id,
        title: long.title,
        webpage_url: `https://www.youtube.com/watch?v=${long.video_id}`,
        original_url: url,
        channel: channel.title,
        channel_id: channel.channel_id,
        uploader_id: channel.handle,
        channel_follower_count: channel.subscribers,
        duration: long.duration_seconds,
        view_count: long.views,
        like_count: long.likes,
        comment_count: long.comments,
        upload_date: long.published_at.slice(0, 10).replaceAll('-', ''),
        timestamp: Math.floor(Date.parse(long.published_at) / 1000),
        live_status: 'not_live',
        media_type: 'video',
        thumbnail: long.thumbnail_url,
        thumbnails: [{ id: '0', url: long.thumbnail_url }],
        captions: world.transcript(long.video_id)?.source ?? null,
      });
      const [h, m, s] = [Math.floor(long.duration_seconds / 3600), Math.floor((long.duration_seconds % 3600) / 60), long.duration_seconds % 60];
      const pad = (n: number) => String(n).padStart(2, '0');
      expect(body.duration_string).toBe(h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`);
    });

    it('answers a Short with its Shorts URL, and a premiere as upcoming with no duration yet', async () => {
      const shortBody = await user.call('video.info', { url: `https://www.youtube.com/shorts/${short.video_id}` });
      expect(shortBody).toMatchObject({ media_type: 'short', webpage_url: `https://www.youtube.com/shorts/${short.video_id}` });
      const premiere = await user.call('video.info', { url: `https://www.youtube.com/watch?v=${upcoming.video_id}` });
      expect(premiere).toMatchObject({
        live_status: 'is_upcoming',
        duration: null,
        upload_date: null,
        release_timestamp: Math.floor(Date.parse(upcoming.published_at) / 1000),
      });
    });

    it('refuses links as download does: another platform, a missing video, not a link', async () => {
      expect(await failure(user.call('video.info', { url: 'https://vimeo.com/123456' }))).toMatchObject({ status: 400, code: 'unsupported_url' });
      const missing = await failure(user.call('video.info', { url: 'https://youtu.be/AAAAAAAAAAA' }));
      expect(missing).toMatchObject({ status: 400, code: 'video_unavailable' });
      const garbage = await failure(user.call('video.info', { url: 'not a link' }));
      expect(garbage).toMatchObject({ status: 400, code: 'invalid_request' });
      expect(garbage.message).toMatch(/^Invalid request: url:/);
      expect(await failure(user.call('video.info', {} as never))).toMatchObject({ status: 400 });
    });
  },
  { world: { seed: 1, channels: 300 }, postgres: true },
);
