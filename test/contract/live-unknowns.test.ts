/**
 * Figures the live site did not give stay unknown, on both engines: a video whose views the site
 * hides is stored with NULL views and counts towards no outlier, a watch page's comment count is
 * read when it shows one and null when not, a hidden subscriber count is null in a folder, and
 * a short's length and date, which the Shorts tab never shows, are null in a channel job's answer.
 */
import { beforeAll, expect, it } from 'vitest';
import type { Service } from '../../src/core/service.js';
import { siteId } from '../support/live-channels.js';
import { describeLive, LIVE_START } from '../support/live-harness.js';

const DAY = 86_400_000;
const HIDER = siteId('liveHider');
const SHORTS = siteId('liveShorty');

describeLive(
  'figures the live site did not give',
  (get) => {
    let user: Service;
    let outliers: number;
    let folderId: number;
    beforeAll(async () => {
      user = get().as('ultimate');
      folderId = (await user.call('folders.create', { name: 'Hidden figures' })).folder.id;
      await user.call('saved.add', { channel_ids: [HIDER], folder_id: folderId });
      outliers = (await user.call('alerts.create', { name: 'Outliers', alert_type: 'outlier', content_type: 'longform', filters: {} })).alert.id;
      await get().engine.refresh();
    });

    it('stores a view count the site hid as NULL, never 0', async () => {
      const rows = await get().engine.store.all<{ video_id: string; views: number | null }>('SELECT video_id, views FROM live_videos WHERE video_id LIKE ? ORDER BY video_id', ['hider%']);
      expect(rows.length).toBe(8);
      expect(rows.filter((row) => row.views === null).map((row) => row.video_id)).toEqual(['hiderHid000', 'hiderHid001', 'hiderHid002', 'hiderHid003']);
    });

    it('fires no outlier on unknown counts: the usual views are the median of the counted ones', async () => {
      // Counted as 0, the four hidden counts would make the usual views 0 and "Up a bit" 5,000× them.
      expect((await user.call('alerts.triggered', { alert_id: outliers })).total).toBe(0);
    });

    it("answers a video's comment count when the watch page shows one, else null", async () => {
      expect(await user.call('video.info', { url: 'https://www.youtube.com/watch?v=hiderUp0001' })).toMatchObject({
        view_count: 5_000,
        comment_count: 2_700,
        published_at_exact: true,
      });
      expect(await user.call('video.info', { url: 'https://www.youtube.com/watch?v=hiderHid000' })).toMatchObject({
        view_count: null,
        comment_count: null,
        like_count: null,
      });
    });

    it('lists a hidden subscriber count as null in the folder', async () => {
      const { channels } = await user.call('folders.channels', { id: folderId });
      expect(channels[0]).toMatchObject({ channel_id: HIDER, subscribers: null, total_views: 480_000, video_count: 8 });
    });

    it("answers a short's length and date, which the Shorts tab does not show, as null", async () => {
      const job = await user.call('channels.process', { channel: '@shorty', type: 'shorts' });
      const done = await user.call('channels.processStatus', { job_id: job.job_id, wait_seconds: 30 });
      expect(done.status).toBe('completed');
      const shorts = (done.result as { shorts: Array<Record<string, unknown>> }).shorts;
      expect(shorts.length).toBeGreaterThan(0);
      for (const short of shorts) expect(short).toMatchObject({ duration_seconds: null, published_at: null });
    });
  },
  {
    postgres: true,
    site: (site, clock) => {
      const now = clock.now();
      const hidden = Array.from({ length: 4 }, (_, n) => ({ id: `hiderHid00${n}`, title: `Hidden ${n}`, views: null, publishedMs: now - (5 + n) * DAY, channels: [HIDER] }));
      const counted = Array.from({ length: 3 }, (_, n) => ({ id: `hiderCnt00${n}`, title: `Counted ${n}`, views: 2_000, publishedMs: now - (10 + n) * DAY, channels: [HIDER] }));
      site.add({
        id: HIDER,
        handle: '@hider',
        title: 'Hider',
        subscribers: 4_000,
        hideSubscribers: true,
        views: 480_000,
        videoCount: 8,
        joined: '2020-01-01',
        uploads: [{ id: 'hiderUp0001', title: 'Up a bit', views: 5_000, comments: 2_700, publishedMs: now - 2 * DAY, channels: [HIDER] }, ...hidden, ...counted],
      });
      site.add({
        id: SHORTS,
        handle: '@shorty',
        title: 'Shorty',
        subscribers: 90_000,
        views: 5_000_000,
        videoCount: 2,
        joined: '2020-01-01',
        tabs: ['shorts'],
        uploads: [
          { id: 'shortyS0001', title: 'Quick one', views: 40_000, publishedMs: LIVE_START - DAY, channels: [SHORTS], kind: 'short' },
          { id: 'shortyS0002', title: 'Quick two', views: 30_000, publishedMs: LIVE_START - 2 * DAY, channels: [SHORTS], kind: 'short' },
        ],
      });
    },
  },
);
