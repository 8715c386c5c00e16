/**
 * Alerts on a live data dir, on both engines: evaluated at the end of each refresh sweep over the
 * channels the index knows, with the same filters and the same triggered and status answers as on
 * the sample world.
 */
import { beforeAll, expect, it } from 'vitest';
import type { Service } from '../../src/core/service.js';
import { siteId } from '../support/live-channels.js';
import { describeLive, LIVE_START } from '../support/live-harness.js';

const DAY = 86_400_000;
const VIRAL = siteId('liveViral');
const FRESH = siteId('liveFresh');
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describeLive(
  'alerts on the live platform',
  (get) => {
    let user: Service;
    let alerts: Record<'outliers' | 'german' | 'newChannels', number>;
    beforeAll(async () => {
      user = get().as('ultimate');
      const folder = (await user.call('folders.create', { name: 'Watch' })).folder;
      await user.call('saved.add', { channel_ids: [VIRAL, FRESH], folder_id: folder.id });
      const create = async (name: string, alert_type: string, filters: Record<string, unknown>) =>
        (await user.call('alerts.create', { name, alert_type, content_type: 'longform', filters })).alert.id;
      alerts = {
        outliers: await create('English outliers', 'outlier', { min_subs: 1_000, languages: ['English'] }),
        german: await create('German outliers', 'outlier', { languages: ['German'] }),
        newChannels: await create('New cooks', 'new_channel', { keywords: ['cook'] }),
      };
      await get().engine.refresh();
    });

    it('triggers an outlier video of a known channel, with the same reason and figures as on the sample world', async () => {
      const body = await user.call('alerts.triggered', { alert_id: alerts.outliers });
      expect(body.total).toBe(1);
      expect(body.channels[0]).toMatchObject({
        channel_id: VIRAL,
        handle: '@viralcook',
        title: 'Viral Cook',
        alert_type: 'outlier',
        reason: '"Big one" has 50,000 views, 25× the channel\'s usual 2,000 (median of its 6 other recent long videos).',
        figures: { video_id: 'viralBig001', video_title: 'Big one', video_kind: 'long', views: 50_000, usual_views: 2_000, multiple: 25, published_at: new Date(LIVE_START - 3 * DAY).toISOString().replace('.000Z', 'Z') },
        new: true,
        alerts: [{ alert_id: alerts.outliers, name: 'English outliers' }],
      });
    });

    it('applies the filters: a language the channel does not speak matches nothing', async () => {
      expect((await user.call('alerts.triggered', { alert_id: alerts.german })).total).toBe(0);
    });

    it('triggers a channel created within the last 7 days', async () => {
      const body = await user.call('alerts.triggered', { alert_id: alerts.newChannels });
      expect(body.channels.map((channel) => [channel.channel_id, channel.alert_type, channel.figures.created_at])).toEqual([[FRESH, 'new_channel', isoDate(LIVE_START - 3 * DAY)]]);
    });

    it('reports each alert on the status; a trigger is not new again at the next sweep', async () => {
      const status = await user.call('alerts.status', {});
      expect(status.alerts.map((alert) => [alert.alert_id, alert.new_channels])).toEqual([[alerts.outliers, 1], [alerts.german, 0], [alerts.newChannels, 1]]);
      get().clock.advance(6 * 3_600_000);
      const report = await get().engine.refresh();
      expect(report.read.map((read) => read.channel_id).sort()).toEqual([FRESH, VIRAL].sort());
      expect(report.alerts.new_channels).toBe(0);
      const again = await user.call('alerts.triggered', { alert_id: alerts.outliers, history: true });
      expect(again.channels.map((channel) => [channel.channel_id, channel.new])).toEqual([[VIRAL, false]]);
    });
  },
  {
    postgres: true,
    site: (site, clock) => {
      const now = clock.now();
      const usual = Array.from({ length: 6 }, (_, n) => ({ id: `viralVid00${n}`, title: `Usual ${n}`, views: 2_000, publishedMs: now - (5 + 2 * n) * DAY, channels: [VIRAL], language: 'en' }));
      site.add({
        id: VIRAL,
        handle: '@viralcook',
        title: 'Viral Cook',
        subscribers: 12_000,
        views: 800_000,
        videoCount: 90,
        joined: '2018-01-01',
        uploads: [{ id: 'viralBig001', title: 'Big one', views: 50_000, publishedMs: now - 3 * DAY, channels: [VIRAL], language: 'en' }, ...usual],
      });
      site.add({ id: FRESH, handle: '@freshcook', title: 'Fresh Cook', subscribers: 150, views: 900, videoCount: 2, joined: isoDate(now - 3 * DAY), uploads: [] });
    },
  },
);
