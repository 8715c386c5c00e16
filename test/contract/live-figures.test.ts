/**
 * Figures over time on a live data dir, through the API on both engines: the refresh sweep reads the
 * watched channels again every 6 hours (the test moves the engine clock), each read stores a
 * snapshot, and a 24h/48h/7d figure is null until the snapshots cover its window — then exactly
 * the site's change. Collabs are found by the sweep, alerts evaluated over the index.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../src/core/service.js';
import type { SiteChannel } from '../support/live-site.js';
import { cookingSite, GONE, JANE, LEE, SAM, siteId } from '../support/live-channels.js';
import { describeLive, LIVE_START } from '../support/live-harness.js';
import { setJobWork } from '../support/channel-fixtures.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describeLive(
  'figures over time and the refresh sweep',
  (get) => {
    let user: Service;
    let folderId: number;
    let jane: SiteChannel;
    /** Jane gains 100 views and 2 subscribers an hour. */
    const grow = () => {
      const hours = (get().clock.now() - LIVE_START) / HOUR;
      jane.views = 1_000_000 + hours * 100;
      jane.subscribers = 25_000 + hours * 2;
    };
    /** Moves the clock 6 hours at a time, the site's figures with it, and sweeps after each step. */
    const sweepFor = async (hours: number) => {
      for (let step = 0; step < hours / 6; step++) {
        get().clock.advance(6 * HOUR);
        grow();
        const report = await get().engine.refresh();
        expect(report.read.every((read) => read.state !== 'failed')).toBe(true);
      }
    };
    const deltas = async () => (await user.call('folders.channels', { id: folderId })).channels.find((entry) => entry.channel_id === JANE)!;

    beforeAll(async () => {
      jane = get().site!.channels.get(JANE)!;
      grow();
      user = get().as('ultimate');
      await setJobWork(get().engine, 0);
      folderId = (await user.call('folders.create', { name: 'Watched' })).folder.id;
      await user.call('saved.add', { channel_ids: [JANE, GONE], folder_id: folderId });
    });

    it('starts the history at the save: no delta, watched since then', async () => {
      expect(await deltas()).toMatchObject({
        subscribers: 25_000,
        total_views: 1_000_000,
        views_24h: null,
        views_48h: null,
        subs_24h: null,
        subs_48h: null,
        watched_since: new Date(LIVE_START).toISOString(),
        figures_as_of: new Date(LIVE_START).toISOString(),
      });
    });

    it('has no 24h delta after 12 hours, the exact one after 24, the 48h one after 48', async () => {
      await sweepFor(12);
      expect(await deltas()).toMatchObject({ views_24h: null, subs_24h: null, total_views: 1_001_200 });
      await sweepFor(12);
      expect(await deltas()).toMatchObject({ views_24h: 2_400, subs_24h: 48, views_48h: null, subs_48h: null });
      await sweepFor(24);
      expect(await deltas()).toMatchObject({ views_24h: 2_400, views_48h: 4_800, subs_48h: 96, figures_as_of: new Date(LIVE_START + 2 * DAY).toISOString() });
    });

    it('finds collabs: scanned channels and their partners; checked for scanned or listed channels only', async () => {
      const sam = await user.call('collabs.channel', { channel_id: SAM });
      expect(sam).toMatchObject({ checked: true, scanned: true, title: 'Sam Bakes Live' });
      expect(sam.partners.map((partner) => partner.channel_id).sort()).toEqual([JANE, LEE].sort());
      expect(sam.videos.find((video) => video.video_id === 'janeVid0002')).toMatchObject({ host: { channel_id: JANE }, collaborators: [{ channel_id: SAM, title: 'Sam Bakes Live' }] });
      // Lee is listed by a scanned channel (Sam), but only roots and their partners are scanned.
      expect(await user.call('collabs.channel', { channel_id: LEE })).toMatchObject({ checked: true, scanned: false, title: 'Lee Ferments' });
      // A channel neither scanned nor listed: the service knows nothing of its collabs.
      expect(await user.call('collabs.channel', { channel_id: siteId('liveNobody') })).toMatchObject({ checked: false, scanned: false, videos: [], growth: null });
      const feed = await user.call('collabs.feed', { days: 30 });
      expect(feed.videos.map((video) => video.video_id).sort()).toEqual(['janeVid0002', 'samVid00001']);
    });

    it('gives 7-day gains once a week is watched, and ranks collab channels by them', async () => {
      const process = async () => {
        const job = await user.call('channels.process', { channel: JANE, type: 'longform' });
        const done = await user.call('channels.processStatus', { job_id: job.job_id, wait_seconds: 30 });
        expect(done).toMatchObject({ status: 'completed' });
        return (done.result as { statistics: Record<string, unknown> }).statistics;
      };
      expect(await process()).toMatchObject({ subscribers_gained_7d: null, views_gained_7d: null, views_gained_30d: null });
      const top = await user.call('collabs.top', { metric: 'views' });
      expect(top.channels.find((row) => row.channel_id === JANE)).toBeUndefined();
      await sweepFor(5 * 24);
      expect(await process()).toMatchObject({ subscribers_gained_7d: 336, views_gained_7d: 16_800, views_gained_30d: null, watched_since: new Date(LIVE_START).toISOString() });
      const ranked = await user.call('collabs.top', { metric: 'views', period: 7 });
      expect(ranked.channels[0]).toMatchObject({ channel_id: JANE, growth: 16_800, partners: 1 });
      const view = await user.call('collabs.channel', { channel_id: JANE });
      expect(view.growth).toMatchObject({ views_7d: 16_800, views_30d: null, subs_30d: null });
      expect(view.watched_since).toBe(new Date(LIVE_START).toISOString());
    });
  },
  { postgres: true, site: (site, clock) => cookingSite(site, clock.now()) },
);

describe('the made-up site', () => {
  it('names its channels with well-formed ids', () => {
    for (const id of [JANE, SAM, LEE, GONE, siteId('x')]) expect(id).toMatch(/^UC[\w-]{22}$/);
  });
});
