/**
 * A channel's recent videos (`GET /api/channels/:id/videos`) and the check verdicts already stored
 * for it (`GET /api/channels/:id/checks`): both read what the service holds — the index, the
 * checks' stored verdicts — and neither runs a check, reads the platform or spends a quota.
 */
import { beforeAll, expect, it } from 'vitest';
import type { Service } from '../../src/core/service.js';
import type { ScannedChannel } from '../../src/engine/index/channels.js';
import { describeEachEngine, failure } from '../support/engines.js';

describeEachEngine(
  'a channel\'s videos and stored checks',
  (get) => {
    let user: Service;
    let channel: ScannedChannel;
    beforeAll(async () => {
      user = get().as('ultimate');
      const index = await get().engine.index();
      for await (const page of index.channels.scan()) {
        channel = page.find((candidate) => candidate.content_type !== 'shorts') ?? page[0]!;
        break;
      }
    });

    const rateEvents = async () => (await get().engine.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM rate_events'))!.n;

    it('lists the newest videos the index knows, newest first, with their titles', async () => {
      const { channels } = await get().engine.index();
      const expected = await channels.recentVideoStats(channel, undefined, 5);
      const body = await user.call('channels.videos', { channel_id: channel.channel_id, limit: 5 });
      const known = await channels.byId(channel.channel_id);
      expect(body).toMatchObject({ success: true, channel_id: channel.channel_id, sort: 'newest', ranked: expected.length, video_count: known!.video_count });
      expect(body.videos).toHaveLength(5);
      expect(body.videos.map((video) => video.video_id)).toEqual(expected.map((video) => video.video_id));
      expect(body.videos[0]).toEqual({
        video_id: expected[0]!.video_id,
        title: await channels.videoTitle(expected[0]!.video_id),
        kind: expected[0]!.kind,
        published_at: new Date(expected[0]!.published_ms).toISOString(),
        views: expected[0]!.views,
      });
      const dates = body.videos.map((video) => video.published_at);
      expect([...dates].sort().reverse()).toEqual(dates);
    });

    it('ranks by views among the newest it lists when asked', async () => {
      const body = await user.call('channels.videos', { channel_id: channel.channel_id, limit: 10, sort: 'views' });
      const newest = await user.call('channels.videos', { channel_id: channel.channel_id, limit: 50 });
      const views = body.videos.map((video) => video.views);
      expect([...views].sort((a, b) => b - a)).toEqual(views);
      expect(body.videos[0]!.views).toBeGreaterThanOrEqual(Math.max(...newest.videos.map((video) => video.views)));
    });

    it('refuses a bad limit, sort or id with 400 and an unknown channel with 404, and needs a plan', async () => {
      for (const input of [{ limit: 0 }, { limit: 51 }, { sort: 'oldest' }]) {
        const error = await failure(user.call('channels.videos', { channel_id: channel.channel_id, ...input }));
        expect(error.status).toBe(400);
        expect(error.message).toMatch(/limit|sort/);
      }
      expect((await failure(user.call('channels.videos', { channel_id: 'nope' }))).status).toBe(400);
      expect((await failure(user.call('channels.videos', { channel_id: 'UC' + 'x'.repeat(22) }))).status).toBe(404);
      expect((await failure(get().as('none').call('channels.videos', { channel_id: channel.channel_id }))).status).toBe(403);
      expect((await failure(get().as('none').call('channels.checks', { channel_id: channel.channel_id }))).status).toBe(403);
    });

    it('answers the stored verdicts only: null before a check, the check\'s verdict after, no quota spent', async () => {
      const before = await user.call('channels.checks', { channel_id: channel.channel_id });
      expect(before).toMatchObject({ success: true, channel_id: channel.channel_id, ads: null, external: null });
      const spent = await rateEvents();
      // Reading again and again runs nothing and counts against nothing.
      for (let i = 0; i < 3; i++) await user.call('channels.checks', { channel_id: channel.channel_id });
      expect(await rateEvents()).toBe(spent);
      expect((await user.call('channels.checks', { channel_id: channel.channel_id })).ads).toBeNull();

      const ads = await user.call('monetization.ads', { channel_id: channel.channel_id });
      const external = await user.call('monetization.external', { channel_id: channel.channel_id });
      const after = await user.call('channels.checks', { channel_id: channel.channel_id });
      expect(after.ads).toMatchObject({ monetized: ads.monetized, reason: ads.reason, checked_at: ads.checked_at });
      expect(after.external).toMatchObject({ result: expect.objectContaining({ summary: external.summary }) });
      expect(after.network).toEqual(before.network);
    });
  },
  { world: { seed: 11, channels: 200, terminated: 0 }, postgres: true },
);
