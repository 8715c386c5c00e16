/**
 * Downloads over time, on the engine's own clock (moved by the test): cached files last about
 * 30 days and are then swept and made again; the hourly cap's window slides.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, it } from 'vitest';
import type { Service } from '../../src/core/service.js';
import { ManualClock } from '../../src/engine/clock.js';
import { describeEachEngine, failure, type EngineHarness } from '../support/engines.js';
import { pickVideos, watchUrl, type TestVideos } from '../support/media.js';

const DAY = 24 * 3600 * 1000;

/** Where a download's file lies on disk, whichever engine handed out the URL. */
function fileOf(harness: EngineHarness, url: string): string {
  if (url.startsWith('file:')) return fileURLToPath(url);
  return `${harness.engine.dataDir}/cdn/${decodeURIComponent(new URL(url).pathname.replace(/^\/cdn\//, ''))}`;
}

describeEachEngine(
  'downloads: cache and clock',
  (get) => {
    let videos: TestVideos;
    let user: Service;
    let clock: ManualClock;
    beforeAll(async () => {
      videos = await pickVideos(get().engine);
      user = get().as('ultimate');
      clock = get().engine.clock as ManualClock;
    });

    it('keeps a file about 30 days with a stable URL, then sweeps it and renders it again', async () => {
      const harness = get();
      const kept = { video_url: watchUrl(videos.human), format: 'subtitles' as const };
      const swept = { video_url: watchUrl(videos.auto), format: 'subtitles' as const };
      const first = await user.call('download', kept);
      const other = await user.call('download', swept);
      expect([first.cached, other.cached]).toEqual([false, false]);

      clock.advance(29 * DAY);
      const again = await user.call('download', kept);
      expect(again).toEqual({ ...first, cached: true });

      clock.advance(2 * DAY);
      // Any request sweeps what has expired: the untouched entry's file is gone…
      const fresh = await user.call('download', { video_url: watchUrl(videos.short), format: 'subtitles' });
      expect(fresh.cached).toBe(false);
      expect(fs.existsSync(fileOf(harness, other.download_url))).toBe(false);
      if (harness.kind === 'remote') expect((await fetch(other.download_url)).status).toBe(404);
      // …and an expired entry asked for again is rendered again, at the same URL.
      const renewed = await user.call('download', kept);
      expect(renewed).toEqual({ ...first, cached: false });
      expect(fs.existsSync(fileOf(harness, renewed.download_url))).toBe(true);
    });

    it('slides the hourly window: a Starter user may download again as the oldest downloads leave the hour', async () => {
      const starter = get().as('starter');
      const input = { video_url: watchUrl(videos.human), format: 'subtitles' as const };
      await starter.call('download', input);
      clock.advance(30 * 60 * 1000);
      for (let index = 0; index < 4; index += 1) await starter.call('download', input);
      const full = await failure(starter.call('download', input));
      expect(full.status).toBe(429);
      // The first download leaves the hour 30 minutes from now.
      expect(full.retryAfterSeconds).toBe(30 * 60);
      clock.advance(30 * 60 * 1000 + 1000);
      expect((await starter.call('download', input)).cached).toBe(true);
      expect((await failure(starter.call('download', input))).retryAfterSeconds).toBe(29 * 60 + 59);
    });
  },
  { world: { seed: 1, channels: 300 }, clock: new ManualClock(), postgres: true },
);
