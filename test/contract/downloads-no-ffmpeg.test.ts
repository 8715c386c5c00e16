/**
 * Without ffmpeg, video and audio downloads answer 503 saying how to install it, and take no
 * slot and no count; subtitles still work; health says the service is degraded. FFMPEG_PATH
 * points at nothing before the first probe.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine, failure } from '../support/engines.js';
import { pickVideos, watchUrl, type TestVideos } from '../support/media.js';

const previous = process.env.FFMPEG_PATH;
process.env.FFMPEG_PATH = '/nonexistent/ffmpeg-for-tests';
afterAll(() => {
  if (previous === undefined) delete process.env.FFMPEG_PATH;
  else process.env.FFMPEG_PATH = previous;
});

describeEachEngine(
  'downloads without ffmpeg',
  (get) => {
    let videos: TestVideos;
    beforeAll(async () => {
      videos = await pickVideos(get().engine);
    });

    it('answers 503 naming how to install ffmpeg for video and audio, and still delivers subtitles', async () => {
      const { key, user_id } = (await get().engine.identity.createUserWithKey('starter', ['generations']));
      const user = get().withKey(key);
      for (const format of ['video', 'audio'] as const) {
        const error = await failure(user.call('download', { video_url: watchUrl(videos.human), format, start: 0, end: 2 }));
        expect(error).toMatchObject({ status: 503, code: 'unavailable' });
        expect(error.message).toMatch(/need ffmpeg, which is not installed.*apt-get install ffmpeg/);
        expect(error.hint).toMatch(/Subtitle downloads/);
      }
      const subtitles = await user.call('download', { video_url: watchUrl(videos.human), format: 'subtitles' });
      expect(subtitles.size_bytes).toBeGreaterThan(0);
      const counted = (await get().engine.store.get<{ n: number }>("SELECT COUNT(*) AS n FROM rate_events WHERE user_id = ? AND bucket = 'download'", [user_id]))!.n;
      expect(counted).toBe(1);
    });

    it('reports the service degraded in health, saying ffmpeg is missing and what it breaks', async () => {
      const body = await get().as('starter').call('health', {});
      expect(body.status).toBe('degraded');
      expect(body.problems).toContainEqual({ check: 'ffmpeg', message: expect.stringMatching(/^ffmpeg is not installed .*downloads answer 503/) });
    });
  },
  { world: { seed: 1, channels: 300 }, postgres: true },
);
