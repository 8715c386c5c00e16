/**
 * Download faults for client error paths, on both engines: `download-upstream` answers the
 * hosted service's upstream error (502) and counts nothing; `download-partial-quality` delivers a
 * lower height than asked and says so (quality, requested_quality, quality_note), in the file too.
 */
import { afterEach, beforeAll, expect, it } from 'vitest';
import type { Service } from '../../src/core/service.js';
import { clearFault, setFault } from '../../src/engine/faults.js';
import { setWorkSetting } from '../../src/engine/simulated-work.js';
import { describeEachEngine, failure } from '../support/engines.js';
import { fetchToFile, pickVideos, probe, watchUrl, type TestVideos } from '../support/media.js';

describeEachEngine(
  'downloads: faults',
  (get) => {
    let videos: TestVideos;
    beforeAll(async () => {
      await setWorkSetting(get().engine.settings, { preset: 'instant' });
      videos = await pickVideos(get().engine);
    });
    afterEach(() => clearFault(get().engine.settings));

    const hourlyCount = (user: Service) => user.call('download', { video_url: watchUrl(videos.auto), format: 'subtitles' });

    it('answers 502 upstream_error under download-upstream, counts nothing, and works again once cleared', async () => {
      const { key } = (await get().engine.identity.createUserWithKey('starter', ['generations']));
      const user = get().withKey(key);
      await setFault(get().engine.settings, 'download-upstream');
      for (let attempt = 0; attempt < 6; attempt++) {
        const refused = await failure(user.call('download', { video_url: watchUrl(videos.human), format: 'subtitles' }));
        expect(refused).toMatchObject({ status: 502, code: 'upstream_error' });
        expect(refused.message).toMatch(/did not deliver .*Retry/);
      }
      await clearFault(get().engine.settings);
      // Six refusals did not use the starter's hourly cap of 5, nor keep a slot.
      const answer = await user.call('download', { video_url: watchUrl(videos.human), format: 'subtitles' });
      expect(answer).toMatchObject({ success: true, cached: false });
      for (let i = 0; i < 4; i++) await hourlyCount(user);
    });

    it('delivers the next lower height under download-partial-quality, and says so', async () => {
      const user = get().as('ultimate');
      await setFault(get().engine.settings, 'download-partial-quality');
      const asked = { video_url: watchUrl(videos.short), quality: '1080p' as const, start: 0, end: 2 };
      const lower = await user.call('download', asked);
      expect(lower).toMatchObject({ quality: 720, requested_quality: 1080, quality_note: expect.stringMatching(/Delivered 720p, lower than the 1080p requested/) });
      const file = await fetchToFile(user, lower.download_url, 'partial.mp4');
      const stream = (await probe(file)).streams.find((s) => s.codec_type === 'video')!;
      expect(stream.height).toBe(720);
      // The lowest height has none lower: it comes as asked, with nothing added.
      const lowest = await user.call('download', { ...asked, quality: '360p' });
      expect(lowest.quality).toBe(360);
      expect(lowest).not.toHaveProperty('requested_quality');
      await clearFault(get().engine.settings);
      const full = await user.call('download', asked);
      expect(full).toMatchObject({ quality: 1080, cached: false });
      expect(full).not.toHaveProperty('quality_note');
    });
  },
  { world: { seed: 1, channels: 300 }, postgres: true },
);
